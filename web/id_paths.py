"""``id_path(name, pk)``: a URL with one integer argument, reversed once per route.

The public lists link every row to a page by id (a game, a competitor): the
game lists 20-50 rows, a leaderboard 50, the head-to-head table up to 200,
the leaderboard CSV a thousand. ``reverse`` walks the resolver per call (about
70 µs each, 39% of the 1,000-row CSV under cProfile); the path of
``<int:pk>`` differs between two ids only by the digits, so it is reversed
once, with a marker id, per (URLconf, script prefix, name), and the id put in
its place. For routes whose only argument is an ``int`` converter (its
``to_url`` is ``str``); the result is what ``reverse(name, args=[pk])`` gives
(``tests/foundation/test_id_paths.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.urls import get_script_prefix, get_urlconf, reverse

_MARKER = 918273645
"""An id no route spells otherwise: reversed in its place, then cut out."""


@functools.lru_cache(maxsize=64)
def _halves(urlconf: Any, prefix: str, name: str) -> tuple[str, str]:
    """The path of ``name`` before and after its id (the marker found exactly once)."""
    path = reverse(name, args=[_MARKER], urlconf=urlconf)
    head, found, tail = path.partition(str(_MARKER))
    if not found or str(_MARKER) in tail:
        raise ValueError(f"{name!r} does not take one integer argument")
    return head, tail


def id_path(name: str, pk: int) -> str:
    """``reverse(name, args=[pk])`` for a route whose one argument is an ``<int:…>``."""
    head, tail = _halves(get_urlconf() or settings.ROOT_URLCONF, get_script_prefix(), name)
    return f"{head}{int(pk)}{tail}"


def id_paths(name: str) -> Callable[[int], str]:
    """:func:`id_path` of ``name`` for many ids of one request: the URLconf and script prefix
    (two context-local reads) are looked up once, not per row."""
    head, tail = _halves(get_urlconf() or settings.ROOT_URLCONF, get_script_prefix(), name)
    return lambda pk: f"{head}{int(pk)}{tail}"


def _forget(**kwargs: Any) -> None:
    _halves.cache_clear()  # a test changed the URLconf's settings: reverse afresh


setting_changed.connect(_forget, dispatch_uid="id-paths-forget")
