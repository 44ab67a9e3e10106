"""The embedded mode's in-process timers and beat (``harbormaster.embedded_scheduler``)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import pytest

from harbormaster import embedded_scheduler
from harbormaster.celery import app
from harbormaster.embedded_scheduler import Scheduler, StartsBeat

calls: list[str] = []


@app.task(name="tests.embedded_scheduler.record")
def record(label: str) -> None:
    calls.append(label)


@pytest.fixture
def scheduler() -> Iterator[Scheduler]:
    own = Scheduler(workers=2)
    yield own
    own.stop()


def wait_until(condition, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "not within the time limit"
        time.sleep(0.01)


def test_timers_fire_in_order_of_due_time_and_an_earlier_one_wakes_the_thread(scheduler) -> None:
    fired: list[tuple[str, float]] = []
    start = time.monotonic()
    scheduler.call_later(1.0, lambda: fired.append(("late", time.monotonic() - start)))
    scheduler.call_later(0.05, lambda: fired.append(("early", time.monotonic() - start)))
    wait_until(lambda: len(fired) == 2)
    (first, at_first), (second, at_second) = fired
    assert (first, second) == ("early", "late")
    assert 0.05 <= at_first < 0.9  # not held behind the later timer it was set after
    assert at_second >= 1.0


def test_a_failing_job_is_logged_and_the_timers_go_on(scheduler, caplog) -> None:
    done = threading.Event()

    def broken() -> None:
        raise RuntimeError("boom")

    scheduler.call_later(0, broken)
    scheduler.call_later(0.05, done.set)
    assert done.wait(10)
    assert "boom" in caplog.text
    wait_until(lambda: scheduler.pending() == 0)


def test_a_long_job_does_not_hold_up_another_timer(scheduler) -> None:
    release, quick = threading.Event(), threading.Event()
    scheduler.call_later(0, release.wait, 10)
    scheduler.call_later(0.05, quick.set)
    assert quick.wait(5)  # while the first job still runs
    release.set()


def test_stopping_beside_a_running_job_drops_the_timers_and_starts_afresh_later(scheduler) -> None:
    release, later, again = threading.Event(), threading.Event(), threading.Event()
    scheduler.call_later(0, release.wait, 10)
    scheduler.call_later(0.3, later.set)
    wait_until(lambda: scheduler.pending() == 2)  # one running, one waiting
    time.sleep(0.05)
    scheduler.stop(timeout=0.1)  # the running job outlives the stop
    release.set()
    wait_until(lambda: scheduler.pending() == 0)
    assert not later.wait(0.5)  # dropped
    scheduler.call_later(0, again.set)
    assert again.wait(5)
    wait_until(lambda: scheduler.pending() == 0)


def test_beat_runs_each_entry_on_its_schedule(scheduler) -> None:
    calls.clear()
    schedule = {"often": {"task": "tests.embedded_scheduler.record", "schedule": 0.1,
                          "args": ("often",)}}  # fmt: skip
    assert scheduler.start_beat(schedule) is True
    assert scheduler.start_beat(schedule) is False  # once per process
    wait_until(lambda: calls.count("often") >= 3)
    scheduler.stop()
    seen = len(calls)
    time.sleep(0.3)
    assert len(calls) == seen  # stopped means stopped


def test_nothing_runs_in_process_beside_a_broker(settings) -> None:
    settings.EMBEDDED_SCHEDULER = True
    settings.CELERY_TASK_ALWAYS_EAGER = False  # REDIS_URL set: workers and beat do it
    assert embedded_scheduler.call_later(0, calls.append, "x") is False
    assert embedded_scheduler.start_beat() is False
    assert embedded_scheduler.pending() == 0


def test_nothing_runs_when_the_embedded_scheduler_is_off(settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.EMBEDDED_SCHEDULER = False
    assert embedded_scheduler.call_later(0, calls.append, "x") is False
    assert embedded_scheduler.start_beat() is False


def test_the_first_event_served_starts_beat_once(embedded_scheduler, settings) -> None:
    calls.clear()
    settings.CELERY_BEAT_SCHEDULE = {
        "often": {"task": "tests.embedded_scheduler.record", "schedule": 0.05, "args": ("b",)}
    }
    served: list[str] = []

    async def inner(scope, receive, send) -> None:
        served.append(scope["type"])

    wrapped = StartsBeat(inner)
    time.sleep(0.2)
    assert calls == []  # made, not yet serving: nothing runs
    for _ in range(2):
        asyncio.run(wrapped({"type": "http"}, None, None))
    assert served == ["http", "http"]
    wait_until(lambda: len(calls) >= 2)


def test_a_server_with_lifespan_events_starts_beat_at_start_up_and_stops_it(
    embedded_scheduler, settings
) -> None:
    calls.clear()
    settings.CELERY_BEAT_SCHEDULE = {
        "often": {"task": "tests.embedded_scheduler.record", "schedule": 0.05, "args": ("l",)}
    }
    inner_saw: list[str] = []

    async def inner(scope, receive, send) -> None:
        inner_saw.append(scope["type"])

    async def serve() -> list[dict]:
        sent: list[dict] = []
        inbox: asyncio.Queue[dict] = asyncio.Queue()
        await inbox.put({"type": "lifespan.startup"})

        async def send(message: dict) -> None:
            sent.append(message)
            if message["type"] == "lifespan.startup.complete":
                await asyncio.to_thread(wait_until, lambda: len(calls) >= 2)
                await inbox.put({"type": "lifespan.shutdown"})

        await StartsBeat(inner)({"type": "lifespan"}, inbox.get, send)
        return sent

    sent = asyncio.run(serve())
    assert [m["type"] for m in sent] == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert inner_saw == []  # the router behind does not speak lifespan
    stopped_at = len(calls)
    time.sleep(0.3)
    assert len(calls) == stopped_at
