"""The latest changes of a competitor's rating history, read per ladder through one index.

A competitor page draws, per ladder (rating scope) and system, the rating
after each of the competitor's latest ``limit`` counted games (a
:class:`~stats.models.CountedGame` mark). :func:`latest_changes` reads them
for every ladder in one query whose work does not grow with the history: it
starts from the competitor's ``Rating`` rows (one per scope and system,
written by the same transaction as the ladder's first change), finds for
each, walking the index ``rating_change_history`` (competitor, scope,
system, id) backwards, the id of the ``limit``-th latest counted change (a
primary-key probe of the marks per step), then reads the ladder's changes
from that id on, forwards through the same index. So about ``limit`` plus
the unmarked changes among them index entries per ladder, for 10 games of
history or 100,000. PostgreSQL runs it through ``LATERAL``; SQLite, which
has none, through a derived table with the same correlated subquery (one
query text each, the same rows).

The ladder's order is the id order, and that is the order the ratings were
applied, (game ``finished_at``, game id), which the chart used to sort by
with a join per change:

- live, ``ratings.services.apply_game_result`` locks the competitor's rating
  rows of the scope, then stamps the game's ``finished_at`` and inserts the
  changes, and holds the locks to commit: two games of one competitor in one
  scope get their ids and their ``finished_at`` in the same order;
- ``ratings.recompute`` deletes a scope's changes of a system and writes them
  again in replay order (``finished_at``, game id; COPY and multi-row INSERT
  give ids in row order), holding the scope locked: a live game waits and
  comes after, with later ids and a later ``finished_at``.

Every change is returned, marked or not, with the rating row's ``games``:
the caller numbers them from the last (``games``) down and draws only the
marked ones (``stats.competitor.rating_history``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import connection
from django.utils import timezone

from ratings.models import Rating, RatingChange, RatingScope
from tournaments.models import Game, League

from .models import CountedGame


@dataclass(frozen=True)
class ChangeRow:
    """One rating change of the competitor, with its ladder and the ladder's rating row."""

    scope_id: int
    kind: str
    engine: str
    league: str | None
    system: str
    games: int
    """``Rating.games``: the competitor's rated games in this ladder, the last change's number."""
    change_id: int
    game_id: int
    finished_at: datetime | None
    value: float
    sigma: float | None
    shown: bool
    """The game has a ``CountedGame`` mark: the chart draws it."""


def _tables() -> dict[str, str]:
    quote = connection.ops.quote_name
    models = {
        "ratings": Rating,
        "changes": RatingChange,
        "scopes": RatingScope,
        "leagues": League,
        "games": Game,
        "marks": CountedGame,
    }
    return {name: quote(model._meta.db_table) for name, model in models.items()}


# Where a ladder's read starts: the id of its limit-th latest marked change, or 0 when it has
# fewer (then every change is read). A ladder of at most ``limit`` rated games (``Rating.games``)
# starts at 0 without the walk: the read covers it all anyway, once instead of twice.
_SINCE = """CASE WHEN r.games <= %s THEN 0 ELSE COALESCE((
    SELECT x.id FROM {changes} x
    WHERE x.competitor_id = r.competitor_id AND x.scope_id = r.scope_id AND x.system = r.system
      AND EXISTS (SELECT 1 FROM {marks} m WHERE m.game_id = x.game_id)
    ORDER BY x.id DESC LIMIT 1 OFFSET %s), 0) END"""

# PostgreSQL: both walks are LATERAL, so each is an index scan per rating row. The mark of
# each change read is probed through a LATERAL ... LIMIT 1, which the planner cannot turn into
# a join: as an EXISTS in the select list it hashed every mark of the database (100,000 at the
# bench's size) to answer for a few hundred changes.
_POSTGRESQL = f"""SELECT r.scope_id, s.kind, s.engine, l.name, r.system, r.games,
    c.id, c.game_id, g.finished_at, c.after_value, c.after_sigma, m.shown IS NOT NULL
FROM {{ratings}} r
JOIN {{scopes}} s ON s.id = r.scope_id
LEFT JOIN {{leagues}} l ON l.id = s.league_id
CROSS JOIN LATERAL (
    SELECT y.id, y.game_id, y.after_value, y.after_sigma FROM {{changes}} y
    WHERE y.competitor_id = r.competitor_id AND y.scope_id = r.scope_id AND y.system = r.system
      AND y.id >= {_SINCE}
) c
JOIN {{games}} g ON g.id = c.game_id
LEFT JOIN LATERAL (
    SELECT true AS shown FROM {{marks}} m WHERE m.game_id = c.game_id LIMIT 1
) m ON true
WHERE r.competitor_id = %s
ORDER BY r.scope_id, r.system, c.id"""

# SQLite (no LATERAL): the start as a column of a derived table of the rating rows; its plans
# are nested loops over the indexes, the mark an EXISTS probe per change.
_SQLITE = f"""SELECT r.scope_id, s.kind, s.engine, l.name, r.system, r.games,
    c.id, c.game_id, g.finished_at, c.after_value, c.after_sigma,
    EXISTS (SELECT 1 FROM {{marks}} m WHERE m.game_id = c.game_id)
FROM (SELECT r.competitor_id, r.scope_id, r.system, r.games, {_SINCE} AS since
      FROM {{ratings}} r WHERE r.competitor_id = %s) r
JOIN {{scopes}} s ON s.id = r.scope_id
LEFT JOIN {{leagues}} l ON l.id = s.league_id
JOIN {{changes}} c ON c.competitor_id = r.competitor_id AND c.scope_id = r.scope_id
    AND c.system = r.system AND c.id >= r.since
JOIN {{games}} g ON g.id = c.game_id
ORDER BY r.scope_id, r.system, c.id"""


def latest_changes(competitor_id: int, limit: int) -> list[ChangeRow]:
    """Per ladder, the changes from the ``limit``-th latest marked one on, oldest first (one query).

    Ladders in (scope id, system) order. ``limit`` must be at least 1.
    """
    if limit < 1:
        raise ValueError("limit is at least 1")
    params = [limit, limit - 1, competitor_id]
    sql = _POSTGRESQL if connection.vendor == "postgresql" else _SQLITE
    with connection.cursor() as cursor:
        cursor.execute(sql.format(**_tables()), params)
        rows = cursor.fetchall()
    return [_row(*row) for row in rows]


def _row(
    scope_id: int,
    kind: str,
    engine: str,
    league: str | None,
    system: str,
    games: int,
    change_id: int,
    game_id: int,
    finished_at: datetime | str | None,
    value: float,
    sigma: float | None,
    shown: bool | int,
) -> ChangeRow:
    return ChangeRow(
        scope_id, kind, engine, league, system, games, change_id, game_id,
        _datetime(finished_at), value, sigma, bool(shown),
    )  # fmt: skip


def _datetime(value: datetime | str | None) -> datetime | None:
    """A raw cursor's ``finished_at`` as the ORM would give it (SQLite hands back text)."""
    if value is None or isinstance(value, datetime):
        return value
    parsed = datetime.fromisoformat(value)
    return timezone.make_aware(parsed, UTC) if timezone.is_naive(parsed) else parsed
