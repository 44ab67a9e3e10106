"""Is a worker running? A heartbeat key that a beat-scheduled task writes, read by the panel.

Celery beat queues ``tournaments.worker_heartbeat`` every
:data:`INTERVAL_S` seconds on the default queue, where rounds are paired; a
worker that runs it writes the time into the Django cache (Redis with
servers, shared by every process; memory in the embedded mode, where the
serving process is the worker). The problems panel reads the key: older
than :data:`STALE_AFTER_S`, or missing, means that no worker (or no beat)
has run a task lately, and it says so within seconds instead of after the
two minutes a late round took to show.

Why not ``celery inspect ping``: it broadcasts to every worker and waits
for the replies on each page view; Celery's own worker heartbeats are sent
only with events enabled (``-E``). A key costs one cache read per page.
"""

from __future__ import annotations

import time

from django.core.cache import cache

KEY = "events:worker-heartbeat"
INTERVAL_S = 5.0
"""How often beat queues the heartbeat (``CELERY_BEAT_SCHEDULE``)."""
STALE_AFTER_S = 15.0
"""Silence longer than this (three beats) is reported."""


def beat() -> float:
    """Record that a worker ran a task now (the task's body); the time written."""
    now = time.time()
    cache.set(KEY, now, timeout=None)
    return now


def silence() -> float | None:
    """Seconds since a worker last ran the heartbeat; None if none ever did (or the key is gone)."""
    last = cache.get(KEY)
    if last is None:
        return None
    return max(0.0, time.time() - float(last))


def problem() -> str | None:
    """The panel's sentence when no worker seems to run, else None."""
    quiet = silence()
    if quiet is not None and quiet <= STALE_AFTER_S:
        return None
    since = "has not run yet" if quiet is None else f"last ran {quiet:.0f} s ago"
    return (
        f"No worker seems to be running: the heartbeat task beat queues every "
        f"{INTERVAL_S:.0f} s {since}. Rounds are not paired and games do not move until a "
        "Celery worker and beat run (docker-compose's worker and beat services)."
    )
