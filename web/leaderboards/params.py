"""A leaderboard page's query string: which system and kind it shows, and the links that keep them.

``?system=trueskill|openskill|elo`` (``?by=`` is the older name, still read),
``?kind=all|bot|person`` and ``?page=``. A page is lenient like the competitor
page: a value it cannot read is named in a note and the default shown
instead (the API, stricter, answers a 400 naming it). Links are built here so
every tab and page link keeps the parameters the others set.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from web.leaderboards.ranking import DEFAULT_KIND, DEFAULT_SYSTEM, KINDS, SYSTEMS, Ladder


@dataclass(frozen=True)
class Asked:
    """The ladder a page's query asked for, and what it could not read."""

    ladder: Ladder
    ignored: tuple[str, ...] = ()


def _choice(query: Mapping[str, str], names: tuple[str, ...], known: tuple[str, ...]):
    """The first of ``names`` present in ``query``: (value, None) if known, else (None, note)."""
    for name in names:
        value = query.get(name)
        if value is None:
            continue
        if value in known:
            return value, None
        return None, f"{name}={value!r} is not one of {', '.join(known)}"
    return None, None


def from_query(query: Mapping[str, str]) -> Asked:
    """The ladder ``query`` asks for (``system`` before its alias ``by``), defaults otherwise."""
    system, bad_system = _choice(query, ("system", "by"), SYSTEMS)
    kind, bad_kind = _choice(query, ("kind",), KINDS)
    ladder = Ladder(system or DEFAULT_SYSTEM, kind or DEFAULT_KIND)
    return Asked(ladder, tuple(note for note in (bad_system, bad_kind) if note))


def query_string(ladder: Ladder, page: int | None = None, *, with_kind: bool = True) -> str:
    """``?system=…[&kind=…][&page=…]``: the system always, the kind and page when not defaults."""
    params = {"system": ladder.system}
    if with_kind and ladder.kind != DEFAULT_KIND:
        params["kind"] = ladder.kind
    if page is not None and page > 1:
        params["page"] = str(page)
    return "?" + urlencode(params)
