"""The referee and ``create_game`` reach the layers above without importing them.

Live pages are a registered implementation (``games.referee.live_pages``), a
new game and a game the referee gives up are signals (``game_created``,
``game_aborted``), and whether competitors may take seats is asked of each
kind's seat player (``check_seats``); the apps above register or connect them
in their ``ready()``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from django.db import connection

from games import players as seat_players
from games import tasks as game_tasks
from games.models import Game
from games.referee import dispatch, live_pages, step_failures, steps
from games.referee.decisions import Decision
from games.referee.statecache import load_state
from games.services import create_game
from games.signals import game_aborted, game_created
from people.seat_player import PersonSeats
from tests.factories import CompetitorFactory
from web.sockets import broadcast

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def test_the_web_side_registers_its_broadcast() -> None:
    assert live_pages.pages() is broadcast


class RecordingPages:
    """Live pages that are always watched and keep what they are sent."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, dict]] = []

    def publish(self, game_id: int, message: dict) -> None:
        self.sent.append((game_id, message))

    def publish_many(self, game_id: int, messages: Sequence[dict]) -> None:
        self.sent.extend((game_id, message) for message in messages)

    def maybe_watched(self, game_id: int) -> bool:
        return True

    def move_message(
        self,
        game_id: int,
        ply: int,
        seat: int,
        view: dict,
        events: list,
        default: str | None = None,
    ) -> dict:
        return {"type": "game.move", "game": game_id, "ply": ply, "seat": seat, "default": default}

    def publish_finish(self, game_id: int, outcome: dict | None, seed: str | None) -> None:
        self.sent.append((game_id, {"type": "game.finished", "outcome": outcome}))


@pytest.fixture
def recording_pages():
    pages = RecordingPages()
    live_pages.register(pages)
    try:
        yield pages
    finally:
        live_pages.register(broadcast)


def test_the_referee_tells_the_registered_live_pages_of_each_move_and_the_turn(
    recording_pages: RecordingPages,
) -> None:
    game = create_game("manila", CompetitorFactory.create_batch(3, kind="person"), seed="s")
    game.refresh_from_db()
    state = load_state(game)
    seat, ply = state.to_move[0], game.next_ply
    action = random.Random(1).choice(state.legal_actions(seat))
    steps.submit(game.pk, game.next_ply, seat, Decision(action))
    sent = [(gid, m["type"], m.get("ply")) for gid, m in recording_pages.sent]
    assert (game.pk, "game.move", ply) in sent
    assert sent[-1][:2] == (game.pk, "game.turn"), "the next person is told it is their turn"


def test_with_no_live_pages_registered_the_referee_plays_on_and_sends_nothing() -> None:
    live_pages.register(live_pages._Nobody())
    try:
        game = create_game("manila", CompetitorFactory.create_batch(3, kind="person"), seed="s")
        game.refresh_from_db()
        ply = game.next_ply
        state = load_state(game)
        seat = state.to_move[0]
        action = random.Random(1).choice(state.legal_actions(seat))
        steps.submit(game.pk, game.next_ply, seat, Decision(action))
        game.refresh_from_db()
        assert game.next_ply > ply
    finally:
        live_pages.register(broadcast)


def test_a_clock_is_a_countdown_task_and_eager_celery_sets_none(settings, monkeypatch) -> None:
    sent: list[tuple[Any, ...]] = []

    def apply_async(args: tuple, countdown: float) -> None:
        sent.append((args, countdown))

    monkeypatch.setattr(game_tasks.check_clock, "apply_async", apply_async)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    dispatch.schedule_clock_check(7, 3, 1.5)
    assert sent == [((7, 3), 1.5)]
    settings.CELERY_TASK_ALWAYS_EAGER = True  # an eager task cannot wait: nothing is scheduled
    dispatch.schedule_clock_check(7, 4, 1.5)
    assert len(sent) == 1


def test_abort_sends_game_aborted_inside_its_transaction() -> None:
    game = create_game("manila", CompetitorFactory.create_batch(3, kind="person"), seed="s")
    seen: list[tuple[int, str, bool]] = []

    def receiver(sender: Any, game: Game, **kwargs: Any) -> None:
        seen.append((game.pk, game.status, connection.in_atomic_block))

    game_aborted.connect(receiver, dispatch_uid="test-aborted")
    try:
        assert step_failures.abort(game.pk, "injected") is True
        assert step_failures.abort(game.pk, "again") is False, "only a running game is aborted"
    finally:
        game_aborted.disconnect(dispatch_uid="test-aborted")
    assert seen == [(game.pk, Game.Status.ABORTED, True)]


def test_create_game_sends_game_created_inside_its_transaction() -> None:
    competitors = CompetitorFactory.create_batch(3, kind="person")
    seen: list[tuple[int, list[int], bool]] = []

    def receiver(sender: Any, game: Game, competitor_ids: list[int], **kwargs: Any) -> None:
        seen.append((game.pk, competitor_ids, connection.in_atomic_block))

    game_created.connect(receiver, dispatch_uid="test-created")
    try:
        game = create_game("manila", competitors, seed="s")
    finally:
        game_created.disconnect(dispatch_uid="test-created")
    assert seen == [(game.pk, [c.pk for c in competitors], True)]


class RefusingSeats(PersonSeats):
    """A seat player whose competitors may never take a seat (else a person's)."""

    def __init__(self) -> None:
        self.asked: list[list[int]] = []

    def check_seats(self, competitors: Any, *, created_by: Any, purpose: str) -> None:
        self.asked.append([c.pk for c in competitors])
        raise ValueError("no seat for you")


def test_create_game_asks_every_seat_player_and_a_refusal_creates_nothing(monkeypatch) -> None:
    refusing = RefusingSeats()
    monkeypatch.setitem(seat_players._players, "refusing-test-kind", refusing)
    competitors = CompetitorFactory.create_batch(3, kind="person")
    with pytest.raises(ValueError, match="no seat for you"):
        create_game("manila", competitors, seed="s")
    assert refusing.asked == [[c.pk for c in competitors]]
    assert not Game.objects.exists()
    create_game("manila", competitors, seed="s", enforce_capacity=False)  # not asked then
    assert len(refusing.asked) == 1
