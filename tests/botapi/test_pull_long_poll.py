"""The long poll in this process: waking on the referee's signal, the per-bot cap, expiry.

These run in either mode: with ``REDIS_URL`` the turn signal goes through
Redis pub/sub to this process's subscriber and the polls are counted in
Redis; without it (embedded) both stay in memory. The polls go through
Django's test client, so the async view runs on a loop of its own in a
thread; the games advance eagerly in the test's thread.
``test_pull_long_poll_server.py`` checks the same against a real uvicorn.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection
from rest_framework.test import APIClient

from botapi import poll_slots, pullwait, turn_signals
from botapi.services import bots as services
from botapi.services import pull
from games.models import Game
from games.referee import statecache
from games.services import create_game
from tests.factories import BotFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]
TURNS = "/api/v1/bots/me/turns"


class PullBot:
    def __init__(self) -> None:
        self.bot = BotFactory(mode="pull", endpoint_url="")
        self.token = services.rotate_pull_token(self.bot)

    def turns(self, wait: float):
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Bot {self.token}")
        return api.get(TURNS, {"wait": wait})


class Poll(threading.Thread):
    """One poll in a thread of its own: its answer and how long it took."""

    def __init__(self, bot: PullBot, wait: float) -> None:
        super().__init__(daemon=True)
        self.bot, self.wait = bot, wait
        self.response = None
        self.seconds = 0.0
        self.finished_at = 0.0

    def run(self) -> None:
        started = time.monotonic()
        try:
            self.response = self.bot.turns(self.wait)
        finally:
            self.finished_at = time.monotonic()
            self.seconds = self.finished_at - started
            connection.close()


def until_waiting(bot: PullBot, polls: int, timeout: float = 5.0) -> None:
    """Until ``polls`` polls of the bot are listening for its turn."""
    deadline = time.monotonic() + timeout
    while len(turn_signals._registry.waiters.get(bot.bot.pk, ())) < polls:
        assert time.monotonic() < deadline, "the polls did not start waiting"
        time.sleep(0.02)


@pytest.fixture
def table():
    """Three pull bots at a Manila game, stopped at the first seat that must decide."""
    bots = [PullBot() for _ in range(3)]
    game = create_game("manila", [b.bot.competitor for b in bots], seed="pull", move_time_ms=60_000)
    return game, bots


def to_move(game: Game, bots: list[PullBot]) -> PullBot:
    game.refresh_from_db()
    return bots[statecache.load_state(game).to_move[0]]


def test_the_long_poll_answers_empty_after_the_wait() -> None:
    poll = Poll(PullBot(), 1)
    poll.run()
    assert poll.response.status_code == 200 and poll.response.json() == []
    assert 1 <= poll.seconds < 3


def test_the_long_poll_answers_as_soon_as_the_referee_signals_the_turn(table) -> None:
    game, bots = table
    waiter = next(b for b in bots if b is not to_move(game, bots))
    poll = Poll(waiter, 20)
    poll.start()
    until_waiting(waiter, 1)
    assert poll.response is None
    while (mover := to_move(game, bots)) is not waiter:
        pull.submit_move(mover.bot, game.pk, pull.MoveAnswer(ply=game.next_ply, action_index=0))
    turn_came_up = time.monotonic()
    poll.join(5)
    assert not poll.is_alive(), "the poll was not woken"
    assert poll.finished_at - turn_came_up < 1.5
    game.refresh_from_db()
    turns = poll.response.json()
    assert [t["ply"] for t in turns] == [game.next_ply]
    assert turns[0]["game"]["seat"] == bots.index(waiter)
    assert waiter.bot.pk not in turn_signals._registry.waiters, "the waiter was unregistered"


def test_without_reliable_wakeups_a_poll_looks_by_itself(table, monkeypatch) -> None:
    """Redis away: no signal arrives, and the poll still finds its turn within a second or so."""
    game, bots = table
    waiter = next(b for b in bots if b is not to_move(game, bots))
    monkeypatch.setattr(turn_signals, "notify_turn", lambda bot_id: None)
    monkeypatch.setattr(turn_signals, "wakeups_are_reliable", lambda: False)
    poll = Poll(waiter, 20)
    poll.start()
    until_waiting(waiter, 1)
    while (mover := to_move(game, bots)) is not waiter:
        pull.submit_move(mover.bot, game.pk, pull.MoveAnswer(ply=game.next_ply, action_index=0))
    turn_came_up = time.monotonic()
    poll.join(5)
    assert not poll.is_alive()
    assert poll.finished_at - turn_came_up < turn_signals.UNRELIABLE_RECHECK_S + 1
    assert len(poll.response.json()) == 1


def test_a_bots_third_waiting_poll_is_refused_with_retry_after() -> None:
    bot, neighbour = PullBot(), PullBot()
    polls = [Poll(bot, 2), Poll(bot, 2)]
    for poll in polls:
        poll.start()
    until_waiting(bot, 2)
    third = bot.turns(2)
    assert third.status_code == 429
    assert third.json()["code"] == "too_many_polls"
    assert f"{poll_slots.MAX_POLLS_PER_BOT} long polls" in third.json()["detail"]
    assert 1 <= int(third["Retry-After"]) <= 2
    assert bot.turns(0).status_code == 200, "a poll that does not wait is not counted"
    other = Poll(neighbour, 0.2)
    other.run()
    assert other.response.status_code == 200, "the cap is per bot"
    for poll in polls:
        poll.join(5)
        assert poll.response.status_code == 200
    assert bot.turns(0.2).status_code == 200, "the places were given back"


def test_a_place_never_given_back_expires_after_its_wait_and_margin(monkeypatch) -> None:
    monkeypatch.setattr(poll_slots, "MARGIN_S", 0.2)
    bot_id = PullBot().bot.pk
    lost = [poll_slots.take(bot_id, 0.1) for _ in range(poll_slots.MAX_POLLS_PER_BOT)]
    with pytest.raises(poll_slots.TooManyPolls) as refused:
        poll_slots.take(bot_id, 0.1)
    assert refused.value.retry_after_s == 1
    time.sleep(0.4)  # their server "crashed": nobody gives them back
    poll_slots.release(poll_slots.take(bot_id, 0.1))
    for slot in lost:
        poll_slots.release(slot)  # harmless when already expired


@pytest.mark.postgres  # an in-memory SQLite database ignores closing (it would vanish)
def test_a_section_leaves_no_connection_open_outside_a_transaction() -> None:
    from asgiref.sync import async_to_sync

    def query() -> int:
        assert Game.objects.count() == 0
        return 1

    connection.ensure_connection()
    assert async_to_sync(pullwait.db_section)(query) == 1
    assert connection.connection is None
