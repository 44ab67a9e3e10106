"""The latest changes of a competitor's rating history, read per ladder through one index.

A competitor page draws, per ladder (rating scope) and system, the rating
after each of the competitor's latest ``limit`` counted games (a
:class:`~stats.models.CountedGame` mark). :func:`latest_changes` reads them
for every ladder in one query whose work does not grow with the history. It
starts from the competitor's ``Rating`` rows (one per scope and system,
written in the same transaction as the ladder's first change); for each, it
walks the index ``rating_change_history`` (competitor, scope, system, id)
backwards from the end to the ``limit``-th latest marked change (a
primary-key probe of the marks per step; skipped when the ladder has at most
``limit`` rated games), then reads the changes from there to the end, the
unmarked ones among them included, at most ``READ_CAP * limit``. So about
``limit`` index entries per ladder, twice, whether the history holds 10
games or 100,000. PostgreSQL runs it through ``LATERAL``; SQLite, which has
none, through a derived table and a correlated ``IN`` list (one query text
each, the same rows).

The ladder's order is the id order, and that is the order the ratings were
applied, (game ``finished_at``, game id), which the chart used to sort by
with a join per change:

- live, ``ratings.services.apply.apply_game_result`` locks the competitor's rating
  rows of the scope, then stamps the game's ``finished_at`` and inserts the
  changes, and holds the locks to commit: two games of one competitor in one
  scope get their ids and their ``finished_at`` in the same order;
- ``ratings.services.recompute`` deletes a scope's changes of a system and writes them
  again in replay order (``finished_at``, game id; COPY and multi-row INSERT
  give ids in row order), holding the scope locked: a live game waits and
  comes after, with later ids and a later ``finished_at``.

Every change is returned, marked or not, with the rating row's ``games``:
the caller numbers them from the last (``games``) down and draws only the
marked ones (``stats.selectors.competitor.rating_history``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import NamedTuple

from django.db import connection
from django.utils import timezone

from common.sql_tables import quoted_tables
from games.models import Game
from ratings.models import Rating, RatingChange, RatingScope
from stats.models import CountedGame
from tournaments.models import League


class ChangeRow(NamedTuple):
    """One rating change of the competitor, with its ladder and the ladder's rating row.

    A named tuple: made from the cursor's row as it is (thousands per page).
    """

    scope_id: int
    kind: str
    engine: str
    league: str | None
    system: str
    games: int
    """``Rating.games``: the competitor's rated games in this ladder, the last change's number."""
    change_id: int
    game_id: int
    finished: str | None
    """The game's ``finished_at`` in UTC as ``datetime.isoformat`` writes it (what the chart
    carries): as text from the query, since making thousands of datetimes only to write them
    out again was a sixth of the chart's CPU."""
    value: float
    sigma: float | None
    shown: bool
    """The game has a ``CountedGame`` mark: the chart draws it."""


READ_CAP = 2
"""A ladder's read stops after ``READ_CAP * limit`` changes, hidden ones included.

Hidden changes (rated games without a mark: a duplicate set still being
played) are few, so the cap is never met in practice; past it the chart
would draw fewer than ``limit`` points, still rightly numbered.
"""


def _tables() -> dict[str, str]:
    return quoted_tables(
        ratings=Rating,
        changes=RatingChange,
        scopes=RatingScope,
        leagues=League,
        games=Game,
        marks=CountedGame,
    )


# Where a ladder's read starts: the id of its limit-th latest marked change, or 0 when it has
# fewer (then every change is read). A ladder of at most ``limit`` rated games (``Rating.games``)
# starts at 0 without the walk: the read covers it all anyway, once instead of twice.
_SINCE = """CASE WHEN r.games <= %s THEN 0 ELSE COALESCE((
    SELECT x.id FROM {changes} x
    WHERE x.competitor_id = r.competitor_id AND x.scope_id = r.scope_id AND x.system = r.system
      AND EXISTS (SELECT 1 FROM {marks} m WHERE m.game_id = x.game_id)
    ORDER BY x.id DESC LIMIT 1 OFFSET %s), 0) END"""

# ``datetime.isoformat()`` of an aware UTC datetime: seconds, a fraction only when there are
# microseconds (six digits), then the offset; NULL stays NULL. ``g.utc`` is the instant as a
# UTC wall time.
_ISO_UTC = """(to_char(g.utc, 'YYYY-MM-DD"T"HH24:MI:SS')
    || CASE to_char(g.utc, 'US') WHEN '000000' THEN '' ELSE '.' || to_char(g.utc, 'US') END
    || '+00:00')"""

# PostgreSQL: the walks are LATERAL, so each is an index scan per rating row, and the read is
# capped by a LIMIT (READ_CAP): besides bounding it, the LIMIT keeps the planner's estimate
# at a ladder's size, not at the competitor's whole history (which made it hash every game
# of the database and compile the query with JIT, a second at 100,000 games). The game and
# its mark are probed per change through LATERAL ... LIMIT 1, which the planner cannot turn
# into a hash join over the whole table either. ``finished_at`` comes as the text
# ``datetime.isoformat`` writes for the instant in UTC (:data:`_ISO_UTC`): Django's loader for
# ``timestamptz`` (a Python subclass of psycopg's) was five sixths of this query's CPU for a
# page's 2,000 changes, and a datetime made in Python from the epoch a sixth of the chart's.
_POSTGRESQL = f"""SELECT r.scope_id, s.kind, s.engine, l.name, r.system, r.games,
    c.id, c.game_id, {_ISO_UTC}, c.after_value, c.after_sigma, m.shown IS NOT NULL
FROM {{ratings}} r
JOIN {{scopes}} s ON s.id = r.scope_id
LEFT JOIN {{leagues}} l ON l.id = s.league_id
CROSS JOIN LATERAL (
    SELECT y.id, y.game_id, y.after_value, y.after_sigma FROM {{changes}} y
    WHERE y.competitor_id = r.competitor_id AND y.scope_id = r.scope_id AND y.system = r.system
      AND y.id >= {_SINCE}
    ORDER BY y.id DESC LIMIT %s
) c
CROSS JOIN LATERAL (
    SELECT g.finished_at AT TIME ZONE 'UTC' AS utc FROM {{games}} g WHERE g.id = c.game_id LIMIT 1
) g
LEFT JOIN LATERAL (
    SELECT true AS shown FROM {{marks}} m WHERE m.game_id = c.game_id LIMIT 1
) m ON true
WHERE r.competitor_id = %s
ORDER BY r.scope_id, r.system, c.id"""

# SQLite (no LATERAL): the start as a column of a derived table of the rating rows, the cap
# as an IN list per rating row; its plans are nested loops over the indexes, the mark an
# EXISTS probe per change.
_SQLITE = f"""SELECT r.scope_id, s.kind, s.engine, l.name, r.system, r.games,
    c.id, c.game_id, g.finished_at, c.after_value, c.after_sigma,
    EXISTS (SELECT 1 FROM {{marks}} m WHERE m.game_id = c.game_id)
FROM (SELECT r.competitor_id, r.scope_id, r.system, r.games, {_SINCE} AS since
      FROM {{ratings}} r WHERE r.competitor_id = %s) r
JOIN {{scopes}} s ON s.id = r.scope_id
LEFT JOIN {{leagues}} l ON l.id = s.league_id
JOIN {{changes}} c ON c.id IN (
    SELECT y.id FROM {{changes}} y
    WHERE y.competitor_id = r.competitor_id AND y.scope_id = r.scope_id AND y.system = r.system
      AND y.id >= r.since
    ORDER BY y.id DESC LIMIT %s)
JOIN {{games}} g ON g.id = c.game_id
ORDER BY r.scope_id, r.system, c.id"""


def latest_changes(competitor_id: int, limit: int) -> list[ChangeRow]:
    """Per ladder, the changes from the ``limit``-th latest marked one on, oldest first (one query).

    Ladders in (scope id, system) order. ``limit`` must be at least 1.
    """
    if limit < 1:
        raise ValueError("limit is at least 1")
    since, cap = [limit, limit - 1], READ_CAP * limit
    if connection.vendor == "postgresql":
        sql, params = _POSTGRESQL, [*since, cap, competitor_id]
    else:
        sql, params = _SQLITE, [*since, competitor_id, cap]
    with connection.cursor() as cursor:
        cursor.execute(sql.format(**_tables()), params)
        rows = cursor.fetchall()
    if connection.vendor == "postgresql":  # the row as it comes: text, and booleans already
        return list(map(ChangeRow._make, rows))
    return [ChangeRow(*row[:8], _iso(row[8]), *row[9:11], bool(row[11])) for row in rows]


def _iso(value: datetime | str | None) -> str | None:
    """SQLite's ``finished_at`` as :data:`_ISO_UTC` writes it on PostgreSQL."""
    moment = _datetime(value)
    return None if moment is None else moment.astimezone(UTC).isoformat()


def _datetime(value: datetime | str | None) -> datetime | None:
    """A raw cursor's ``finished_at`` as the ORM would give it (SQLite hands back text)."""
    if value is None or isinstance(value, datetime):
        return value
    parsed = datetime.fromisoformat(value)
    return timezone.make_aware(parsed, UTC) if timezone.is_naive(parsed) else parsed
