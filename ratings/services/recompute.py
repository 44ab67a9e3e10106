"""Rebuild a scope's ratings from the finished-game log, fast and exactly.

The whole scope is computed in memory with the same :mod:`ratings.ledger`
functions live application uses, in the same (finish) order, then written in
bulk (:mod:`ratings.services.bulk`: COPY on PostgreSQL) in one transaction: readers see
the old ratings or the new ones, never a mix.

Exactly-once against live play: the transaction first locks the scope row
(``FOR UPDATE``), and ``apply_game_result`` takes a shared lock on every scope
it writes to before it checks whether the game is already rated
(``scopes.lock_for_apply``). So a game finishing during a rebuild either
committed before the rebuild's lock, and the rebuild, which loads the log
only once it holds the lock, rates it; or it waits for the rebuild to commit
and is then applied on top of the rebuilt ratings. It can be neither lost nor
counted twice; the unique ``one_change_per_game`` still backs this up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.db import transaction

from games.models import Seat
from ratings import ledger, signals
from ratings.models import Rating, RatingChange, RatingScope
from ratings.results import rated_seats
from ratings.services import bulk
from ratings.services.scopes import games_of
from ratings.systems import get_system

CHANGE_FIELDS = (
    "game", "competitor", "scope", "system", "rank",
    "before_value", "before_sigma", "after_value", "after_sigma",
)  # fmt: skip
"""Columns of a change row, in the order :func:`compute` builds them."""
RATING_FIELDS = (
    "competitor", "scope", "system", "value", "sigma", "score", "games",
    "last_game", "last_game_at",
)  # fmt: skip
"""Columns of a rating row, in the order :func:`compute` builds them."""

Progress = Callable[[Iterable[Any]], Iterable[Any]]


def load_results(scope: RatingScope) -> list[ledger.GameResult]:
    """The scope's finished rated games as GameResults, in finish order (two queries).

    Plain ``values_list`` rows, no model instances: a recompute loads every
    game and seat of the scope.
    """
    games = list(games_of(scope).values_list("pk", "finished_at", "outcome__ranks"))
    seats: dict[int, list[tuple[int, bool, bool]]] = {}
    rows = Seat.objects.filter(game__in=games_of(scope)).order_by("game_id", "position")
    for game_id, competitor_id, forfeited, withdrawn in rows.values_list(
        "game_id", "competitor_id", "forfeited", "withdrawn"
    ):
        seats.setdefault(game_id, []).append((competitor_id, forfeited, withdrawn))
    # A log holds few distinct (ranks, forfeits, withdrawals) patterns; rated_seats is pure,
    # so each pattern is worked out once rather than once per game.
    patterns: dict[tuple, tuple[tuple[int, ...], tuple[int, ...]]] = {}
    results = []
    for pk, finished_at, ranks in games:
        table = seats.get(pk, [])
        key = (tuple(ranks), tuple((f, w) for _, f, w in table))
        pattern = patterns.get(key)
        if pattern is None:
            positions, kept = rated_seats(ranks, [f for _, f, _ in table], [w for _, _, w in table])
            pattern = patterns[key] = (tuple(positions), tuple(kept))
        positions, kept = pattern
        results.append(
            ledger.GameResult(
                game_id=pk,
                finished_at=finished_at,
                competitors=tuple(table[i][0] for i in positions),
                ranks=kept,
            )
        )
    return results


class Replay:
    """One system's replay of a scope's log: change rows as they are made, then ratings.

    :meth:`changes` is a generator so the database can take each row while
    the next games are rated: COPY streams them to the server as they come,
    which overlaps the server's insert work with the rating math and keeps
    no list of every change in memory. Rows are plain tuples, not model
    instances: a recompute writes hundreds of thousands of them and building
    a model per row costs more than the math.
    """

    def __init__(self, scope: RatingScope, system_name: str) -> None:
        self.scope_id = scope.pk
        self.name = system_name
        self.system = get_system(system_name)
        self.params = scope.systems[system_name]["params"]
        self.start = ledger.initial(self.system, self.params)
        # competitor -> [value, sigma, games, last_game, last_game_at]
        self.current: dict[int, list[Any]] = {}
        self.rated = 0

    def changes(
        self, results: Iterable[ledger.GameResult], progress: Progress = lambda it: it
    ) -> Iterator[tuple]:
        """Rate every ratable game in order, yielding change rows (CHANGE_FIELDS)."""
        system, params, current, name, scope_id = (
            self.system, self.params, self.current, self.name, self.scope_id,
        )  # fmt: skip
        rate_game = ledger.rate_game
        for result in progress(results):
            if not result.ratable:
                continue
            rows = []
            for c in result.competitors:
                row = current.get(c)
                if row is None:
                    row = current[c] = [self.start[0], self.start[1], 0, None, None]
                rows.append(row)
            before = [(row[0], row[1]) for row in rows]
            after = rate_game(system, params, before, result.ranks)
            game_id, finished_at = result.game_id, result.finished_at
            for c, row, old, new, rank in zip(
                result.competitors, rows, before, after, result.ranks, strict=True
            ):
                row[0], row[1] = new
                row[2] += 1
                row[3] = game_id
                row[4] = finished_at
                yield (game_id, c, scope_id, name, rank, old[0], old[1], new[0], new[1])
            self.rated += 1

    def ratings(self) -> list[tuple]:
        """Final rating rows (RATING_FIELDS), once :meth:`changes` is exhausted."""
        score, system = ledger.score, self.system
        return [
            (c, self.scope_id, self.name, value, sigma, score(system, (value, sigma)), games,
             last, at)
            for c, (value, sigma, games, last, at) in self.current.items()
        ]  # fmt: skip


def compute(
    scope: RatingScope,
    system_name: str,
    results: Iterable[ledger.GameResult],
    progress: Progress = lambda it: it,
) -> tuple[list[tuple], list[tuple]]:
    """Rating rows and change rows of one system, as lists (for tests and tools)."""
    replay = Replay(scope, system_name)
    changes = list(replay.changes(results, progress))
    return replay.ratings(), changes


def recompute_scope(
    scope: RatingScope,
    systems: Iterable[str] | None = None,
    progress: Progress = lambda it: it,
) -> dict[str, int]:
    """Replace the scope's ratings of ``systems`` (default: all of the scope's).

    Returns the number of games rated per system.
    """
    names = list(systems) if systems is not None else list(scope.systems)
    unknown = sorted(set(names) - set(scope.systems))
    if unknown:
        raise ValueError(f"scope {scope} has no system {unknown}; it has {sorted(scope.systems)}")
    counts = {}
    with transaction.atomic():
        # Every rating of the scope changes: its ladder, competitor and game pages.
        signals.scope_recomputed.send(
            sender=RatingScope,
            engine=scope.engine,
            is_global=scope.kind == RatingScope.Kind.GLOBAL,
        )
        # Live applications of this scope wait from here to the commit (module docstring);
        # the log is read only now, so it holds every game committed before.
        RatingScope.objects.select_for_update().get(pk=scope.pk)
        results = load_results(scope)
        for name in names:
            # The old rows go as each writer's first statement (bulk.write_rows): on
            # PostgreSQL while the first games are being rated.
            mine = {"scope": scope.pk, "system": name}
            replay = Replay(scope, name)
            bulk.write_rows(
                RatingChange, CHANGE_FIELDS, replay.changes(results, progress), replacing=mine
            )
            bulk.write_rows(Rating, RATING_FIELDS, replay.ratings(), replacing=mine)
            counts[name] = replay.rated
    return counts
