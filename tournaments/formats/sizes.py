"""How many tables of which sizes a round has, and who must sit out."""

from __future__ import annotations

from tournaments.formats.base import FormatError


def table_sizes(count: int, table_size: int, min_table_size: int) -> tuple[list[int], int]:
    """Split ``count`` entrants into tables: (sizes, largest first; entrants left over).

    As many full tables as possible, the rest spread over tables one seat
    smaller, never below ``min_table_size`` (BGA's "minimum players per
    table"). When no split exists (10 entrants, tables of 4 to 4) the fewest
    entrants that make one possible sit out: the leftover count, which the
    format turns into byes. E.g. 10 in 4 (min 3) -> [4, 3, 3], 0;
    10 in 4 (min 4) -> [4, 4], 2; 2 in 3 (min 3) -> [], 2.
    """
    if not 1 <= min_table_size <= table_size:
        raise FormatError(
            f"the smallest table ({min_table_size}) must be between 1 and the table size "
            f"({table_size})"
        )
    for left_over in range(count + 1):
        seated = count - left_over
        if seated == 0:
            return [], count
        tables = -(-seated // table_size)  # ceil: as few tables as possible
        smallest = seated // tables
        if smallest >= min_table_size:
            extra = seated - smallest * tables
            return [smallest + 1] * extra + [smallest] * (tables - extra), left_over
    return [], count  # unreachable: left_over == count returns above
