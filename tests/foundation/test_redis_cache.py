"""``harbormaster.redis_cache``: the configured Redis cache backend, against the real Redis.

It must do what Django's backend does (every operation the project uses), with one
connection pool and one ``redis.Redis`` client per process instead of a client per call
and a pool per thread, shared safely by threads and still right in a forked child.
"""

from __future__ import annotations

import os
import threading
import uuid

import pytest
import redis
from django.conf import settings
from django.core.cache import caches

from harbormaster import redis_cache

pytestmark = pytest.mark.redis


@pytest.fixture
def backend() -> redis_cache.RedisCache:
    """The default cache as configured (``REDIS_URL`` set), on this test's own key prefix."""
    cache = caches["default"]
    assert isinstance(cache, redis_cache.RedisCache)
    return cache


def key() -> str:
    return f"redis-cache-test:{uuid.uuid4().hex}"


def test_it_is_the_configured_backend_with_redis() -> None:
    assert settings.CACHES["default"]["BACKEND"] == "harbormaster.redis_cache.RedisCache"
    assert type(caches["default"]) is redis_cache.RedisCache


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


def test_one_client_serves_every_operation(backend, monkeypatch) -> None:
    client = backend._cache.get_client()
    assert backend._cache.get_client(write=True) is client
    built = []
    real = backend._cache._client

    def counting(*args, **kwargs):
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(backend._cache, "_client", counting)
    name = key()
    for _ in range(5):
        backend.set(name, 1, timeout=60)
        backend.get(name)
        backend.get_many([name])
        backend.incr(name)
    assert built == []
    assert backend._cache.get_client() is client
    assert isinstance(client, redis.Redis)
    assert client.connection_pool is backend._cache._get_connection_pool(write=False)


def test_every_thread_uses_the_one_pool_of_the_process(backend) -> None:
    """Django makes a backend object per thread, and under ASGI each request runs in a thread
    of its own: they must all share one pool, not open a connection to Redis each."""
    seen: list[tuple[object, object]] = []
    name = key()

    def request() -> None:
        cache = caches["default"]  # this thread's own backend object, as a request's
        cache.set(name, "value", timeout=60)
        assert cache.get(name) == "value"
        seen.append((cache, cache._cache.get_client()))

    for _ in range(20):  # one after the other, each in a new thread: a request under ASGI
        thread = threading.Thread(target=request)
        thread.start()
        thread.join()
    backends, clients = {id(c) for c, _ in seen}, {id(client) for _, client in seen}
    assert len(backends) == 20, "Django made a backend object per thread"
    assert clients == {id(backend._cache.get_client())}, "and every one used the same client"
    pool = backend._cache._get_connection_pool(write=True)
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
