"""Knockout: snake-seeded tables shrink the field round by round down to one final table."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.formats import (
    Bye,
    Entrant,
    FormatError,
    History,
    Result,
    Round,
    Settings,
    knockout,
)

Referee = Callable[[tuple[int, ...]], tuple[tuple[int, ...], tuple[float, ...]]]


def field(n: int) -> list[Entrant]:
    """Keys 100.. with seeds 1..n (key 100 is the top seed)."""
    return [Entrant(key=100 + i, seed=i + 1) for i in range(n)]


def favourites_win(seats: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """The better seed (lower key here) always places higher."""
    order = sorted(seats)
    return tuple(order.index(k) + 1 for k in seats), tuple(float(-k) for k in seats)


def play(
    entrants: list[Entrant],
    config: Settings,
    referee: Referee = favourites_win,
    withdrawals: dict[int, set[int]] | None = None,
    seed: str = "ko",
) -> tuple[list[tuple[list[Entrant], Round]], History]:
    withdrawals = withdrawals or {}
    active = list(entrants)
    history = History()
    played = []
    for number in range(1, 100):
        active = [e for e in active if e.key not in withdrawals.get(number, set())]
        rnd = knockout.next_round(active, history, config, number, seed)
        if rnd is None:
            return played, history
        played.append((active, rnd))
        results = []
        for table in rnd.tables:
            ranks, scores = referee(table.seats)
            results.append(Result(number, table.seats, ranks, scores))
        history = History(
            history.results + tuple(results),
            history.byes + tuple(Bye(number, key) for key in rnd.byes),
        )
    raise AssertionError("the knockout never ended")


def keys(*seeds: int) -> set[int]:
    return {99 + s for s in seeds}


def test_eight_in_tables_of_four_snake_then_final() -> None:
    config = Settings(table_size=4, min_table_size=4, advance=2)
    played, _ = play(field(8), config)
    assert len(played) == 2 == knockout.total_rounds(8, config)
    first = played[0][1]
    assert [set(t.seats) for t in first.tables] == [keys(1, 4, 5, 8), keys(2, 3, 6, 7)]
    assert first.byes == ()
    final = played[1][1]
    assert [set(t.seats) for t in final.tables] == [keys(1, 2, 3, 4)]


def test_top_seeds_get_the_byes_when_the_field_does_not_divide() -> None:
    config = Settings(table_size=4, min_table_size=4, advance=2)
    played, _ = play(field(10), config)
    first = played[0][1]
    assert set(first.byes) == keys(1, 2)
    assert [set(t.seats) for t in first.tables] == [keys(3, 6, 7, 10), keys(4, 5, 8, 9)]
    second = played[1][1]  # byes 1, 2 and advancers 3, 4, 5, 6: six for tables of four
    assert set(second.byes) == keys(1, 2)
    assert [set(t.seats) for t in second.tables] == [keys(3, 4, 5, 6)]
    final = played[2][1]
    assert [set(t.seats) for t in final.tables] == [keys(1, 2, 3, 4)]
    assert len(played) == knockout.total_rounds(10, config) == 3


def test_ties_go_to_the_higher_score_then_the_better_seed() -> None:
    config = Settings(table_size=3, min_table_size=2, advance=1)
    entrants = field(6)

    def referee(seats: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[float, ...]]:
        # Everybody shares first place; seeds 3 and 6 (keys 102, 105) score most.
        scores = {105: 9.0, 102: 9.0}
        return (1,) * len(seats), tuple(scores.get(k, 1.0) for k in seats)

    played, _ = play(entrants, config, referee)
    tables = [set(t.seats) for t in played[0][1].tables]
    assert tables == [keys(1, 4, 5), keys(2, 3, 6)]
    # Table {1, 4, 5}: equal scores, so the best seed, 1, goes through. Table {2, 3, 6}:
    # seeds 3 and 6 outscored seed 2, and seed 3 is the better seed of the two.
    assert set(played[1][1].tables[0].seats) == {100, 102}


def test_lucky_losers_fill_a_final_short_of_the_smallest_table() -> None:
    config = Settings(table_size=4, min_table_size=4, advance=2)
    played, _ = play(field(5), config)
    first = played[0][1]
    assert first.byes == (100,)
    assert set(first.tables[0].seats) == keys(2, 3, 4, 5)
    # Seed 1 (bye), seeds 2 and 3 (through) and seed 4, the best of those knocked out.
    assert [set(t.seats) for t in played[1][1].tables] == [keys(1, 2, 3, 4)]


def test_the_event_ends_after_the_final_and_when_one_entrant_is_left() -> None:
    config = Settings(table_size=3, min_table_size=2, advance=1)
    played, history = play(field(3), config)
    assert len(played) == 1
    assert knockout.next_round(field(3), history, config, 2, "ko") is None
    # Three in pairs: seed 1 has a bye; then seeds 2 and 3 withdraw and seed 1 has won.
    config = Settings(table_size=2, min_table_size=2, advance=1)
    played, _ = play(field(3), config, withdrawals={2: {101, 102}})
    assert len(played) == 1 and played[0][1].byes == (100,)


def test_a_withdrawn_winner_is_replaced_by_the_next_of_their_table() -> None:
    config = Settings(table_size=2, min_table_size=2, advance=1)
    played, _ = play(field(4), config, withdrawals={2: {100}})
    assert [set(t.seats) for t in played[0][1].tables] == [keys(1, 4), keys(2, 3)]
    assert [set(t.seats) for t in played[1][1].tables] == [keys(2, 4)]


@st.composite
def knockouts(draw: st.DrawFn) -> tuple[int, Settings, dict[int, set[int]], int]:
    k = draw(st.integers(2, 5))
    smallest = draw(st.integers(2, k))
    advance = draw(st.integers(1, smallest - 1))
    n = draw(st.integers(smallest, 40))
    withdrawals: dict[int, set[int]] = {}
    for key in draw(st.lists(st.integers(100, 100 + n - 1), max_size=4, unique=True)):
        withdrawals.setdefault(draw(st.integers(2, 4)), set()).add(key)
    config = Settings(table_size=k, min_table_size=smallest, advance=advance)
    return n, config, withdrawals, draw(st.integers(0, 2**32))


def random_referee(salt: int) -> Referee:
    rng = random.Random(salt)

    def referee(seats: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[float, ...]]:
        scores = tuple(float(rng.randrange(4)) for _ in seats)
        ranks = tuple(1 + sum(1 for o in scores if o > s) for s in scores)
        return ranks, scores

    return referee


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(event=knockouts())
def test_knockout_shrinks_to_one_final_table(
    event: tuple[int, Settings, dict[int, set[int]], int],
) -> None:
    n, config, withdrawals, salt = event
    try:
        played, history = play(field(n), config, random_referee(salt), withdrawals)
    except FormatError as error:  # withdrawals left too few for a final: said, not mispaired
        assert "fewer than the smallest table" in str(error)
        return
    if not withdrawals:
        assert len(played) == knockout.total_rounds(n, config)
    previous: set[int] | None = None
    for number, (active, rnd) in enumerate(played, start=1):
        seated = [k for t in rnd.tables for k in t.seats]
        in_round = seated + list(rnd.byes)
        assert len(set(in_round)) == len(in_round)
        assert set(in_round) <= {e.key for e in active}
        for table in rnd.tables:
            assert len(table.seats) <= config.table_size
            assert len(table.seats) >= config.min_table_size
        if previous is not None:
            assert len(in_round) < len(previous)
            alive = {e.key: e.seed for e in active}
            through = {b.key for b in history.byes if b.round == number - 1} & set(alive)
            for result in (r for r in history.results if r.round == number - 1):
                placed = [k for k in knockout.placing(result, alive) if k in alive]
                through |= set(placed[: config.advance])
            if len(through) >= config.min_table_size:
                assert set(in_round) == through  # lucky losers only when the field is short
            else:
                assert through < set(in_round)
        previous = set(in_round)
    last = played[-1][1]
    assert all(len(r.tables) > 1 or r.byes for _, r in played[:-1])  # no final before the last
    if len(last.tables) == 1 and last.byes == ():
        assert knockout.next_round(field(n), history, config, len(played) + 1, "ko") is None
    else:  # withdrawals left a single survivor: the event ended without a final
        assert withdrawals


@settings(max_examples=20, deadline=None)
@given(event=knockouts(), seed=st.text(max_size=6))
def test_same_seed_same_knockout(
    event: tuple[int, Settings, dict[int, set[int]], int], seed: str
) -> None:
    n, config, _, salt = event
    first = play(field(n), config, random_referee(salt), seed=seed)[0]
    again = play(field(n), config, random_referee(salt), seed=seed)[0]
    assert [r for _, r in first] == [r for _, r in again]


@pytest.mark.parametrize(
    ("n", "config", "message"),
    [
        (8, Settings(table_size=4, min_table_size=3, advance=3), "knock nobody out"),
        (8, Settings(table_size=4, min_table_size=4, advance=0), "at least one"),
        (2, Settings(table_size=4, min_table_size=3, advance=1), "too few"),
        (8, Settings(table_size=4, min_table_size=1, advance=1), "at least two players"),
    ],
)
def test_check_refuses_settings_that_cannot_shrink(n: int, config: Settings, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        knockout.check(n, config)


@pytest.mark.parametrize(
    ("n", "k", "smallest", "advance", "fields"),
    [
        (16, 4, 4, 2, [16, 8, 4]),
        (16, 4, 4, 1, [16, 4]),
        (13, 4, 3, 1, [13, 4]),
        (64, 2, 2, 1, [64, 32, 16, 8, 4, 2]),
        (5, 4, 4, 2, [5, 4]),
        (4, 4, 4, 2, [4]),
    ],
)
def test_field_sizes(n: int, k: int, smallest: int, advance: int, fields: list[int]) -> None:
    config = Settings(table_size=k, min_table_size=smallest, advance=advance)
    assert knockout.field_sizes(n, config) == fields
    assert knockout.total_rounds(n, config) == len(fields)
