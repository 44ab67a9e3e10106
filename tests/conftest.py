"""Suite-wide pytest hooks: which servers this run talks to, and skipping what needs one.

Tests marked ``postgres`` need DATABASE_URL to point at PostgreSQL; tests
marked ``redis`` need REDIS_URL. Without them the suite still runs on the
embedded defaults (SQLite, in-memory channel layer; Celery eager in the test
process) and those tests are skipped with the reason shown in the summary
(``-ra``).
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Iterator

import pytest
from celery._state import _set_task_join_will_block
from django.conf import settings
from hypothesis import settings as hypothesis_settings

# Property tests assert behaviour, never speed: Hypothesis's per-example deadline
# failed them on a busy machine (a flaky "DeadlineExceeded"), so it is off.
hypothesis_settings.register_profile("harbormaster", deadline=None)
hypothesis_settings.load_profile("harbormaster")


def pytest_configure(config: pytest.Config) -> None:
    from tests import fast_flush

    fast_flush.install()


def _database_vendor() -> str:
    from django.db import connection

    return connection.vendor


def pytest_report_header(config: pytest.Config) -> list[str]:
    redis = settings.REDIS_URL or "unset (in-memory channel layer; Celery eager in tests)"
    return [f"harbormaster: database {_database_vendor()}, REDIS_URL {redis}"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    needs_postgres = pytest.mark.skip(
        reason="needs PostgreSQL: DATABASE_URL is unset or not postgres:// (make test sets it)"
    )
    needs_redis = pytest.mark.skip(reason="needs Redis: REDIS_URL is unset (make test sets it)")
    on_postgres = _database_vendor() == "postgresql"
    for item in items:
        if item.get_closest_marker("postgres") and not on_postgres:
            item.add_marker(needs_postgres)
        if item.get_closest_marker("redis") and not settings.REDIS_URL:
            item.add_marker(needs_redis)
    # The modules with slow tests (a minute or two each) first, each kept whole and in
    # its order: under xdist they start while the short tests fill the other workers,
    # instead of one starting last and running alone at the end of the run.
    slow_modules = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in slow_modules)


@pytest.fixture(autouse=True)
def _celery_in_tests(settings) -> None:
    """No in-process Celery worker unless a test starts one; eager tasks on the embedded defaults.

    On the embedded defaults a serving process queues tasks for Celery's worker
    threads beside it (``harbormaster.embedded_celery``); in the test process
    tasks run eagerly there instead, as they always have (the referee's
    trampoline plays a game in the calling thread), unless a test says
    otherwise. With Redis they are queued, as in production, for the workers
    some tests start. The tests of the embedded worker itself serve
    ``manage.py demo_serve`` in a child process (tests/foundation/test_demo_*).
    """
    settings.EMBEDDED_CELERY = False
    if not settings.REDIS_URL:
        settings.CELERY_TASK_ALWAYS_EAGER = True


@pytest.fixture(autouse=True)
def _celery_join_flag_reset() -> Iterator[None]:
    """Celery's "a task is running, do not block on a result" flag, cleared after each test.

    Eager tasks set and restore it around their run in a process-wide global;
    tests that run eager tasks in two threads at once (the round and arena
    races) can restore it in the wrong order and leave it set, and a later
    test's ``result.get()`` then fails with "Never call result.get() within a
    task". The service never waits on a result, so only tests can meet this.
    """
    yield
    _set_task_join_will_block(False)


@pytest.fixture(autouse=True)
def _own_cache_namespace(settings) -> None:
    """Each test counts throttles under a key prefix of its own.

    With Redis the cache outlives a test and is shared by parallel test
    processes (and clearing it would flush Celery's queues in the same Redis
    database), so instead of clearing, every test starts on fresh keys; the
    leftovers expire with their throttle windows.
    """
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches


@pytest.fixture(autouse=True)
def _a_worker_runs(_own_cache_namespace, monkeypatch) -> None:
    """Every test runs as if a Celery worker had just beaten (``tournaments.events.heartbeat``).

    Tests run tasks eagerly, with no beat: without this every running event
    would show "no worker" in its problems. The heartbeat's own tests
    (tests/tournaments/events/test_absences.py) delete the key or age it.
    """
    # The events package imports models: only once pytest-django has set Django up.
    from tournaments.events import heartbeat

    heartbeat.beat()
    monkeypatch.setattr(heartbeat, "STALE_AFTER_S", 10.0**9)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    """Passwords hashed with MD5 in tests (``tests/hashers.py`` says why)."""
    from tests.hashers import FAST_PASSWORD_HASHERS

    settings.PASSWORD_HASHERS = FAST_PASSWORD_HASHERS


@pytest.fixture(autouse=True)
def _no_page_cache(settings) -> None:
    """Fragments are rendered on every request unless a test asks for them.

    Most page tests count a render's queries or read a page after changing
    rows without the services' signals; ``tests/foundation/test_fragments.py``
    turns fragments on (``page_cache`` fixture) and tests them.
    """
    settings.CACHE_FRAGMENT_SECONDS = 0


@pytest.fixture
def page_cache(settings) -> None:
    """Fragments on, in this process's memory, empty (no bump left pending by a test
    before whose commit callbacks never ran)."""
    from django.core.cache import cache

    from web.cache import invalidation

    settings.CACHE_FRAGMENT_SECONDS = 600
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"fragments-{uuid.uuid4().hex}",
        }
    }
    cache.clear()
    invalidation.discard_pending()


@pytest.fixture
def user():
    """A person (no password hashing: fast)."""
    from tests.factories import UserFactory

    return UserFactory(password=None)


@pytest.fixture
def api(user):
    """A DRF client authenticated as ``user``."""
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def eager_referee(settings) -> None:
    """Games play in this thread (the referee's eager trampoline), bots on loopback allowed.

    Use with ``pytest.mark.usefixtures("eager_referee")``; tests about real
    workers leave it out.
    """
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.BOT_ENDPOINT_ALLOW = ["loopback"]
