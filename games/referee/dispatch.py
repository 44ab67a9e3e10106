"""Asking for ``advance(game)`` once the current transaction commits.

With a broker, that is a Celery task on the referee queue. In the embedded
mode (Celery eager, no broker) a task would run inline, and a game's
advance → submit → advance chain would recurse once per move; instead the
first call in a thread drains a queue of pending games in a loop, so a whole
game plays without growing the stack.

Clocks (a person's or pull bot's time for a ply) are a Celery countdown with
a broker; in the embedded mode they are timers of this process
(``harbormaster.embedded_scheduler``, registered through :func:`register_timer`
by the project, so games never imports it), whose thread then runs the same
``check_clock`` task, draining the game in that thread.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)
_local = threading.local()

Timer = Callable[..., bool]
"""``timer(delay_s, job, *args)``: run ``job(*args)`` later in this process; False if it cannot."""

_timer: Timer | None = None


def register_timer(timer: Timer | None) -> None:
    """Let ``timer`` run the clocks of the embedded mode (eager Celery cannot count down)."""
    global _timer
    _timer = timer


def schedule_advance(game_id: int) -> None:
    """Advance the game after the surrounding transaction commits (at once if none)."""
    transaction.on_commit(lambda: enqueue_advance(game_id))


def enqueue_advance(game_id: int) -> None:
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        # games.tasks imports the referee, which imports this module: circular at the top.
        from games.tasks import advance_game

        advance_game.delay(game_id)
        return
    pending: deque[int] | None = getattr(_local, "pending", None)
    if pending is not None:
        if game_id not in pending:
            pending.append(game_id)
        return
    _drain(game_id)


def schedule_clock_check(game_id: int, ply: int, delay_s: float) -> None:
    """Run ``check_clock(game_id, ply)`` in ``delay_s`` seconds: it plays the default if still owed.

    With a broker: a ``check_clock`` task with that countdown, for any worker.
    Embedded: an in-process timer (nothing else would ever run it: an eager
    task cannot wait for its countdown). With eager Celery but the embedded
    scheduler off (tests that drive clocks themselves), nothing is scheduled.
    """
    # games.tasks imports the referee, which imports this module: circular at the top.
    from games.tasks import check_clock

    if not settings.CELERY_TASK_ALWAYS_EAGER:
        check_clock.apply_async((game_id, ply), countdown=delay_s)
        return
    if _timer is None or not _timer(delay_s, check_clock, game_id, ply):
        log.debug("game %s ply %s: no clock (eager, embedded scheduler off)", game_id, ply)


def others_waiting() -> bool:
    """Whether other ``advance`` steps wait for a worker thread (then a long task should yield).

    With a broker: the referee queue in Redis is not empty (one LLEN; a worker
    only holds as many tasks as it has threads, so waiting ones stay there).
    Eager: this thread's trampoline has other games pending. True when it
    cannot tell.
    """
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return bool(getattr(_local, "pending", None))
    app = current_app
    try:
        queue = _advance_queue(app)
        with app.pool.acquire(block=True, timeout=1) as conn:
            return bool(conn.default_channel.client.llen(queue))
    except Exception:  # not Redis, or Redis unreachable: yield as before
        log.debug("could not look at the referee queue", exc_info=True)
        return True


def _advance_queue(app: Any) -> str:
    route = (app.conf.task_routes or {}).get("tournaments.advance_game") or {}
    queue = route.get("queue", app.conf.task_default_queue)
    return getattr(queue, "name", queue)


def _drain(first: int) -> None:
    # games.referee.steps imports this module: at the top the import would be circular.
    from games.referee.steps import advance

    _local.pending = pending = deque([first])
    failure: BaseException | None = None
    try:
        while pending:
            game_id = pending.popleft()
            try:
                advance(game_id)
            except Exception as exc:  # one broken game must not stop the others
                log.exception("advancing game %s failed", game_id)
                failure = failure or exc
    finally:
        _local.pending = None
    if failure is not None:
        raise failure
