"""The Celery application: configured from Django's CELERY_* settings.

Workers start with ``celery -A harbormaster worker`` and the scheduler with
``celery -A harbormaster beat``; tasks are found in every installed app's
``tasks`` module; in the embedded mode (no ``REDIS_URL``) the serving process
runs both in threads (``harbormaster.embedded_celery``). Queues, pools and the
beat schedule: docs/operating.md, "Celery".
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, signals
from celery.worker.consumer import Consumer
from django.conf import settings
from django.db import connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harbormaster.settings")

app = Celery("harbormaster")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

WORKER_CONNECTION_MAX_AGE = 300
"""Seconds a worker thread keeps its database connection between tasks."""

# Celery's Django fixup closes every database connection before and after each
# task unless this is set; it then closes one only every that many tasks. The
# handler below does the real housekeeping instead.
app.add_defaults({"CELERY_DB_REUSE_MAX": 1_000_000})


@signals.worker_init.connect
def keep_database_connections(sender: Any = None, **_: Any) -> None:
    """Let worker threads keep their database connections from one task to the next.

    A referee task is a few short queries; opening a PostgreSQL connection
    (a new server process) for each one costs more than the task itself. So
    in workers a connection lives ``WORKER_CONNECTION_MAX_AGE`` seconds, and
    after each task Django's own rule closes it early if it saw an error or
    left a transaction open. No health check before each task (one more
    round trip per move): after a database restart, one task per thread fails
    and the referee's recovery task restarts its game.

    Web processes use psycopg's connection pool instead (``env.DATABASE_POOL``);
    Django refuses a pool beside ``CONN_MAX_AGE``, and a pool must never be
    shared across a fork (a prefork child would inherit its sockets and none
    of its threads), so workers turn it off here. ``worker_init`` is sent in
    the main process before the execution pool starts (threads, or prefork's
    children), before any task has connected; a connection or pool made
    earlier all the same is closed first.

    Not for a worker that runs in a thread of a process serving the site
    (the embedded mode's, ``harbormaster.embedded_celery``): the settings it
    changes are the whole process's, and that worker closes its connections
    after every task instead.
    """
    if getattr(sender, "shares_the_process", False):
        return
    for alias in connections:
        connection = connections[alias]
        connection.close()
        if hasattr(connection, "close_pool"):
            connection.close_pool()
    for database in settings.DATABASES.values():
        database.get("OPTIONS", {}).pop("pool", None)
        database["CONN_HEALTH_CHECKS"] = False
        database["CONN_MAX_AGE"] = WORKER_CONNECTION_MAX_AGE
    signals.task_postrun.connect(close_unusable_connections, weak=False)


def close_unusable_connections(sender: Any = None, **_: Any) -> None:
    """After a task: close this thread's connections that broke or grew too old."""
    if sender is not None and getattr(sender.request, "is_eager", False):
        return
    for connection in connections.all(initialized_only=True):
        connection.close_if_unusable_or_obsolete()


@signals.worker_shutdown.connect
def send_pending_messages(**_: Any) -> None:
    """On a warm shutdown, let live pages get the moves already played (best effort)."""
    # The web layer needs Django's apps ready; this module loads with the settings, before.
    from web.sockets import broadcast

    broadcast.flush(timeout=2.0)


class ReconnectingConsumer(Consumer):
    """Celery's worker consumer, which survives losing Redis while a task is unacknowledged.

    On a lost connection Celery 5.7 collects the connection (kombu drops its
    transport's client) and closes it once more. kombu's Redis channel then
    reaches for that client twice, and gets AttributeError, which Celery does
    not count as a connection error, so the worker ended ("Unrecoverable
    error") instead of reconnecting whenever a late-acknowledged task was
    running, as a referee task nearly always is:

    - closing the channel puts its unacknowledged messages back in their
      queues through a client made from the transport;
    - the running task, once done, acknowledges its message on that channel.

    So the lost connection's channels skip the restore, and acknowledging on
    them raises ``ConnectionError``, which Celery logs ("Couldn't ack") and
    survives. Nothing is lost: neither could reach the old connection anyway, a
    message still in Redis's unacked set is given back by kombu after
    ``visibility_timeout`` (the referee's tasks are idempotent), and a Redis
    restarted without persistence kept none. Configured by
    ``CELERY_WORKER_CONSUMER``; see tests/tournaments/test_workers_redis_restart.py.
    """

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        transport = getattr(self.connection, "_transport", None)  # the lost one, not a new one
        for channel in getattr(transport, "channels", ()):
            channel.do_restore = False
            channel.basic_ack = channel.basic_reject = _on_lost_connection
        super().on_connection_error_after_connected(exc)


def _on_lost_connection(*_: Any, **__: Any) -> None:
    """An acknowledgement on a channel whose connection was lost (ReconnectingConsumer)."""
    raise ConnectionError("the broker connection of this message was lost")
