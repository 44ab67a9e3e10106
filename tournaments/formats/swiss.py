"""Swiss for k-player tables: similar points at a table, no repeat meetings if avoidable.

Board Game Arena's multiplayer Swiss is the model. Every round:

1. The entrants are put in standings order (:mod:`.standings`: points, then the
   tie-breaks, then seed). Before round 1 everyone has 0 points, so the order is
   the seed order and the top seeds sit together (BGA groups by rating too):
   every table is as even as the seeding can make it.
2. ``sizes.table_sizes`` says how many tables of which size, and how many sit
   out. Byes go to the lowest-ranked entrants among those with the fewest byes
   so far, so nobody gets a second bye while someone has none.
3. Tables are filled from the top of the order: each table takes the best
   entrant left, then the next ones in order who have met none of those
   already seated (nor share an owner with one, by default; looking a few
   places down), so a table holds neighbours in the standings who have not met.
4. A local search then swaps entrants between nearby tables, first to remove
   conflicts (each earlier meeting of two tablemates counts one; two
   entrants of one owner count :data:`OWNER_CLASH`, so they are kept apart
   first, unless the event allows them together: ``Settings.separate_owners``), then
   to bring points closer inside tables (the sum of squared distances from the
   table's mean). Repeats come first: a table with a wider points spread is
   preferred to a repeat meeting. If repeats are left, a bounded random
   search (seeded) tries further swaps. Events of up to :data:`EXACT_UP_TO`
   seated entrants are then searched exhaustively (branch and bound, within
   :data:`EXACT_NODES`; complete up to 12), so a small event never has a
   repeat, or a wider spread, that another split into the same tables avoids.
5. Seat order at every table comes from ``seats.balance_seats``.

Every random choice comes from the event seed and the round number, so a
round is repeatable. The work is about O(n log n) for n entrants (a sort, then
a bounded amount of work per table), no all-pairs loop.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from tournaments.formats.base import Entrant, FormatError, History, Round, Settings
from tournaments.formats.seats import balance_seats
from tournaments.formats.sizes import table_sizes
from tournaments.formats.standings import DIGITS, standings

name = "swiss"

EXACT_UP_TO = 16
"""Up to this many seated entrants the best pairing is searched for exhaustively."""

EXACT_NODES = 200_000
"""Budget of the exhaustive search, in tables tried (under a second at worst). Up to 12
entrants the whole search tree is smaller (at most 32,395 tables tried, 12 in tables of
3), so the result is the optimum; from 13 to 16 the search usually finishes, and when it
does not the best pairing found so far is kept (never worse than the swaps' one)."""

LOOK_AHEAD = 4
"""When filling a table, how many tables' worth of entrants below may be looked at."""

SWAP_DISTANCE = 16
"""How many tables up and down a repeat is looked to be swapped away."""

RANDOM_STEPS_PER_TABLE = 400
RANDOM_STEPS_MAX = 20_000
"""Budget of the random search for repeats the swaps could not remove."""

EPSILON = 10.0**-DIGITS

OWNER_CLASH = 100
"""Two entrants of one owner at a table weigh as this many repeat meetings: avoided first."""


def check(entrant_count: int, settings: Settings) -> None:
    """Raise FormatError when a Swiss event of this size and these settings cannot run."""
    if settings.table_size < 2:
        raise FormatError(f"a table needs at least 2 seats, not {settings.table_size}")
    if not 2 <= settings.min_table_size <= settings.table_size:
        raise FormatError(
            f"the smallest table ({settings.min_table_size}) must be between 2 and the "
            f"table size ({settings.table_size})"
        )
    if settings.rounds is not None and settings.rounds < 1:
        raise FormatError(f"a Swiss event needs at least 1 round, not {settings.rounds}")
    if settings.bye_points is not None and settings.bye_points < 0:
        raise FormatError(f"bye points cannot be negative ({settings.bye_points})")
    if entrant_count < settings.min_table_size:
        raise FormatError(
            f"Swiss needs at least {settings.min_table_size} entrants for one table "
            f"(smallest table {settings.min_table_size}), not {entrant_count}"
        )


def total_rounds(entrant_count: int, settings: Settings) -> int:
    """``settings.rounds``, or by default the fewest rounds r with k^r >= n, plus one.

    With tables of k, r rounds are what it takes for a single entrant to be
    the only one who won every table (as log2 n is for chess Swiss); the extra
    round separates the leaders. 9 in tables of 3: 3 rounds; 1,000 in 4: 6.
    """
    if settings.rounds is not None:
        return settings.rounds
    rounds, reach = 0, 1
    while reach < entrant_count:
        reach *= max(settings.table_size, 2)
        rounds += 1
    return max(rounds, 1) + 1


def next_round(
    entrants: Sequence[Entrant],
    history: History,
    settings: Settings,
    round_number: int,
    seed: str,
) -> Round | None:
    """The tables of ``round_number``, or None once the event has had its rounds.

    The default round count is reckoned from everyone who has taken part
    (the active entrants and everyone in the history), so a withdrawal does
    not shorten the event.
    """
    if round_number < 1:
        raise FormatError(f"rounds are numbered from 1, not {round_number}")
    check(len(entrants), settings)
    everyone = {entrant.key for entrant in entrants}
    everyone.update(key for result in history.results for key in result.seats)
    everyone.update(bye.key for bye in history.byes)
    if round_number > total_rounds(len(everyone), settings):
        return None
    order = standings(entrants, history, settings)
    sizes, left_over = table_sizes(len(order), settings.table_size, settings.min_table_size)
    by_fewest_byes = sorted(
        range(len(order)), key=lambda position: (order[position].byes, -position)
    )
    sitting_out = set(by_fewest_byes[:left_over])
    players = [standing for position, standing in enumerate(order) if position not in sitting_out]
    keys = [standing.key for standing in players]
    points = [standing.points for standing in players]
    met = _meetings(keys, history)
    if settings.separate_owners:
        _add_owner_clashes(met, keys, {entrant.key: entrant.owner for entrant in entrants})
    rng = random.Random(f"{seed}:swiss:{round_number}")
    groups = pair(points, met, sizes, rng)
    tables = balance_seats(
        [[keys[index] for index in group] for group in groups], history, seed, round_number
    )
    byes = tuple(order[position].key for position in by_fewest_byes[:left_over])
    return Round(number=round_number, tables=tables, byes=byes)


def _meetings(keys: Sequence[int], history: History) -> list[dict[int, int]]:
    """For each player (by position): position of each player it met -> times met."""
    position = {key: index for index, key in enumerate(keys)}
    met: list[dict[int, int]] = [{} for _ in keys]
    for result in history.results:
        seated = [position[key] for key in result.seats if key in position]
        for a, b in combinations(seated, 2):
            met[a][b] = met[a].get(b, 0) + 1
            met[b][a] = met[b].get(a, 0) + 1
    return met


def _add_owner_clashes(
    met: list[dict[int, int]], keys: Sequence[int], owners: dict[int, int | None]
) -> None:
    """Count two entrants of one owner as having met :data:`OWNER_CLASH` times more.

    The pairing then keeps them apart as it avoids a repeat meeting, but
    first (Tabbycat's draw weighs institution and history clashes the same
    way, by a penalty each). The work is the sum of the squares of each
    owner's entrant count.
    """
    by_owner: dict[int, list[int]] = {}
    for position, key in enumerate(keys):
        owner = owners.get(key)
        if owner is not None:
            by_owner.setdefault(owner, []).append(position)
    for positions in by_owner.values():
        for a, b in combinations(positions, 2):
            met[a][b] = met[a].get(b, 0) + OWNER_CLASH
            met[b][a] = met[b].get(a, 0) + OWNER_CLASH


class _Cost:
    """Cost of a table, (repeat meetings, points spread), compared in that order."""

    def __init__(self, points: Sequence[float], met: Sequence[dict[int, int]]) -> None:
        self.points = points
        self.met = met

    def repeats(self, table: Sequence[int]) -> int:
        met = self.met
        return sum(met[a].get(b, 0) for a, b in combinations(table, 2))

    def spread(self, table: Sequence[int]) -> float:
        values = [self.points[player] for player in table]
        mean = sum(values) / len(values)
        return sum((value - mean) ** 2 for value in values)

    def __call__(self, table: Sequence[int]) -> tuple[int, float]:
        return self.repeats(table), self.spread(table)


def _better(delta: tuple[int, float], than: tuple[int, float] = (0, 0.0)) -> bool:
    """Lexicographically smaller, with a tolerance on the spread."""
    return delta[0] < than[0] or (delta[0] == than[0] and delta[1] < than[1] - EPSILON)


def pair(
    points: Sequence[float],
    met: Sequence[dict[int, int]],
    sizes: Sequence[int],
    rng: random.Random,
) -> list[list[int]]:
    """Partition players 0..n-1 (standings order) into tables of ``sizes``.

    ``points[i]`` is player i's points, ``met[i]`` maps the players i has met to
    how often. Returns tables of player positions, top table first.
    """
    cost = _Cost(points, met)
    tables = _fill(len(points), sizes, met)
    state = _Tables(tables, cost)
    state.tighten(i for i, table in enumerate(tables) if max(table) - min(table) >= len(table))
    state.remove_repeats()
    if state.total()[0] > 0:
        state.random_search(rng)
    if len(points) <= EXACT_UP_TO:
        exact = _exact(sizes, cost, state.total())
        if exact is not None:
            state = _Tables(exact, cost)
    return sorted(state.tables, key=min)


def _fill(count: int, sizes: Sequence[int], met: Sequence[dict[int, int]]) -> list[list[int]]:
    """Greedy first pairing: each table the best player left, then the next ones who
    met nobody seated there, looking at most LOOK_AHEAD tables' worth of players down."""
    taken = [False] * count
    front = 0
    tables = []
    for size in sizes:
        while taken[front]:
            front += 1
        table = [front]
        taken[front] = True
        window = LOOK_AHEAD * size
        for _ in range(size - 1):
            first = choice = None
            seen = 0
            index = front
            while index < count and seen < window:
                if not taken[index]:
                    if first is None:
                        first = index
                    if not any(index in met[other] for other in table):
                        choice = index
                        break
                    seen += 1
                index += 1
            chosen = choice if choice is not None else first
            assert chosen is not None  # sizes add up to count
            table.append(chosen)
            taken[chosen] = True
        tables.append(table)
    return tables


class _Tables:
    """A pairing being improved: tables of player positions and their costs."""

    def __init__(self, tables: list[list[int]], cost: _Cost) -> None:
        self.tables = tables
        self.cost = cost
        self.costs = [cost(table) for table in tables]

    def total(self) -> tuple[int, float]:
        return (
            sum(repeats for repeats, _ in self.costs),
            sum(spread for _, spread in self.costs),
        )

    def _swap_delta(
        self, i: int, x: int, j: int, y: int
    ) -> tuple[tuple[int, float], tuple[int, float], tuple[int, float]]:
        """Change in cost if member x of table i and member y of table j swap places."""
        table_i = self.tables[i][:]
        table_j = self.tables[j][:]
        table_i[x], table_j[y] = table_j[y], table_i[x]
        new_i, new_j = self.cost(table_i), self.cost(table_j)
        old_i, old_j = self.costs[i], self.costs[j]
        delta = (
            new_i[0] + new_j[0] - old_i[0] - old_j[0],
            new_i[1] + new_j[1] - old_i[1] - old_j[1],
        )
        return delta, new_i, new_j

    def _apply(
        self, i: int, x: int, j: int, y: int, new_i: tuple[int, float], new_j: tuple[int, float]
    ) -> None:
        self.tables[i][x], self.tables[j][y] = self.tables[j][y], self.tables[i][x]
        self.costs[i], self.costs[j] = new_i, new_j

    def _in_repeat(self, i: int) -> list[int]:
        """Seats of table i whose player has met another player at the table."""
        table = self.tables[i]
        met = self.cost.met
        return [x for x, player in enumerate(table) if any(other in met[player] for other in table)]

    def _best_swap(self, i: int, distance: int, repeats_only: bool):
        """The best improving swap of table i with a table at most ``distance`` away."""
        best = None
        best_delta: tuple[int, float] = (0, 0.0)
        seats = self._in_repeat(i) if repeats_only else range(len(self.tables[i]))
        low, high = max(0, i - distance), min(len(self.tables) - 1, i + distance)
        for x in seats:
            for j in range(low, high + 1):
                if j == i:
                    continue
                for y in range(len(self.tables[j])):
                    delta, new_i, new_j = self._swap_delta(i, x, j, y)
                    if repeats_only and delta[0] >= 0:
                        continue
                    if _better(delta, best_delta):
                        best, best_delta = (i, x, j, y, new_i, new_j), delta
        return best

    def remove_repeats(self) -> None:
        """Swap repeats away, nearby tables first; every swap removes at least one."""
        touched = set()
        for i in range(len(self.tables)):
            while self.costs[i][0] > 0:
                move = self._best_swap(i, 2, repeats_only=True) or self._best_swap(
                    i, SWAP_DISTANCE, repeats_only=True
                )
                if move is None:
                    break
                self._apply(*move)
                touched.update((move[0], move[2]))
        self.tighten(touched)

    def tighten(self, tables) -> None:
        """Swaps between neighbouring tables that narrow points without adding a repeat."""
        dirty = set(tables)
        steps = 0
        while dirty and steps < 50 * len(self.tables) + 100:
            i = min(dirty)
            dirty.discard(i)
            move = self._best_swap(i, 1, repeats_only=False)
            if move is not None:
                self._apply(*move)
                dirty.update((move[0], move[2]))
                steps += 1

    def random_search(self, rng: random.Random) -> None:
        """Random swaps of a player in a repeat: kept when repeats do not grow.

        Sideways moves (same repeats) let the search leave a dead end; the best
        pairing seen (fewest repeats) is kept, then tightened.
        """
        count = len(self.tables)
        if count < 2:
            return
        repeats = best_repeats = self.total()[0]
        best = [table[:] for table in self.tables]
        steps = min(RANDOM_STEPS_MAX, RANDOM_STEPS_PER_TABLE * count)
        repeated: list[int] = []
        for step in range(steps):
            if repeats == 0:
                break
            if step % 50 == 0 or not repeated:
                repeated = [i for i in range(count) if self.costs[i][0] > 0]
            i = rng.choice(repeated)
            if self.costs[i][0] == 0:
                repeated = []
                continue
            x = rng.choice(self._in_repeat(i))
            if rng.random() < 0.5:
                j = min(count - 1, max(0, i + rng.choice((-3, -2, -1, 1, 2, 3))))
            else:
                j = rng.randrange(count)
            if j == i:
                continue
            y = rng.randrange(len(self.tables[j]))
            delta, new_i, new_j = self._swap_delta(i, x, j, y)
            if delta[0] < 0 or (delta[0] == 0 and (delta[1] <= 0 or rng.random() < 0.2)):
                self._apply(i, x, j, y, new_i, new_j)
                repeats += delta[0]
                if repeats < best_repeats:
                    best_repeats = repeats
                    best = [table[:] for table in self.tables]
        self.tables = best
        self.costs = [self.cost(table) for table in best]
        self.tighten(range(count))


def _exact(sizes: Sequence[int], cost: _Cost, bound: tuple[int, float]) -> list[list[int]] | None:
    """The partition into ``sizes`` of least (repeats, spread), by branch and bound.

    Each partition is generated once: the first unseated player always opens
    the next table. ``bound`` is the cost of a pairing already found: None
    when no partition is strictly better (or none was found within the budget).
    """
    remaining_sizes = sorted(sizes, reverse=True)
    best: list[list[int]] | None = None
    best_cost = (bound[0], bound[1])
    chosen: list[list[int]] = []
    nodes = 0

    def search(left: list[int], sizes_left: list[int], repeats: int, spread: float) -> None:
        nonlocal best, best_cost, nodes
        if not left:
            if _better((repeats, spread), best_cost):
                best, best_cost = [table[:] for table in chosen], (repeats, spread)
            return
        first, rest = left[0], left[1:]
        for size in sorted(set(sizes_left), reverse=True):
            others = list(sizes_left)
            others.remove(size)
            for combo in combinations(rest, size - 1):
                nodes += 1
                if nodes > EXACT_NODES:
                    return
                table = [first, *combo]
                table_repeats, table_spread = cost(table)
                total = (repeats + table_repeats, spread + table_spread)
                if not _better(total, best_cost):
                    continue
                chosen.append(table)
                search([player for player in rest if player not in combo], others, *total)
                chosen.pop()

    search(list(range(sum(sizes))), remaining_sizes, 0, 0.0)
    return best
