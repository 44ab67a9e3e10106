"""Django's cache on Redis through django-redis, against the real Redis.

It must do what Django's backend did (every operation the project uses), with one
connection pool per process shared by the backend object Django makes in each thread,
hiredis parsing replies, safe under threads and still right in a forked child; and a lost
Redis must raise redis-py's own error, by which the referee tells an outage from a fault
(``games.referee.step_failures.PASSING``).
"""

from __future__ import annotations

import os
import threading
import time
import uuid

import pytest
import redis
from django.conf import settings
from django.core.cache import caches
from django_redis.cache import RedisCache
from redis._parsers import _HiredisParser

from harbormaster import env
from tests.foundation.servers import free_port

pytestmark = pytest.mark.redis


@pytest.fixture
def backend() -> RedisCache:
    """The default cache as configured (``REDIS_URL`` set)."""
    cache = caches["default"]
    assert isinstance(cache, RedisCache)
    return cache


def key() -> str:
    return f"redis-cache-test:{uuid.uuid4().hex}"


def pool_of(cache: RedisCache) -> redis.ConnectionPool:
    return cache.client.get_client(write=True).connection_pool


def test_it_is_the_configured_backend_with_redis() -> None:
    assert settings.CACHES["default"]["BACKEND"] == "django_redis.cache.RedisCache"
    assert type(caches["default"]) is RedisCache


def test_every_operation_works_against_redis(backend) -> None:
    a, b, counter = key(), key(), key()
    assert backend.get(a) is None and backend.get(a, "default") == "default"
    backend.set(a, {"value": [1, 2]}, timeout=60)
    assert backend.get(a) == {"value": [1, 2]} and backend.has_key(a)
    assert backend.add(a, "other", timeout=60) is False
    assert backend.add(b, "new", timeout=60) is True
    assert backend.get_many([a, b, key()]) == {a: {"value": [1, 2]}, b: "new"}
    backend.set_many({a: 1, b: 2}, timeout=60)
    assert backend.get_many([a, b]) == {a: 1, b: 2}
    backend.set(counter, 5, timeout=60)
    assert backend.incr(counter) == 6 and backend.incr(counter, 10) == 16
    with pytest.raises(ValueError):
        backend.incr(key())
    assert backend.touch(a, timeout=120) is True
    assert backend.delete(a) is True and backend.get(a) is None
    backend.delete_many([b, counter])
    assert backend.get_many([b, counter]) == {}


def test_replies_are_parsed_by_hiredis(backend) -> None:
    assert pool_of(backend).connection_kwargs["parser_class"] is _HiredisParser


def test_every_thread_uses_the_one_pool_of_the_process(backend) -> None:
    """Django makes a backend object per thread, and under ASGI each request runs in a thread
    of its own: they must all share one pool, not open a connection to Redis each."""
    seen: list[tuple[object, object]] = []
    name = key()

    def request() -> None:
        cache = caches["default"]  # this thread's own backend object, as a request's
        cache.set(name, "value", timeout=60)
        assert cache.get(name) == "value"
        seen.append((cache, pool_of(cache)))

    for _ in range(20):  # one after the other, each in a new thread: a request under ASGI
        thread = threading.Thread(target=request)
        thread.start()
        thread.join()
    backends, pools = {id(c) for c, _ in seen}, {id(pool) for _, pool in seen}
    assert len(backends) == 20, "Django made a backend object per thread"
    assert pools == {id(pool_of(backend))}, "and every one used the same pool"
    pool = pool_of(backend)
    assert pool._created_connections <= 2, "one connection reused, not one per request"


def test_threads_share_the_client_and_each_reads_its_own_values(backend) -> None:
    failures: list[str] = []

    def work(n: int) -> None:
        mine = key()
        for i in range(50):
            backend.set(mine, (n, i), timeout=60)
            if backend.get(mine) != (n, i):
                failures.append(f"thread {n} step {i}")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_a_forked_child_uses_connections_of_its_own(backend) -> None:
    """The client (and the pool's connection) made before the fork, as in Celery's prefork."""
    name = key()
    backend.set(name, "parent", timeout=60)
    assert backend.get(name) == "parent"
    pid = os.fork()
    if pid == 0:  # the child: no pytest, no database; only the cache
        ok = False
        try:
            ok = backend.get(name) == "parent"
            backend.set(name, f"child {os.getpid()}", timeout=60)
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert backend.get(name) == f"child {pid}"
    backend.set(name, "parent again", timeout=60)  # the parent's connection still answers right
    assert backend.get(name) == "parent again"


def test_a_redis_that_cannot_be_reached_raises_redis_py_s_error() -> None:
    """Not swallowed (django-redis's IGNORE_EXCEPTIONS stays off) nor wrapped in its own
    ``ConnectionInterrupted``: a cache write of the referee's during an outage is a passing
    failure, never counted towards aborting the game."""
    config = env.caches({"REDIS_CACHE_URL": f"redis://127.0.0.1:{free_port()}/0"})["default"]
    cache = RedisCache(config["LOCATION"], config)
    started = time.monotonic()
    with pytest.raises(redis.exceptions.ConnectionError):
        cache.set(key(), 1)
    with pytest.raises(redis.exceptions.ConnectionError):
        cache.get_many([key(), key()])
    assert time.monotonic() - started < 30
