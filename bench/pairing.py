"""Pairing speed: milliseconds to pair one round, and how it grows with the field.

    .venv/bin/python -m bench.pairing [--sizes 100 1000 10000] [--table-size 4]
                                      [--history 3] [--runs 5] [--seed 7]

For each field size, a Swiss event is simulated for ``--history`` rounds
(each round paired by ``formats.swiss`` and given random results, ties
included), then the next round is paired ``--runs`` times from that same
history; the median is printed, with the growth factor over the previous
size (x10 entrants: about 10-13 for O(n log n), 100 for all-pairs work) and
the round's repeat meetings as a check that speed was not bought with
quality. Times are CPU seconds of this process (``time.process_time``): the
pairing is pure Python, so other work on a shared machine does not distort
them. Prints a table; not a test.

The arena's matchmaking pass over as many waiting bots is timed beside it
(:data:`MEASUREMENTS`: (entrant count, :class:`Options`) -> :class:`Timing`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from tournaments.formats import swiss
from tournaments.formats.base import Bye, Entrant, History, Result, Round, Settings


@dataclass(frozen=True, slots=True)
class Timing:
    """The median time of one measurement at one size, and a note on the result."""

    milliseconds: float
    note: str = ""


def simulate(count: int, settings: Settings, rounds: int, seed: int) -> History:
    """``rounds`` of a Swiss event of ``count`` entrants with random results."""
    rng = random.Random(seed)
    entrants = [Entrant(key=key, seed=key) for key in range(1, count + 1)]
    history = History()
    for number in range(1, rounds + 1):
        round_ = swiss.next_round(entrants, history, settings, number, str(seed))
        assert round_ is not None
        results = []
        for table in round_.tables:
            size = len(table.seats)
            ranks = tuple(rng.randint(1, size) for _ in range(size))
            scores = tuple(float(10 * (size - rank) + rng.randint(0, 9)) for rank in ranks)
            results.append(Result(number, table.seats, ranks, scores))
        history = History(
            history.results + tuple(results),
            history.byes + tuple(Bye(number, key) for key in round_.byes),
        )
    return history


def repeats(round_: Round, history: History) -> int:
    """Earlier meetings among tablemates of the round (the pairing's first goal: 0)."""
    met = Counter(frozenset(pair) for r in history.results for pair in combinations(r.seats, 2))
    return sum(
        met[frozenset(pair)] for table in round_.tables for pair in combinations(table.seats, 2)
    )


@dataclass(frozen=True, slots=True)
class Options:
    """The command line, as every measurement sees it."""

    table_size: int
    history: int
    runs: int
    seed: int


def measure_swiss(count: int, options: Options) -> Timing:
    """Pair the round after ``options.history`` simulated rounds of a Swiss event."""
    settings = Settings(
        table_size=options.table_size,
        min_table_size=max(2, options.table_size - 1),
        rounds=options.history + 1,
    )
    history = simulate(count, settings, options.history, options.seed)
    entrants = [Entrant(key=key, seed=key) for key in range(1, count + 1)]
    number = options.history + 1
    times = []
    round_ = None
    for _ in range(options.runs):
        start = time.process_time()
        round_ = swiss.next_round(entrants, history, settings, number, str(options.seed))
        times.append(time.process_time() - start)
    assert round_ is not None
    note = (
        f"round {number}: {len(round_.tables)} tables, {len(round_.byes)} byes, "
        f"{repeats(round_, history)} repeat meetings"
    )
    return Timing(1000 * statistics.median(times), note)


Measure = Callable[[int, Options], Timing]
"""(entrant count, options) -> the median time of one pass at that size."""


def _measure_arena(count: int, options: Options) -> Timing:
    """One arena matchmaking pass over ``count`` waiting bots (``bench.arena``)."""
    from bench.arena import measure_arena

    return measure_arena(count, options)


MEASUREMENTS: dict[str, Measure] = {
    "swiss round": measure_swiss,
    "arena pass": _measure_arena,
}
"""What is timed at every size, in order (label -> measurement)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10_000])
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--history", type=int, default=3, help="rounds played before")
    parser.add_argument("--runs", type=int, default=5, help="runs per size (median)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(
        f"median of {args.runs} runs, CPU ms, after {args.history} rounds of random results, "
        f"seed {args.seed}"
    )
    options = Options(args.table_size, args.history, args.runs, args.seed)
    print(f"{'measurement':<14} {'entrants':>8} {'ms':>9} {'growth':>7}  note")
    for label, measure in MEASUREMENTS.items():
        previous: tuple[int, float] | None = None
        for count in args.sizes:
            timing = measure(count, options)
            growth = ""
            if previous is not None:
                factor = timing.milliseconds / previous[1] if previous[1] else float("inf")
                growth = f"x{factor:.1f}"
                timing_note = f"{timing.note}; x{count / previous[0]:.0f} entrants"
            else:
                timing_note = timing.note
            print(f"{label:<14} {count:>8} {timing.milliseconds:>9.1f} {growth:>7}  {timing_note}")
            previous = (count, timing.milliseconds)


if __name__ == "__main__":
    main()
