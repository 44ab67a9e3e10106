"""Standings and crosstable (tournaments.formats.standings): points, ties, tie-breaks.

The tie-break tests use hand-made histories whose seeds run against the
expected order, so each test only passes if the tie-break it names decides.
"""

from __future__ import annotations

import random
from itertools import pairwise
from math import isclose

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.base import Bye, Entrant, FormatError, History, Result, Settings
from tournaments.formats.standings import (
    bye_points,
    crosstable,
    placement_points,
    standings,
    table_points,
)

FOURS = Settings(table_size=4, min_table_size=3)
TWOS = Settings(table_size=2, min_table_size=2)


def entrants(*keys_by_seed: int) -> list[Entrant]:
    """Entrants whose seed is their position in the arguments (first = seed 1)."""
    return [Entrant(key=key, seed=seed) for seed, key in enumerate(keys_by_seed, start=1)]


def duel(round_number: int, winner: int, loser: int, scores=(10.0, 5.0)) -> Result:
    return Result(round=round_number, seats=(winner, loser), ranks=(1, 2), scores=scores)


def order(table) -> list[int]:
    return [standing.key for standing in table]


# --- placement points -------------------------------------------------------------------


def test_placement_points_per_table_size() -> None:
    assert placement_points(2) == (6.0, 0.0)
    assert placement_points(3) == (6.0, 2.0, 0.0)
    assert placement_points(4) == (6.0, 3.0, 1.0, 0.0)  # BGA's multiplayer Swiss
    assert placement_points(5) == (6.0, 3.0, 2.0, 1.0, 0.0)
    assert placement_points(6) == (8.0, 4.0, 3.0, 2.0, 1.0, 0.0)
    with pytest.raises(FormatError, match="at least 2"):
        placement_points(1)


@pytest.mark.parametrize("size", range(2, 9))
def test_first_place_clearly_best_and_last_zero(size: int) -> None:
    points = placement_points(size)
    assert len(points) == size
    assert points[-1] == 0.0
    assert all(a > b for a, b in pairwise(points))
    assert points[0] >= 2 * points[1]


def test_tied_places_split_their_points() -> None:
    assert table_points((1, 1, 3, 4)) == (4.5, 4.5, 1.0, 0.0)  # (6+3)/2 each
    assert table_points((2, 1, 2, 2)) == pytest.approx((4 / 3, 6.0, 4 / 3, 4 / 3))
    assert table_points((1, 1, 1, 1)) == (2.5, 2.5, 2.5, 2.5)
    assert table_points((3, 1, 2)) == (0.0, 6.0, 2.0)
    # Dense ranks (1, 2, 2, 3) mean the same places as competition ranks (1, 2, 2, 4).
    assert table_points((1, 2, 2, 3)) == table_points((1, 2, 2, 4)) == (6.0, 2.0, 2.0, 0.0)


@given(st.integers(2, 6).flatmap(lambda n: st.lists(st.integers(1, n), min_size=n, max_size=n)))
def test_a_table_hands_out_exactly_its_placement_points(ranks: list[int]) -> None:
    points = table_points(ranks)
    assert isclose(sum(points), sum(placement_points(len(ranks))))
    for a, b in zip(ranks, points, strict=True):
        for c, d in zip(ranks, points, strict=True):
            if a == c:
                assert b == d  # ties split exactly
            elif a < c:
                assert b > d  # a better place always scores more


def test_bye_points_default_to_an_average_place() -> None:
    assert bye_points(FOURS) == 2.5
    assert bye_points(Settings(table_size=3, min_table_size=3)) == pytest.approx(8 / 3)
    assert bye_points(Settings(table_size=4, min_table_size=3, bye_points=6)) == 6.0


# --- tie-breaks ---------------------------------------------------------------------------


def test_points_come_first() -> None:
    history = History(
        results=(Result(1, (1, 2, 3, 4), (4, 3, 2, 1), (1.0, 2.0, 3.0, 4.0)),),
    )
    table = standings(entrants(1, 2, 3, 4), history, FOURS)
    assert order(table) == [4, 3, 2, 1]
    assert [s.points for s in table] == [6.0, 3.0, 1.0, 0.0]
    assert [s.rank for s in table] == [1, 2, 3, 4]
    assert [s.placings for s in table] == [(1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)]


def test_tablemates_points_break_a_points_tie() -> None:
    # A and B both won a game and had a bye (9 points); A beat C, who went on to win,
    # B beat D, who lost again. A's tablemates scored 6, B's 0.
    a, b, c, d, e, f = 1, 2, 3, 4, 5, 6
    history = History(
        results=(duel(1, a, c), duel(1, b, d), duel(1, e, f), duel(2, c, f), duel(2, e, d)),
        byes=(Bye(2, a), Bye(2, b)),
    )
    settings_ = Settings(table_size=2, min_table_size=2, bye_points=3)
    table = standings(entrants(f, d, c, b, a, e), history, settings_)
    assert order(table) == [e, a, b, c, d, f]
    by_key = {s.key: s for s in table}
    assert by_key[a].points == by_key[b].points == 9.0
    assert (by_key[a].tablemates_points, by_key[b].tablemates_points) == (6.0, 0.0)
    # D and F have 0 points: D sat with B (9) and E (12), F with E (12) and C (6).
    assert (by_key[d].tablemates_points, by_key[f].tablemates_points) == (21.0, 18.0)
    assert [s.rank for s in table] == [1, 2, 3, 4, 5, 6]
    assert (by_key[a].games, by_key[a].byes) == (1, 1)


def test_game_score_breaks_the_next_tie_and_seed_only_orders_a_shared_rank() -> None:
    a, b, c, d = 1, 2, 3, 4
    history = History(results=(duel(1, a, c, (10.0, 5.0)), duel(1, b, d, (20.0, 5.0))))
    table = standings(entrants(a, b, c, d), history, TWOS)
    assert order(table) == [b, a, c, d]
    assert [s.game_score for s in table] == [20.0, 10.0, 5.0, 5.0]
    # C and D are level on everything but seed: C (seed 3) is listed first, same rank.
    assert [s.rank for s in table] == [1, 2, 3, 3]


def test_head_to_head_breaks_a_tie_on_points_tablemates_and_score() -> None:
    # A beat B in round 1, B won and A lost in round 2, both had a bye in round 3:
    # 9 points each, tablemates 15 each, game score 15 each. X beat Y in round 3
    # with the same symmetry one level down. Seeds run the other way.
    a, b, x, y = 1, 2, 3, 4
    history = History(
        results=(
            duel(1, a, b, (10.0, 5.0)),
            duel(2, b, x, (10.0, 5.0)),
            duel(2, y, a, (10.0, 5.0)),
            duel(3, x, y, (10.0, 5.0)),
        ),
        byes=(Bye(3, a), Bye(3, b)),
    )
    settings_ = Settings(table_size=2, min_table_size=2, bye_points=3)
    table = standings(entrants(b, a, y, x), history, settings_)
    assert order(table) == [a, b, x, y]
    assert [(s.points, s.tablemates_points, s.game_score) for s in table] == [
        (9.0, 15.0, 15.0),
        (9.0, 15.0, 15.0),
        (6.0, 15.0, 15.0),
        (6.0, 15.0, 15.0),
    ]
    assert [s.head_to_head for s in table] == [1.0, 0.0, 1.0, 0.0]
    assert [s.rank for s in table] == [1, 2, 3, 4]


def test_a_shared_place_counts_half_in_head_to_head() -> None:
    # Everyone at the table shares first place: all level, 1/2 per tablemate.
    history = History(results=(Result(1, (1, 2, 3, 4), (1, 1, 1, 1), (5.0, 5.0, 5.0, 5.0)),))
    table = standings(entrants(3, 1, 4, 2), history, FOURS)
    assert order(table) == [3, 1, 4, 2]  # seed order
    assert {s.rank for s in table} == {1}
    assert {s.head_to_head for s in table} == {1.5}
    assert {s.points for s in table} == {2.5}
    assert table[0].placings == (1,)


def test_entrants_without_games_are_listed_with_zeros() -> None:
    table = standings(entrants(7, 8), History(), FOURS)
    assert order(table) == [7, 8]
    assert [s.rank for s in table] == [1, 1]
    assert table[0].placings == ()
    assert (table[0].points, table[0].games, table[0].byes) == (0.0, 0, 0)


def test_an_entrant_listed_twice_is_refused() -> None:
    with pytest.raises(FormatError, match="twice"):
        standings([Entrant(1, 1), Entrant(1, 2)], History(), FOURS)


# --- withdrawn entrants ---------------------------------------------------------------------


def test_withdrawn_entrants_are_listed_only_when_passed_and_flagged() -> None:
    # 4 withdrew after winning round 1; the pairing passes only the active ones.
    history = History(
        results=(
            Result(1, (1, 2, 3, 4), (2, 3, 4, 1), (3.0, 2.0, 1.0, 9.0)),
            Result(2, (1, 2, 3), (1, 2, 3), (3.0, 2.0, 1.0)),
        )
    )
    active = standings(entrants(1, 2, 3), history, FOURS)
    assert order(active) == [1, 2, 3]
    # 1: 3 + 6 = 9 points, 2: 1 + 2 = 3, 3: 0, 4: 6 (withdrawn), and 4's points still
    # count for those who sat with it.
    by_key = {s.key: s for s in active}
    assert [s.points for s in active] == [9.0, 3.0, 0.0]
    assert by_key[1].tablemates_points == (3 + 0 + 6) + (3 + 0)
    assert all(s.active for s in active)

    everyone = standings(entrants(1, 2, 3, 4), history, FOURS, inactive={4})
    assert order(everyone) == [1, 4, 2, 3]  # 4 keeps the place its points earned
    assert [s.active for s in everyone] == [True, False, True, True]
    assert [s.points for s in everyone] == [9.0, 6.0, 3.0, 0.0]
    assert [s.rank for s in everyone] == [1, 2, 3, 4]


# --- properties over random histories ------------------------------------------------------


@st.composite
def random_histories(draw):
    """An event played so far: random tables with random ranks and scores, some byes."""
    count = draw(st.integers(2, 14))
    size = draw(st.integers(2, 5))
    rng = random.Random(draw(st.integers(0, 2**32)))
    results, byes = [], []
    for number in range(1, draw(st.integers(0, 4)) + 1):
        keys = list(range(1, count + 1))
        rng.shuffle(keys)
        while len(keys) >= 2:
            seats = tuple(keys[:size])
            del keys[:size]
            ranks = tuple(rng.randint(1, len(seats)) for _ in seats)
            scores = tuple(float(rng.randint(0, 30)) for _ in seats)
            results.append(Result(number, seats, ranks, scores))
        byes.extend(Bye(number, key) for key in keys)
    settings_ = Settings(
        table_size=size, min_table_size=2, bye_points=draw(st.sampled_from([None, 0.0, 4.0]))
    )
    listed = entrants(*rng.sample(range(1, count + 1), count))
    return listed, History(tuple(results), tuple(byes)), settings_


@settings(max_examples=60, deadline=None)
@given(random_histories())
def test_standings_hand_out_exactly_the_points_played_for(case) -> None:
    listed, history, settings_ = case
    table = standings(listed, history, settings_)
    handed_out = sum(sum(placement_points(len(r.seats))) for r in history.results)
    handed_out += len(history.byes) * bye_points(settings_)
    assert isclose(sum(s.points for s in table), handed_out, abs_tol=1e-9)
    assert sum(s.games for s in table) == sum(len(r.seats) for r in history.results)
    assert sum(s.byes for s in table) == len(history.byes)
    assert all(sum(s.placings) == s.games for s in table)


@settings(max_examples=60, deadline=None)
@given(random_histories())
def test_standings_are_ordered_by_the_tie_breaks_in_turn(case) -> None:
    listed, history, settings_ = case
    table = standings(listed, history, settings_)
    seeds = {e.key: e.seed for e in listed}

    def key(s):
        values = (s.points, s.tablemates_points, s.game_score, s.head_to_head)
        return tuple(-round(v, 9) for v in values)

    assert sorted({s.key for s in table}) == sorted(seeds)
    assert table[0].rank == 1
    for above, below in pairwise(table):
        assert key(above) <= key(below)
        if key(above) == key(below):
            assert seeds[above.key] < seeds[below.key]
            assert below.rank == above.rank
        else:
            assert below.rank == table.index(below) + 1


@settings(max_examples=60, deadline=None)
@given(random_histories())
def test_crosstable_is_symmetric_and_adds_up(case) -> None:
    listed, history, _ = case
    grid = crosstable(listed, history)
    assert list(grid) == [e.key for e in listed]
    for me, row in grid.items():
        for them, cell in row.items():
            mirror = grid[them][me]
            assert cell.opponent == them and mirror.opponent == me
            assert cell.meetings == mirror.meetings == cell.above + cell.below + cell.level
            assert (cell.above, cell.below, cell.level) == (
                mirror.below,
                mirror.above,
                mirror.level,
            )
            assert isclose(cell.score_difference, -mirror.score_difference, abs_tol=1e-9)
    meetings = sum(cell.meetings for row in grid.values() for cell in row.values())
    assert meetings == sum(len(r.seats) * (len(r.seats) - 1) for r in history.results)


def test_crosstable_by_hand() -> None:
    history = History(
        results=(
            Result(1, (1, 2, 3, 4), (1, 2, 2, 4), (10.0, 7.0, 7.0, 3.0)),
            Result(2, (2, 1), (1, 2), (8.0, 4.0)),
        )
    )
    grid = crosstable(entrants(1, 2, 3), history)  # 4 withdrew and is not listed
    assert list(grid) == [1, 2, 3]
    assert list(grid[1]) == [2, 3]
    one_two = grid[1][2]
    assert (one_two.meetings, one_two.above, one_two.below, one_two.level) == (2, 1, 1, 0)
    assert one_two.score_difference == (10 - 7) + (4 - 8)
    two_three = grid[2][3]
    assert (two_three.meetings, two_three.level, two_three.score_difference) == (1, 1, 0.0)
    assert 4 not in grid[1]
