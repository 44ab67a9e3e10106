"""A Redis restart in the middle of a game: the worker and beat reconnect, the game finishes.

Redis is the broker, the result backend, the channel layer and the cache. In
docker-compose it runs without persistence, so a restart also loses the
queued tasks; the game in play must still finish with nobody restarting
anything: the worker reconnects by itself and goes on with the game, and
beat (``recover-stalled-games``) brings back a game whose task was lost.
The test runs the real processes (``celery worker`` and ``celery beat``
subprocesses) against a Redis of its own (``tests/foundation/redis_server.py``),
since the run's shared Redis must not be restarted.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from harbormaster_bot.examples.random_bot import RandomBot

from games.models import Game
from games.services import create_game
from games.tasks import advance_game
from harbormaster.celery import app
from tests.foundation.processes import PROJECT_DIR
from tests.foundation.redis_server import RedisServer, own_redis

from . import workers
from .workers import WORKER_SETTINGS, WorkerFarm, wait_for, worker_farm

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

THINK_SECONDS = 0.15
"""Each bot's time per move until Redis is back: the game of some 150 plies lasts well past
the restart (after it, the bots answer at once: what follows is the worker's and beat's)."""
PLIES_BEFORE_RESTART = 12
DOWN_SECONDS = 3.0
"""Longer than a publish's retries at Celery's defaults (some 0.6 s) take."""
PATIENCE_SECONDS = 150
"""Past the restart: recovery by beat (its period, 15 s, plus a stall's 10 s, grace and
move time) and the rest of the game, on a loaded machine."""


class ThinkingBot(RandomBot):
    """A random bot that takes ``THINK_SECONDS`` per move until ``restarted`` is set, so the
    game outlasts the restart."""

    def __init__(self, seed: int, restarted: threading.Event) -> None:
        super().__init__(seed=seed)
        self.restarted = restarted

    def act(self, turn) -> int:
        if not self.restarted.is_set():
            time.sleep(THINK_SECONDS)
        return super().act(turn)


class Beat:
    """``celery beat`` with the project's schedule, sending to the farm's queues and Redis."""

    def __init__(self, farm: WorkerFarm, directory: Path) -> None:
        self.log_path = directory / "beat.log"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": WORKER_SETTINGS,
            "HARBORMASTER_TEST_QUEUE_SUFFIX": farm.suffix,
            "DATABASE_URL": workers.test_database_url(),
            "REDIS_URL": farm.redis_url,
        }
        with self.log_path.open("w") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable, "-m", "celery", "-A", "harbormaster", "beat",
                    "--loglevel=INFO", f"--schedule={directory / 'beat-schedule'}",
                ],
                cwd=PROJECT_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = own_redis(tmp_path)
    yield server
    server.stop()


def next_ply(game: Game) -> int:
    return Game.objects.values_list("next_ply", flat=True).get(pk=game.pk)


def test_a_redis_restart_mid_game_leaves_worker_and_beat_running_and_the_game_finishes(
    transactional_db, tmp_path: Path, redis_server: RedisServer, serve_bots
) -> None:
    with worker_farm(tmp_path) as farm:
        farm.redis_url = redis_server.url
        worker = farm.start(concurrency=2)
        beat = Beat(farm, tmp_path)

        def logs() -> str:
            return f"{farm.logs()}\n===== beat\n{beat.log()[-4000:]}"

        try:
            restarted = threading.Event()
            bots = serve_bots(
                "grog_island",
                [
                    ThinkingBot(seed=1, restarted=restarted),
                    ThinkingBot(seed=2, restarted=restarted),
                ],
            )
            game = create_game(
                "grog_island", [b.competitor for b in bots], move_time_ms=3000, seed="restart"
            )
            # create_game's own task went to the run's Redis (this process's broker); the
            # farm's workers listen on this test's Redis, so the game starts there.
            with app.connection_for_write(redis_server.url) as connection:
                advance_game.apply_async((game.pk,), connection=connection)
            wait_for(lambda: next_ply(game) >= PLIES_BEFORE_RESTART, 90, "the game under way", logs)
            redis_server.restart(down_seconds=DOWN_SECONDS)
            restarted.set()
            restarted_at = next_ply(game)
            wait_for(
                lambda: Game.objects.get(pk=game.pk).status != Game.Status.RUNNING,
                PATIENCE_SECONDS, "the game finishing after the restart", logs,
            )  # fmt: skip
            game.refresh_from_db()
            assert game.status == Game.Status.FINISHED, logs()
            assert game.next_ply > restarted_at + 10, "most of the game is played after it"
            assert worker.process.poll() is None, f"the worker exited\n{logs()}"
            assert beat.process.poll() is None, f"beat exited\n{logs()}"
            assert not farm.logged("AttributeError"), logs()
            # The referee's tasks sent while Redis was down waited for it (no step was
            # dropped with "Connection refused"); only a task queued at the restart is lost.
            assert not farm.logged("OperationalError"), logs()
        finally:
            beat.stop()


def test_workers_retry_the_broker_for_ever_and_sends_wait_out_a_restart() -> None:
    """Celery's defaults end a worker after 100 failed reconnections and drop a task after 0.6 s."""
    assert app.conf.worker_consumer == "harbormaster.celery:ReconnectingConsumer"
    assert app.conf.broker_connection_retry is True
    assert app.conf.broker_connection_max_retries is None
    policy = app.conf.task_publish_retry_policy
    waited, interval = 0.0, policy["interval_start"]
    for _ in range(policy["max_retries"]):
        waited += interval
        interval = min(interval + policy["interval_step"], policy["interval_max"])
    assert waited > DOWN_SECONDS + 2, "a send outlasts the restart the test makes"
    options = app.conf.broker_transport_options
    assert options["socket_keepalive"] is True and options["socket_timeout"] > 1
    assert options["visibility_timeout"] == 900
