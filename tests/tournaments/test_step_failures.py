"""A referee step that fails on the same ply again and again cannot freeze its game.

Before, an exception out of ``advance`` crashed the task; the stalled-game
recovery asked again every 15 s and the game stayed at the same ply for
ever, with no fault recorded. Now the third failure on one ply gives it up:
the seat whose answer was being handled gets a fault and its default, or,
when the failure is the referee's own, the game is aborted with a reason.
Both tests go through the Celery task (``games.tasks.advance_game``), as the
recovery would.
"""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import Client
from harbormaster_bot.examples.random_bot import RandomBot

from botapi.client import BotClient
from engines.base import State
from games import tasks as game_tasks
from games.models import Game, Move, Seat
from games.referee import step_failures
from games.services import create_game

from .events.conftest import people

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def test_a_bot_answer_the_referee_fails_on_becomes_that_seats_fault_and_the_game_ends(
    serve_bots, monkeypatch
) -> None:
    bots = serve_bots("manila", [RandomBot(seed=1), RandomBot(seed=2), RandomBot(seed=3)])
    bad_endpoint = bots[0].endpoint_url
    real_act = BotClient.act

    def act(self, endpoint, *args, **kwargs):
        if endpoint == bad_endpoint:
            raise RuntimeError("injected: the client broke on this reply")
        return real_act(self, endpoint, *args, **kwargs)

    monkeypatch.setattr(BotClient, "act", act)
    game = create_game("manila", [b.competitor for b in bots], move_time_ms=2000)
    results = []
    for _ in range(40):  # each failing ply takes three tasks; the recovery would send them
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        results.append(game_tasks.advance_game(game.pk))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, f"stopped at ply {game.next_ply}: {results}"
    assert "failed" in results and "default" in results
    faults = list(Move.objects.filter(game=game, seat=0).exclude(fault_kind="").order_by("ply"))
    assert [m.fault_kind for m in faults[:3]] == ["unreadable_reply"] * 3
    assert all("injected: the client broke" in m.fault_detail for m in faults[:3])
    assert all(m.source == Move.Source.DEFAULT for m in faults)
    seat = Seat.objects.get(game=game, position=0)
    assert seat.forfeited and seat.fault_count == 3
    assert not Seat.objects.filter(game=game, position__gt=0, fault_count__gt=0).exists()


def test_a_failure_of_our_own_aborts_the_game_with_a_reason_anyone_can_read(
    serve_bots, monkeypatch
) -> None:
    bots = serve_bots("manila", [RandomBot(seed=1), RandomBot(seed=2), RandomBot(seed=3)])

    def broken(self, seat, action):
        raise KeyError("injected: the engine broke applying a move")

    monkeypatch.setattr(State, "apply_checked", broken)
    game = create_game("manila", [b.competitor for b in bots], move_time_ms=2000)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.failures == 1, "the first try failed"
    ply = game.next_ply
    assert game_tasks.advance_game(game.pk) == "failed"
    assert game_tasks.advance_game(game.pk) == "aborted"
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.next_ply == ply
    assert f"failed {step_failures.TRIES} times in a row on move {ply}" in game.status_reason
    assert "injected: the engine broke" in game.status_reason
    assert not Move.objects.filter(game=game).exclude(fault_kind="").exists(), "no seat blamed"
    assert game_tasks.advance_game(game.pk) == "idle", "an aborted game is left alone"
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "Aborted:" in page and "the engine broke applying a move" in page
    assert "players · unrated" in page, "an aborted game is not called rated above its reason"


def test_failures_are_counted_per_ply_and_a_new_ply_starts_again() -> None:
    game = create_game("manila", people(3))  # waits for a person: nothing moves meanwhile
    ply = Game.objects.get(pk=game.pk).next_ply
    error = RuntimeError("x")
    assert step_failures.step_failed(game.pk, ply, None, error) == "failed"
    assert step_failures.step_failed(game.pk, ply + 1, None, error) == "failed"
    assert step_failures.step_failed(game.pk, ply + 1, None, error) == "failed"
    assert Game.objects.get(pk=game.pk).failures == 2
    assert step_failures.step_failed(game.pk, ply + 1, None, error) == "aborted"


def test_a_lost_connection_is_not_counted_so_it_cannot_abort_a_healthy_game() -> None:
    game = create_game("manila", people(3))
    ply = Game.objects.get(pk=game.pk).next_ply
    for _ in range(step_failures.TRIES + 1):
        lost = OperationalError("server closed the connection unexpectedly")
        assert step_failures.step_failed(game.pk, ply, None, lost) == "failed"
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.failures == 0
