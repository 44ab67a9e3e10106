"""Games played by real Celery workers (subprocesses) against PostgreSQL and Redis.

The test process serves example bots over loopback HTTP and creates games; the
workers (``tests/tournaments/workers.py``: ``celery -A harbormaster worker`` on
this test's own queues and test database) do all the refereeing. Covered:
whole games of every engine played by workers, one of which is killed with
SIGKILL again and again in the middle of them (at no cost to the bots: no
fault, forfeit or suspension), two workers racing on one game, and a slow bot
that must not hold up another game.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from harbormaster_bot.examples.greedy import greedy_bot
from harbormaster_bot.examples.random_bot import RandomBot

import engines
from engines import CHANCE
from games.models import Game, Move, Seat
from games.services import create_game
from games.tasks import advance_game, recover_stalled
from ratings.models import RatingChange

from .workers import WorkerFarm, wait_for, worker_farm

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]
ENGINES = ["manila", "batavia", "cargo_noir", "grog_island"]
PATIENCE_SECONDS = 90
"""How long a test waits for something a working referee does in a few seconds."""
MOVE_TIME_MS = 3000
"""The crash test's move limit: ample for a loopback bot on a loaded machine; a stalled
game is recovered once it has made no progress for this + ``players.GRACE_MS``."""
KILLS = 3
"""Each kill hits all four running games at a random moment and costs some 6 s (a new
worker, and recovery once a game has made no progress for the move limit + grace): three
kills are twelve crashes of a running game (the five kills before were twenty, more of
the same)."""


class ThinkingBot(RandomBot):
    """A random bot that takes ``seconds`` to think (so a game lasts long enough to disturb)."""

    def __init__(self, seed: int, seconds: float) -> None:
        super().__init__(seed)
        self.seconds = seconds

    def act(self, turn) -> int:
        time.sleep(self.seconds)
        return super().act(turn)


class Beat:
    """Calls ``recover_stalled`` at most every half second, as celery beat would periodically."""

    def __init__(self) -> None:
        self.last = 0.0

    def __call__(self) -> bool:
        if time.monotonic() - self.last > 0.5:
            recover_stalled(stall_ms=0)
            self.last = time.monotonic()
        return True


@pytest.fixture
def farm(transactional_db, tmp_path: Path) -> Iterator[WorkerFarm]:
    """This test's workers; stopped before the test database is flushed."""
    with worker_farm(tmp_path) as workers:
        yield workers


def table_size(slug: str) -> int:
    return min(4, engines.get(slug).max_players)


def status(game: Game) -> str:
    return Game.objects.values_list("status", flat=True).get(pk=game.pk)


def next_ply(game: Game) -> int:
    return Game.objects.values_list("next_ply", flat=True).get(pk=game.pk)


def assert_complete_record(game: Game) -> list:
    """Finished, gap-free log that replays to the recorded outcome, ratings applied once."""
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    moves = list(game.moves.order_by("ply"))
    assert [m.ply for m in moves] == list(range(len(moves))) == list(range(game.next_ply))
    final = engines.replay(
        game.engine, game.num_players, game.options, [(m.seat, m.action) for m in moves]
    )
    assert final.is_over and final.outcome()["scores"] == game.outcome.scores
    changes = RatingChange.objects.filter(game=game)
    assert changes.count() == game.num_players * 3, "one change per seat and rating system"
    assert changes.values("competitor", "system").distinct().count() == changes.count()
    return moves


def test_worker_crashes_in_games_of_every_engine_cost_the_bots_nothing(farm, serve_bots) -> None:
    """SIGKILL at random moments (mid bot call, mid transaction, between tasks), ``KILLS``
    times, while a game of each engine runs between example bots that always answer in time.

    A killed worker's task stays unacknowledged until the broker's visibility
    timeout; here, as in production, the beat task ``recover_stalled`` finds
    the stalled games first (the test calls it every half second, as beat
    would). The crash is the referee's failure, not the bots': every game must
    end with an intact record, and not one fault, forfeit or suspension.

    It is also the test of whole games played by real workers: after the
    kills (in the games' first few dozen plies) the last worker plays every
    game to its end, and every seat's move is its bot's own, with its latency.
    """
    rng = random.Random(9)
    beat = Beat()
    games, bots = [], []
    for slug in ENGINES:
        thinking = [ThinkingBot(seed=i, seconds=0.01) for i in range(1, table_size(slug))]
        seated = serve_bots(slug, [greedy_bot(slug), *thinking])
        bots += seated
        games.append(
            create_game(
                slug, [b.competitor for b in seated], move_time_ms=MOVE_TIME_MS,
                seed=f"{slug}-crash",
            )
        )  # fmt: skip
    kills_seen = dict.fromkeys((g.pk for g in games), 0)
    for _ in range(KILLS):
        worker = farm.start(concurrency=len(games))
        before = {g.pk: next_ply(g) for g in games}
        wait_for(
            lambda b=before: beat() and all(
                next_ply(g) >= b[g.pk] + 2 or status(g) != "running" for g in games
            ),
            PATIENCE_SECONDS, "progress of every game after a restart", farm.logs,
        )  # fmt: skip
        running = [g.pk for g in games if status(g) == Game.Status.RUNNING]
        time.sleep(rng.uniform(0, 0.15))
        worker.kill()
        for pk in running:
            kills_seen[pk] += 1
    farm.start(concurrency=len(games))

    wait_for(
        lambda: beat() and all(status(g) == Game.Status.FINISHED for g in games),
        PATIENCE_SECONDS * 2, f"every game finishing after {KILLS} kills", farm.logs,
    )  # fmt: skip
    assert all(kills >= 1 for kills in kills_seen.values()), kills_seen
    for game in games:
        moves = assert_complete_record(game)
        assert {m.source for m in moves} == {"bot", "chance"}
        assert all(m.latency_ms is not None for m in moves if m.source == "bot")
    faults = Move.objects.filter(game__in=games).exclude(seat=CHANCE).exclude(fault_kind="")
    assert not [(m.game.engine, m.ply, m.fault_kind, m.fault_detail) for m in faults]
    assert not Seat.objects.filter(game__in=games).exclude(fault_count=0, forfeited=False)
    for bot in bots:
        bot.refresh_from_db()
        assert bot.is_active and bot.consecutive_faulty_games == 0, (bot.status, bot.status_reason)


def test_two_workers_racing_on_one_game_record_one_move_per_ply(farm, serve_bots) -> None:
    farm.start(concurrency=2)
    farm.start(concurrency=2)
    bots = serve_bots("batavia", [RandomBot(seed=i) for i in range(4)])
    game = create_game("batavia", [b.competitor for b in bots], seed="race")
    stop = threading.Event()

    def duplicate_advances() -> None:
        while not stop.is_set():
            advance_game.delay(game.pk)
            time.sleep(0.01)

    sender = threading.Thread(target=duplicate_advances)
    sender.start()
    try:
        wait_for(
            lambda: status(game) == Game.Status.FINISHED, PATIENCE_SECONDS, "the game finishing",
            farm.logs,
        )  # fmt: skip
    finally:
        stop.set()
        sender.join()
    assert_complete_record(game)
    # The duplicates sent after the finish are still queued when the sender stops: the
    # workers log them "idle" (or a duplicate lost a race, "raced") when they get to them.
    wait_for(
        lambda: farm.logged("'raced'") or farm.logged("'idle'"), PATIENCE_SECONDS,
        "a duplicate advance lost and logged", farm.logs,
    )  # fmt: skip
    assert not farm.logged("Traceback")


def test_a_slow_bot_does_not_hold_up_another_game(farm, serve_bots) -> None:
    """Two threads: the slow game occupies one while the fast game finishes on the other."""
    farm.start(concurrency=2)
    slow_bots = serve_bots("manila", [ThinkingBot(seed=i, seconds=0.5) for i in range(3)])
    slow = create_game("manila", [b.competitor for b in slow_bots], move_time_ms=5000)
    wait_for(
        lambda: slow.moves.filter(source="bot").exists(), PATIENCE_SECONDS,
        "the slow game reaching its bots", farm.logs,
    )  # fmt: skip
    fast_bots = serve_bots("manila", [RandomBot(seed=i) for i in range(3)])
    fast = create_game("manila", [b.competitor for b in fast_bots])
    wait_for(
        lambda: status(fast) == Game.Status.FINISHED, PATIENCE_SECONDS, "the fast game finishing",
        farm.logs,
    )  # fmt: skip
    slow_bot_moves = slow.moves.filter(source="bot").count()
    fast.refresh_from_db()
    assert status(slow) == Game.Status.RUNNING
    assert slow_bot_moves < fast.moves.filter(source="bot").count() / 4
    Game.objects.filter(pk=slow.pk).update(status=Game.Status.ABORTED)
