"""A competitor's games as records (the JSON export) and as CSV rows, under the spectator's rules.

Results (rank, score, forfeit) are null until a game is public in full, as
everywhere. The CSV is every matching game, read ``CHUNK`` at a time by the
list's own cursor, so memory stays flat however many games there are; a
name a spreadsheet would run as a formula is written as text.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from common import csv_text
from common.csv_text import spreadsheet_safe
from games.models import Competitor
from stats.selectors import competitor as stats
from stats.selectors.filters import GameFilters

CHUNK = 500
CSV_COLUMNS = (
    "game",
    "url",
    "engine",
    "status",
    "rated",
    "tournament",
    "created_at",
    "finished_at",
    "players",
    "seat",
    "rank",
    "score",
    "forfeited",
    "opponents",
)


def record(row: stats.CompetitorGame) -> dict[str, Any]:
    """One game of the export: the game, the competitor's seat and every seat."""
    game = row.game
    return {
        "id": game.pk,
        "engine": game.engine,
        "engine_name": row.summary.engine_name,
        "status": game.status,
        "rated": game.rated,
        "unrated_reason": game.unrated_reason or None,
        "tournament": game.tournament_id,
        "tournament_name": game.tournament.name if game.tournament_id else None,
        "created_at": game.created_at,
        "finished_at": game.finished_at,
        "seat": row.seat.as_dict() if row.seat is not None else None,
        "seats": [seat.as_dict() for seat in row.summary.seats],
    }


def all_rows(competitor: Competitor, filters: GameFilters) -> Iterator[stats.CompetitorGame]:
    """Every game matching ``filters``, newest first, ``CHUNK`` games per two queries."""
    cursor = replace(filters, before=None)
    while True:
        page = stats.games_page(competitor, cursor, size=CHUNK)
        yield from page.rows
        if page.next_before is None:
            return
        cursor = replace(cursor, before=page.next_before)


def _number(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def csv_row(row: stats.CompetitorGame) -> list[str]:
    game, seat = row.game, row.seat
    opponents = "; ".join(
        f"{s.competitor} ({s.rank})" if s.rank is not None else s.competitor
        for s in row.summary.seats
        if seat is None or s.position != seat.position
    )
    return [
        str(game.pk),
        f"/games/{game.pk}/",
        game.engine,
        game.status,
        "true" if game.rated else "false",
        spreadsheet_safe(game.tournament.name) if game.tournament_id else "",
        game.created_at.isoformat(),
        game.finished_at.isoformat() if game.finished_at else "",
        str(game.num_players),
        str(seat.position) if seat else "",
        str(seat.rank) if seat and seat.rank is not None else "",
        _number(seat.score) if seat else "",
        ("true" if seat.forfeited else "false") if seat and seat.forfeited is not None else "",
        spreadsheet_safe(opponents),
    ]


def csv_lines(competitor: Competitor, filters: GameFilters) -> Iterator[str]:
    """The CSV, header first, one line at a time."""
    return csv_text.lines(CSV_COLUMNS, (csv_row(row) for row in all_rows(competitor, filters)))
