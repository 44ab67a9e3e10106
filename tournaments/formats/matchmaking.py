"""Arena matchmaking: which free entrants of a league sit down together now.

A league's arena has no rounds: every few seconds Celery beat runs a pass
(``tournaments.arena``) that hands the entrants free to play to :func:`match`
and starts a game per table it returns. The rule, in order:

1. **Who seeds a table.** Candidates are taken in priority order: the
   longest waiting first, then the fewest games played, then a draw from
   the pass seed. Each candidate not yet seated seeds one table.
2. **Who joins it.** Its opponents come from a window of the candidates
   nearest to it in rating (``radius`` on each side, in rating order), each
   drawn in turn with a weight ``exp(-|rating - seed's rating| / temperature)``
   (a softmax over rating distance): mostly close opponents, but every
   candidate in the window has a chance, so a leader still meets the field.
   The longer the seed has waited, the wider the window and the flatter the
   weights: both grow by a factor ``1 + waiting / widen_seconds`` (the
   window at most ``MAX_WIDENING`` times), so a candidate nobody near it in
   rating can join is not stranded.
3. **Owners.** At most one entrant per owner at a table, unless every one
   of that owner's entrants at the table allows sharing (``shares``).
   Candidates without an owner (``owner=None``: the service's house bots)
   never conflict.
4. **Capacity.** A candidate with no capacity left (already playing as many
   games as it allows) is not seated; one seated is at one table per pass.
5. **Table sizes.** The sizes follow ``formats.sizes.table_sizes`` for the
   candidates still free: as many full tables as possible, the rest one
   seat smaller, never below ``min_table_size``. When the window cannot
   fill the table (owner conflicts), a table of at least ``min_table_size``
   is built from owner groups instead; the first seed (the longest waiting)
   is then searched among all candidates, so it sits down whenever any
   table with it can be formed at all.
6. **Seats.** Each table's seat order is shuffled by the pass seed: in a
   continuous arena every entrant sits in each position equally often in
   expectation.

Cost: two sorts and, per table, a walk of the window in a linked list of the
still-free candidates in rating order, so a pass is O(n log n + n·radius):
no all-pairs loop (``bench/arena.py`` measures 10,000 candidates).

Pure: no Django, no database; every random choice comes from ``seed``.
"""

from __future__ import annotations

import math
import random
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.formats.base import FormatError

DEFAULT_TEMPERATURE = 25.0 / 6.0
"""Rating distance at which an opponent's weight drops by e; TrueSkill's beta (one skill class)."""

DEFAULT_WIDEN_SECONDS = 60.0
"""After this long waiting, a seed's window is twice as wide and its weights twice as flat."""

MAX_WIDENING = 8.0
"""The window grows at most this many times (keeps a pass linear)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """An entrant free to be seated, as matchmaking sees it.

    ``rating`` is a skill estimate on any one scale (the league uses
    TrueSkill's mu); ``owner`` the owning user (None: nobody's, never
    conflicts); ``waiting`` seconds since it became free (0 while it already
    plays a game); ``capacity`` how many more games it may start now;
    ``shares`` whether its owner allows it at a table with their other entrants.
    """

    key: int
    rating: float
    owner: int | None = None
    waiting: float = 0.0
    games_played: int = 0
    capacity: int = 1
    shares: bool = False


def check(table_size: int, min_table_size: int) -> None:
    """Raise FormatError unless an arena may seat tables of these sizes."""
    if not 2 <= min_table_size <= table_size:
        raise FormatError(
            f"arena tables need 2 or more seats and the smallest table ({min_table_size}) "
            f"at most the table size ({table_size})"
        )


def match(
    candidates: Sequence[Candidate],
    table_size: int,
    min_table_size: int,
    seed: str,
    *,
    temperature: float = DEFAULT_TEMPERATURE,
    radius: int | None = None,
    widen_seconds: float = DEFAULT_WIDEN_SECONDS,
) -> list[tuple[int, ...]]:
    """The tables of one pass: candidate keys in seat order, seeds' tables first.

    ``radius`` is how many free candidates on each side of a seed, in rating
    order, may join its table (default three tables' worth of opponents).
    Raises FormatError for impossible sizes, duplicate keys or a rating that
    is not a finite number.
    """
    check(table_size, min_table_size)
    if temperature <= 0 or widen_seconds <= 0:
        raise FormatError("temperature and widen_seconds must be positive")
    radius = radius if radius is not None else 3 * (table_size - 1)
    if radius < table_size - 1:
        raise FormatError(f"radius {radius} cannot fill a table of {table_size}")
    if len({c.key for c in candidates}) != len(candidates):
        raise FormatError("each candidate may be given once")
    if not all(math.isfinite(c.rating) and math.isfinite(c.waiting) for c in candidates):
        raise FormatError("ratings and waiting times must be finite numbers")
    return _Pass(candidates, table_size, min_table_size, seed, temperature, radius,
                 widen_seconds).run()  # fmt: skip


class _Pass:
    """One matchmaking pass; the free candidates are a linked list in rating order."""

    def __init__(
        self,
        candidates: Sequence[Candidate],
        table_size: int,
        min_table_size: int,
        seed: str,
        temperature: float,
        radius: int,
        widen_seconds: float,
    ) -> None:
        self.rng = random.Random(f"arena:{seed}")
        draw = {key: self.rng.random() for key in sorted(c.key for c in candidates)}
        eligible = [c for c in candidates if c.capacity >= 1]
        # Rating order (keys break ties, so the order depends on nothing but the input).
        self.cands = sorted(eligible, key=lambda c: (c.rating, c.key))
        n = len(self.cands)
        self.rating = array("d", [c.rating for c in self.cands])  # the inner loops read them
        self.owner = [c.owner for c in self.cands]
        self.shares = [c.shares for c in self.cands]
        self.prev = array("l", range(-1, n - 1))  # -1: none
        self.next = array("l", [*range(1, n), -1] if n else [])
        self.head = 0 if n else -1
        self.free = [True] * n
        self.left = n
        self.priority = sorted(
            range(n),
            key=lambda i: (-self.cands[i].waiting, self.cands[i].games_played,
                           draw[self.cands[i].key]),
        )  # fmt: skip
        self.table_size, self.min_table_size = table_size, min_table_size
        self.temperature, self.radius, self.widen = temperature, radius, widen_seconds

    def run(self) -> list[tuple[int, ...]]:
        tables = []
        for rank, seed in enumerate(self.priority):
            if not self.free[seed]:
                continue
            size = first_table_size(self.left, self.table_size, self.min_table_size)
            if not size:
                break
            members = self._table(seed, size, everywhere=rank == 0)
            if members is None:
                continue
            for i in members:
                self._take(i)
            keys = [self.cands[i].key for i in members]
            self.rng.shuffle(keys)
            tables.append(tuple(keys))
        return tables

    # ------------------------------------------------------------ one table
    def _table(self, seed: int, size: int, *, everywhere: bool) -> list[int] | None:
        """Seed plus opponents (``size`` in all if possible, at least the minimum), or None."""
        cand = self.cands[seed]
        widening = 1.0 + cand.waiting / self.widen
        window = self._window(seed, math.ceil(self.radius * min(widening, MAX_WIDENING)))
        want = size - 1
        chosen = self._sample(seed, window, want, self.temperature * widening)
        if len(chosen) < self.min_table_size - 1:
            chosen = self._grouped(seed, window, want)
        if len(chosen) < self.min_table_size - 1 and everywhere:
            chosen = self._grouped(seed, self._all_free(seed), want)
        if len(chosen) < self.min_table_size - 1:
            return None
        return [seed, *chosen]

    def _window(self, seed: int, radius: int) -> list[int]:
        """Up to ``radius`` free candidates on each side of ``seed`` in rating order."""
        found = []
        for links in (self.prev, self.next):
            i, steps = links[seed], 0
            while i != -1 and steps < radius:
                found.append(i)
                i, steps = links[i], steps + 1
        return found

    def _all_free(self, seed: int) -> list[int]:
        found, i = [], self.head
        while i != -1:
            if i != seed:
                found.append(i)
            i = self.next[i]
        return found

    def _sample(self, seed: int, window: list[int], want: int, temperature: float) -> list[int]:
        """Draw up to ``want`` opponents, softmax over rating distance, keeping the owner rule."""
        rating, owner = self.rating, self.owner
        owners: dict[int, bool] = {}  # owner at the table -> all their entrants there share
        pool = list(window)
        in_pool = Counter(owner[i] for i in pool)
        pool = self._admit(owners, seed, pool, in_pool)
        weights = [math.exp(-abs(rating[i] - rating[seed]) / temperature) for i in pool]
        chosen: list[int] = []
        while len(chosen) < want and pool:
            point, at = self.rng.random() * sum(weights), len(pool) - 1
            for index, weight in enumerate(weights):
                point -= weight
                if point < 0:
                    at = index
                    break
            pick = pool.pop(at)
            weights.pop(at)
            in_pool[owner[pick]] -= 1
            chosen.append(pick)
            kept = self._admit(owners, pick, pool, in_pool)
            if len(kept) < len(pool):
                still = set(kept)
                weights = [w for i, w in zip(pool, weights, strict=True) if i in still]
                pool = kept
        return chosen

    def _admit(
        self, owners: dict[int, bool], member: int, pool: list[int], in_pool: Counter
    ) -> list[int]:
        """Seat ``member``'s owner at the table; the pool without whom that shuts out.

        Only entrants of the same owner can be shut out, so the pool is only
        scanned when some are in it (rare: the usual pass costs no scan).
        """
        mine = self.owner[member]
        if mine is None:
            return pool
        _seat_owner(owners, mine, self.shares[member])
        if not in_pool[mine]:
            return pool
        kept = [i for i in pool if _fits(owners, self.owner[i], self.shares[i])]
        in_pool[mine] -= len(pool) - len(kept)
        return kept

    def _grouped(self, seed: int, pool: list[int], want: int) -> list[int]:
        """The nearest ``want`` opponents of the largest table ``pool`` can give ``seed``.

        Per other owner: all their sharing entrants if there are two or more,
        else their nearest one; the seed's own owner's other entrants only if
        the seed and they share. Any subset of that is a lawful table.
        """
        cands, me = self.cands, self.cands[seed]
        groups: dict[int, list[int]] = {}
        allowed = []
        for i in pool:
            if cands[i].owner is None:
                allowed.append(i)
            else:
                groups.setdefault(cands[i].owner, []).append(i)

        def distance(i: int) -> tuple[float, int]:
            return abs(cands[i].rating - me.rating), cands[i].key

        for owner, members in groups.items():
            sharing = [i for i in members if cands[i].shares]
            if owner == me.owner:
                allowed += sharing if me.shares else []
            elif len(sharing) >= 2:
                allowed += sharing
            else:
                allowed.append(min(members, key=distance))
        allowed.sort(key=distance)
        return allowed[:want]

    def _take(self, i: int) -> None:
        self.free[i] = False
        self.left -= 1
        before, after = self.prev[i], self.next[i]
        if before != -1:
            self.next[before] = after
        else:
            self.head = after
        if after != -1:
            self.prev[after] = before


def first_table_size(count: int, table_size: int, min_table_size: int) -> int:
    """``table_sizes(count, ...)``'s first (largest) table, 0 if none, in O(1) for any count.

    ``table_sizes`` lists every table (count / table_size of them); asking it
    once per table would make a pass quadratic.
    """
    for left_over in range(count + 1):  # as table_sizes: a few steps at most in practice
        seated = count - left_over
        if seated == 0:
            return 0
        tables = -(-seated // table_size)
        smallest = seated // tables
        if smallest >= min_table_size:
            return smallest + 1 if seated > smallest * tables else smallest
    return 0


def _fits(owners: dict[int, bool], owner: int | None, shares: bool) -> bool:
    """Whether an entrant of ``owner`` may join a table whose owners are ``owners``."""
    if owner is None or owner not in owners:
        return True
    return owners[owner] and shares


def _seat_owner(owners: dict[int, bool], owner: int | None, shares: bool) -> None:
    if owner is not None:
        owners[owner] = owners.get(owner, True) and shares
