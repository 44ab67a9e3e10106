"""Duplicate sets: every entrant plays every seat on one deal; the set becomes one Result."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import FormatError, Result, duplicate, knockout
from tournaments.formats.base import Entrant, History, Settings

tables = st.lists(st.integers(1, 10_000), min_size=2, max_size=5, unique=True)


@given(seats=tables)
def test_rotations_put_every_entrant_in_every_seat_exactly_once(seats: list[int]) -> None:
    orders = duplicate.rotations(seats)
    k = len(seats)
    assert len(orders) == k
    assert orders[0] == tuple(seats)
    for order in orders:
        assert sorted(order) == sorted(seats)
    for key in seats:
        assert sorted(order.index(key) for order in orders) == list(range(k))
    # Who plays after whom is the same in every game of the set.
    for order in orders:
        after = {order[i]: order[(i + 1) % k] for i in range(k)}
        assert after == {seats[i]: seats[(i + 1) % k] for i in range(k)}


def test_rotations_of_three() -> None:
    assert duplicate.rotations((7, 8, 9)) == [(7, 8, 9), (8, 9, 7), (9, 7, 8)]


def test_rotations_refuse_a_table_with_a_repeated_entrant() -> None:
    with pytest.raises(FormatError):
        duplicate.rotations((1, 1, 2))


def test_deal_key_is_shared_by_a_set_and_differs_between_tables_and_rounds() -> None:
    keys = {duplicate.deal_key(3, 2, rotation) for rotation in range(4)}
    assert keys == {"round-3/table-2"}
    assert duplicate.deal_key(3, 1) != duplicate.deal_key(3, 2) != duplicate.deal_key(4, 2)
    with pytest.raises(FormatError):
        duplicate.deal_key(0, 1)


def game(seats: tuple[int, ...], scores: tuple[float, ...]) -> Result:
    ranks = tuple(1 + sum(1 for o in scores if o > s) for s in scores)
    return Result(1, seats, ranks, scores)


def test_aggregate_sums_ranks_and_breaks_ties_by_total_score() -> None:
    a, b, c = 1, 2, 3
    games = [
        game((a, b, c), (30.0, 20.0, 10.0)),  # a 1st, b 2nd, c 3rd
        game((b, c, a), (25.0, 40.0, 5.0)),  # c 1st, b 2nd, a 3rd
        game((c, a, b), (12.0, 22.0, 21.0)),  # a 1st, b 2nd, c 3rd
    ]
    result = duplicate.aggregate(4, (a, b, c), games)
    # Rank sums: a 1+3+1 = 5, b 2+2+2 = 6, c 3+1+3 = 7.
    assert result == Result(round=4, seats=(a, b, c), ranks=(1, 2, 3), scores=(57.0, 66.0, 62.0))


def test_equal_rank_sums_go_to_the_higher_total_score_and_full_ties_share() -> None:
    a, b = 1, 2
    games = [game((a, b), (10.0, 5.0)), game((b, a), (10.0, 9.0))]
    assert duplicate.aggregate(1, (a, b), games).ranks == (1, 2)  # 19 against 15
    games = [game((a, b), (10.0, 5.0)), game((b, a), (10.0, 5.0))]
    assert duplicate.aggregate(1, (a, b), games).ranks == (1, 1)


@settings(max_examples=60, deadline=None)
@given(seats=tables, salt=st.integers(0, 2**32))
def test_aggregate_orders_entrants_by_rank_sum_then_score(seats: list[int], salt: int) -> None:
    rng = random.Random(salt)
    games = [
        game(order, tuple(float(rng.randrange(5)) for _ in order))
        for order in duplicate.rotations(seats)
    ]
    result = duplicate.aggregate(2, seats, games)
    rank_sum: Counter[int] = Counter()
    score_sum: Counter[int] = Counter()
    for g in games:
        for key, rank, score in zip(g.seats, g.ranks, g.scores, strict=True):
            rank_sum[key] += rank
            score_sum[key] += score
    standing = {key: (rank_sum[key], -score_sum[key]) for key in seats}
    rank = dict(zip(result.seats, result.ranks, strict=True))
    for x in seats:
        assert result.scores[seats.index(x)] == score_sum[x]
        for y in seats:
            assert (rank[x] < rank[y]) == (standing[x] < standing[y])
            assert (rank[x] == rank[y]) == (standing[x] == standing[y])


def test_aggregate_refuses_an_incomplete_or_foreign_set() -> None:
    a, b, c = 1, 2, 3
    full = [game(order, (1.0, 2.0, 3.0)) for order in duplicate.rotations((a, b, c))]
    with pytest.raises(FormatError, match="has 3 games, not 2"):
        duplicate.aggregate(1, (a, b, c), full[:2])
    with pytest.raises(FormatError, match="not the set's entrants"):
        duplicate.aggregate(1, (a, b, c), [*full[:2], game((a, b, 4), (1.0, 2.0, 3.0))])
    with pytest.raises(FormatError, match="did not play every seat"):
        duplicate.aggregate(1, (a, b, c), [full[0], full[0], full[1]])


def test_a_set_result_drives_a_knockout_like_a_single_game() -> None:
    config = Settings(table_size=3, min_table_size=3, advance=1)
    entrants = [Entrant(key=k, seed=k) for k in range(1, 7)]
    first = knockout.next_round(entrants, History(), config, 1, "dup")
    assert first is not None
    results = []
    for table in first.tables:
        # The worst seed of each table wins every game of its set.
        winner = max(table.seats)
        games = [
            game(order, tuple(10.0 if key == winner else float(key) for key in order))
            for order in duplicate.rotations(table.seats)
        ]
        results.append(duplicate.aggregate(1, table.seats, games))
    final = knockout.next_round(entrants, History(tuple(results)), config, 2, "dup")
    assert final is not None
    assert {k for t in final.tables for k in t.seats} >= {max(t.seats) for t in first.tables}
