"""Standings and the crosstable of an event, from its history alone (pure, no Django).

Points come from places, not from game scores, so a 4-player table is worth the
same whatever the game's scoring scale (Board Game Arena's multiplayer Swiss is
the model). Every format's standings are computed here; Swiss also pairs by them.

Placement points (:data:`PLACEMENT_POINTS`): the winner of a table always gets 6
and the last 0, whatever the table's size, so that tables of different sizes in
one round (10 entrants in tables of 4 play 4+3+3) hand out comparable points and
a win is a win. Between them, second place gets half of first where there is
room (first place is clearly worth more than anything else), and the rest step
down: 2 players 6/0, 3 players 6/2/0, 4 players 6/3/1/0 (BGA's values),
5 players 6/3/2/1/0. A table's average is close to 2.5 at every size (3.0,
2.67, 2.5, 2.4), so nobody gains by the size of the table they are put at.
Two players are 6/0 rather than 1/0 so that a 2-seat table next to 3-seat
tables (tables of 3, smallest 2) is on the same scale. Tables of 6 or more
(no engine plays them today) follow the 5-player rule: first twice second,
then n-2, n-3, ..., 1, 0.

Tied places split the points of the places they cover: two tied for first at
a 4-table share 6+3, 4.5 each; three tied for second share 3+1+0.

A bye is worth ``Settings.bye_points``; by default the average points of a
place at a full table (2.5 with tables of 4), what an entrant of average
strength would expect to score had they played.

Order of the standings (:func:`standings`): points, then the event's
tie-breaks in the order it chose (:mod:`.tiebreaks`; by default tablemates'
points — the sum of the final points of everyone the entrant sat with, once
per meeting, Buchholz for tables — then the total game score, then
head-to-head among the entrants still tied: 1 for each time placed above one
of them at a table, 1/2 for a shared place), then seed (1 first). Entrants
tied on all but seed share a rank (competition ranking: 1, 2, 2, 4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import combinations

from tournaments.formats import tiebreaks
from tournaments.formats.base import Entrant, FormatError, History, Settings

PLACEMENT_POINTS: dict[int, tuple[float, ...]] = {
    2: (6.0, 0.0),
    3: (6.0, 2.0, 0.0),
    4: (6.0, 3.0, 1.0, 0.0),
    5: (6.0, 3.0, 2.0, 1.0, 0.0),
}
"""Points per place (first place first) for every table size an engine plays."""

DIGITS = 9
"""Points are compared rounded to this many decimals (split points such as 10/3 add up
differently in different orders)."""


def placement_points(table_size: int) -> tuple[float, ...]:
    """Points for 1st, 2nd, ... place at a table of ``table_size`` (see the module notes)."""
    if table_size < 2:
        raise FormatError(f"a table needs at least 2 players, not {table_size}")
    if table_size in PLACEMENT_POINTS:
        return PLACEMENT_POINTS[table_size]
    rest = tuple(float(points) for points in range(table_size - 2, -1, -1))
    return (2.0 * rest[0], *rest)


def places(ranks: Sequence[int]) -> tuple[int, ...]:
    """Each seat's place, 1 for the best: one more than the seats ranked strictly better.

    Works for competition (1, 2, 2, 4) and dense (1, 2, 2, 3) ranks alike.
    """
    return tuple(1 + sum(other < rank for other in ranks) for rank in ranks)


def table_points(ranks: Sequence[int]) -> tuple[float, ...]:
    """Points of each seat (in seat order) at a finished table with these ranks.

    Seats sharing a place split the points of the places they cover.
    """
    scale = placement_points(len(ranks))
    tied = Counter(ranks)
    points = []
    for rank, place in zip(ranks, places(ranks), strict=True):
        covered = scale[place - 1 : place - 1 + tied[rank]]
        points.append(sum(covered) / len(covered))
    return tuple(points)


def bye_points(settings: Settings) -> float:
    """What a bye is worth: the setting, or the average place at a full table."""
    if settings.bye_points is not None:
        return float(settings.bye_points)
    scale = placement_points(settings.table_size)
    return sum(scale) / len(scale)


def points_by_entrant(history: History, settings: Settings) -> dict[int, float]:
    """Points of everyone in the history (withdrawn entrants included): tables and byes."""
    points: dict[int, float] = {}
    for result in history.results:
        for key, won in zip(result.seats, table_points(result.ranks), strict=True):
            points[key] = points.get(key, 0.0) + won
    worth = bye_points(settings)
    for bye in history.byes:
        points[bye.key] = points.get(bye.key, 0.0) + worth
    return points


@dataclass(frozen=True)
class Standing:
    """One entrant's line in the standings.

    ``placings[i]`` counts the tables where it finished in place i+1 (a shared
    place counts at the place the tie starts); ``games`` counts tables played,
    ``byes`` rounds sat out. ``active`` is False for an entrant the caller
    listed as withdrawn or disqualified: it keeps its place in the order (its
    points were earned), and the page marks it. ``tie_breaks`` are the
    event's tie-breaks in its order, (name, value), as they ranked it;
    ``head_to_head`` is among the entrants tied before it in that order
    (among those tied on points when the event does not use it).
    """

    key: int
    rank: int
    points: float
    tablemates_points: float
    game_score: float
    head_to_head: float
    games: int
    byes: int
    placings: tuple[int, ...]
    active: bool = True
    tie_breaks: tuple[tuple[str, float], ...] = ()


def standings(
    entrants: Sequence[Entrant],
    history: History,
    settings: Settings,
    inactive: Collection[int] = (),
) -> list[Standing]:
    """The standings of ``entrants``, best first (order and tie-breaks: module notes).

    ``entrants`` are the ones to list: the pairing passes the active ones, a
    page passes everyone who took part and names the withdrawn and disqualified
    in ``inactive`` (they are listed with ``active=False``). Entrants in the
    history but not listed still count: their points add to their tablemates'
    tablemates' points, as those tablemates did sit with them.
    """
    keys = [entrant.key for entrant in entrants]
    if len(set(keys)) != len(keys):
        raise FormatError("an entrant is listed twice")
    order = tiebreaks.check(settings.tie_breaks)
    listed = set(keys)
    points = points_by_entrant(history, settings)
    tally = tiebreaks.Tally(keys=tuple(keys), points=points, results=history.results)
    games = dict.fromkeys(keys, 0)
    placings: dict[int, Counter[int]] = {key: Counter() for key in keys}
    for result in history.results:
        for key, place in zip(result.seats, places(result.ranks), strict=True):
            if key in listed:
                games[key] += 1
                placings[key][place] += 1
    byes = Counter(bye.key for bye in history.byes)
    full = {key: (round(points.get(key, 0.0), DIGITS),) for key in keys}
    chosen: dict[str, dict[int, float]] = {}
    for name in order:
        chosen[name] = tiebreaks.TIE_BREAKS[name](tally, full)
        full = {key: (*full[key], round(chosen[name][key], DIGITS)) for key in keys}
    shown = {
        name: chosen.get(name) or tiebreaks.TIE_BREAKS[name](tally, _on_points(points, keys))
        for name in ("tablemates_points", "game_score", "head_to_head")
    }
    seeds = {entrant.key: entrant.seed for entrant in entrants}
    ordered = sorted(keys, key=lambda key: (tuple(-x for x in full[key]), seeds[key], key))
    longest = max((max(counts, default=0) for counts in placings.values()), default=0)
    table = []
    for position, key in enumerate(ordered):
        if position and full[key] == full[ordered[position - 1]]:
            rank = table[-1].rank
        else:
            rank = position + 1
        table.append(
            Standing(
                key=key,
                rank=rank,
                points=points.get(key, 0.0),
                tablemates_points=shown["tablemates_points"][key],
                game_score=shown["game_score"][key],
                head_to_head=shown["head_to_head"][key],
                games=games[key],
                byes=byes[key],
                placings=tuple(placings[key][place] for place in range(1, longest + 1)),
                active=key not in inactive,
                tie_breaks=tuple((name, chosen[name][key]) for name in order),
            )
        )
    return table


def _on_points(points: dict[int, float], keys: Sequence[int]) -> dict[int, tuple[float, ...]]:
    return {key: (round(points.get(key, 0.0), DIGITS),) for key in keys}


@dataclass(frozen=True)
class Meeting:
    """One entrant's record against one opponent, over every table they shared.

    ``above``/``below``/``level`` count the tables where the entrant placed
    above, below or level with the opponent (they add up to ``meetings``);
    ``score_difference`` sums the entrant's game score minus the opponent's.
    """

    opponent: int
    meetings: int
    above: int
    below: int
    level: int
    score_difference: float


Crosstable = dict[int, dict[int, Meeting]]
"""``crosstable[a][b]``: a's record against b. Every listed entrant has a row (empty
when it met no one); a cell exists only for listed opponents it met. The rows keep the
order of the entrants passed in (pass the standings order for a page); cells are in the
same order. ``crosstable[b][a]`` mirrors ``crosstable[a][b]`` (above and below swapped,
score difference negated). A page renders the grid row by row; the API serialises each
row's cells as a list of :class:`Meeting` dicts."""


def crosstable(entrants: Sequence[Entrant], history: History) -> Crosstable:
    """Every pair of listed entrants that met: meetings, who placed above whom, score gap."""
    order = {entrant.key: index for index, entrant in enumerate(entrants)}
    tally: dict[tuple[int, int], list[float]] = {}
    for result in history.results:
        seats = zip(result.seats, result.ranks, result.scores, strict=True)
        for (a, rank_a, score_a), (b, rank_b, score_b) in combinations(seats, 2):
            if a not in order or b not in order or a == b:
                continue
            for me, them, mine, theirs, gap in (
                (a, b, rank_a, rank_b, score_a - score_b),
                (b, a, rank_b, rank_a, score_b - score_a),
            ):
                cell = tally.setdefault((me, them), [0, 0, 0, 0, 0.0])
                cell[0] += 1
                cell[1 if mine < theirs else 2 if mine > theirs else 3] += 1
                cell[4] += gap
    table: Crosstable = {entrant.key: {} for entrant in entrants}
    for (me, them), (meetings, above, below, level, gap) in sorted(
        tally.items(), key=lambda item: (order[item[0][0]], order[item[0][1]])
    ):
        table[me][them] = Meeting(
            opponent=them,
            meetings=int(meetings),
            above=int(above),
            below=int(below),
            level=int(level),
            score_difference=gap,
        )
    return table
