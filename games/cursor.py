"""Keyset pages of game lists for the web pages: newest first, then "older games" by cursor.

A game list is ordered ``created_at DESC, id DESC``; an "older games" link
carries the last shown game's (created_at, id) as ``?before=<µs since the
epoch>-<id>``, and the next page is the games strictly after it in that order.
Nothing is counted and nothing is skipped with OFFSET, so every page costs the
same however deep it is and however many games there are (the
``game_listed_*`` indexes hand the rows over in order), and games created
meanwhile do not shift the pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db.models import Q, QuerySet
from django.http import Http404, QueryDict

from games.models import Game

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MICROSECOND = timedelta(microseconds=1)
_CURSOR = re.compile(r"(\d{1,18})-(\d{1,18})")
NEWEST_FIRST = ("-created_at", "-id")


@dataclass(frozen=True)
class Cursor:
    """A place in a newest-first game list: just after the game created at ``created_at``."""

    created_at: datetime
    id: int

    @classmethod
    def after(cls, game: Game) -> Cursor:
        return cls(game.created_at, game.pk)

    def encode(self) -> str:
        return f"{(self.created_at - EPOCH) // MICROSECOND}-{self.id}"

    @classmethod
    def decode(cls, text: str | None) -> Cursor | None:
        """The cursor written by :meth:`encode`; None when ``text`` is not one."""
        match = _CURSOR.fullmatch(text or "")
        if match is None:
            return None
        try:
            created_at = EPOCH + int(match[1]) * MICROSECOND
        except OverflowError:
            return None
        return cls(created_at, int(match[2]))


def requested(query: QueryDict, name: str = "before") -> Cursor | None:
    """The cursor a page was asked for (None: the newest page); a garbled one is a 404."""
    if name not in query:
        return None
    cursor = Cursor.decode(query[name])
    if cursor is None:
        raise Http404("no such page of games")
    return cursor


def older_than(games: QuerySet[Game], cursor: Cursor) -> QuerySet[Game]:
    """``games`` after ``cursor`` in newest-first order.

    ``created_at <= c`` bounds the index scan; the OR only drops the games of
    that same instant already shown.
    """
    return games.filter(created_at__lte=cursor.created_at).filter(
        Q(created_at__lt=cursor.created_at) | Q(id__lt=cursor.id)
    )


@dataclass(frozen=True)
class Window:
    """One page of games, and the cursor of the next (older) page if there is one."""

    games: list[Game]
    older: str | None


def newest(games: QuerySet[Game], before: Cursor | None, size: int) -> Window:
    """Up to ``size`` of ``games`` newest first, from just after ``before`` (the start if None).

    Reads ``size + 1`` rows to know whether an older page exists.
    """
    ordered = games.order_by(*NEWEST_FIRST)
    if before is not None:
        ordered = older_than(ordered, before)
    rows = list(ordered[: size + 1])
    shown = rows[:size]
    older = Cursor.after(shown[-1]).encode() if len(rows) > size else None
    return Window(shown, older)
