"""One round's tables that repeat as few meetings as possible: the round robin's local search.

Given how often each pair of entrants has already shared a table, split the
entrants into tables of the given sizes (and the given number of byes) so
that the round adds as little unevenness as it can. Each seated pair costs
``K ** level``, its *level* being how often it met beyond the least-met pair
of the field and ``K`` one more than the pairs a round seats: one pair
pushed a level higher outweighs any number of pairs a level lower, so the
search first avoids the most-repeated meetings, then the next most, and a
round in which no pair meets again (every seated pair at level 0) is the
best there is.

The search is an iterated local search over swaps of two entrants (cheap:
a swap's cost change is read from per-table sums in O(1)), restarted a few
times. If its best round still seats a pair above level 0, a depth-first
search looks for a round that seats none, under a node limit (taking the
most constrained entrant first, it visits a few hundred partial rounds for a
dozen entrants, far below the limit). Within the limit the search is
complete, so a round free of repeats is found whenever one exists; the
tests check this against brute force for up to 9 entrants. Everything random comes from the
``rng`` passed in, so the same inputs give the same round.

Seats come second: when the problem carries each entrant's least-used seats,
swaps that leave the meeting cost as it is are spent on tables where every
entrant can take such a seat (:func:`settle_seats`), so that
:func:`.seats.balance_seats` can keep seat counts level.

Byes follow the rotation rule: the entrants who sat out least often sit out
(nobody twice before everyone once); among those tied at the threshold the
search may choose whoever helps the tables most.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

RESTARTS = 3
"""Independent starts of the local search per round."""

KICKS = 40
"""Perturb-and-descend steps per start (a kick is two random swaps)."""

NODE_LIMIT = 50_000
"""Partial rounds the exact repeat-free search may visit before it gives up."""


@dataclass(frozen=True)
class Problem:
    """One round to split: ``n`` entrants (0..n-1) with their meeting and bye counts."""

    meetings: Sequence[Sequence[int]]
    """meetings[a][b]: how often a and b have shared a table (symmetric, diagonal ignored)."""
    bye_counts: Sequence[int]
    sizes: Sequence[int]
    """Table sizes of the round; their sum plus the byes is ``n``."""
    byes: int
    seat_wants: dict[int, Sequence[int]] | None = None
    """Optional: table size -> per entrant, a bit mask of the seats it sat in least often.

    Given, the search spends its sideways moves (swaps that keep the meeting
    cost) on tables where every entrant can take a seat it sat in least:
    :func:`.seats.balance_seats` can then keep every entrant's seat counts
    within one, which it cannot fix on its own a round at a time.
    """

    @property
    def n(self) -> int:
        return len(self.bye_counts)


@dataclass(frozen=True)
class Split:
    """A round: tables of entrant indices (in ``sizes`` order) and who sits out."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]


def bye_candidates(bye_counts: Sequence[int], byes: int) -> tuple[frozenset[int], frozenset[int]]:
    """(forced, pool): who must sit out, and the tied group the rest of the byes come from.

    With byes ``b``, the threshold ``t`` is the smallest bye count such that at
    least ``b`` entrants have sat out ``t`` times or fewer; everyone below it
    sits out, and the remaining byes go to entrants at exactly ``t``.
    """
    if byes == 0:
        return frozenset(), frozenset()
    ordered = sorted(bye_counts)
    threshold = ordered[byes - 1]
    forced = frozenset(i for i, c in enumerate(bye_counts) if c < threshold)
    pool = frozenset(i for i, c in enumerate(bye_counts) if c == threshold)
    return forced, pool


def weights(problem: Problem) -> list[list[int]]:
    """K ** level per pair (0 on the diagonal), the level measured from the least-met pair."""
    n = problem.n
    base = min(
        (problem.meetings[a][b] for a in range(n) for b in range(a + 1, n)),
        default=0,
    )
    k = sum(s * (s - 1) // 2 for s in problem.sizes) + 1
    return [
        [0 if a == b else k ** (problem.meetings[a][b] - base) for b in range(n)] for a in range(n)
    ]


def cost(split: Split, w: Sequence[Sequence[int]]) -> int:
    """The round's cost: the sum of its seated pairs' weights."""
    return sum(w[a][b] for t in split.tables for i, a in enumerate(t) for b in t[i + 1 :])


def split_round(problem: Problem, rng: random.Random) -> Split:
    """The best round the search finds (see the module docstring).

    Each start's round is settled for seats (:func:`settle_seats`); the
    round kept is the one with the lowest meeting cost, then the lowest
    seat deficiency.
    """
    if sum(problem.sizes) + problem.byes != problem.n:
        raise ValueError("table sizes plus byes must cover every entrant")
    w = weights(problem)
    floor = sum(s * (s - 1) // 2 for s in problem.sizes)  # every seated pair at level 0
    best: tuple[int, int, Split] | None = None

    def consider(split: Split) -> None:
        nonlocal best
        settled = settle_seats(problem, split, w, rng)
        score = (cost(settled, w), total_deficiency(problem, settled))
        if best is None or score < best[:2]:
            best = (*score, settled)

    for _ in range(RESTARTS):
        consider(_local_search(problem, w, floor, rng)[0])
        assert best is not None
        if best[:2] == (floor, 0):
            break
    assert best is not None
    if best[0] != floor:
        exact = repeat_free(problem, w, rng)
        if exact is not None:
            consider(exact)
    return best[2]


def total_deficiency(problem: Problem, split: Split) -> int:
    """The round's seat deficiency summed over its tables (0 without ``seat_wants``)."""
    if not problem.seat_wants:
        return 0
    return sum(seat_deficiency(t, problem.seat_wants[len(t)]) for t in split.tables)


class _State:
    """Groups (tables, then the bye group last) with per-entrant sums towards each group."""

    def __init__(self, groups: list[list[int]], w: Sequence[Sequence[int]], tables: int) -> None:
        self.groups = groups
        self.tables = tables  # groups[tables:] is the bye group (no cost)
        self.w = w
        n = len(w)
        self.where = [0] * n
        for g, members in enumerate(groups):
            for x in members:
                self.where[x] = g
        self.sums = [[sum(w[x][y] for y in members) for members in groups] for x in range(n)]

    def total(self) -> int:
        return (
            sum(
                self.sums[x][self.where[x]]
                for x in range(len(self.w))
                if self.where[x] < self.tables
            )
            // 2
        )

    def delta(self, a: int, b: int) -> int:
        g, h = self.where[a], self.where[b]
        change = 0
        if g < self.tables:
            change += self.sums[b][g] - self.w[b][a] - self.sums[a][g]
        if h < self.tables:
            change += self.sums[a][h] - self.w[a][b] - self.sums[b][h]
        return change

    def swap(self, a: int, b: int) -> None:
        g, h = self.where[a], self.where[b]
        ga, hb = self.groups[g], self.groups[h]
        ga[ga.index(a)] = b
        hb[hb.index(b)] = a
        self.where[a], self.where[b] = h, g
        w = self.w
        for x, row in enumerate(self.sums):
            move = w[x][b] - w[x][a]
            row[g] += move
            row[h] -= move

    def snapshot(self) -> list[list[int]]:
        return [list(members) for members in self.groups]


def _local_search(
    problem: Problem, w: Sequence[Sequence[int]], floor: int, rng: random.Random
) -> tuple[Split, int]:
    forced, pool = bye_candidates(problem.bye_counts, problem.byes)
    pool_list = sorted(pool)
    rng.shuffle(pool_list)
    bye_group = sorted(forced) + pool_list[: problem.byes - len(forced)]
    sitting_out = set(bye_group)
    seated = [i for i in range(problem.n) if i not in sitting_out]
    rng.shuffle(seated)
    groups: list[list[int]] = []
    start = 0
    for size in problem.sizes:
        groups.append(seated[start : start + size])
        start += size
    groups.append(bye_group)
    state = _State(groups, w, len(problem.sizes))

    def movable(a: int, b: int) -> bool:
        g, h = state.where[a], state.where[b]
        if g == h:
            return False
        if g >= state.tables or h >= state.tables:  # in or out of the byes: only the tied pool
            return a in pool and b in pool
        return True

    def descend() -> None:
        improved = True
        order = list(range(problem.n))
        while improved:
            improved = False
            rng.shuffle(order)
            for a in order:
                for b in order:
                    if movable(a, b) and state.delta(a, b) < 0:
                        state.swap(a, b)
                        improved = True

    descend()
    current = state.total()
    best, best_cost = state.snapshot(), current
    candidates = [(a, b) for a in range(problem.n) for b in range(a + 1, problem.n)]
    for _ in range(KICKS):
        if best_cost == floor:
            break
        before = state.snapshot()
        for _ in range(2):
            a, b = rng.choice(candidates)
            if movable(a, b):
                state.swap(a, b)
        descend()
        now = state.total()
        if now <= current:
            current = now
            if now < best_cost:
                best, best_cost = state.snapshot(), now
        else:
            state = _State(before, w, len(problem.sizes))
    tables = tuple(tuple(members) for members in best[: len(problem.sizes)])
    byes = tuple(best[-1]) if len(best) > len(problem.sizes) else ()
    return Split(tables, byes), best_cost


def repeat_free(problem: Problem, w: Sequence[Sequence[int]], rng: random.Random) -> Split | None:
    """A round seating only level-0 pairs, by depth-first search; None if none (or too slow).

    Entrants are taken most-constrained first (fewest level-0 partners); the
    first unplaced one either sits out (if the bye rule allows and byes are
    left) or opens a table of one of the remaining sizes with companions that
    are all level 0 to each other. Gives up after :data:`NODE_LIMIT` nodes.
    """
    n = problem.n
    forced, pool = bye_candidates(problem.bye_counts, problem.byes)
    free = [[w[a][b] == 1 for b in range(n)] for a in range(n)]  # K ** 0
    partners = [sum(row) for row in free]
    order = sorted(
        (i for i in range(n) if i not in forced), key=lambda i: (partners[i], rng.random())
    )
    nodes = 0
    tables: list[tuple[int, ...]] = []
    byes: list[int] = sorted(forced)

    def place(left: list[int], sizes: list[int], bye_slots: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > NODE_LIMIT:
            raise _GiveUp
        if not left:
            return True
        if sum(1 for x in left if x in pool) < bye_slots:
            return False
        x, rest = left[0], left[1:]
        if bye_slots and x in pool:
            byes.append(x)
            if place(rest, sizes, bye_slots - 1):
                return True
            byes.pop()
        for size in sorted(set(sizes), reverse=True):
            fits = [y for y in rest if free[x][y]]
            for group in _cliques(fits, size - 1, free):
                tables.append((x, *group))
                others = [y for y in rest if y not in group]
                remaining = list(sizes)
                remaining.remove(size)
                if place(others, remaining, bye_slots):
                    return True
                tables.pop()
        return False

    try:
        found = place(order, list(problem.sizes), problem.byes - len(forced))
    except _GiveUp:
        return None
    if not found:
        return None
    by_size = sorted(tables, key=len, reverse=True)  # table_sizes lists the larger tables first
    return Split(tuple(by_size), tuple(byes))


def seat_deficiency(table: Sequence[int], wants: Sequence[int]) -> int:
    """How many of the table's entrants cannot get a least-used seat (Hall's defect).

    The largest ``|S| - |seats wanted by S|`` over subsets S of the table:
    0 exactly when every entrant can sit in a seat it sat in least often.
    """
    worst = 0
    members = [wants[x] for x in table]
    for subset in range(1, 1 << len(members)):
        union = 0
        for i, mask in enumerate(members):
            if subset >> i & 1:
                union |= mask
        worst = max(worst, subset.bit_count() - union.bit_count())
    return worst


def settle_seats(
    problem: Problem, split: Split, w: Sequence[Sequence[int]], rng: random.Random
) -> Split:
    """Lower the tables' seat deficiency by swaps that never raise the meeting cost.

    A descent over such swaps, then :data:`KICKS` perturbations (a few swaps
    that keep the meeting cost) each followed by a descent, kept when the
    total deficiency did not grow.
    """
    if not problem.seat_wants:
        return split
    _, pool = bye_candidates(problem.bye_counts, problem.byes)
    wants = problem.seat_wants
    tables = len(split.tables)

    def fresh(groups: list[list[int]]) -> _State:
        return _State(groups, w, tables)

    state = fresh([list(t) for t in split.tables] + [list(split.byes)])

    def deficiency(g: int) -> int:
        if g >= tables:
            return 0
        return seat_deficiency(state.groups[g], wants[len(state.groups[g])])

    def allowed(a: int, b: int) -> bool:
        g, h = state.where[a], state.where[b]
        if g == h:
            return False
        if g >= tables or h >= tables:
            return a in pool and b in pool
        return True

    order = list(range(problem.n))

    def descend() -> None:
        improved = True
        while improved:
            improved = False
            rng.shuffle(order)
            for a in order:
                for b in order:
                    if not allowed(a, b) or state.delta(a, b) > 0:
                        continue
                    g, h = state.where[a], state.where[b]
                    before = deficiency(g) + deficiency(h)
                    if before == 0:
                        continue
                    state.swap(a, b)
                    if deficiency(g) + deficiency(h) < before:
                        improved = True
                    else:
                        state.swap(a, b)

    def total() -> int:
        return sum(deficiency(g) for g in range(tables))

    descend()
    current = total()
    pairs = [(a, b) for a in range(problem.n) for b in range(a + 1, problem.n)]
    for _ in range(KICKS):
        if current == 0:
            break
        before = state.snapshot()
        for _ in range(3):
            a, b = rng.choice(pairs)
            if allowed(a, b) and state.delta(a, b) == 0:
                state.swap(a, b)
        descend()
        now = total()
        if now <= current:
            current = now
        else:
            state = fresh(before)
    seated = tuple(tuple(members) for members in state.groups[:tables])
    return Split(seated, tuple(state.groups[tables]))


class _GiveUp(Exception):
    """The repeat-free search ran past its node limit."""


def _cliques(candidates: list[int], size: int, free: list[list[bool]]) -> Iterator[tuple[int, ...]]:
    """Every ``size``-subset of ``candidates`` whose members are pairwise level 0 (in order)."""
    if size == 0:
        yield ()
        return
    for i, y in enumerate(candidates):
        compatible = [z for z in candidates[i + 1 :] if free[y][z]]
        if len(compatible) < size - 1:
            continue
        for rest in _cliques(compatible, size - 1, free):
            yield (y, *rest)
