"""The Celery app: eager in-process without Redis, a real worker over Redis with it."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from kombu import Exchange, Queue

from harbormaster.celery import app
from harbormaster.tasks import ping
from tests.foundation.processes import PROJECT_DIR

WORKER_STARTUP_AND_ANSWER_SECONDS = 90


def test_ping_is_discovered_and_configured_for_safe_delivery() -> None:
    app.loader.import_default_modules()
    assert "harbormaster.ping" in app.tasks
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.task_serializer == "json"
    assert app.conf.accept_content == ["json"]


def test_ping_runs_eagerly_without_redis() -> None:
    """What the embedded mode does with every task (settings turn this on without REDIS_URL)."""
    was_eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        result = ping.delay()
        assert result.get(timeout=5) == "pong"
        assert type(result).__name__ == "EagerResult"
    finally:
        app.conf.task_always_eager = was_eager


@pytest.fixture
def worker_queue(tmp_path: Path) -> Iterator[str]:
    """A real ``celery worker`` process consuming a queue of its own, stopped afterwards."""
    queue = f"harbormaster-test-{uuid.uuid4().hex}"
    log = (tmp_path / "worker.log").open("w")
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "harbormaster",
            "worker",
            "--pool=solo",
            f"--queues={queue}",
            f"--hostname={queue}@%h",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=INFO",
        ],
        cwd=PROJECT_DIR,
        env={**os.environ, "REDIS_URL": settings.REDIS_URL},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        yield queue
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
        log.close()
        print((tmp_path / "worker.log").read_text())
        forget_queue(queue)


def forget_queue(queue: str) -> None:
    """Remove the run's queue and its routing keys from Redis.

    kombu deletes only bindings its channel knows, so declare them here first.
    """
    with app.connection_for_write() as connection:
        bound = Queue(queue, Exchange(queue), routing_key=queue).bind(connection.default_channel)
        bound.declare()
        bound.delete()


@pytest.mark.redis
def test_real_worker_answers_ping_over_redis(worker_queue: str) -> None:
    assert not app.conf.task_always_eager
    result = ping.apply_async(queue=worker_queue)
    assert result.get(timeout=WORKER_STARTUP_AND_ANSWER_SECONDS) == "pong"
    assert result.successful()
    result.forget()
