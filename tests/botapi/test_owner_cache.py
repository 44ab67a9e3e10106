"""The owner page's warm path (``web.cache.owner_page``): with the page cache on, every write
the page shows -- a move, a fault, a status change, an alert, a rename -- is on the next
request, the ownership check still answers everyone else with the 404 of a missing bot, and
nothing kept in the cache lets anyone act as the bot."""

from __future__ import annotations

import pickle
import re

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from botapi import alerts, services
from botapi.models import Bot, BotAlert
from games.models import Game, Move
from games.referee.claims import claim_plies
from games.referee.decisions import Decision
from tests.botapi.owner_fixtures import duelist, game_with_moves, signed_in
from tests.factories import UserFactory
from web.bots.views import OwnerPage
from web.cache import bumps as pagecache_bumps
from web.cache import owner_page as owner_cache

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("page_cache")]


@pytest.fixture
def bot():
    return duelist()


def page_of(client: Client, bot: Bot) -> tuple[int, str]:
    """The page's queries and text; it must be a 200."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse("botlog:log", args=[bot.pk]))
    assert response.status_code == 200
    return len(captured), response.content.decode()


def warm(client: Client, bot: Bot, queries: int = 0) -> str:
    """The page served from the cache: twice, and the second time ``queries`` queries (the
    marker of the bot's games in play, only while it has any)."""
    page_of(client, bot)
    made, page = page_of(client, bot)
    assert made == queries
    return page


def test_a_warm_page_of_an_idle_bot_reads_nothing_and_shows_the_same(bot) -> None:
    BotAlert.objects.create(bot=bot, key="suspension:1", kind=BotAlert.Kind.SUSPENSION)
    game_with_moves(bot, [{"latency_ms": 12}])
    client = signed_in(bot.owner)
    cold_queries, cold = page_of(client, bot)
    assert cold_queries > 1
    assert "12 ms" in cold and "suspended <span" in cold
    assert without_csrf_tokens(warm(client, bot)) == without_csrf_tokens(cold)


def without_csrf_tokens(page: str) -> str:
    """The page without its CSRF tokens (masked afresh for every response)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)


def test_a_move_and_its_fault_claimed_by_the_referee_are_on_the_next_request(bot) -> None:
    game = game_with_moves(bot, [{"latency_ms": 5}], status=Game.Status.RUNNING, other_moves=0)
    client = signed_in(bot.owner)
    assert "CLAIMED-REPLY" not in warm(client, bot, queries=1), "in play: the marker is read"
    faulty = Decision(
        action={"type": "pass"},
        source=Move.Source.DEFAULT,
        latency_ms=5001,
        fault_kind="timeout",
        fault_detail="no complete reply within 5000 ms",
        reply_excerpt="CLAIMED-REPLY",
    )
    assert claim_plies(game, game.next_ply, [(0, faulty)]) is not None
    _, page = page_of(client, bot)
    assert "CLAIMED-REPLY" in page and "no complete reply within 5000 ms" in page


def test_a_game_created_for_an_idle_bot_is_followed_from_the_next_request(
    bot, django_capture_on_commit_callbacks
) -> None:
    """Idle, the page reads no marker; creating a game seating the bot bumps its page's token
    (``pagecache_bumps.game_created``, as ``create_game`` does), so the marker is read again
    and each move of the new game is on the next request."""
    game_with_moves(bot, [{"latency_ms": 5}])
    client = signed_in(bot.owner)
    warm(client, bot)
    game = game_with_moves(bot, [], status=Game.Status.RUNNING, other_moves=0)  # no bump yet:
    assert page_of(client, bot)[0] == 0, "its rows' saves bump after a commit that never comes"
    with django_capture_on_commit_callbacks(execute=True):
        pagecache_bumps.game_created(game, [bot.competitor_id])
    page_of(client, bot)  # rendered afresh: the bump retired the stored sections
    assert page_of(client, bot)[0] == 1, "in play: the marker is read on every request"
    played = Decision(action={"type": "pass"}, source=Move.Source.BOT, latency_ms=8,
                      reply_excerpt="FIRST-MOVE-OF-THE-NEW-GAME")  # fmt: skip
    assert claim_plies(game, game.next_ply, [(0, played)]) is not None
    _, page = page_of(client, bot)
    assert "FIRST-MOVE-OF-THE-NEW-GAME" in page


def test_an_alert_and_what_became_of_it_are_on_the_next_request(bot, mailoutbox) -> None:
    game = game_with_moves(
        bot, [{"latency_ms": 5001, "fault_kind": "timeout", "fault_detail": "late"}]
    )
    client = signed_in(bot.owner)
    assert "No alert sent yet." in warm(client, bot)
    alert = alerts.send_fault_alert(game.pk, 0)  # inserts the alert, then saves "mailed"
    assert alert is not None and alert.mailed
    page = warm(client, bot)
    assert f"game #{game.pk}</a>, ply 0" in page and "· mailed" in page
    assert "No alert sent yet." not in page


def test_a_status_change_is_on_the_next_request(bot) -> None:
    bot.mode, bot.endpoint_url = Bot.Mode.PULL, ""  # reactivated without a ping
    bot.save()
    client = signed_in(bot.owner)
    assert "Reactivate</button>" not in warm(client, bot)
    services.suspend_bot(bot, "PAUSED-BY-ITS-OWNER")
    page = warm(client, bot)
    assert "PAUSED-BY-ITS-OWNER" in page and "Reactivate</button>" in page
    assert 'bot-status-suspended">suspended' in page
    services.reactivate_bot(bot)
    page = warm(client, bot)
    assert "PAUSED-BY-ITS-OWNER" not in page and "Reactivate</button>" not in page
    for _ in range(5):  # the referee's hook after each faulty game: suspended at the fifth
        services.record_game_health(bot, faulty=True)
    page = warm(client, bot)
    assert "suspended automatically after 5 faulty games" in page
    assert "Reactivate</button>" in page


def test_a_rename_and_a_new_webhook_are_on_the_next_request(bot) -> None:
    client = signed_in(bot.owner)
    assert "ada/duelist" in warm(client, bot)
    services.update_bot(bot, {"name": "sharpshooter", "alert_webhook_url": "https://x.test/h"})
    page = warm(client, bot)
    assert "ada/sharpshooter" in page and "ada/duelist" not in page
    assert 'value="https://x.test/h"' in page


def test_anyone_else_gets_the_404_of_a_missing_bot_with_the_page_cached(bot) -> None:
    game_with_moves(bot, [{"latency_ms": 5, "reply_excerpt": "OWNERS-EYES-ONLY"}])
    warm(signed_in(bot.owner), bot)
    missing = Bot.objects.order_by("-pk").first().pk + 100
    for user in (UserFactory(password=None), UserFactory(password=None, admin=True)):
        client = signed_in(user)
        theirs = client.get(reverse("botlog:log", args=[bot.pk]))
        nobodys = client.get(reverse("botlog:log", args=[missing]))
        assert theirs.status_code == nobodys.status_code == 404
        assert theirs.content == nobodys.content
        assert b"OWNERS-EYES-ONLY" not in theirs.content


def test_a_bot_given_to_another_owner_is_theirs_on_the_next_request(bot) -> None:
    old = signed_in(bot.owner)
    warm(old, bot)
    bea = UserFactory(username="bea", password=None)
    bot.owner = bea
    bot.save()
    assert old.get(reverse("botlog:log", args=[bot.pk])).status_code == 404
    assert page_of(signed_in(bea), bot)[0] > 0


def test_the_forms_post_to_the_pages_own_actions(bot) -> None:
    Bot.objects.filter(pk=bot.pk).update(status=Bot.Status.SUSPENDED)  # before any read
    page = warm(signed_in(bot.owner), bot)
    for name in ("reactivate", "webhook"):
        assert f'action="{reverse(f"botlog:{name}", args=[bot.pk])}"' in page


def test_the_cache_holds_no_secret_of_the_bot(bot) -> None:
    services.update_bot(bot, {"mode": Bot.Mode.PULL, "endpoint_url": ""})
    services.rotate_pull_token(bot)
    bot.refresh_from_db()
    warm(signed_in(bot.owner), bot)
    stored = [value for value in _cached_values() if isinstance(value, tuple)]
    pages = [value[1] for value in stored if isinstance(value[1], OwnerPage)]
    assert len(pages) == 1
    kept = pickle.dumps(pages[0])
    for secret in (bot.signing_secret, bot.pull_token_hash, bot.pull_token_hint):
        assert secret and secret.encode() not in kept


def _cached_values() -> list[object]:
    """Every value in the test's in-memory cache (``page_cache`` makes a LocMemCache)."""
    return [pickle.loads(raw) for raw in caches["default"]._cache.values()]


def test_with_the_page_cache_off_every_request_reads_the_rows(bot, settings) -> None:
    settings.PAGECACHE_SECONDS = 0
    client = signed_in(bot.owner)
    page_of(client, bot)
    assert page_of(client, bot)[0] >= 3  # the bot, its alerts, the marker (and the sections)
    assert owner_cache.read(bot.pk, lambda: None) is None


def test_a_warm_page_is_served_whole_with_a_csrf_token_that_works(bot) -> None:
    """Warm, the page is the one kept for these inputs (``pagecache.made_of``): no template
    rendered, the header spliced in and a freshly masked CSRF token that a form can post."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(bot.owner)
    url = reverse("botlog:log", args=[bot.pk])
    first = client.get(url)
    client.get(url)  # served from the kept page, the header rendered once and kept
    hit = client.get(url)
    assert (first["X-Page-Cache"], hit["X-Page-Cache"]) == ("miss", "hit")
    assert hit.templates == [], "nothing rendered"
    assert without_csrf_tokens(hit.content.decode()) == without_csrf_tokens(first.content.decode())
    assert "ada</a>" in hit.content.decode(), "the owner's own header"
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', hit.content.decode())[1]
    webhook = reverse("botlog:webhook", args=[bot.pk])
    posted = client.post(webhook, {"alert_webhook_url": "", "csrfmiddlewaretoken": token})
    assert posted.status_code == 302, "the token of a served page passes Django's check"
    shown = client.get(url)
    assert "Webhook removed." in shown.content.decode() and shown.get("X-Page-Cache") != "hit"
    again = client.get(url)
    assert "Webhook removed." not in again.content.decode(), "a message is shown once"
    assert again["X-Page-Cache"] == "hit"


def test_the_kept_page_holds_no_csrf_token(bot) -> None:
    client = signed_in(bot.owner)
    warm(client, bot)
    kept = [
        value for value in _cached_values()
        if isinstance(value, tuple) and len(value) == 4 and isinstance(value[2], bytes)
    ]  # fmt: skip
    assert kept, "the page is kept"
    for _, _, before, after in kept:
        for value in re.findall(rb'name="csrfmiddlewaretoken" value="([^"]*)"', before + after):
            assert value == b"\x00csrf-token\x00"


def test_a_warm_page_is_four_cache_round_trips(bot, monkeypatch) -> None:
    """The session; the owner, "may a game wait", the kept header and the bot's part at once;
    the chart-and-log fragment; the kept page. (Seven, one each, before the batch.)"""
    from tests.foundation.test_pagecache import counting_cache_calls

    client = signed_in(bot.owner)
    for _ in range(3):
        page_of(client, bot)
    calls = counting_cache_calls(monkeypatch)
    queries, _ = page_of(client, bot)
    assert queries == 0 and calls == ["get", "get_many", "get_many", "get"]
