"""Who sits where at a table: seat positions balanced over the event.

Going first (or last) matters in all four games, so no entrant should sit in
one position much more often than another. Each table's seat order is the
permutation of its entrants that costs least, where an entrant in seat p
costs ``(s + 1) ** level``, ``level`` being how many more times it already
sat in p than in its least-used seat of the table (``s`` seats). Level 0 is
a seat it sat in least; one entrant pushed a level higher outweighs every
other seat at the table, so an order in which everybody gets a least-used
seat is always taken when one exists, and otherwise the fewest entrants are
pushed the least far. Among equal orders the entrant who sat first least
often goes first, and remaining ties are broken by a draw from the event
seed, so the order is fair, explainable and repeatable.

A round at a time this keeps every entrant's counts within one of each
other whenever its tables allow it, but it cannot choose the tables: three
entrants who all sat first last round and share a table of three now push
one of them to a second first seat. Formats that plan ahead do better (the
round robin's designs come with balanced seats, and its local search
prefers tables where everybody can get a least-used seat).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import permutations

from tournaments.formats.base import History, Table

EXHAUSTIVE_UP_TO = 6
"""Largest table whose seat orders are all tried (720); larger tables go greedy."""


def seat_counts(history: History) -> dict[int, Counter[int]]:
    """Entrant key -> how many times it sat in each position (0 is first)."""
    counts: dict[int, Counter[int]] = {}
    for result in history.results:
        for position, key in enumerate(result.seats):
            counts.setdefault(key, Counter())[position] += 1
    return counts


def balance_seats(
    groups: Sequence[Sequence[int]], history: History, seed: str, round_number: int
) -> tuple[Table, ...]:
    """Order each group of entrant keys into seats; the groups keep their order."""
    counts = seat_counts(history)
    rng = random.Random(f"{seed}:seats:{round_number}")
    return tuple(Table(seats=_order(list(group), counts, rng)) for group in groups)


def _order(
    group: list[int], counts: dict[int, Counter[int]], rng: random.Random
) -> tuple[int, ...]:
    rng.shuffle(group)  # the draw that breaks ties: the first order found wins among equals
    empty: Counter[int] = Counter()
    size = len(group)
    if size > EXHAUSTIVE_UP_TO:
        return _greedy(group, counts)
    base = size + 1  # one entrant a level higher outweighs every other seat at the table
    level = {
        key: [
            counts.get(key, empty)[p] - min(counts.get(key, empty)[q] for q in range(size))
            for p in range(size)
        ]
        for key in group
    }

    def cost(order: tuple[int, ...]) -> tuple[int, int]:
        load = sum(base ** level[key][position] for position, key in enumerate(order))
        return load, counts.get(order[0], empty)[0]

    return min(permutations(group), key=cost)


def _greedy(group: list[int], counts: dict[int, Counter[int]]) -> tuple[int, ...]:
    """Position by position, the entrant who sat there least (stable in the shuffled order)."""
    empty: Counter[int] = Counter()
    left = list(group)
    order = []
    for position in range(len(group)):
        best = min(left, key=lambda key: counts.get(key, empty)[position])
        left.remove(best)
        order.append(best)
    return tuple(order)
