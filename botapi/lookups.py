"""Host name lookups for bot endpoints that one endpoint cannot use to starve another.

The C resolver (``getaddrinfo``) blocks and cannot be interrupted, so a call
with a deadline runs each lookup in a thread of its own and waits for it at
most until the deadline. Sharing a small pool of such threads let one bot
owner whose DNS server never answers fill the pool with hanging lookups and
make every other bot's lookup queue behind them and time out (the fault was
charged to the bots that waited). :class:`Lookups` isolates endpoints:

* **one lookup in flight per host**: callers asking for a name that is being
  looked up wait for that lookup, each until its own deadline, so a hanging
  name holds at most one thread however many calls it gets;
* **no queue**: every other name gets a thread of its own at once, up to a
  bound on the threads in flight (``max_in_flight``, 64 by default) that only
  as many *different* hanging names could reach; past it a lookup fails at
  once rather than waiting for a thread;
* **a short cache**: an answer is reused for ``ttl`` seconds (30) and a failed
  lookup for ``negative_ttl`` seconds (5), so a game's moves do not look the
  same name up again and again, and a name that fails costs no thread for a while.

A caller that gives up waits no longer than its own deadline and gets
:class:`LookupTimedOut` naming the host: the timeout is charged to the
endpoint whose name did not resolve, never to whoever asked next. A lookup
given no deadline runs in the caller's thread (registration checks).

The addresses returned are still checked by the SSRF guard at every
connection (:func:`botapi.ssrf.checked_addresses`); the cache only saves the
lookup, never the check.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout

Resolver = Callable[[str, int], list[str]]
"""``(host, port) -> [ip, ...]``: how a host name becomes addresses."""

DEFAULT_TTL = 30.0
DEFAULT_NEGATIVE_TTL = 5.0
DEFAULT_MAX_IN_FLIGHT = 64
DEFAULT_MAX_CACHED = 4096


class LookupTimedOut(Exception):
    """The lookup of ``host`` did not answer by the caller's deadline.

    Not an ``OSError``: a name that did not answer in time is a timeout of the
    call, not a name that does not exist.
    """

    def __init__(self, host: str, waited: float) -> None:
        super().__init__(f"DNS lookup of {host} did not answer within {waited * 1000:.0f} ms")
        self.host = host


class LookupsBusy(Exception):
    """Too many different names are being looked up at once to start another lookup."""


class Lookups:
    """Deadline-bounded, per-host isolated, cached lookups through ``resolver`` (module doc).

    Thread-safe; one instance per connection pool. ``clock`` is for tests.
    """

    def __init__(
        self,
        resolver: Resolver,
        *,
        ttl: float = DEFAULT_TTL,
        negative_ttl: float = DEFAULT_NEGATIVE_TTL,
        max_in_flight: int = DEFAULT_MAX_IN_FLIGHT,
        max_cached: int = DEFAULT_MAX_CACHED,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.resolver = resolver
        self.ttl = ttl
        self.negative_ttl = negative_ttl
        self.max_in_flight = max_in_flight
        self.max_cached = max_cached
        self._clock = clock
        self._lock = threading.Lock()
        self._in_flight: dict[tuple[str, int], Future[list[str]]] = {}
        self._cache: OrderedDict[tuple[str, int], tuple[float, list[str] | OSError]] = OrderedDict()

    def resolve(self, host: str, port: int, timeout: float | None) -> list[str]:
        """The addresses of ``host``, waiting at most ``timeout`` seconds (None: no limit).

        Raises :class:`LookupTimedOut` at the deadline, :class:`LookupsBusy`
        when no lookup can be started, and the resolver's own ``OSError``
        (e.g. ``socket.gaierror``) when the name does not resolve.
        """
        if timeout is None:
            return self.resolver(host, port)
        key = (host.lower(), port)
        with self._lock:
            cached = self._cached(key)
            if cached is None:
                future = self._in_flight.get(key) or self._start(key, host, port)
        if cached is not None:
            if isinstance(cached, OSError):
                raise type(cached)(*cached.args)  # a fresh copy: callers in many threads
            return list(cached)
        try:
            return list(future.result(timeout=max(timeout, 0.0)))
        except FutureTimeout:
            raise LookupTimedOut(host, timeout) from None

    # ------------------------------------------------------------ internals
    def _cached(self, key: tuple[str, int]) -> list[str] | OSError | None:
        entry = self._cache.get(key)
        if entry is None:
            return None
        expires, value = entry
        if expires <= self._clock():
            del self._cache[key]
            return None
        return value

    def _start(self, key: tuple[str, int], host: str, port: int) -> Future[list[str]]:
        """Start the lookup of ``key`` in a thread of its own (the lock is held)."""
        if len(self._in_flight) >= self.max_in_flight:
            raise LookupsBusy(
                f"{len(self._in_flight)} DNS lookups are already waiting for an answer; "
                f"{host} was not looked up"
            )
        future: Future[list[str]] = Future()
        self._in_flight[key] = future
        thread = threading.Thread(
            target=self._run, args=(key, host, port, future), name=f"bot-dns {host}", daemon=True
        )
        # Daemon: a lookup that never returns must not keep the process alive at exit.
        thread.start()
        return future

    def _run(self, key: tuple[str, int], host: str, port: int, future: Future[list[str]]) -> None:
        try:
            addresses: list[str] | None = list(self.resolver(host, port))
            error: BaseException | None = None
        except BaseException as exc:  # handed to the waiting callers, not lost in a thread
            addresses, error = None, exc
        with self._lock:
            del self._in_flight[key]
            if addresses is not None:
                self._remember(key, self.ttl, addresses)
            elif isinstance(error, OSError):
                self._remember(key, self.negative_ttl, error)
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(addresses or [])

    def _remember(self, key: tuple[str, int], ttl: float, value: list[str] | OSError) -> None:
        if ttl <= 0:
            return
        self._cache[key] = (self._clock() + ttl, value)
        self._cache.move_to_end(key)
        while len(self._cache) > self.max_cached:
            self._cache.popitem(last=False)
