"""Cache entries read together in one round trip, then served to the code that asks for them.

A signed-in request served from the page cache read five entries of Django's
cache one after the other: the session, the user, "may a game wait", the
kept header, the page with its tokens. With Redis each read is a network
round trip (0.06-0.07 ms of this process's CPU through the
cache's client, and its wait besides), five per request. All
but the session are named by the user id the session holds, so once the
session is read the page cache reads the rest with one
``get_many`` (:func:`prefetched`), and the readers (``web.cache.versioned.read``,
the page cache's versioned reads and its header) ask this module
(:func:`get_many`) instead of the cache: a key read in the batch is answered
from it, any other goes to the cache as before.

What keeps this safe:

- The batch is one request's, in a :class:`~contextvars.ContextVar` set by
  :func:`prefetched` and reset when it ends, however it ends: nothing read for
  one request is ever served to another (each thread, and each asyncio task,
  has its own context).
- It is a snapshot of the cache at one instant, a little earlier than the
  separate reads were; every check made on what was read (token against
  value, version against page, the session's hash against the user) is made
  as before, on values read together.
- A key the request writes (:func:`forget`: a value stored, a token replaced)
  is read from the cache again afterwards, never from the batch.
- The scope is short: the page cache's lookup and the header, never a view's
  render.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.core.cache import cache

_ABSENT = object()
"""Read in the batch and not in the cache: a miss, known without asking again."""

_batch: ContextVar[dict[str, Any] | None] = ContextVar("cache_prefetch_batch", default=None)


@contextmanager
def prefetched(keys: Sequence[str]) -> Iterator[None]:
    """Read ``keys`` with one ``get_many`` and answer them from it until the block ends.

    No keys: no read, and nothing is answered from a batch (every read goes to
    the cache). Nested, the inner batch replaces the outer until it ends.
    """
    if not keys:
        yield
        return
    found = cache.get_many(list(dict.fromkeys(keys)))
    reset = _batch.set({key: found.get(key, _ABSENT) for key in keys})
    try:
        yield
    finally:
        _batch.reset(reset)


def get_many(keys: Sequence[str]) -> dict[str, Any]:
    """As ``cache.get_many``: those of ``keys`` in the batch from it, the rest from the cache."""
    batch = _batch.get()
    if batch is None:
        return cache.get_many(keys)
    found = {key: batch[key] for key in keys if key in batch}
    rest = [key for key in keys if key not in batch]
    if rest:
        found.update(cache.get_many(rest))
    return {key: value for key, value in found.items() if value is not _ABSENT}


def get(key: str) -> Any:
    """As ``cache.get(key)`` (None when missing), from the batch if it holds ``key``."""
    return get_many([key]).get(key)


def forget(keys: Iterable[str]) -> None:
    """This request wrote ``keys``: read them from the cache from now on."""
    batch = _batch.get()
    if batch is not None:
        for key in keys:
            batch.pop(key, None)


def current() -> dict[str, Any] | None:
    """The keys this context answers from a batch (None outside :func:`prefetched`; tests)."""
    batch = _batch.get()
    return None if batch is None else dict(batch)
