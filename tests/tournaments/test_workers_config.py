"""How the referee's Celery work is laid out: queues, beat, worker pool, connection reuse."""

from __future__ import annotations

import yaml
from django.conf import settings

from harbormaster import env
from harbormaster.celery import app
from tests.foundation.processes import PROJECT_DIR


def queue_of(task: str) -> str:
    return app.amqp.router.route({}, task)["queue"].name


def test_bot_calling_tasks_go_to_the_referee_queue_the_rest_to_the_default() -> None:
    app.loader.import_default_modules()
    for task in ("tournaments.advance_game", "tournaments.check_clock"):
        assert task in app.tasks
        assert queue_of(task) == "referee"
    assert queue_of("tournaments.recover_stalled") == settings.CELERY_TASK_DEFAULT_QUEUE
    assert queue_of("harbormaster.ping") == settings.CELERY_TASK_DEFAULT_QUEUE


def test_beat_recovers_stalled_games_often_enough_for_a_killed_worker() -> None:
    app.loader.import_default_modules()
    entries = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if "recover_stalled" in e["task"]]
    assert len(entries) == 1 and entries[0]["task"] in app.tasks
    assert entries[0]["schedule"] <= 60
    timeout = env.celery({"REDIS_URL": "redis://127.0.0.1:6379/1"})["TRANSPORT_OPTIONS"][
        "visibility_timeout"
    ]
    assert timeout * 1000 > 60_000 + 5000, "clock tasks wait move time + grace before running"


def test_compose_worker_consumes_both_queues_with_a_thread_pool() -> None:
    compose = yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text())
    command = " ".join(compose["services"]["worker"]["command"])
    assert "--pool=threads" in command
    assert "--queues=referee,celery" in command


def test_workers_do_not_let_celery_close_connections_after_every_task() -> None:
    """Celery's Django fixup closes them unless DB_REUSE_MAX is set (see harbormaster/celery.py)."""
    assert app.conf.get("CELERY_DB_REUSE_MAX") >= 10_000
