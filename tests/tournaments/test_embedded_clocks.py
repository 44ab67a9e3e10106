"""Clocks run out in the embedded mode too: nobody has to call anything.

Without a broker, the referee's clock for a person or pull bot is a timer of
the process (``harbormaster.embedded_scheduler``), and beat's recovery runs
there as well. These games have a pull bot that never polls: only the clock
can move them. They run on whichever database the suite uses (SQLite in the
embedded mode), Celery eager, with the embedded scheduler on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import timedelta
from typing import TypeVar

import pytest
from django.db import OperationalError, connection
from django.utils import timezone
from harbormaster_bot.examples.random_bot import RandomBot

from games.models import Game, Move, Seat
from games.referee import turns as players
from games.services import create_game
from harbormaster.asgi import application
from harbormaster.embedded_scheduler import StartsBeat
from tests.factories import BotFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("embedded_scheduler"),
]
T = TypeVar("T")


@pytest.fixture(autouse=True)
def _reads_beside_the_clock_thread(embedded_scheduler) -> None:
    """On SQLite's shared in-memory test database, this thread's polling reads
    take no table locks (which would make the clock thread's writes fail at once:
    a shared-cache lock does not wait). A file database, as the demo uses, waits."""
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA read_uncommitted = 1")


def wait_for(what: str, probe: Callable[[], T | None], timeout_s: float) -> T:
    """``probe()`` once it is truthy; fails after ``timeout_s`` seconds."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            found = probe()
        except OperationalError:  # SQLite busy for a moment: look again
            found = None
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout_s} s: {what}")
        time.sleep(0.05)


def never_polling_pull_bot() -> BotFactory:
    return BotFactory(mode="pull", endpoint_url="", engines=["manila"])


def timeouts(game: Game, bot=None) -> list[Move]:
    """The game's timeout defaults (of ``bot``'s seats only, if given: on a loaded
    machine a push bot may miss a 100 ms limit too)."""
    moves = Move.objects.filter(game=game, fault_kind="timeout").order_by("ply")
    if bot is not None:
        seats = Seat.objects.filter(game=game, competitor=bot.competitor)
        moves = moves.filter(seat__in=seats.values("position"))
    return list(moves)


def test_a_pull_bot_that_never_polls_gets_its_timeout_default(serve_bots) -> None:
    pull = never_polling_pull_bot()
    pushed = serve_bots("manila", [RandomBot(seed=1), RandomBot(seed=2)])
    started = time.monotonic()  # before the clock is set (inside create_game)
    game = create_game("manila", [pull.competitor, *(b.competitor for b in pushed)],
                       move_time_ms=100)  # fmt: skip
    first = wait_for("a timeout default", lambda: timeouts(game, pull), timeout_s=20)[0]
    waited = time.monotonic() - started
    seat = Seat.objects.get(game=game, position=first.seat)
    assert seat.competitor_id == pull.competitor_id
    assert first.source == Move.Source.DEFAULT
    # not before the move's time and the grace are up, and not much later
    assert (100 + players.GRACE_MS) / 1000 <= waited < (100 + players.GRACE_MS) / 1000 + 10


def test_the_clock_plays_a_silent_pull_bot_out_of_the_game_to_its_end(
    serve_bots, monkeypatch
) -> None:
    monkeypatch.setattr(players, "GRACE_MS", 150)  # three timeouts in about a second
    pull = never_polling_pull_bot()
    pushed = serve_bots("manila", [RandomBot(seed=3), RandomBot(seed=4)])
    game = create_game("manila", [pull.competitor, *(b.competitor for b in pushed)],
                       move_time_ms=100)  # fmt: skip
    wait_for(
        "the game finished",
        lambda: Game.objects.filter(pk=game.pk, status=Game.Status.FINISHED).exists(),
        timeout_s=60,
    )
    wait_for("the clock's jobs done", lambda: embedded_scheduler_idle(), timeout_s=10)
    seat = Seat.objects.get(game=game, competitor=pull.competitor)
    assert seat.forfeited
    assert seat.fault_count == 3
    assert len(timeouts(game, pull)) == 3
    assert game.outcome.ranks[seat.position] == max(game.outcome.ranks)


def test_beat_started_by_the_first_request_moves_a_game_whose_clock_was_lost(settings) -> None:
    """After a restart the old process's timers are gone: the recovery task finds the game."""
    settings.CELERY_BEAT_SCHEDULE = {
        "recover-stalled-games": {
            "task": "tournaments.recover_stalled",
            "schedule": 0.2,
            "kwargs": {"stall_ms": 0},
        }
    }
    bots = [never_polling_pull_bot() for _ in range(3)]
    game = create_game("manila", [b.competitor for b in bots], move_time_ms=100)
    from harbormaster import embedded_scheduler

    embedded_scheduler.stop()  # the process that set the clock is gone
    Game.objects.filter(pk=game.pk).update(last_progress_at=timezone.now() - timedelta(hours=1))
    time.sleep(0.5)
    assert not timeouts(game)  # nothing runs until a process serves

    served = StartsBeat(_answer_nothing)
    asyncio.run(served({"type": "http", "path": "/"}, _nothing, _nothing))
    wait_for("a default played by the recovery", lambda: timeouts(game), timeout_s=20)


def test_the_served_application_starts_beat() -> None:
    assert isinstance(application, StartsBeat)


def embedded_scheduler_idle() -> bool:
    from harbormaster import embedded_scheduler

    return embedded_scheduler.pending() == 0


async def _answer_nothing(scope: dict, receive: object, send: object) -> None:
    return None


async def _nothing(*_: object) -> None:
    return None
