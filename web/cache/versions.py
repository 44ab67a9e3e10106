"""Generational versions: a counter per kind of data, part of every fragment key that shows it.

The pages keep their costly parts as template fragments (Django's ``{% cache %}``
tag, ``django.templatetags.cache``), and a fragment's key holds the versions of
what it shows (``{% cache fragments.seconds "ladder" fragments.key ... %}``). A
write that changes what some fragments show replaces those versions
(:func:`bump_on_commit`, from ``web.cache.invalidation`` only): the old
fragments are never read again and expire after their timeout. Nothing is
deleted or scanned, so invalidation costs one ``set_many`` whatever the number
of pages.

A version is a random token, not a counter: a version lost with the cache (a
restart, an eviction) is made afresh (``cache.add``) and never meets a
fragment stored under an old one. Versions are bumped *after* the commit, so
no request can render the old rows under the new version; the bumps of one
transaction go in one ``set_many``.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

PREFIX = "version:"
DEFAULT_SECONDS = 600
EVERYTHING = "everything"
"""Part of every key: bumped by :func:`clear` and when a resolver fails (stale is worse)."""
log = logging.getLogger(__name__)


def seconds() -> int:
    """How long a fragment is kept at most (``CACHE_FRAGMENT_SECONDS``; 0 turns fragments off)."""
    return int(getattr(settings, "CACHE_FRAGMENT_SECONDS", DEFAULT_SECONDS))


@dataclass(frozen=True)
class Versions:
    """What a template needs for ``{% cache fragments.seconds "name" fragments.key %}``."""

    key: str
    seconds: int


def current(names: Sequence[str]) -> Versions:
    """The current versions of ``names`` as one key part (one ``get_many``; a missing one made)."""
    keys = [PREFIX + name for name in (*names, EVERYTHING)]
    found = cache.get_many(keys)
    missing = [key for key in keys if key not in found]
    if missing:
        for key in missing:
            cache.add(key, uuid.uuid4().hex, timeout=None)
        found.update(cache.get_many(missing))
    digest = hashlib.blake2b(
        "\n".join(str(found.get(k, "")) for k in keys).encode(), digest_size=12
    )
    return Versions(digest.hexdigest(), seconds())


def bump(*names: str) -> None:
    """Replace the versions of ``names`` now."""
    cache.set_many({PREFIX + name: uuid.uuid4().hex for name in names}, timeout=None)


Resolver = Callable[[], Iterable[str]]
"""Gives version names once the transaction committed (names that need a query to find)."""


class _Pending(threading.local):
    def __init__(self) -> None:
        self.names: set[str] = set()
        self.later: dict[Resolver, None] = {}


_pending = _Pending()


def bump_on_commit(*names: str, later: Resolver | None = None) -> None:
    """Bump ``names`` (and what ``later()`` gives) once the current transaction commits.

    All the calls of one transaction share one pending set, bumped by the first
    callback to run (the others find it empty). Names of a rolled-back
    transaction go with the next commit's: a needless bump, never a missed one.
    """
    _pending.names.update(names)
    if later is not None:
        _pending.later[later] = None
    transaction.on_commit(_flush)


def _flush() -> None:
    names, later = _pending.names, list(_pending.later)
    _pending.names, _pending.later = set(), {}
    for resolve in later:
        try:
            names.update(resolve())
        except Exception:  # which fragments it shows is unknown: retire them all
            log.exception("fragment versions: could not name what to bump; bumping everything")
            names.add(EVERYTHING)
    if names:
        bump(*sorted(names))


def discard_pending() -> None:
    """Forget bumps waiting for a commit that will never come (tests)."""
    _pending.names, _pending.later = set(), {}


def clear() -> None:
    """Retire every fragment (tests, the bench)."""
    discard_pending()
    bump(EVERYTHING)
