"""The embedded mode's Celery: a worker and beat in threads of the serving process.

Without ``REDIS_URL`` the broker is kombu's in-memory transport
(``memory://``), whose queues live in this process: a task a request sends
(a game's next ``advance``, a clock's ``check_clock`` countdown, an alert) can
only be run here. So the process that serves the site runs Celery's own worker
and beat beside it, with the pieces Celery runs its embedded workers with:

* the worker: Celery's ``WorkController`` in a daemon thread, as
  ``celery.contrib.testing.worker.start_worker`` runs it, with the thread pool
  (:data:`CONCURRENCY` threads) on both queues, ``referee`` and ``celery``,
  like docker-compose's worker; a countdown waits in its timer as in any
  worker;
* beat: ``celery.beat.EmbeddedService(app, thread=True)``, with Celery's
  in-memory scheduler (no schedule file: every periodic task runs "every N
  seconds", and a new process simply starts counting again).

So a request only queues work and answers; the referee, the clocks and the
periodic tasks run the same code as with servers. Only the serving process
runs them: a management command that does not serve starts nothing, and a
task it sends is lost with it (beat's recovery, in the serving process, finds
a game left waiting). ``demo_setup``, which plays games, runs them while it
plays (:func:`serving`).

Database connections: Django's are per thread, and each worker thread closes
its own after every task, since it shares the process and the SQLite file
with the site. Celery's Django fixup would do that too, but the project turns
it off for server workers (``CELERY_DB_REUSE_MAX``), which keep theirs; and
those workers' own housekeeping (:func:`harbormaster.celery.keep_database_connections`)
changes the process's database settings, so it leaves this worker alone.

Nothing starts unless :func:`enabled`: the setting ``EMBEDDED_CELERY`` (on
when ``REDIS_URL`` is unset; tests turn it off unless they ask) and Celery
not eager. :class:`StartsCelery` starts it at the ASGI application's first
event, so importing the application starts nothing.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from celery import Celery, signals
from celery.beat import EmbeddedService
from celery.worker import WorkController
from celery.worker import state as worker_state
from django.conf import settings
from django.db import connections

from harbormaster.celery import app
from web import health

log = logging.getLogger(__name__)

CONCURRENCY = 8
"""Worker threads: tasks at once (a referee task mostly waits on a bot's answer)."""
QUEUES = ("referee", "celery")
START_TIMEOUT_S = 30.0
"""How long :meth:`EmbeddedCelery.start` waits for the worker to consume."""


def enabled() -> bool:
    """Whether this process may run the embedded worker and beat (embedded mode, not eager)."""
    return bool(settings.EMBEDDED_CELERY and not settings.CELERY_TASK_ALWAYS_EAGER)


class EmbeddedWorker(WorkController):
    """Celery's worker, meant for a thread of a process that does other work too.

    It tells when it consumes (``consuming``), as Celery's test worker does,
    and says it shares the process (``shares_the_process``), so that the
    server workers' database housekeeping leaves the process's settings alone.
    """

    shares_the_process = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.consuming = threading.Event()
        super().__init__(*args, **kwargs)

    def on_consumer_ready(self, consumer: Any) -> None:
        self.consuming.set()


class EmbeddedCelery:
    """One worker thread and one beat thread for ``app``, started and stopped together."""

    def __init__(
        self, app: Celery, concurrency: int = CONCURRENCY, queues: tuple[str, ...] = QUEUES
    ) -> None:
        self.app = app
        self.concurrency = concurrency
        self.queues = queues
        self.worker: EmbeddedWorker | None = None
        self._thread: threading.Thread | None = None
        self._beat: Any = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, timeout: float = START_TIMEOUT_S) -> None:
        """Start the worker, wait until it consumes, then start beat."""
        # The thread pool runs a task from the default app's registry, so its app is
        # made the default, as Celery's own embedded worker does (the project's is).
        self.app.set_default()
        signals.task_postrun.connect(close_thread_connections, weak=False)
        self.worker = EmbeddedWorker(
            app=self.app,
            hostname=f"embedded-{os.getpid()}@localhost",
            pool="threads",
            concurrency=self.concurrency,
            queues=list(self.queues),
            loglevel=logging.WARNING,
            ready_callback=None,
            without_heartbeat=True,
            without_mingle=True,
            without_gossip=True,
        )
        self._thread = threading.Thread(target=self.worker.start, name="celery-worker", daemon=True)
        self._thread.start()
        if not self.worker.consuming.wait(timeout):
            self.stop()
            raise RuntimeError(f"the embedded Celery worker did not start within {timeout} s")
        self._beat = EmbeddedService(self.app, thread=True, scheduler_cls="celery.beat:Scheduler")
        self._beat.start()
        log.info("Celery worker (%d threads) and beat run in this process", self.concurrency)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop beat, then the worker: running tasks end, queued ones are dropped.

        A warm shutdown, as on SIGTERM (Celery's flag, which the worker's loop
        reads); a task still running after ``timeout`` is left to its thread.
        """
        if self._beat is not None:
            self._beat.stop()
            self._beat = None
        thread, self._thread = self._thread, None
        if thread is not None:
            worker_state.should_stop = 0
            thread.join(timeout)
            if thread.is_alive():  # it stops once its task ends; the flag stays up till then
                log.warning("the embedded Celery worker did not stop within %s s", timeout)
            else:
                worker_state.should_stop = None
        signals.task_postrun.disconnect(close_thread_connections)


def close_thread_connections(sender: Any = None, **_: Any) -> None:
    """After a task the embedded worker ran: close this thread's database connections."""
    if sender is not None and getattr(sender.request, "is_eager", False):
        return
    connections.close_all()


_process: EmbeddedCelery | None = None
_lock = threading.Lock()


def start() -> bool:
    """Run the project's worker and beat in this process; False if not enabled or running."""
    global _process

    with _lock:
        if not enabled() or _process is not None:
            return False
        process = EmbeddedCelery(app)
        process.start()
        _process = process
        return True


def stop(timeout: float = 10.0) -> None:
    """Stop this process's worker and beat, if they run (the next :func:`start` starts anew)."""
    global _process
    with _lock:
        process, _process = _process, None
    if process is not None:
        process.stop(timeout)


def running() -> bool:
    """Whether this process runs the worker and beat now (health)."""
    process = _process
    return process is not None and process.running


def check_broker() -> health.CheckResult:
    """/healthz's broker check: in the embedded mode, whether this process consumes its broker.

    The broker is this process's memory, so connecting to it says nothing;
    what counts is that the worker and beat run here (they do not, e.g.,
    under a WSGI server). Otherwise the web layer's own check.
    """
    if not enabled():
        return health.check_broker()
    if running():
        return health.CheckResult(True, "in memory: Celery's worker and beat run in this process")
    return health.CheckResult(False, "in memory, and this process runs no Celery worker")


def register_health_check() -> None:
    """Put :func:`check_broker` in place of the web layer's broker check (``ready()``)."""
    health.CHECKS["broker"] = check_broker


@contextmanager
def serving() -> Iterator[bool]:
    """The worker and beat run for the block (if enabled and not already running)."""
    started = start()
    try:
        yield started
    finally:
        if started:
            stop()


class StartsCelery:
    """ASGI wrapper: the first event served starts the worker and beat (if enabled).

    Lazy on purpose: importing the application (tests, tools) starts nothing.
    A server with ASGI lifespan events (uvicorn's default; ``make demo``'s
    ``demo_serve``) starts them at start-up, and this answers the lifespan
    protocol (which the router behind it does not speak), stopping them at
    shutdown; with ``--lifespan off`` the first request starts them.
    """

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app
        self._started = False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if not self._started:
            self._started = True
            await asyncio.to_thread(start)  # off the event loop: it waits for the worker
        if scope["type"] == "lifespan":
            return await self._lifespan(receive, send)
        return await self.app(scope, receive, send)

    async def _lifespan(self, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await asyncio.to_thread(stop, 5.0)
                await send({"type": "lifespan.shutdown.complete"})
                return
