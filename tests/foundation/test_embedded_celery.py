"""``harbormaster.embedded_celery``: Celery's worker and beat in threads of this process.

These run a Celery app of their own on the in-memory broker, configured like
the project's (the same ``CELERY_DB_REUSE_MAX``, which keeps Celery's Django
fixup from closing connections), on queues of their own, so that nothing
another test queued in this process's memory is consumed. The project's own
worker is tested serving the demo: ``test_embedded_serving.py``.
"""

from __future__ import annotations

import asyncio
import copy
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from celery import Celery
from django.conf import settings as django_settings
from django.db import connection, connections

from harbormaster import embedded_celery
from harbormaster.asgi import application
from harbormaster.celery import app as project_app
from harbormaster.embedded_celery import EmbeddedCelery, StartsCelery

QUEUE = f"embedded-test-{uuid.uuid4().hex[:8]}"


class Calls:
    def __init__(self) -> None:
        self.seen: list[tuple[str, float, Any]] = []
        self.changed = threading.Condition()

    def add(self, what: str, detail: Any = None) -> None:
        with self.changed:
            self.seen.append((what, time.monotonic(), detail))
            self.changed.notify_all()

    def wait(self, what: str, count: int = 1, timeout: float = 20) -> list[tuple[str, float, Any]]:
        def found() -> list:
            return [call for call in self.seen if call[0] == what]

        with self.changed:
            self.changed.wait_for(lambda: len(found()) >= count, timeout)
            assert len(found()) >= count, f"{what}: {self.seen}"
            return found()


calls = Calls()
app = Celery("embedded-test", broker="memory://localhost/", set_as_current=False)
app.conf.update(
    task_default_queue=QUEUE,
    task_acks_late=True,
    worker_prefetch_multiplier=1,
    broker_transport_options={"polling_interval": 0.02},
    beat_schedule={},
)
app.add_defaults({"CELERY_DB_REUSE_MAX": 1_000_000})  # as harbormaster.celery


@app.task(name="embedded-test.record", ignore_result=True, shared=False)
def record(what: str) -> None:
    calls.add(what)


@app.task(name="embedded-test.query", ignore_result=True, shared=False)
def query() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    calls.add("query", connections["default"])  # this thread's own connection wrapper


@pytest.fixture(autouse=True)
def _project_app_default_again() -> Iterator[None]:
    """Starting a worker makes its app the process's default; the project's is again after."""
    yield
    project_app.set_default()


@pytest.fixture
def embedded() -> Iterator[EmbeddedCelery]:
    process = EmbeddedCelery(app, concurrency=2, queues=(QUEUE,))
    process.start()
    try:
        yield process
    finally:
        process.stop()
        app.conf.beat_schedule = {}


def test_a_task_sent_runs_on_the_worker_thread_and_a_countdown_waits(embedded) -> None:
    sent = time.monotonic()
    record.apply_async(("later",), countdown=0.5)
    record.delay("now")
    now = calls.wait("now")[0]
    assert now[1] < sent + 20
    later = calls.wait("later")[0]
    assert later[1] >= sent + 0.5, "not before its countdown"
    assert embedded.running


def test_beat_sends_its_schedule_to_the_worker() -> None:
    app.conf.beat_schedule = {
        "often": {"task": "embedded-test.record", "schedule": 0.2, "args": ("beat",)}
    }
    process = EmbeddedCelery(app, concurrency=1, queues=(QUEUE,))
    process.start()
    try:
        calls.wait("beat", count=2)
    finally:
        process.stop()
        app.conf.beat_schedule = {}
    assert not process.running


@pytest.mark.django_db(transaction=True)
def test_the_worker_thread_closes_its_database_connection_after_each_task(embedded) -> None:
    query.delay()
    wrapper = calls.wait("query")[0][2]
    if wrapper.vendor == "sqlite" and wrapper.is_in_memory_db():
        pytest.skip("Django never closes an in-memory SQLite database (the test database)")
    deadline = time.monotonic() + 10
    while wrapper.connection is not None and time.monotonic() < deadline:
        time.sleep(0.02)  # the task's postrun comes just after the task returned
    assert wrapper.connection is None


def test_the_worker_leaves_the_process_database_settings_alone() -> None:
    """The server workers' housekeeping (harbormaster.celery) would pool and age them."""
    before = copy.deepcopy(django_settings.DATABASES)
    process = EmbeddedCelery(app, concurrency=1, queues=(QUEUE,))
    process.start()
    try:
        now = django_settings.DATABASES
        assert now == before
    finally:
        process.stop()


def test_nothing_starts_unless_the_embedded_mode_asks(settings) -> None:
    settings.EMBEDDED_CELERY = False  # as with Redis, and in tests unless they ask
    assert embedded_celery.start() is False
    settings.EMBEDDED_CELERY = True
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert embedded_celery.start() is False
    assert not embedded_celery.running()


def test_the_first_event_served_starts_it_once_and_lifespan_shutdown_stops_it(
    monkeypatch,
) -> None:
    events: list[str] = []
    monkeypatch.setattr(embedded_celery, "start", lambda: events.append("start") or True)
    monkeypatch.setattr(embedded_celery, "stop", lambda timeout=10.0: events.append("stop"))
    served: list[str] = []

    async def site(scope: dict, receive: Any, send: Any) -> None:
        served.append(scope["type"])

    wrapped = StartsCelery(site)
    messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])
    sent: list[dict] = []

    async def receive() -> dict:
        return next(messages)

    async def send(message: dict) -> None:
        sent.append(message)

    async def serve() -> None:
        await wrapped({"type": "lifespan"}, receive, send)
        await wrapped({"type": "http", "path": "/"}, receive, send)
        await wrapped({"type": "http", "path": "/"}, receive, send)

    asyncio.run(serve())
    assert events == ["start", "stop"]
    assert [m["type"] for m in sent] == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert served == ["http", "http"]


def test_the_served_application_starts_it() -> None:
    assert isinstance(application, StartsCelery)
