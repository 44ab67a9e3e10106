"""Seat orders: everybody gets a least-used seat whenever the table allows it."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import History, Result, Table
from tournaments.formats.seats import balance_seats, seat_counts


def history_of(*tables: tuple[int, ...]) -> History:
    return History(
        tuple(Result(1, seats, (1,) * len(seats), (0.0,) * len(seats)) for seats in tables)
    )


def test_who_sat_second_goes_first() -> None:
    history = history_of((1, 2))
    assert balance_seats([[1, 2]], history, "s", 2) == (Table(seats=(2, 1)),)


def test_among_equally_balanced_orders_the_fewest_first_seats_go_first() -> None:
    # 1 sat each seat twice, 2 each seat once: either order keeps both balanced.
    history = history_of((1, 2), (2, 1), (1, 3), (3, 1))
    for round_number in range(5):
        assert balance_seats([[1, 2]], history, "s", round_number)[0].seats[0] == 2


def test_groups_keep_their_order_and_members() -> None:
    groups = [[5, 6, 7], [1, 2], [9, 8, 4, 3]]
    tables = balance_seats(groups, History(), "s", 1)
    assert [sorted(t.seats) for t in tables] == [sorted(g) for g in groups]


def test_with_no_history_the_draw_decides_and_differs_between_rounds() -> None:
    orders = {balance_seats([[1, 2, 3, 4]], History(), "s", r)[0].seats for r in range(1, 9)}
    assert len(orders) > 1
    assert balance_seats([[1, 2, 3, 4]], History(), "s", 3) == balance_seats(
        [[1, 2, 3, 4]], History(), "s", 3
    )


def test_a_table_past_the_exhaustive_limit_still_gets_every_seat_once() -> None:
    history = history_of(tuple(range(1, 9)))
    seats = balance_seats([list(range(1, 9))], history, "s", 2)[0].seats
    assert sorted(seats) == list(range(1, 9))
    assert seats[0] != 1  # 1 sat first last time; someone who has not goes first


@st.composite
def seated_histories(draw: st.DrawFn) -> tuple[list[int], History]:
    size = draw(st.integers(2, 5))
    rng = random.Random(draw(st.integers(0, 2**32)))
    table = list(range(1, size + 1))
    pool = [*table, 10, 11, 12]
    results = []
    for _ in range(draw(st.integers(0, 8))):
        seated = rng.sample(pool, rng.randint(2, len(pool)))[: rng.randint(2, 5)]
        results.append(Result(1, tuple(seated), (1,) * len(seated), (0.0,) * len(seated)))
    return table, History(tuple(results))


@settings(max_examples=200, deadline=None)
@given(case=seated_histories(), seed=st.text(max_size=4))
def test_everybody_gets_a_least_used_seat_when_some_order_allows_it(
    case: tuple[list[int], History], seed: str
) -> None:
    table, history = case
    counts = seat_counts(history)
    size = len(table)

    def level(key: int, position: int) -> int:
        sat = counts.get(key, Counter())
        return sat[position] - min(sat[p] for p in range(size))

    def worst(order: tuple[int, ...]) -> int:
        return max(level(key, p) for p, key in enumerate(order))

    chosen = balance_seats([table], history, seed, 2)[0].seats
    assert sorted(chosen) == table
    best = min(worst(order) for order in permutations(table))
    assert worst(chosen) == best  # 0 whenever an order gives everybody a least-used seat
