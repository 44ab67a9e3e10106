"""Rebuild a scope's ratings from the finished-game log, fast and exactly.

The whole scope is computed in memory with the same :mod:`ratings.ledger`
functions live application uses, in the same (finish) order, then written
with bulk inserts in one transaction: readers see the old ratings or the new
ones, never a mix.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.db import transaction

from tournaments.models import Game, Seat

from . import ledger
from .models import Rating, RatingChange, RatingScope
from .results import final_ranks
from .scopes import games_of
from .systems import get_system

BATCH = 5000


def load_results(scope: RatingScope) -> list[ledger.GameResult]:
    """The scope's finished rated games as GameResults, in finish order (two queries)."""
    games = list(games_of(scope).values_list("pk", "finished_at", "outcome__ranks"))
    seats: dict[int, list[tuple[int, bool]]] = {}
    rows = Seat.objects.filter(game__in=games_of(scope)).order_by("game_id", "position")
    for game_id, competitor_id, forfeited in rows.values_list(
        "game_id", "competitor_id", "forfeited"
    ):
        seats.setdefault(game_id, []).append((competitor_id, forfeited))
    results = []
    for pk, finished_at, ranks in games:
        table = seats.get(pk, [])
        results.append(
            ledger.GameResult(
                game_id=pk,
                finished_at=finished_at,
                competitors=tuple(c for c, _ in table),
                ranks=tuple(final_ranks(ranks, [f for _, f in table])),
            )
        )
    return results


def compute(
    scope: RatingScope,
    system_name: str,
    results: Iterable[ledger.GameResult],
    progress: Callable[[Iterable[Any]], Iterable[Any]] = lambda it: it,
) -> tuple[list[Rating], list[RatingChange]]:
    """Ratings and changes of one system over ``results`` (unsaved model objects)."""
    system = get_system(system_name)
    params = scope.systems[system_name]["params"]
    start = ledger.initial(system, params)
    current: dict[int, Rating] = {}
    changes: list[RatingChange] = []
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
                RatingChange(
                    game_id=result.game_id, competitor_id=row.competitor_id, scope=scope,
                    system=system_name, rank=rank, before_value=old[0], before_sigma=old[1],
                    after_value=new[0], after_sigma=new[1],
                )
            )  # fmt: skip
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
            RatingChange.objects.bulk_create(changes, batch_size=BATCH)
            counts[name] = sum(1 for r in results if r.ratable)
    return counts
