"""A tiny deterministic format for the scheduler's tests: the scheduler must not care which.

Tables are filled in key order, rotated by one entrant per round so tables
change; ``rounds`` rounds (2 by default); left-over entrants get byes.
``FAIL_ROUNDS`` makes the named rounds raise FormatError, as a real format
refusing would.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.formats import Entrant, FormatError, History, Round, Settings, Table
from tournaments.formats.sizes import table_sizes

name = "fake"
FAIL_ROUNDS: set[int] = set()
CALLS: list[int] = []


def check(entrant_count: int, settings: Settings) -> None:
    if entrant_count < settings.min_table_size:
        raise FormatError(
            f"at least {settings.min_table_size} entrants are needed; {entrant_count} entered"
        )


def total_rounds(entrant_count: int, settings: Settings) -> int | None:
    return settings.rounds or 2


def next_round(
    entrants: Sequence[Entrant],
    history: History,
    settings: Settings,
    round_number: int,
    seed: str,
) -> Round | None:
    CALLS.append(round_number)
    if round_number in FAIL_ROUNDS:
        raise FormatError(f"round {round_number} refused by the test")
    if round_number > (settings.rounds or 2):
        return None
    keys = sorted(e.key for e in entrants)
    shift = (round_number - 1) % max(1, len(keys))
    keys = keys[shift:] + keys[:shift]
    sizes, _left = table_sizes(len(keys), settings.table_size, settings.min_table_size)
    tables, at = [], 0
    for size in sizes:
        tables.append(Table(seats=tuple(keys[at : at + size])))
        at += size
    return Round(number=round_number, tables=tuple(tables), byes=tuple(keys[at:]))
