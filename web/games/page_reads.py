"""The game page's seats and rating changes, read as plain rows by one SQL statement each.

A cold game page (``/games/<id>/``) spent most of its time building and
compiling its four ORM queries and the model objects they return, not in the
database (cProfile over 50 cold requests of a bench game: the seats' prefetch
with their ``Seat`` and ``Competitor`` objects and the ``RatingChange`` query
with ``select_related`` of its scope and league were half the view; the same
rows through a cursor cost a tenth). These two reads give the same rows as
those queries, tested against them (``tests/tournaments/test_game_page_reads.py``),
and the query count is unchanged. The SQL is plain ``JOIN``/``WHERE``, the
same on PostgreSQL and SQLite; table names come from the models.
"""

from __future__ import annotations

from typing import NamedTuple

from django.db import connection

from common.sql_tables import quoted_tables
from games import spectator
from games.models import Competitor, Game, Seat
from ratings.models import RatingChange, RatingScope
from tournaments.models import League


class SeatRow(NamedTuple):
    """A seat as the page shows it (``spectator.SeatRow`` and whether the seat withdrew)."""

    position: int
    competitor_id: int
    name: str
    kind: str
    forfeited: bool
    substituted: bool
    withdrawn: bool

    def public_row(self) -> tuple[int, int, str, str, bool, bool]:
        """The :data:`games.spectator.SeatRow` part, which ``public_seats`` reads."""
        return self[:6]


class ChangeRow(NamedTuple):
    """One ``RatingChange`` with what the results table needs of its scope."""

    scope_id: int
    scope_kind: str
    league_name: str | None
    competitor_id: int
    system: str
    before_value: float
    after_value: float
    before_sigma: float | None
    after_sigma: float | None


def _tables() -> dict[str, str]:
    return quoted_tables(
        seats=Seat, competitors=Competitor, changes=RatingChange, scopes=RatingScope, leagues=League
    )


_SEATS = """SELECT s.position, s.competitor_id, c.name, c.kind, s.forfeited, s.substituted,
    s.withdrawn
FROM {seats} s JOIN {competitors} c ON c.id = s.competitor_id
WHERE s.game_id = %s
ORDER BY s.position"""


def seat_rows(game_id: int) -> list[SeatRow]:
    """The game's seats in position order (one query)."""
    with connection.cursor() as cursor:
        cursor.execute(_SEATS.format(**_tables()), [game_id])
        rows = cursor.fetchall()
    # SQLite hands booleans back as 0 and 1.
    return [SeatRow(*row[:4], bool(row[4]), bool(row[5]), bool(row[6])) for row in rows]


# The engine's global ladder, and the league's when the game is a league's; global columns
# first, then by scope and the order the ledger wrote them (as ``rating_effects`` reads them).
_CHANGES = """SELECT x.scope_id, sc.kind, l.name, x.competitor_id, x.system,
    x.before_value, x.after_value, x.before_sigma, x.after_sigma
FROM {changes} x
JOIN {scopes} sc ON sc.id = x.scope_id
LEFT JOIN {leagues} l ON l.id = sc.league_id
WHERE x.game_id = %s
  AND ((sc.kind = %s AND sc.engine = %s) OR (sc.kind = %s AND sc.league_id = %s))
ORDER BY sc.kind, x.scope_id, x.id"""


def change_rows(game_id: int, engine: str, league_id: int | None) -> list[ChangeRow]:
    """The game's rating changes in its engine's global ladder and its league's (one query)."""
    global_, league = RatingScope.Kind.GLOBAL.value, RatingScope.Kind.LEAGUE.value
    params = [game_id, global_, engine, league, league_id]
    with connection.cursor() as cursor:
        cursor.execute(_CHANGES.format(**_tables()), params)
        return [ChangeRow(*row) for row in cursor.fetchall()]


def attach_seats(game: Game) -> frozenset[int]:
    """Give ``game`` its seats as rows (what ``spectator.public_seats`` reads); one query.

    Returns the positions of the seats that withdrew, for the results table.
    """
    rows = seat_rows(game.pk)
    setattr(game, spectator.SEAT_ROWS, [row.public_row() for row in rows])
    return frozenset(row.position for row in rows if row.withdrawn)
