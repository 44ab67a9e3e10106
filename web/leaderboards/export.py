"""A leaderboard's rows as export records (the JSON API) and as CSV rows.

Both carry the same fields, in the same order as the page shows the rows:
rank, the competitor (id, name, kind), games, provisional, value (the Elo
rating or mu), sigma (empty for Elo), score (what ranks) and the competitor
page's path. Names a spreadsheet would run as a formula are written as text
(:mod:`common.csv_text`, as in ``standings.csv``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from common import csv_text
from ratings.models import RatingScope
from web.id_paths import id_paths
from web.leaderboards import ranking as leaderboards
from web.leaderboards.ranking import Ladder, LeaderboardRow

CSV_COLUMNS = (
    "rank",
    "competitor",
    "name",
    "kind",
    "games",
    "provisional",
    "value",
    "sigma",
    "score",
    "url",
)


def competitor_path(row: LeaderboardRow) -> str:
    """The competitor's page (``/competitors/<id>/`` redirects to the bot's or person's)."""
    return row.url


def record(row: LeaderboardRow) -> dict[str, Any]:
    """One row of the JSON export."""
    return {
        "rank": row.rank,
        "competitor": row.competitor_id,
        "name": row.competitor,
        "kind": row.kind,
        "games": row.games,
        "provisional": row.provisional,
        "value": row.value,
        "sigma": row.sigma,
        "score": row.score,
        "url": competitor_path(row),
        "anchor": row.anchor or None,
    }


def _number(value: float | None) -> str:
    """Every digit Python keeps (``repr``), so the CSV equals the JSON; empty when missing."""
    return "" if value is None else repr(float(value))


def csv_row(row: LeaderboardRow, path: Callable[[int], str] | None = None) -> list[str]:
    """One CSV row; ``path`` writes the competitor's page from its id (``id_paths``, looked up
    once per export), :func:`competitor_path` when not given."""
    return [
        str(row.rank),
        str(row.competitor_id),
        csv_text.spreadsheet_safe(row.competitor),
        row.kind,
        str(row.games),
        "true" if row.provisional else "false",
        _number(row.value),
        _number(row.sigma),
        _number(row.score),
        path(row.competitor_id) if path is not None else competitor_path(row),
    ]


def csv_lines(scope: RatingScope | None, ladder: Ladder) -> Iterator[str]:
    """The whole board as CSV, header first, read :data:`~leaderboards.EXPORT_CHUNK` at a time
    and handed on 100 lines at a time."""
    rows = leaderboards.every_row(scope, ladder)
    path = id_paths("stats:competitor")
    return csv_text.batched(csv_text.lines(CSV_COLUMNS, (csv_row(row, path) for row in rows)))
