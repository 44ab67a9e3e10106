"""The embedded mode's stand-in for Celery countdowns and beat: timers inside the process.

Without a broker (``REDIS_URL`` unset, Celery eager) a task cannot wait for
its countdown in a queue, and no beat process runs; a person's or pull bot's
clock would never run out and nothing would find a stalled game. So in that
mode the process that runs the referee keeps the timers itself:

* :func:`call_later` runs a function after a delay (the referee's clocks,
  through ``games.referee.dispatch.schedule_clock_check``); the first call
  starts the threads, so a process that never sets a clock starts nothing;
* :func:`start_beat` runs the tasks of ``CELERY_BEAT_SCHEDULE`` on their
  schedules (Celery's own schedule objects say when), as ``celery beat``
  would; the ASGI application calls it when it serves its first event, so
  only the serving process runs beat's work, never a management command.

One timer thread keeps a heap of due times and hands due jobs to a few worker
threads: a job may play a whole game on (a clock's default move lets the push
bots after it play), and must not hold up the other clocks. Every thread is a
daemon: timers still pending when the process exits are lost, which the next
serving process's recovery task makes good (it re-advances every game with no
progress for longer than its clock allows). Each job closes its thread's
database connections afterwards (a thread must not keep one open for hours,
nor hold a test database open).

Nothing runs unless :func:`enabled`: the setting ``EMBEDDED_SCHEDULER`` (on
exactly when Celery is eager, i.e. ``REDIS_URL`` unset) and Celery eager at
the time of the call, so it never runs beside a real beat and real workers.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

WORKERS = 4
"""Jobs that may run at once (each is one game's referee work, mostly waiting on bots)."""


def enabled() -> bool:
    """Whether this process keeps clocks and beat's work itself (embedded mode only)."""
    return bool(settings.EMBEDDED_SCHEDULER and settings.CELERY_TASK_ALWAYS_EAGER)


@dataclass(order=True)
class _Timer:
    due: float
    seq: int
    job: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)


class Scheduler:
    """A heap of timers served by one timer thread and ``workers`` job threads, all daemons."""

    def __init__(self, workers: int = WORKERS) -> None:
        self.workers = workers
        self._cond = threading.Condition()
        self._heap: list[_Timer] = []
        self._seq = itertools.count()
        self._jobs: queue.SimpleQueue[_Timer | None] | None = None  # of the running threads
        self._threads: list[threading.Thread] = []
        self._generation = 0  # a timer thread of an older one has been stopped
        self._busy = 0
        self._beat_started = False

    # ------------------------------------------------------------ public
    def call_later(self, delay_s: float, job: Callable[..., Any], *args: Any) -> None:
        """Run ``job(*args)`` on a worker thread once ``delay_s`` seconds have passed."""
        with self._cond:
            self._start_threads()
            due = time.monotonic() + max(0.0, delay_s)
            heapq.heappush(self._heap, _Timer(due, next(self._seq), job, args))
            self._cond.notify_all()

    def start_beat(self, beat_schedule: dict[str, dict[str, Any]]) -> bool:
        """Run each entry's task on its schedule from now on; False if beat already runs here."""
        from celery.schedules import maybe_schedule

        from harbormaster.celery import app

        with self._cond:
            if self._beat_started:
                return False
            self._beat_started = True
        app.loader.import_default_modules()  # the apps' tasks modules, as beat and workers do
        for name, entry in beat_schedule.items():
            if entry["task"] not in app.tasks:
                log.error("beat entry %s: no task %r; it will not run", name, entry["task"])
                continue
            schedule = maybe_schedule(entry["schedule"], app=app)
            task = (entry["task"], tuple(entry.get("args", ())), dict(entry.get("kwargs", {})))
            self.call_later(0, self._beat_tick, name, schedule, task, schedule.now())
        return True

    def pending(self) -> int:
        """Timers not yet due plus jobs queued or running (tests, diagnostics)."""
        with self._cond:
            return len(self._heap) + self._busy

    def stop(self, timeout: float = 10.0) -> None:
        """Drop every pending timer and beat, let running jobs end, stop the threads.

        The next :func:`call_later` starts afresh. For tests and orderly shutdown.
        """
        with self._cond:
            threads, self._threads = self._threads, []
            jobs, self._jobs = self._jobs, None
            self._heap.clear()
            self._generation += 1
            self._beat_started = False
            self._cond.notify_all()
        if jobs is not None:
            for _ in range(self.workers):
                jobs.put(None)  # after any job already handed out, which still runs
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))

    # ------------------------------------------------------------ threads
    def _start_threads(self) -> None:
        """Start the timer and job threads if they are not running (with the lock held)."""
        if self._threads:
            return
        self._jobs = jobs = queue.SimpleQueue()
        self._threads = [
            threading.Thread(target=self._keep_time, args=(jobs, self._generation),
                             name="embedded-timer", daemon=True),
            *(
                threading.Thread(target=self._work, args=(jobs,), name=f"embedded-job-{n}",
                                 daemon=True)
                for n in range(self.workers)
            ),
        ]  # fmt: skip
        for thread in self._threads:
            thread.start()

    def _keep_time(self, jobs: queue.SimpleQueue[_Timer | None], generation: int) -> None:
        """Move due timers to the job queue; sleep until the earliest one (or a new one)."""
        with self._cond:
            while generation == self._generation:
                now = time.monotonic()
                while self._heap and self._heap[0].due <= now:
                    self._busy += 1
                    jobs.put(heapq.heappop(self._heap))
                wait = self._heap[0].due - now if self._heap else None
                self._cond.wait(wait)

    def _work(self, jobs: queue.SimpleQueue[_Timer | None]) -> None:
        while True:
            timer = jobs.get()
            if timer is None:
                return
            try:
                timer.job(*timer.args)
            except Exception:  # one failed job must not stop the clocks of other games
                log.exception("embedded timer job %s%r failed", _name(timer.job), timer.args)
            finally:
                connections.close_all()  # this thread's connections only
                with self._cond:
                    self._busy -= 1
                    self._cond.notify_all()

    # ------------------------------------------------------------ beat
    def _beat_tick(
        self, name: str, schedule: Any, task: tuple[str, tuple, dict], last_run_at: datetime
    ) -> None:
        """Run the entry's task if it is due, then come back when its schedule says."""
        with self._cond:
            if not self._beat_started:
                return  # stopped meanwhile
        due, next_s = schedule.is_due(last_run_at)
        if due:
            last_run_at = schedule.now()
            _run_task(name, *task)
            next_s = schedule.is_due(last_run_at).next
        self.call_later(next_s, self._beat_tick, name, schedule, task, last_run_at)


def _run_task(entry: str, task_name: str, args: tuple, kwargs: dict) -> None:
    """Run one beat entry's task here, as a worker would (eagerly: no broker)."""
    from harbormaster.celery import app

    try:
        app.tasks[task_name].apply(args, kwargs)
    except Exception:  # logged; the entry runs again at its next time
        log.exception("embedded beat entry %s (%s) failed", entry, task_name)


def _name(job: Callable[..., Any]) -> str:
    return getattr(job, "__qualname__", None) or repr(job)


_scheduler = Scheduler()


def call_later(delay_s: float, job: Callable[..., Any], *args: Any) -> bool:
    """Run ``job(*args)`` in this process after ``delay_s`` seconds; False when not enabled."""
    if not enabled():
        return False
    _scheduler.call_later(delay_s, job, *args)
    return True


def start_beat() -> bool:
    """Run ``CELERY_BEAT_SCHEDULE`` in this process (once); False when not enabled or running."""
    if not enabled():
        return False
    return _scheduler.start_beat(settings.CELERY_BEAT_SCHEDULE)


def stop(timeout: float = 10.0) -> None:
    """Drop all timers, stop beat and the threads (tests; the next timer starts them again)."""
    _scheduler.stop(timeout)


def pending() -> int:
    """Timers and jobs this process still has (tests wait for 0 before dropping a database)."""
    return _scheduler.pending()


class StartsBeat:
    """ASGI wrapper: the first event served starts :func:`start_beat` (if enabled).

    Lazy on purpose: importing the application (tests, tools) starts nothing.
    A server with ASGI lifespan events (uvicorn's default) starts beat's work
    at start-up, and this answers the lifespan protocol (which the router
    behind it does not speak), stopping the timers at shutdown (``make demo``'s
    ``demo_serve`` runs uvicorn so); with ``--lifespan off`` the first request
    starts it.
    """

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app
        self._started = False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if not self._started:
            self._started = True
            start_beat()
        if scope["type"] == "lifespan":
            return await self._lifespan(receive, send)
        return await self.app(scope, receive, send)

    async def _lifespan(self, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                stop(timeout=2.0)
                await send({"type": "lifespan.shutdown.complete"})
                return
