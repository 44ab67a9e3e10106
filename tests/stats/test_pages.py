"""The bot page and the person page: competitor sections with and without data, nothing private."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from botapi.models import Bot
from people import services as people
from ratings.models import RatingChange
from stats.selectors import competitor as stats
from tests.factories import BotFactory, CompetitorFactory, UserFactory, finished_game

pytestmark = pytest.mark.django_db


def chart_blob(page: str) -> list[dict]:
    blob = r'<script id="rating-history-data" type="application/json">(.*?)</script>'
    found = re.search(blob, page, flags=re.S)
    assert found, "no chart data in the page"
    return json.loads(found.group(1))


def test_bot_page_shows_the_sections_and_public_fields(client: Client, world) -> None:
    response = client.get("/bots/ann/alpha/")
    assert response.status_code == 200
    page = response.content.decode()
    for text in ("Greedy, with a look-ahead of two plies.", "Manila", "active",
                 "Rating history", "Results by seat", "Head to head", "Games",
                 f'href="/competitors/{world.bravo.pk}/"'):  # fmt: skip
        assert text in page, text
    charts = chart_blob(page)
    assert charts == [ladder.as_chart() for ladder in stats.rating_history(world.alpha)]
    elo = next(s for s in charts[0]["systems"] if s["system"] == "elo")
    rows = RatingChange.objects.filter(
        competitor=world.alpha, system="elo", game__in=world.counted
    ).order_by("game__finished_at")
    assert elo["value"] == [round(row.after_value, 2) for row in rows]
    assert charts[0]["game"] == [row.game_id for row in rows]
    assert "uPlot.iife.min.js" in page and "stats/charts.js" in page


def test_bot_page_shows_nothing_private(client: Client, world) -> None:
    page = client.get("/bots/ann/alpha/").content.decode()
    bot = Bot.objects.get(competitor=world.alpha)
    private = (bot.endpoint_url, "secret-endpoint", bot.signing_secret, "hmp_hint",
               "suspended after", "connection refused", "127.0.0.1", "max_concurrent")  # fmt: skip
    for secret in private:
        assert secret not in page, secret


def test_hidden_games_are_not_counted_on_the_page(client: Client, world) -> None:
    page = client.get("/bots/ann/alpha/").content.decode()
    shown = {game for ladder in chart_blob(page) for game in ladder["game"]}
    assert world.set_open.pk not in shown
    assert f"/games/{world.unlisted.pk}/" not in page  # unlisted: not even in the list
    # the open set's game is listed (like the home page does) but without its result
    assert f"/games/{world.set_open.pk}/" in page
    assert ">99<" not in page


def test_pages_without_games(client: Client) -> None:
    bot = BotFactory(name="newcomer", owner=UserFactory(username="neo", password=None))
    page = client.get("/bots/neo/newcomer/").content.decode()
    assert "No rated game shown yet." in page and "No game yet." in page
    assert "No opponent met" in page and 'id="rating-history-data"' not in page
    people.ensure_person(UserFactory(username="quiet", password=None))
    page = client.get("/people/quiet/").content.decode()
    assert "No rated game shown yet." in page and "No game yet." in page
    assert bot.competitor.name not in page


def test_unknown_bot_and_inactive_owner_are_404(client: Client) -> None:
    assert client.get("/bots/nobody/nothing/").status_code == 404
    bot = BotFactory(name="gone", owner=UserFactory(username="left", password=None))
    bot.owner.is_active = False
    bot.owner.save()
    assert client.get("/bots/left/gone/").status_code == 404


def test_person_page_has_the_same_sections(client: Client) -> None:
    marta = people.ensure_person(UserFactory(username="marta", password=None)).competitor
    rival = CompetitorFactory(name="rival")
    finished_game([marta, rival], [1, 2], scores=[7, 3], engine="batavia", rated=False)
    page = client.get("/people/marta/").content.decode()
    assert "Results by seat" in page and "Head to head" in page
    assert f'href="/competitors/{rival.pk}/"' in page
    assert "4.0" in page  # score difference 7 - 3


def test_competitor_links_lead_to_the_page(client: Client, world) -> None:
    response = client.get(f"/competitors/{world.alpha.pk}/")
    assert response.status_code == 302 and response["Location"] == "/bots/ann/alpha/"
    marta = people.ensure_person(UserFactory(username="marta", password=None)).competitor
    assert client.get(f"/competitors/{marta.pk}/")["Location"] == "/people/marta/"
    assert client.get(f"/competitors/{world.bravo.pk}/").status_code == 404  # no bot row
    assert client.get("/competitors/999999/").status_code == 404


def test_leaderboard_and_game_page_link_to_competitors(client: Client, world) -> None:
    board = client.get("/leaderboards/manila/").content.decode()
    assert f'href="/competitors/{world.alpha.pk}/"' in board
    game = client.get(f"/games/{world.counted[0].pk}/").content.decode()
    assert f'href="/competitors/{world.alpha.pk}/"' in game
    assert f'href="/competitors/{world.charlie.pk}/"' in game


def test_filters_on_the_page(client: Client, world) -> None:
    g1, _, _, g4, g8 = world.counted
    page = client.get("/bots/ann/alpha/?engine=batavia").content.decode()
    listed = re.findall(r'<a href="/games/(\d+)/">#', page)
    assert listed == [str(g8.pk)]
    page = client.get(f"/bots/ann/alpha/?opponent={world.delta.pk}&rated=true").content.decode()
    assert re.findall(r'<a href="/games/(\d+)/">#', page) == [str(world.running.pk), str(g4.pk)]
    page = client.get(f"/bots/ann/alpha/?tournament={world.tournament.pk}").content.decode()
    assert re.findall(r'<a href="/games/(\d+)/">#', page) == [str(g1.pk)]
    assert "format=csv" in page and f"tournament={world.tournament.pk}" in page
    page = client.get("/bots/ann/alpha/?engine=chess&rated=maybe&opponent=x").content.decode()
    assert "Ignored: no game called &#39;chess&#39;" in page  # escaped by Jinja2 (markupsafe)
    assert len(re.findall(r'<a href="/games/(\d+)/">#', page)) == 8


def test_me_links_to_the_public_page(client: Client) -> None:
    user = UserFactory(username="marta", password=None)
    client.force_login(user)
    assert 'href="/people/marta/"' in client.get("/me/").content.decode()
