"""Django's Redis cache backend, with one connection pool and one client per process.

Django's ``RedisCacheClient`` builds a new ``redis.Redis`` for every cache
operation (``Redis.__init__`` sets up its options, callbacks and command
parser each time), and its connection pools belong to the backend object,
of which Django makes one per thread (``django.core.cache.caches`` is per
thread). Both cost more than the work:

- *A client per call.* On a signed-in page served from the page cache that
  was most of each operation: a ``get`` cost about 0.30 ms of this process's
  CPU through Django's backend against 0.10 for a bare redis-py ``get``.
- *A pool per thread.* Under ASGI, Django runs each request's synchronous
  code in a thread of its own (asgiref's ``ThreadSensitiveContext``), so each
  request got a new backend, a new pool and a new TCP connection to Redis,
  with its handshake (``CLIENT SETINFO``, and redis-py reading its own version
  from the installed packages' metadata), closed only when the pool was
  collected: under uvicorn, 27% of a warm page's time in py-spy samples
  (docs/architecture.md, "One thread per request, one Redis pool per process").

:class:`RedisCache` is Django's backend whose client takes its pool and its
``redis.Redis`` from one registry per process, keyed by the server and the
pool's options, so every thread and request of a process shares them.

Why sharing them is safe:

- *Threads.* redis-py's ``ConnectionPool`` is thread-safe, and a ``redis.Redis``
  without ``single_connection_client`` holds no connection of its own: each
  command takes a connection from the pool and gives it back, so one client
  serves any number of threads (redis-py's documented use).
- *Fork* (Celery's prefork children, server workers forked after import): the
  pool is what holds connections, and redis-py's ``ConnectionPool`` checks its
  process id on every use and drops the parent's connections in a child
  (``_checkpid``), so a pool made before the fork gets fresh connections in
  each child.
- A pipeline or a pub/sub object is made from the client per use
  (``client.pipeline()`` in ``set_many``), never kept.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

_SHARED: dict[tuple[str, str], tuple[Any, Any]] = {}
"""(server, pool options) -> (pool, client): what every backend object of this process uses."""
_SHARED_LOCK = threading.Lock()


class ReusingRedisCacheClient(RedisCacheClient):
    """Django's client, taking its pools and clients from the process's registry."""

    def _get_connection_pool(self, write: bool) -> Any:
        return self._shared(self._get_connection_pool_index(write))[0]

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        return self._shared(self._get_connection_pool_index(write))[1]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept: dict[int, tuple[Any, Any]] = {}  # this object's look-ups, by server index

    def _shared(self, index: int) -> tuple[Any, Any]:
        """The pool and client of server ``index`` with these options, made once per process."""
        kept = self._kept.get(index)
        if kept is not None:
            return kept
        name = (self._servers[index], repr(sorted(self._pool_options.items())))
        with _SHARED_LOCK:
            kept = _SHARED.get(name)
            if kept is None:
                pool = self._pool_class.from_url(self._servers[index], **self._pool_options)
                kept = _SHARED[name] = (pool, self._client(connection_pool=pool))
        self._kept[index] = kept
        return kept


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with :class:`ReusingRedisCacheClient`."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
