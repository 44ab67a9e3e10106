"""Knockout: snake-seeded tables, the top ``advance`` of each go through, down to one final table.

A round of a field larger than one table:

* **Tables.** ``sizes.table_sizes`` splits the field (as many full tables as
  possible, the rest one seat smaller, never below the smallest table).
* **Byes.** When the field does not split exactly, the entrants left over
  are the *top seeds* (lowest ``Entrant.seed``): they go through to the next
  round without playing. A bye is a reward for seeding, as in tennis draws.
* **Snake seeding.** The others, best seed first, are dealt across tables
  1, 2, …, T, then T, …, 1, and so on (a full table is skipped), so every
  table gets a fair share of strong and weak seeds and the top seeds meet
  as late as possible. Two entrants of one owner dealt to one table are
  then swapped with entrants of the same tier at other tables where that
  separates them (``owners.separate``; unless the event allows them together).
* **Who goes through.** The top ``advance`` of each table by its result's
  ranks; equal ranks are broken by the higher game score, then by the
  better seed. An entrant who withdrew after playing is passed over: the
  next best *active* entrant of their table goes through in their place,
  so a withdrawal at a table costs the next round no place (a withdrawn
  bye does).

Survivors are seeded again by their original seed. When the field fits one
table (at most ``table_size``) that table is the final; after it,
``next_round`` returns None. Should fewer than the smallest table survive a
round (a withdrawal, or byes and advancers that add up short), the best
eliminated entrants of that round fill the final up to the smallest table
("lucky losers", best placed first by the same order as advancing; in
practice only when byes and advancers add up short, as 5 entrants in
tables of 4 with 2 going through: 1 bye + 2 = 3, and the best of the two
knocked out makes the fourth). If even they cannot fill it (withdrawals),
``next_round`` raises FormatError saying so; if one entrant is left, the
event is over (None).

Seats at every table come from :func:`.seats.balance_seats`.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.formats.base import Entrant, FormatError, History, Result, Round, Settings
from tournaments.formats.owners import separate
from tournaments.formats.seats import balance_seats
from tournaments.formats.sizes import table_sizes

name = "knockout"


def check(entrant_count: int, settings: Settings) -> None:
    """Refuse settings under which the field cannot shrink to a final table."""
    if settings.min_table_size < 2:
        raise FormatError(
            "a table needs at least two players: raise the smallest table to 2 or more"
        )
    table_sizes(0, settings.table_size, settings.min_table_size)  # min <= table size
    if settings.advance < 1:
        raise FormatError("at least one entrant of each table must go through (advance >= 1)")
    if settings.advance >= settings.min_table_size:
        raise FormatError(
            f"{settings.advance} going through from each table would knock nobody out of a "
            f"table of {settings.min_table_size}: let fewer go through than the smallest table"
        )
    if entrant_count < settings.min_table_size:
        raise FormatError(
            f"{entrant_count} entrants are too few for even the smallest table "
            f"({settings.min_table_size} players): add entrants or allow smaller tables"
        )


def field_sizes(entrant_count: int, settings: Settings) -> list[int]:
    """The field of each round, without withdrawals: ``[n, ..., final table]``."""
    fields = [entrant_count]
    while fields[-1] > settings.table_size:
        sizes, byes = table_sizes(fields[-1], settings.table_size, settings.min_table_size)
        fields.append(max(byes + settings.advance * len(sizes), settings.min_table_size))
    return fields


def total_rounds(entrant_count: int, settings: Settings) -> int | None:
    """Rounds until and including the final table."""
    return len(field_sizes(entrant_count, settings))


def deal(ranked: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Deal keys (best seed first) across tables of ``sizes`` in snake order, skipping full ones."""
    tables: list[list[int]] = [[] for _ in sizes]
    order = list(range(len(sizes))) + list(range(len(sizes) - 1, -1, -1))
    step = 0
    for key in ranked:
        while len(tables[order[step % len(order)]]) >= sizes[order[step % len(order)]]:
            step += 1
        tables[order[step % len(order)]].append(key)
        step += 1
    return tables


def placing(result: Result, seeds: dict[int, int]) -> list[int]:
    """The table's keys best first: rank, then higher score, then better seed."""
    rows = zip(result.seats, result.ranks, result.scores, strict=True)
    ordered = sorted(rows, key=lambda row: (row[1], -row[2], seeds.get(row[0], 1 << 30)))
    return [key for key, _, _ in ordered]


def next_round(
    entrants: Sequence[Entrant],
    history: History,
    settings: Settings,
    round_number: int,
    seed: str,
) -> Round | None:
    """The next round's tables; None after the final (or when one entrant is left)."""
    seeds = {entrant.key: entrant.seed for entrant in entrants}
    if round_number == 1:
        check(len(entrants), settings)
        field = sorted(seeds, key=seeds.__getitem__)
    else:
        previous = [r for r in history.results if r.round == round_number - 1]
        previous_byes = [b.key for b in history.byes if b.round == round_number - 1]
        if len(previous) == 1 and not previous_byes:
            return None  # that was the final table
        if not previous and not previous_byes:
            raise FormatError(f"round {round_number - 1} has no results yet")
        through: list[int] = list(previous_byes)
        out: list[tuple[int, int, float, int]] = []  # eliminated: (rank, -score, seed, key)
        for result in previous:
            ordered = [k for k in placing(result, seeds) if k in seeds]  # active only
            through += ordered[: settings.advance]
            ranks = dict(zip(result.seats, result.ranks, strict=True))
            scores = dict(zip(result.seats, result.scores, strict=True))
            out += [
                (ranks[k], -scores[k], seeds.get(k, 1 << 30), k)
                for k in ordered[settings.advance :]
            ]
        field = sorted((k for k in set(through) if k in seeds), key=seeds.__getitem__)
        if len(field) <= 1:
            return None  # everyone else withdrew: the one left has won
        if len(field) < settings.min_table_size:
            lucky = [k for *_, k in sorted(out) if k in seeds]
            field += lucky[: settings.min_table_size - len(field)]
            field.sort(key=seeds.__getitem__)
        if len(field) < settings.min_table_size:
            raise FormatError(
                f"only {len(field)} entrants are left, fewer than the smallest table "
                f"({settings.min_table_size}): the final cannot be played"
            )
    if len(field) <= settings.table_size:
        groups = [field]
        byes: list[int] = []
    else:
        sizes, left_over = table_sizes(len(field), settings.table_size, settings.min_table_size)
        byes = field[:left_over]
        groups = deal(field[left_over:], sizes)
        if settings.separate_owners:
            owners = {entrant.key: entrant.owner for entrant in entrants}
            groups = separate(groups, owners)
    return Round(
        number=round_number,
        tables=balance_seats(groups, history, seed, round_number),
        byes=tuple(byes),
    )
