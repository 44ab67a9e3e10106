"""Rebuild a scope's ratings from the finished-game log, fast and exactly.

The whole scope is computed in memory with the same :mod:`ratings.ledger`
functions live application uses, in the same (finish) order, then written
with bulk inserts in one transaction: readers see the old ratings or the new
ones, never a mix.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.db import connection, transaction

from tournaments.models import Game, Seat

from . import ledger
from .models import Rating, RatingChange, RatingScope
from .results import rated_seats
from .scopes import games_of
from .systems import get_system

BATCH = 5000
CHANGE_FIELDS = (
    "game", "competitor", "scope", "system", "rank",
    "before_value", "before_sigma", "after_value", "after_sigma",
)  # fmt: skip
"""Columns of a change row, in the order :func:`compute` builds them."""


def load_results(scope: RatingScope) -> list[ledger.GameResult]:
    """The scope's finished rated games as GameResults, in finish order (two queries)."""
    games = list(games_of(scope).values_list("pk", "finished_at", "outcome__ranks"))
    seats: dict[int, list[tuple[int, bool, bool]]] = {}
    rows = Seat.objects.filter(game__in=games_of(scope)).order_by("game_id", "position")
    for game_id, competitor_id, forfeited, withdrawn in rows.values_list(
        "game_id", "competitor_id", "forfeited", "withdrawn"
    ):
        seats.setdefault(game_id, []).append((competitor_id, forfeited, withdrawn))
    results = []
    for pk, finished_at, ranks in games:
        table = seats.get(pk, [])
        positions, kept = rated_seats(ranks, [f for _, f, _ in table], [w for _, _, w in table])
        results.append(
            ledger.GameResult(
                game_id=pk,
                finished_at=finished_at,
                competitors=tuple(table[i][0] for i in positions),
                ranks=tuple(kept),
            )
        )
    return results


def compute(
    scope: RatingScope,
    system_name: str,
    results: Iterable[ledger.GameResult],
    progress: Callable[[Iterable[Any]], Iterable[Any]] = lambda it: it,
) -> tuple[list[Rating], list[tuple]]:
    """Ratings (unsaved models) and change rows (tuples of CHANGE_FIELDS) of one system.

    Changes are plain tuples: a recompute writes hundreds of thousands of them
    and building a model instance for each costs more than the rating math.
    """
    system = get_system(system_name)
    params = scope.systems[system_name]["params"]
    start = ledger.initial(system, params)
    current: dict[int, Rating] = {}
    changes: list[tuple] = []
    scope_id = scope.pk
    for result in progress(results):
        if not result.ratable:
            continue
        rows = []
        for c in result.competitors:
            row = current.get(c)
            if row is None:
                row = current[c] = Rating(
                    competitor_id=c, scope=scope, system=system_name, value=start[0],
                    sigma=start[1], score=ledger.score(system, start), games=0,
                )  # fmt: skip
            rows.append(row)
        before = [(r.value, r.sigma) for r in rows]
        after = ledger.rate_game(system, params, before, result.ranks)
        for row, old, new, rank in zip(rows, before, after, result.ranks, strict=True):
            row.value, row.sigma = new
            row.score = ledger.score(system, new)
            row.games += 1
            row.last_game_id = result.game_id
            row.last_game_at = result.finished_at
            changes.append(
                (result.game_id, row.competitor_id, scope_id, system_name, rank, *old, *new)
            )
    return list(current.values()), changes


def recompute_scope(
    scope: RatingScope,
    systems: Iterable[str] | None = None,
    progress: Callable[[Iterable[Any]], Iterable[Any]] = lambda it: it,
) -> dict[str, int]:
    """Replace the scope's ratings of ``systems`` (default: all of the scope's).

    Returns the number of games rated per system.
    """
    names = list(systems) if systems is not None else list(scope.systems)
    unknown = sorted(set(names) - set(scope.systems))
    if unknown:
        raise ValueError(f"scope {scope} has no system {unknown}; it has {sorted(scope.systems)}")
    results = load_results(scope)
    counts = {}
    with transaction.atomic():
        # Lock the scope's games against a live application racing the rebuild.
        list(Game.objects.select_for_update().filter(pk__in=[r.game_id for r in results]))
        for name in names:
            ratings, changes = compute(scope, name, results, progress)
            RatingChange.objects.filter(scope=scope, system=name).delete()
            Rating.objects.filter(scope=scope, system=name).delete()
            Rating.objects.bulk_create(ratings, batch_size=BATCH)
            _insert_changes(changes)
            counts[name] = sum(1 for r in results if r.ratable)
    return counts


def _insert_changes(rows: list[tuple]) -> None:
    """Bulk-insert change rows with one prepared statement (no model instances)."""
    meta = RatingChange._meta
    columns = [meta.get_field(name).column for name in CHANGE_FIELDS]
    quote = connection.ops.quote_name
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(c) for c in columns)}) "
        f"VALUES ({', '.join(['%s'] * len(columns))})"
    )
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH):
            cursor.executemany(sql, rows[start : start + BATCH])
