"""The Celery application: configured from Django's CELERY_* settings.

Workers start with ``celery -A harbormaster worker`` and the scheduler with
``celery -A harbormaster beat``; tasks are found in every installed app's
``tasks`` module. Queues, pools and the beat schedule: docs/architecture.md,
"The referee".
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harbormaster.settings")

app = Celery("harbormaster")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

WORKER_CONNECTION_MAX_AGE = 300
"""Seconds a worker thread keeps its database connection between tasks."""


@signals.worker_init.connect
def keep_database_connections(**_: Any) -> None:
    """Let worker threads keep their database connections from one task to the next.

    A referee task is a few short queries; opening a PostgreSQL connection
    (a new server process) for each one would cost more than the task. Celery
    closes connections after every task only when Django calls them obsolete,
    which with ``CONN_MAX_AGE = 0`` (right for the web server) is always; so
    workers alone get a maximum age. No health check before each task (it
    would be one more round trip per move): Celery closes a connection that
    saw an error at the end of its task, so after a database restart one task
    per thread fails, and the referee's recovery task restarts its game.
    """
    from django.conf import settings

    for database in settings.DATABASES.values():
        database["CONN_MAX_AGE"] = WORKER_CONNECTION_MAX_AGE


@signals.worker_shutdown.connect
def send_pending_messages(**_: Any) -> None:
    """On a warm shutdown, let live pages get the moves already played (best effort)."""
    from tournaments import broadcast

    broadcast.flush(timeout=2.0)
