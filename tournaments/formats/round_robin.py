"""Round robin for k-player tables: every pair of entrants shares a table as equally as possible.

Three ways to make a round, the first that applies:

1. **Affine plane** (``n = q*q`` entrants in tables of ``q``, q a prime power:
   4, 9, 16, 25, 49, 64, 81 entrants): the q + 1 rounds meet every pair
   exactly once, and every entrant sits in every seat once (one seat twice).
2. **Circle method** (tables of two): n - 1 rounds (n for an odd n, one bye
   each), every pair once, first and second seat within one per entrant.
3. **Local search** (:mod:`.meetings`) for everything else: each round the
   tables that repeat the fewest (least-repeated-first) meetings, byes to whoever
   sat out least, seats from :func:`.seats.balance_seats`.

Entrants are mapped onto a design's points by a shuffle drawn from the event
seed, so who meets whom when is not known before the event seed is
revealed. A design is used only while it is *intact*: every table and bye of
the history is the design's for its round and the active entrants are the
design's field. Once an entrant withdraws (or the history departs from the
design for any other reason) the remaining rounds come from the local
search over the active entrants, counting every meeting already played, so
the rounds stay valid and as even as the search can make them.

The number of rounds is ``settings.rounds`` when given, otherwise enough for
each entrant to meet each other once on average:
``ceil(n * (n - 1) / sum(s * (s - 1)))`` over a round's table sizes ``s``
(q + 1 for a plane, n - 1 or n for the circle), counted from the field of
round 1 so a withdrawal does not change the length of the event.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from tournaments.formats import designs, meetings
from tournaments.formats.base import Entrant, FormatError, History, Round, Settings, Table
from tournaments.formats.seats import balance_seats, seat_counts
from tournaments.formats.sizes import table_sizes

name = "round_robin"


def check(entrant_count: int, settings: Settings) -> None:
    """Refuse settings or a field that cannot make a round (FormatError says what to change)."""
    if settings.min_table_size < 2:
        raise FormatError(
            "a table needs at least two players: raise the smallest table to 2 or more"
        )
    table_sizes(0, settings.table_size, settings.min_table_size)  # min <= table size
    if settings.rounds is not None and settings.rounds < 1:
        raise FormatError(f"a round robin needs at least one round, not {settings.rounds}")
    if entrant_count < settings.min_table_size:
        raise FormatError(
            f"{entrant_count} entrants are too few for even the smallest table "
            f"({settings.min_table_size} players): add entrants or allow smaller tables"
        )


def total_rounds(entrant_count: int, settings: Settings) -> int | None:
    """``settings.rounds``, or enough rounds for every pair to meet about once."""
    if settings.rounds is not None:
        return settings.rounds
    sizes, _ = table_sizes(entrant_count, settings.table_size, settings.min_table_size)
    seat_pairs = sum(s * (s - 1) for s in sizes)
    if seat_pairs == 0:
        return 0
    return -(-entrant_count * (entrant_count - 1) // seat_pairs)


def next_round(
    entrants: Sequence[Entrant],
    history: History,
    settings: Settings,
    round_number: int,
    seed: str,
) -> Round | None:
    """Round ``round_number``'s tables, or None once the event's rounds are played."""
    total = total_rounds(starting_field(entrants, history), settings)
    if total is not None and round_number > total:
        return None
    check(len(entrants), settings)
    keys = sorted(entrant.key for entrant in entrants)
    planned = design_round(keys, history, settings, round_number, seed)
    if planned is not None:
        return planned
    return searched_round(keys, history, settings, round_number, seed)


def starting_field(entrants: Sequence[Entrant], history: History) -> int:
    """How many entrants the event started with (round 1's tables and byes), else the field now."""
    first = [r for r in history.results if r.round == 1]
    started = {key for result in first for key in result.seats}
    started |= {bye.key for bye in history.byes if bye.round == 1}
    return len(started) or len(entrants)


def design_round(
    keys: list[int], history: History, settings: Settings, round_number: int, seed: str
) -> Round | None:
    """The design's round when a design fits this field and the history followed it, else None."""
    n, k = len(keys), settings.table_size
    q = designs.plane_order(n, k)
    if q is None and k != 2:
        return None
    points = list(keys)
    random.Random(f"{seed}:round_robin:design").shuffle(points)

    def planned(number: int) -> tuple[list[tuple[int, ...]], list[int]]:
        if q is not None:
            return [
                tuple(points[p] for p in line) for line in designs.plane_round(q, number - 1)
            ], []
        pairs, byes = designs.circle_round(n, number - 1)
        return [(points[a], points[b]) for a, b in pairs], [points[b] for b in byes]

    seen: dict[int, tuple[set[frozenset[int]], set[int]]] = {}
    for number in {r.round for r in history.results} | {b.round for b in history.byes}:
        if not 1 <= number < round_number:
            return None
        tables, byes = planned(number)
        seen[number] = ({frozenset(t) for t in tables}, set(byes))
    for result in history.results:
        if frozenset(result.seats) not in seen[result.round][0]:
            return None
    for bye in history.byes:
        if bye.key not in seen[bye.round][1]:
            return None
    tables, byes = planned(round_number)
    return Round(
        number=round_number,
        tables=tuple(Table(seats=t) for t in tables),
        byes=tuple(sorted(byes)),
    )


def meeting_counts(keys: Sequence[int], history: History) -> list[list[int]]:
    """How often each pair of ``keys`` shared a table in ``history`` (by index into ``keys``)."""
    index = {key: i for i, key in enumerate(keys)}
    counts = [[0] * len(keys) for _ in keys]
    for result in history.results:
        present = [index[key] for key in result.seats if key in index]
        for i, a in enumerate(present):
            for b in present[i + 1 :]:
                counts[a][b] += 1
                counts[b][a] += 1
    return counts


def least_used_seats(keys: Sequence[int], history: History, size: int) -> list[int]:
    """Per key, a bit mask of the seats ``0..size-1`` it sat in least often so far."""
    counts = seat_counts(history)
    masks = []
    for key in keys:
        sat = [counts.get(key, Counter())[p] for p in range(size)]
        least = min(sat)
        masks.append(sum(1 << p for p, c in enumerate(sat) if c == least))
    return masks


def searched_round(
    keys: list[int], history: History, settings: Settings, round_number: int, seed: str
) -> Round:
    """The local search's round for the active ``keys`` (sorted), seats balanced."""
    sizes, left_over = table_sizes(len(keys), settings.table_size, settings.min_table_size)
    sat_out = Counter(bye.key for bye in history.byes)
    problem = meetings.Problem(
        meetings=meeting_counts(keys, history),
        bye_counts=[sat_out[key] for key in keys],
        sizes=sizes,
        byes=left_over,
        seat_wants={size: least_used_seats(keys, history, size) for size in set(sizes)},
    )
    split = meetings.split_round(problem, random.Random(f"{seed}:round_robin:{round_number}"))
    groups = [[keys[i] for i in table] for table in split.tables]
    return Round(
        number=round_number,
        tables=balance_seats(groups, history, seed, round_number),
        byes=tuple(sorted(keys[i] for i in split.byes)),
    )
