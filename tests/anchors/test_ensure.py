"""Creating the anchors is idempotent; they are never suspended, pinged or told start/finish."""

from __future__ import annotations

import logging
from functools import partial
from io import StringIO

import pytest
from django.core.management import call_command

import engines
from botapi import anchor_player, protocol
from botapi.models import Bot
from botapi.selectors.anchors import ANCHORS
from botapi.services import bots as services
from botapi.services.anchors import ensure_anchors
from games.referee.decisions import default_decision
from games.selectors.rating_rules import example_bots_username
from tests.factories import UserFactory
from tournaments.models import ArenaEntry, League

pytestmark = pytest.mark.django_db


def test_ensure_anchors_twice_makes_them_once_and_mends_what_drifted() -> None:
    first = ensure_anchors()
    assert [item.created for item in first] == [True] * 4
    slugs = sorted(engine.slug for engine in engines.all_engines())
    for item, anchor in zip(first, ANCHORS, strict=True):
        bot = item.bot
        assert (bot.anchor, bot.name, bot.engines) == (anchor.slug, f"anchor-{anchor.slug}", slugs)
        assert bot.owner.username == example_bots_username() and not bot.owner.has_usable_password()
        assert bot.is_active and bot.endpoint_url == "" and bot.visibility == "challenge"
    services.suspend_bot(first[3].bot, "someone paused it")
    Bot.objects.filter(pk=first[0].bot.pk).update(max_concurrent_games=1, engines=["manila"])
    second = ensure_anchors()
    assert [item.created for item in second] == [False] * 4
    assert [item.bot.pk for item in second] == [item.bot.pk for item in first]
    assert Bot.objects.filter(anchor__gt="").count() == 4
    assert all(item.bot.is_active for item in second)
    assert (second[0].bot.max_concurrent_games, second[0].bot.engines) == (16, slugs)


def test_the_command_makes_every_engines_arena_and_enters_the_anchors_once() -> None:
    out = StringIO()
    call_command("ensure_anchors", "--arenas", stdout=out)
    assert "4 anchors; 16 new arena entries." in out.getvalue()
    leagues = League.objects.filter(arena_enabled=True)
    assert sorted(leagues.values_list("engine", flat=True)) == sorted(
        engine.slug for engine in engines.all_engines()
    )
    for league in leagues:
        assert league.arena_min_table_size <= league.arena_table_size
    out = StringIO()
    call_command("ensure_anchors", "--arenas", stdout=out)
    assert "4 anchors; 0 new arena entries." in out.getvalue()
    assert ArenaEntry.objects.count() == 16 and League.objects.count() == 4


def test_an_anchor_is_never_suspended_for_faulty_games(settings) -> None:
    bot = ensure_anchors()[2].bot
    for _ in range(settings.BOT_SUSPEND_AFTER_FAULTY_GAMES + 2):
        assert services.record_game_health(bot, faulty=True) is False
    bot.refresh_from_db()
    assert bot.is_active and bot.consecutive_faulty_games == 0


def test_anchors_are_never_pinged_and_reactivate_without_a_ping() -> None:
    bot = ensure_anchors()[1].bot
    assert services.ping_due_bots() == []
    services.suspend_bot(bot, "paused by the staff")
    services.reactivate_bot(bot)  # a push bot would need to answer a ping first
    bot.refresh_from_db()
    assert bot.is_active and bot.last_ping_at is None


@pytest.mark.parametrize("answer", ["raises", "out-of-range"])
def test_a_failing_anchor_policy_plays_the_default_as_an_anchor_error(
    answer, monkeypatch, caplog
) -> None:
    class Broken:
        def act(self, turn):
            if answer == "raises":
                raise RuntimeError("boom")
            return len(turn.legal_actions)

    monkeypatch.setattr(anchor_player, "handler", lambda anchor, key: Broken())
    state = engines.get("manila").new_game(3)
    while state.to_move == [engines.CHANCE]:
        state.apply(engines.CHANCE, state.chance_outcomes()[0][0])
    seat = state.to_move[0]
    request = protocol.act_request_for_state(state, game_id=1, seat=seat, ply=5, deadline_ms=1000)
    with caplog.at_level(logging.ERROR, logger="botapi.anchor_player"):
        decision = anchor_player.decide(
            "greedy", request, 1000, partial(default_decision, state, seat)
        )
    assert decision.action == state.default_action(seat)
    assert (decision.source, decision.fault_kind) == ("default", "anchor_error")
    assert caplog.records


def unused(*args, **kwargs):
    raise AssertionError("the policy answered: no default is asked for")


def test_the_search_anchor_stops_at_its_iteration_budget(monkeypatch) -> None:
    made = []
    real = anchor_player.handler

    def spy(anchor, key):
        made.append(real(anchor, key))
        return made[-1]

    monkeypatch.setattr(anchor_player, "handler", spy)
    state = engines.get("cargo_noir").new_game(3)
    while True:
        seat = state.to_move[0]
        if seat == engines.CHANCE:
            state.apply(seat, state.chance_outcomes()[0][0])
        elif len(state.legal_actions(seat)) > 2:
            break
        else:
            state.apply(seat, state.legal_actions(seat)[0])
    request = protocol.act_request_for_state(state, game_id=1, seat=seat, ply=9, deadline_ms=60_000)
    first = anchor_player.decide("search-8", request, 60_000, unused)
    assert first.source == "bot" and made[-1].last_iterations == 8
    assert anchor_player.decide("search-8", request, 60_000, unused).action == first.action
    anchor_player.decide("search-32", request, 60_000, unused)
    assert made[-1].last_iterations == 32


def test_the_staff_disable_an_anchor_in_the_admin_without_an_endpoint(client) -> None:
    bot = ensure_anchors()[3].bot
    client.force_login(UserFactory(admin=True, password=None))
    form = {
        "name": bot.name,
        "description": bot.description,
        "engines": bot.engines,
        "mode": bot.mode,
        "visibility": bot.visibility,
        "endpoint_url": "",
        "max_concurrent_games": bot.max_concurrent_games,
        "status": "disabled",
        "status_reason": "too busy today",
    }
    response = client.post(f"/admin/botapi/bot/{bot.pk}/change/", form)
    assert response.status_code == 302, response.content.decode()[-2000:]
    bot.refresh_from_db()
    assert (bot.status, bot.anchor) == ("disabled", "search-32")
    assert not ensure_anchors()[3].bot.is_active, "ensure_anchors leaves a disabled one disabled"
