"""Keeping one owner's entrants apart in a seeded deal (knockout's snake).

A snake deal gives every table one entrant of each *tier* (the first dealt
to each table, then the second, …), so tables are equally strong. Two
entrants of one owner at a table are a *clash*. :func:`separate` swaps
entrants of the same tier between tables while that removes clashes, so the
tables stay as strong as the deal made them, the way Tabbycat's draw swaps
teams of equal standing to avoid an institution clash. What cannot be
separated this way (an owner with more entrants than there are tables)
stays.

Pure: no Django. Entrants without an owner (None) never clash.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence


def clashes(table: Sequence[int], owners: Mapping[int, int | None]) -> int:
    """Pairs of entrants at ``table`` who share an owner."""
    counts = Counter(owners.get(key) for key in table)
    counts.pop(None, None)
    return sum(n * (n - 1) // 2 for n in counts.values())


MAX_PASSES = 10
"""Passes over all tables; each pass that changes nothing ends the search sooner."""


def separate(groups: Sequence[Sequence[int]], owners: Mapping[int, int | None]) -> list[list[int]]:
    """``groups`` (tables in deal order) with same-tier swaps that lower the clashes."""
    tables = [list(group) for group in groups]
    for _ in range(MAX_PASSES):
        changed = False
        for i, table in enumerate(tables):
            for tier, key in enumerate(table):
                if clashes(table, owners) == 0:
                    break
                if owners.get(key) is None or _alone(table, key, owners):
                    continue
                changed |= _swap_away(tables, i, tier, owners)
        if not changed:
            break
    return tables


def _alone(table: Sequence[int], key: int, owners: Mapping[int, int | None]) -> bool:
    mine = owners.get(key)
    return sum(owners.get(other) == mine for other in table) == 1


def _swap_away(
    tables: list[list[int]], i: int, tier: int, owners: Mapping[int, int | None]
) -> bool:
    """Swap ``tables[i][tier]`` with the same tier of another table if clashes drop."""
    for j, other in enumerate(tables):
        if j == i or tier >= len(other):
            continue
        before = clashes(tables[i], owners) + clashes(other, owners)
        tables[i][tier], other[tier] = other[tier], tables[i][tier]
        if clashes(tables[i], owners) + clashes(other, owners) < before:
            return True
        tables[i][tier], other[tier] = other[tier], tables[i][tier]
    return False
