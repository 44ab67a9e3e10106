"""Asking for ``advance(game)`` once the current transaction commits.

That is a Celery task on the referee queue, in both modes: with servers a
worker process takes it from Redis; in the embedded mode the serving
process's own worker threads take it from the in-memory broker
(``harbormaster.embedded_celery``). Clocks (a person's or pull bot's time for
a ply) are ``check_clock`` tasks with a countdown, which a worker holds until
they are due.

Tests may run Celery eagerly (``task_always_eager``): a task would then run
inline, and a game's advance → submit → advance chain would recurse once per
move; instead the first call in a thread drains a queue of pending games in a
loop, so a whole game plays without growing the stack. ``manage.py play``
plays its games so too.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)
_local = threading.local()


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

    A ``check_clock`` task with that countdown, for any worker. With eager
    Celery (tests that drive clocks themselves) nothing is scheduled: an eager
    task cannot wait for its countdown.
    """
    # games.tasks imports the referee, which imports this module: circular at the top.
    from games.tasks import check_clock

    if not settings.CELERY_TASK_ALWAYS_EAGER:
        check_clock.apply_async((game_id, ply), countdown=delay_s)
        return
    log.debug("game %s ply %s: no clock (Celery eager)", game_id, ply)


def others_waiting() -> bool:
    """Whether other ``advance`` steps wait for a worker thread (then a long task should yield).

    With a broker: the referee queue is not empty (a worker only holds as
    many tasks as it has threads, so waiting ones stay there): one LLEN in
    Redis, a look at the queue in memory (embedded mode). Eager: this
    thread's trampoline has other games pending. True when it cannot tell.
    """
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return bool(getattr(_local, "pending", None))
    app = current_app
    try:
        queue = _advance_queue(app)
        with app.pool.acquire(block=True, timeout=1) as conn:
            channel = conn.default_channel
            client = getattr(channel, "client", None)  # Redis
            if client is None:  # in memory
                return bool(channel.queue_declare(queue=queue, passive=True).message_count)
            return bool(client.llen(queue))
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
