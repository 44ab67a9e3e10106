"""Real Celery workers for tests: ``celery -A harbormaster worker`` subprocesses.

Each :class:`WorkerFarm` gives a test its own queues (a random suffix, see
``worker_settings.py``) on the run's Redis database and points its workers at
the test's own PostgreSQL database, so parallel test processes never take each
other's tasks. Workers can be started, killed with SIGKILL (a crash: nothing
is cleaned up, unacknowledged tasks stay in Redis) or stopped politely.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection
from kombu import Exchange, Queue

from harbormaster.celery import app
from tests.foundation.processes import PROJECT_DIR

WORKER_SETTINGS = "tests.tournaments.worker_settings"


def test_database_url() -> str:
    """A DATABASE_URL naming the database this test process uses (pytest-django's test DB)."""
    conf = connection.settings_dict
    user = quote(conf.get("USER") or "", safe="")
    password = quote(conf.get("PASSWORD") or "", safe="")
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    port = f":{conf['PORT']}" if conf.get("PORT") else ""
    return f"postgres://{credentials}{conf.get('HOST') or '127.0.0.1'}{port}/{conf['NAME']}"


@dataclass
class Worker:
    """One worker process (its own session, so a kill takes its children too)."""

    name: str
    process: subprocess.Popen
    log_path: Path

    def kill(self) -> None:
        """SIGKILL: the crash case. Tasks it held stay unacknowledged in Redis."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """SIGTERM (warm shutdown), then SIGKILL if it does not go within 15 s."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


@dataclass
class WorkerFarm:
    """The workers of one test, their queues, and the clean-up of both."""

    directory: Path
    suffix: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    redis_url: str = field(default_factory=lambda: settings.REDIS_URL)
    """The workers' broker, channel layer and cache (a test's own Redis to restart it)."""
    workers: list[Worker] = field(default_factory=list)

    @property
    def routes(self) -> dict[str, dict]:
        return {
            task: {**route, "queue": f"{route['queue']}-{self.suffix}"}
            for task, route in settings.CELERY_TASK_ROUTES.items()
        }

    @property
    def queues(self) -> list[str]:
        names = {route["queue"] for route in self.routes.values()}
        return sorted(names | {f"{settings.CELERY_TASK_DEFAULT_QUEUE}-{self.suffix}"})

    def start(self, *, pool: str = "threads", concurrency: int = 4) -> Worker:
        name = f"w{len(self.workers)}-{self.suffix}"
        log_path = self.directory / f"{name}.log"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": WORKER_SETTINGS,
            "HARBORMASTER_TEST_QUEUE_SUFFIX": self.suffix,
            "DATABASE_URL": test_database_url(),
            "REDIS_URL": self.redis_url,
            "BOT_ENDPOINT_ALLOW": "loopback",
        }
        with log_path.open("w") as log:
            process = subprocess.Popen(
                [
                    sys.executable, "-m", "celery", "-A", "harbormaster", "worker",
                    f"--pool={pool}", f"--concurrency={concurrency}",
                    f"--queues={','.join(self.queues)}", f"--hostname={name}@%h",
                    "--without-gossip", "--without-mingle", "--without-heartbeat",
                    "--loglevel=INFO",
                ],
                cwd=PROJECT_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        worker = Worker(name, process, log_path)
        self.workers.append(worker)
        return worker

    def logs(self) -> str:
        """The end of every worker's log (for a failure's message)."""
        return "\n".join(f"===== {w.name}\n{w.log()[-6000:]}" for w in self.workers)

    def logged(self, text: str) -> bool:
        """Whether any worker's whole log holds ``text``."""
        return any(text in w.log() for w in self.workers)

    def stop_all(self) -> None:
        for worker in self.workers:
            worker.stop()

    def forget_queues(self) -> None:
        """Delete this farm's queues and the unacknowledged tasks killed workers left behind."""
        with app.connection_for_write() as conn:
            for name in self.queues:
                queue = Queue(name, Exchange(name), routing_key=name)
                bound = queue.bind(conn.default_channel)
                bound.declare()
                bound.delete()
            client = conn.default_channel.client
            for tag, raw in client.hgetall("unacked").items():
                try:
                    routing_key = json.loads(raw)[2]
                except (ValueError, IndexError, TypeError):
                    continue
                if str(routing_key).endswith(self.suffix):
                    client.hdel("unacked", tag)
                    client.zrem("unacked_index", tag)


@contextmanager
def worker_farm(directory: Path) -> Iterator[WorkerFarm]:
    """A farm whose routes this process also uses to send tasks; everything undone at the end."""
    farm = WorkerFarm(directory)
    saved = app.conf.task_routes
    app.conf.update(task_routes=farm.routes)
    try:
        yield farm
    finally:
        farm.stop_all()
        app.conf.update(task_routes=saved)
        farm.forget_queues()


def wait_for(
    condition: Callable[[], bool], seconds: float, what: str, on_fail: Callable[[], str]
) -> None:
    """Poll ``condition`` until true; fail with ``what`` and ``on_fail()`` (logs) after ``seconds``.

    A generous limit that only a broken referee reaches, not a speed check.
    """
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen within {seconds} s\n{on_fail()}")
