"""One cached value per person, made stale by a version token that writers replace.

The signed-in floor (every page a person sees) read the same two rows from the
database on every request: their user and whether any game waits for them.
Both change rarely, so they are kept in Django's cache (Redis with servers,
shared by every process; this process's memory embedded), with the scheme the
fragments use for their versions (``web.cache.versions``):

- A value is stored beside the *token* it was read under, ``(token, value)``,
  and both are read with one ``get_many``; a value whose token is not the
  current one is never served.
- A write that changes the value replaces the token (:func:`bump`) twice: at
  once, so a read later in the writer's own transaction (and a test, whose
  transaction never commits) misses, and again once the transaction commits,
  so a reader that read the old rows between the two stored them under a
  token that no longer counts. Without the second, that reader's old value
  would be served until its timeout.
- A lost token (evicted, the cache restarted) is replaced by a new random one,
  never reset, so values stored under the lost one are never served.
- Every value has a timeout: the safety net for a write that bumps nothing
  (a bulk ``update()`` no signal sees).

"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from django.db import transaction

T = TypeVar("T")

TOKEN_SECONDS = 7 * 24 * 3600
"""A token outlives any value stored under it; when it expires its values only miss."""


def keys(name: str, ident: object) -> tuple[str, str]:
    """``(token key, value key)`` of ``name`` for ``ident``: what :func:`read` reads."""
    return f"{name}:token:{ident}", f"{name}:value:{ident}"


def read(name: str, ident: object, load: Callable[[], T | None], timeout: int) -> T | None:
    """The value of ``name`` for ``ident``: the stored one if current, else ``load()``'s.

    ``load()`` returning None (nothing to keep: a user who does not exist) is
    not stored, so the next read asks again.
    """
    token_key, value_key = keys(name, ident)
    found = cache.get_many([token_key, value_key])
    token = found.get(token_key)
    stored = found.get(value_key)
    if token is not None and isinstance(stored, tuple) and stored[0] == token:
        return stored[1]
    if token is None:
        cache.add(token_key, uuid.uuid4().hex, timeout=TOKEN_SECONDS)
        token = cache.get(token_key)
    value = load()
    if value is not None and token is not None and timeout > 0:
        cache.set(value_key, (token, value), timeout=timeout)
    return value


def bump(name: str, ident: object) -> None:
    """Make the stored value of ``name`` for ``ident`` stale: now and after the commit."""
    token_key, _ = keys(name, ident)

    def replace() -> None:
        cache.set(token_key, uuid.uuid4().hex, timeout=TOKEN_SECONDS)

    replace()
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(replace)
