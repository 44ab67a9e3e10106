"""Versions of a bot: registered among the owner's own bots, shown as a chain on the owner
page with each version's ratings, and compared head to head."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from botapi.models import Bot
from botapi.selectors import versions
from games.models import Game, Seat
from ratings.models import Rating
from ratings.services.scopes import global_scope
from tests.factories import BotFactory, CompetitorFactory, UserFactory, finished_game

pytestmark = pytest.mark.django_db

BOTS = "/api/v1/bots/"


def register(api, **fields):
    body = {"name": "v2", "engines": ["manila"], "mode": "pull", **fields}
    return api.post(BOTS, body, format="json")


def test_a_new_version_names_the_bot_it_replaces(api, user) -> None:
    old = BotFactory(owner=user, engines=["manila", "batavia"])
    answer = register(api, previous_version=old.pk)
    assert answer.status_code == 201, answer.json()
    assert answer.json()["previous_version"] == old.pk
    new = Bot.objects.get(pk=answer.json()["id"])
    assert new.previous_version == old and old.next_version == new
    assert api.get(f"{BOTS}{old.pk}/").json()["previous_version"] is None


@pytest.mark.parametrize("whose", ["stranger", "missing"])
def test_only_your_own_bots_can_have_versions_and_others_look_missing(api, whose) -> None:
    theirs = BotFactory()
    target = theirs.pk if whose == "stranger" else theirs.pk + 1000
    answer = register(api, previous_version=target)
    assert answer.status_code == 400
    assert answer.json() == {"previous_version": [f"you have no bot with id {target}"]}
    assert not Bot.objects.filter(name="v2").exists()


def test_a_version_must_share_an_engine_and_the_chain_does_not_fork(api, user) -> None:
    old = BotFactory(owner=user, engines=["batavia"])
    answer = register(api, previous_version=old.pk)
    assert answer.status_code == 400
    assert "at least one engine" in answer.json()["previous_version"][0]
    old.engines = ["manila"]
    old.save()
    assert register(api, previous_version=old.pk).status_code == 201
    answer = register(api, name="v2b", previous_version=old.pk)
    assert answer.status_code == 400
    assert "already has a newer version, 'v2'" in answer.json()["previous_version"][0]


def test_previous_version_is_fixed_after_registration(api, user) -> None:
    old, bot = BotFactory(owner=user), BotFactory(owner=user)
    answer = api.patch(f"{BOTS}{bot.pk}/", {"previous_version": old.pk}, format="json")
    assert answer.status_code == 400
    assert "set at registration" in answer.json()["previous_version"][0]
    bot.refresh_from_db()
    assert bot.previous_version is None


def test_the_alert_webhook_is_set_through_the_api_and_guarded(api, user, settings) -> None:
    settings.BOT_ENDPOINT_ALLOW = ["loopback"]
    bot = BotFactory(owner=user)
    answer = api.patch(
        f"{BOTS}{bot.pk}/", {"alert_webhook_url": "http://192.168.1.9/x"}, format="json"
    )
    assert answer.status_code == 400 and "alert_webhook_url" in answer.json()
    answer = api.patch(
        f"{BOTS}{bot.pk}/", {"alert_webhook_url": "http://127.0.0.1:8555/alerts"}, format="json"
    )
    assert answer.status_code == 200
    assert answer.json()["alert_webhook_url"] == "http://127.0.0.1:8555/alerts"


@pytest.fixture
def chain():
    owner = UserFactory(username="lin", password=None)
    v1 = BotFactory(owner=owner, name="alpha")
    v2 = BotFactory(owner=owner, name="alpha-2", previous_version=v1)
    v3 = BotFactory(owner=owner, name="alpha-3", previous_version=v2)
    BotFactory(owner=owner, name="unrelated")
    return [v1, v2, v3]


def test_the_chain_is_found_from_any_version(chain) -> None:
    for bot in chain:
        assert [b.pk for b in versions.version_chain(bot)] == [b.pk for b in chain]
    loner = BotFactory()
    assert versions.version_chain(loner) == [loner]


def test_head_to_head_counts_games_where_versions_met_and_their_average_ranks(chain) -> None:
    v1, v2, v3 = chain
    other = CompetitorFactory()
    finished_game([v1.competitor, v2.competitor], [1, 2])
    finished_game([v1.competitor, other, v2.competitor], [3, 2, 1])
    finished_game([v1.competitor, v3.competitor, v2.competitor], [2, 1, 3])
    finished_game([v1.competitor, other], [1, 2])  # one version only: not a meeting
    running = finished_game([v1.competitor, v2.competitor], [1, 2])
    Game.objects.filter(pk=running.pk).update(status=Game.Status.RUNNING)  # not finished
    # v2 holds two seats of one game against v1: its seats' ranks are averaged.
    double = finished_game([v1.competitor, v2.competitor, v2.competitor], [2, 1, 3])
    assert Seat.objects.filter(game=double).count() == 3

    pairs = {(p.older.name, p.newer.name): p for p in versions.head_to_head(chain)}
    assert set(pairs) == {("alpha", "alpha-2"), ("alpha", "alpha-3"), ("alpha-2", "alpha-3")}
    one_two = pairs["alpha", "alpha-2"]
    assert one_two.games == 4
    assert one_two.older_average_rank == pytest.approx((1 + 3 + 2 + 2) / 4)
    assert one_two.newer_average_rank == pytest.approx((2 + 1 + 3 + 2) / 4)
    assert (pairs["alpha", "alpha-3"].games, pairs["alpha", "alpha-3"].newer_average_rank) == (1, 1)
    assert pairs["alpha-2", "alpha-3"].older_average_rank == 3


def test_the_owner_page_shows_the_chain_ratings_and_head_to_head(chain) -> None:
    v1, v2, _ = chain
    scope = global_scope("manila")
    Rating.objects.create(
        competitor=v1.competitor, scope=scope, system="elo", value=1432.4, score=1432.4, games=7
    )
    Rating.objects.create(
        competitor=v1.competitor,
        scope=scope,
        system="trueskill",
        value=25.0,
        sigma=2.0,
        score=19.0,
        games=7,
    )
    finished_game([v1.competitor, v2.competitor], [2, 1])
    client = Client()
    client.force_login(v2.owner)
    page = client.get(reverse("botlog:log", args=[v2.pk])).content.decode()
    section = page[page.index('id="versions"') : page.index('id="alerts"')]
    assert (
        section.index("alpha</a>")
        < section.index("<strong>alpha-2</strong>")
        < section.index("alpha-3</a>")
    )
    assert f'href="/bots/{v1.pk}/log/#versions"' in section
    assert "Elo 1432, TrueSkill 19.0" in section and "(7 games)" in section
    assert "unrelated" not in section
    assert 'v1 <span class="muted">vs</span> v2' in section
    assert '2.00 <span class="muted">vs</span> 1.00' in section


def test_a_bot_without_versions_says_how_to_make_one(chain) -> None:
    loner = BotFactory(owner=chain[0].owner, name="solo")
    client = Client()
    client.force_login(loner.owner)
    page = client.get(reverse("botlog:log", args=[loner.pk])).content.decode()
    assert f'"previous_version": {loner.pk}' in page.replace("&quot;", '"')
