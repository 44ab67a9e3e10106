"""Sequential rating of synthetic 4-player games, per system: games per second.

    .venv/bin/python -m bench.ratings [--games 100000] [--system elo] [--seed 7] [--repeat 3]

Recomputing a scope replays every finished game in order, so its speed is
bounded by the pure rating functions. Each measurement here rates the same
deterministic game log from scratch, keeping a dict of current ratings:

- ``pure``: ``ratings.systems`` functions, exactly as persistence calls them;
- ``package``: the bare library call with library objects kept between games
  (no conversion, no validation), i.e. what the package alone costs. Its time
  over the pure time is the share spent inside the package.

- ``recompute``: ``ratings.services.recompute.recompute_scope`` through a real
  database (``bench/ratings_db.py``): the log stored as finished games,
  then loaded, rated and bulk-written (COPY on PostgreSQL) per system.

Every measurement is timed twice: wall clock and this process's CPU
seconds (``time.process_time``). Games/s of pure and package are by CPU
time, so other work on a shared machine distorts them little; the recompute
is by wall clock, as the database server's work is not this process's CPU.
TrueSkill's target compares the recompute with the package on the *same*
clock, wall against wall, measured side by side in one run: a busy machine
slows both (the note also gives the stricter recompute wall against package
CPU). ``--repeat N`` runs every measurement N times, interleaved, and keeps
each one's fastest run (as ``timeit`` does): the run least disturbed by other
work. The header gives the machine's load average. The database defaults to a
throw-away SQLite file; for PostgreSQL (created if missing)::

    .venv/bin/python -m bench.ratings --games 20000 \
        --database-url postgres://postgres@127.0.0.1:5432/hm_bench_ratings

Prints a table; not a test.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import trueskill
from openskill.models import PlackettLuce

from engines import ranks_from_scores
from ratings.systems import SYSTEMS, RatingSystem

TARGET_GAMES_PER_SECOND = {"elo": 3000.0, "openskill": 3000.0}
TARGET_SHARE_OF_PACKAGE = {"trueskill": 0.8}
"""Recompute games/s at least this share of the bare package's (issue #17)."""


@dataclass(frozen=True, slots=True)
class SyntheticGame:
    """One finished game: competitor ids by seat and their ranks (1 = best)."""

    seats: tuple[int, ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Measurement:
    """Time to rate the whole log once, and the final ratings for cross-checks.

    ``seconds`` is the figure games/s is computed from (CPU for pure and
    package, wall for the recompute); ``wall`` and ``cpu`` are both clocks.
    """

    seconds: float
    final: dict[int, Any]
    wall: float = 0.0
    cpu: float = 0.0


def synthetic_games(
    games: int, players: int = 4, pool: int = 200, seed: int = 7
) -> list[SyntheticGame]:
    """A deterministic log: a pool with hidden skills, noisy integer scores.

    Skill differences make ratings drift apart as in a real ladder (so the
    math sees varied inputs, not 1500 everywhere), and rounding scores gives
    the occasional tie.
    """
    rng = random.Random(seed)
    skill = [rng.gauss(0.0, 1.0) for _ in range(pool)]
    log = []
    for _ in range(games):
        seats = tuple(rng.sample(range(pool), players))
        scores = [round(30.0 * skill[seat] + rng.gauss(0.0, 30.0)) for seat in seats]
        log.append(SyntheticGame(seats, tuple(ranks_from_scores(scores))))
    return log


def measure_pure(system: RatingSystem, log: Sequence[SyntheticGame]) -> Measurement:
    """Rate the log with the ``ratings.systems`` function of ``system``."""
    params = system.params()
    initial = system.initial_rating(params)
    rate = system.rate
    current: dict[int, Any] = {}
    wall, start = time.perf_counter(), time.process_time()
    for game in log:
        before = [current.get(seat, initial) for seat in game.seats]
        after = rate(before, list(game.ranks), **params)
        for seat, rating in zip(game.seats, after, strict=True):
            current[seat] = rating
    cpu, wall = time.process_time() - start, time.perf_counter() - wall
    return Measurement(cpu, current, wall, cpu)


def measure_package(system: RatingSystem, log: Sequence[SyntheticGame]) -> Measurement | None:
    """Rate the log with the bare library call; None for our own Elo (no package)."""
    params = system.params()
    if system.name == "trueskill":
        env = trueskill.TrueSkill(backend=None, **params)
        new: Callable[[], Any] = env.create_rating

        def rate(rated: list[Any], ranks: list[int]) -> list[Any]:
            return [group[0] for group in env.rate([(r,) for r in rated], ranks=ranks)]

    elif system.name == "openskill":
        model = PlackettLuce(**params)
        new = model.rating

        def rate(rated: list[Any], ranks: list[int]) -> list[Any]:
            return [team[0] for team in model.rate([[r] for r in rated], ranks=ranks)]

    else:
        return None
    current: dict[int, Any] = {}
    wall, start = time.perf_counter(), time.process_time()
    for game in log:
        before = [current[seat] if seat in current else new() for seat in game.seats]
        for seat, rating in zip(game.seats, rate(before, list(game.ranks)), strict=True):
            current[seat] = rating
    cpu, wall = time.process_time() - start, time.perf_counter() - wall
    final = {seat: (r.mu, r.sigma) for seat, r in current.items()}
    return Measurement(cpu, final, wall, cpu)


MEASUREMENTS: dict[str, Callable[[RatingSystem, Sequence[SyntheticGame]], Measurement | None]] = {
    "pure": measure_pure,
    "package": measure_package,
}
"""Each measurement rates the same log; ``recompute`` (the database) is added by main()."""


def largest_difference(a: dict[int, Any], b: dict[int, Any]) -> float:
    """Largest |mu| or |sigma| gap between two runs' final ratings (inf if rosters differ).

    The pure TrueSkill path rebuilds ``Rating(mu, sigma)`` each game, as the
    database will, while the bare path keeps the package's (pi, tau) form, so
    the two may differ in the last bits; anything larger would be a bug.
    """
    if a.keys() != b.keys():
        return float("inf")

    def pair(rating: Any) -> tuple[float, ...]:
        return tuple(rating) if isinstance(rating, tuple) else (rating,)

    return max(abs(x - y) for key in a for x, y in zip(pair(a[key]), pair(b[key]), strict=True))


def fastest(runs: Sequence[Measurement]) -> Measurement:
    """Each clock's least disturbed figure over several runs (as ``timeit`` keeps the min).

    Every clock separately: the run with the least CPU need not be the one with
    the least wall clock, and the share of the package compares walls.
    """
    best = min(runs, key=lambda run: run.seconds)
    return replace(best, wall=min(run.wall for run in runs), cpu=min(run.cpu for run in runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--pool", type=int, default=200, help="competitors in the pool")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--system", action="append", choices=sorted(SYSTEMS))
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs of each measurement, fastest kept"
    )
    parser.add_argument(
        "--no-db", action="store_true", help="skip the recompute through the database"
    )
    parser.add_argument(
        "--database-url", help="database for the recompute (default: a throw-away SQLite file)"
    )
    args = parser.parse_args()
    measurements = dict(MEASUREMENTS)
    if not args.no_db:
        from bench import ratings_db

        ratings_db.configure(args.database_url)
        measurements["recompute"] = ratings_db.measure_recompute

    log = synthetic_games(args.games, pool=args.pool, seed=args.seed)
    tied = sum(len(set(game.ranks)) < len(game.ranks) for game in log)
    database = "no database" if args.no_db else (args.database_url or "throw-away SQLite")
    print(
        f"{len(log)} games, 4 players, pool {args.pool}, seed {args.seed}, "
        f"{100 * tied / len(log):.1f}% with a tie; {database}; fastest of {args.repeat}; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    header = f"{'system':<10} {'measurement':<12} {'wall s':>7} {'CPU s':>7} {'games/s':>9}  note"
    print(header)
    for name in args.system or list(SYSTEMS):
        system = SYSTEMS[name]
        runs: dict[str, list[Measurement]] = {}
        for _ in range(max(1, args.repeat)):
            for label, measure in measurements.items():
                measurement = measure(system, log)
                if measurement is not None:
                    runs.setdefault(label, []).append(measurement)
        results = {label: fastest(taken) for label, taken in runs.items()}
        for label, measurement in results.items():
            rate = len(log) / measurement.seconds
            note = ""
            if label in ("pure", "recompute") and name in TARGET_GAMES_PER_SECOND:
                target = TARGET_GAMES_PER_SECOND[name]
                note = f"target {target:.0f}: {'met' if rate >= target else 'MISSED'}"
            if label == "recompute":
                if name in TARGET_SHARE_OF_PACKAGE and "package" in results:
                    package = results["package"]
                    share = package.wall / measurement.wall
                    target = TARGET_SHARE_OF_PACKAGE[name]
                    note = (
                        f"{100 * share:.0f}% of package speed (wall/wall), target "
                        f"{100 * target:.0f}%: {'met' if share >= target else 'MISSED'}; "
                        f"{100 * package.cpu / measurement.wall:.0f}% against package CPU"
                    )
                gap = largest_difference(measurement.final, results["pure"].final)
                note += f"; loads+rates+writes; final ratings differ by <= {gap:.1e}"
            elif label != "pure":
                share = measurement.seconds / results["pure"].seconds
                gap = largest_difference(measurement.final, results["pure"].final)
                note = (
                    f"package = {100 * share:.0f}% of pure time; "
                    f"final ratings differ by <= {gap:.1e}"
                )
            print(
                f"{name:<10} {label:<12} {measurement.wall:>7.2f} {measurement.cpu:>7.2f} "
                f"{rate:>9.0f}  {note}"
            )


if __name__ == "__main__":
    main()
