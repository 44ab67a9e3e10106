"""The bot owner's log: every move of the bot's seats, newest first, filtered, paged by cursor.

What the referee sent the bot and what it answered, with the latency and the
fault, for its owner only (``Move.request_excerpt``/``reply_excerpt`` are the
owner's: ``docs/architecture.md``, "What a bot's owner sees of a game"). Only
the bot's own seats' moves are listed, never chance moves or other seats'.

A page is one query whatever the size of the log: the moves are joined to
the bot's seats (``Seat.competitor``'s index finds the seats, the move's
``(game, ply)`` unique index the moves of each), ordered by ``(game, ply)``
descending and cut after the cursor ``(game, ply)`` of the page before. No
``OFFSET`` and no count: page 1,000 costs what page 1 does. Filtered to
faults, the partial index ``move_faults_by_seat`` holds only faulty moves.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connections
from django.db.models import F, Q, QuerySet

from botapi.client import Fault
from botapi.models import Bot
from games.models import Game, Move, Seat
from games.referee.decisions import FORFEITED

PAGE_SIZE = 50
ANY_FAULT = "any"
"""The filter value for "every move with a fault, whatever its kind"."""
FAULT_KINDS: tuple[str, ...] = (
    *(str(kind) for kind in Fault),
    FORFEITED,
    "bot_inactive",
    "no_bot",
)
"""Every fault kind a bot's move can carry: the client's, then the referee's own."""


def bot_moves(bot: Bot) -> QuerySet[Move]:
    """The moves of the bot's seats (its own decisions and the defaults played for them).

    ``Move`` has no foreign key to its seat, so the seat is matched on
    ``(game, position)`` through the game; each move matches at most one seat.
    """
    return Move.objects.filter(
        game__seats__competitor_id=bot.competitor_id, game__seats__position=F("seat")
    )


@dataclass(frozen=True)
class LogFilter:
    """What the owner asked to see: a fault kind (or any fault), a game, a page."""

    fault: str = ""
    game: int | None = None
    before: tuple[int, int] | None = None
    """The cursor: only moves before this ``(game, ply)`` in log order (older)."""


@dataclass(frozen=True)
class LogEntry:
    """One move as the owner page shows it."""

    game_id: int
    engine: str
    ply: int
    seat: int
    source: str
    latency_ms: int | None
    fault_kind: str
    fault_detail: str
    request_excerpt: str
    reply_excerpt: str
    created_at: datetime


@dataclass(frozen=True)
class LogPage:
    entries: list[LogEntry]
    next_cursor: str | None
    """The cursor of the next (older) page, or None on the last page."""


def parse_cursor(text: str | None) -> tuple[int, int] | None:
    """``"<game>-<ply>"`` as a pair; None for anything else (the first page)."""
    if not text:
        return None
    game, _, ply = text.partition("-")
    if not (game.isdigit() and ply.isdigit()) or len(game) > 18 or len(ply) > 9:
        return None
    return int(game), int(ply)


def log_page(bot: Bot, wanted: LogFilter, size: int = PAGE_SIZE) -> LogPage:
    """One page of the bot's log, newest first. One query."""
    moves = bot_moves(bot)
    if wanted.fault == ANY_FAULT:
        moves = moves.exclude(fault_kind="")
    elif wanted.fault:
        moves = moves.filter(fault_kind=wanted.fault)
    if wanted.game is not None:
        moves = moves.filter(game_id=wanted.game)
    if wanted.before is not None:
        game, ply = wanted.before
        moves = moves.filter(Q(game_id__lt=game) | Q(game_id=game, ply__lt=ply))
    rows = list(
        moves.order_by("-game_id", "-ply").values_list(
            "game_id",
            "game__engine",
            "ply",
            "seat",
            "source",
            "latency_ms",
            "fault_kind",
            "fault_detail",
            "request_excerpt",
            "reply_excerpt",
            "created_at",
        )[: size + 1]
    )
    entries = [LogEntry(*row) for row in rows[:size]]
    more = len(rows) > size
    cursor = f"{entries[-1].game_id}-{entries[-1].ply}" if more and entries else None
    return LogPage(entries, cursor)


def log_marker(bot: Bot) -> str:
    """What changes whenever a move is added to one of the bot's seats: its unfinished games'
    ids and ply counts. One query.

    Moves are only written to a game that is not finished, and each claim of a
    ply raises the game's ``next_ply`` in the same transaction as its moves, so
    the owner page's cached sections (keyed on this, ``web.bots.views``)
    are rendered afresh after any new move; a finished game's moves never
    change (its finish bumps the fragments' ``results`` version). The games are
    found from the unfinished ones (``Game (status, last_progress_at)``'s
    index), then the bot's seat among them, so the cost is that of the games in
    play, not of the bot's history.

    Empty while the bot has no game in play. Part of the key of the owner page's
    ``{% cache %}`` fragment (moves bump no version).

    Read on every request of the page while the bot plays, so written as SQL (:func:`_marker_sql`):
    the ORM's compilation of this join was 0.57 of its 0.69 ms of CPU. A token
    bumped by every claim instead would put a cache write on the referee's
    path for each move (docs/architecture.md, "Signed in, warm").
    """
    connection = connections[Game.objects.db]
    with connection.cursor() as cursor:
        not_over = [Game.Status.SCHEDULED.value, Game.Status.RUNNING.value]
        cursor.execute(_marker_sql(), [*not_over, bot.competitor_id])
        playing = cursor.fetchall()
    return ",".join(f"{game}:{ply}" for game, ply in playing)


@functools.cache
def _marker_sql() -> str:
    """``log_marker``'s query: the ORM's own join, with the table and column names of the models."""
    game, seat = Game._meta, Seat._meta

    def column(meta: Any, name: str) -> str:
        return f"{_quote(meta.db_table)}.{_quote(meta.get_field(name).column)}"

    return (
        f"SELECT {column(game, 'id')}, {column(game, 'next_ply')} FROM {_quote(game.db_table)} "
        f"INNER JOIN {_quote(seat.db_table)} ON {column(game, 'id')} = {column(seat, 'game')} "
        f"WHERE {column(game, 'status')} IN (%s, %s) AND {column(seat, 'competitor')} = %s "
        f"ORDER BY {column(game, 'id')}"
    )


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
