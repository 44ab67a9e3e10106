"""Django's Redis cache backend, keeping one ``redis.Redis`` client per connection pool.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for every
cache operation (``Redis.__init__`` sets up its options, callbacks and
command parser each time); the connection itself comes from the pool and is
reused. On a signed-in page served from the page cache that was most of each
operation: a ``get`` cost about 0.30 ms of this process's CPU through
Django's backend against 0.10 for a bare redis-py ``get``, and such a page
makes five (session, user, seated, tokens, page; docs/architecture.md,
"Signed in, warm"). :class:`RedisCache` is Django's backend with a client that
builds each ``redis.Redis`` once, per pool, and hands out that one.

Why sharing it is safe:

- *Threads.* A ``redis.Redis`` without ``single_connection_client`` holds no
  connection of its own: each command takes a connection from the pool and
  gives it back, so one client serves any number of threads (redis-py's
  documented use). Django already gives each thread its own backend object
  (``django.core.cache.caches`` is per thread), hence its own pools and
  clients; sharing is only within a thread, as the pool already was.
- *Fork* (Celery's prefork children, server workers forked after import): the
  pool is what holds connections, and redis-py's ``ConnectionPool`` checks its
  process id on every use and drops the parent's connections in a child
  (``_checkpid``), so a client made before the fork gets fresh connections in
  each child, as a new client on the same pool did.
- A pipeline or a pub/sub object is made from the client per use
  (``client.pipeline()`` in ``set_many``), never kept.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class ReusingRedisCacheClient(RedisCacheClient):
    """Django's client, with one ``redis.Redis`` per connection pool instead of one per call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, tuple[Any, Any]] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        kept = self._clients.get(id(pool))
        if kept is None or kept[0] is not pool:
            # Two threads may both build one here; either is right, and the last is kept.
            kept = (pool, self._client(connection_pool=pool))
            self._clients[id(pool)] = kept
        return kept[1]


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with :class:`ReusingRedisCacheClient`."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
