"""Round robin: designs meet every pair once, the local search repeats as little as it can.

Pure functions, no database: every event is played out here by feeding each
round's tables back as finished results.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

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
    Table,
    designs,
    meetings,
    round_robin,
)
from tournaments.formats.sizes import table_sizes

FAST = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def field(n: int) -> list[Entrant]:
    return [Entrant(key=100 + i, seed=i + 1) for i in range(n)]


def record(history: History, rnd: Round) -> History:
    """The history after ``rnd`` was played (results carry no meaning for a round robin)."""
    results = tuple(
        Result(rnd.number, t.seats, tuple(range(1, len(t.seats) + 1)), (0.0,) * len(t.seats))
        for t in rnd.tables
    )
    byes = tuple(Bye(rnd.number, key) for key in rnd.byes)
    return History(history.results + results, history.byes + byes)


def play(
    entrants: Sequence[Entrant],
    config: Settings,
    seed: str,
    withdrawals: dict[int, set[int]] | None = None,
) -> tuple[list[tuple[list[Entrant], Round]], History]:
    """Every round until next_round says the event is over: (active field, round) each."""
    withdrawals = withdrawals or {}
    active = list(entrants)
    history = History()
    played = []
    for number in range(1, 200):
        active = [e for e in active if e.key not in withdrawals.get(number, set())]
        rnd = round_robin.next_round(active, history, config, number, seed)
        if rnd is None:
            return played, history
        assert rnd.number == number
        played.append((active, rnd))
        history = record(history, rnd)
    raise AssertionError("the event never ended")


def pair_counts(history: History) -> Counter[frozenset[int]]:
    met: Counter[frozenset[int]] = Counter()
    for result in history.results:
        for a, b in combinations(result.seats, 2):
            met[frozenset((a, b))] += 1
    return met


def seat_spread(history: History, keys: Sequence[int], seats: int) -> int:
    """The largest (most - least used seat) over ``keys``, seats 0..seats-1."""
    counts: dict[int, Counter[int]] = {key: Counter() for key in keys}
    for result in history.results:
        for position, key in enumerate(result.seats):
            if key in counts:
                counts[key][position] += 1
    return max(
        max(c[p] for p in range(seats)) - min(c[p] for p in range(seats)) for c in counts.values()
    )


@st.composite
def events(draw: st.DrawFn, max_entrants: int = 18) -> tuple[int, Settings, dict[int, set[int]]]:
    """(entrants, settings, withdrawals by round) with the field never below the smallest table."""
    k = draw(st.integers(2, 5))
    smallest = draw(st.integers(2, k))
    n = draw(st.integers(smallest, max_entrants))
    rounds = draw(st.none() | st.integers(1, 6))
    withdrawals: dict[int, set[int]] = {}
    left = n
    for key in draw(st.lists(st.integers(100, 100 + n - 1), max_size=3, unique=True)):
        if left - 1 < smallest:
            break
        withdrawals.setdefault(draw(st.integers(2, 5)), set()).add(key)
        left -= 1
    return n, Settings(table_size=k, min_table_size=smallest, rounds=rounds), withdrawals


@FAST
@given(event=events(), seed=st.text(max_size=8))
def test_every_round_seats_each_active_entrant_once_in_tables_of_allowed_size(
    event: tuple[int, Settings, dict[int, set[int]]], seed: str
) -> None:
    n, config, withdrawals = event
    played, _ = play(field(n), config, seed, withdrawals)
    assert len(played) == round_robin.total_rounds(n, config)
    byes: Counter[int] = Counter()
    for active, rnd in played:
        seated = [key for table in rnd.tables for key in table.seats]
        assert sorted(seated + list(rnd.byes)) == sorted(e.key for e in active)
        sizes, left_over = table_sizes(len(active), config.table_size, config.min_table_size)
        assert sorted(len(t.seats) for t in rnd.tables) == sorted(sizes)
        assert all(config.min_table_size <= len(t.seats) <= config.table_size for t in rnd.tables)
        assert len(rnd.byes) == left_over
        byes.update(rnd.byes)
        sat_out = [byes[e.key] for e in active]
        assert max(sat_out) - min(sat_out) <= 1  # nobody sits out twice before all sat out once


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9])
@settings(max_examples=3, deadline=None)
@given(seed=st.text(max_size=8))
def test_affine_plane_meets_every_pair_exactly_once_with_seats_within_one(
    q: int, seed: str
) -> None:
    config = Settings(table_size=q, min_table_size=q)
    played, history = play(field(q * q), config, seed)
    assert len(played) == q + 1
    met = pair_counts(history)
    assert len(met) == q * q * (q * q - 1) // 2
    assert set(met.values()) == {1}
    # q + 1 rounds of q seats: one seat twice, every other seat once.
    counts: dict[int, Counter[int]] = {}
    for result in history.results:
        for position, key in enumerate(result.seats):
            counts.setdefault(key, Counter())[position] += 1
    assert all(sorted(c.values()) == [1] * (q - 1) + [2] for c in counts.values())


@pytest.mark.parametrize("q", [2, 3, 4])
def test_plane_cycles_past_q_plus_one_rounds_keep_pairs_and_seats_even(q: int) -> None:
    for cycles in range(1, q + 2):
        config = Settings(table_size=q, min_table_size=q, rounds=cycles * (q + 1))
        _, history = play(field(q * q), config, "cycles")
        assert set(pair_counts(history).values()) == {cycles}
        assert seat_spread(history, [e.key for e in field(q * q)], q) <= 1


@pytest.mark.parametrize("n", range(2, 17))
def test_circle_method_meets_every_pair_once_and_balances_first_seat(n: int) -> None:
    config = Settings(table_size=2, min_table_size=2)
    played, history = play(field(n), config, f"circle{n}")
    assert len(played) == (n - 1 if n % 2 == 0 else n)
    met = pair_counts(history)
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    assert Counter(b.key for b in history.byes) == (
        Counter({e.key: 1 for e in field(n)}) if n % 2 else Counter()
    )
    assert seat_spread(history, [e.key for e in field(n)], 2) <= 1


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 25, 27, 32])
def test_finite_fields_are_fields(q: int) -> None:
    f = designs.field(q)
    elements = range(q)
    assert all(f.add[0][a] == a and f.mul[1][a] == a for a in elements)
    for a in elements:
        assert sorted(f.add[a]) == list(elements)  # every element has a negative
        if a:
            assert sorted(f.mul[a]) == list(elements)  # and, but 0, an inverse
    rng = random.Random(q)
    for _ in range(200):
        a, b, c = (rng.randrange(q) for _ in range(3))
        assert f.mul[a][f.add[b][c]] == f.add[f.mul[a][b]][f.mul[a][c]]
        assert f.mul[a][f.mul[b][c]] == f.mul[f.mul[a][b]][c]
        assert f.add[a][f.add[b][c]] == f.add[f.add[a][b]][c]


def test_no_field_for_a_non_prime_power() -> None:
    assert designs.prime_power(6) is None and designs.plane_order(36, 6) is None
    with pytest.raises(ValueError, match="not a prime power"):
        designs.field(12)


def test_a_withdrawal_turns_a_plane_into_the_local_search_over_the_active_field() -> None:
    config = Settings(table_size=4, min_table_size=3)
    played, history = play(field(16), config, "withdraw", withdrawals={3: {105}})
    assert len(played) == 5  # the length of the event is fixed by the starting field
    for _, rnd in played[2:]:
        assert 105 not in {key for t in rnd.tables for key in t.seats}
        assert sorted(len(t.seats) for t in rnd.tables) == [3, 4, 4, 4]
    met = pair_counts(history)
    # The first two rounds followed the plane; the rest add as few repeats as they can.
    assert max(met.values()) <= 2
    assert sum(1 for count in met.values() if count == 2) <= 8


def brute_force_level_zero_exists(problem: meetings.Problem) -> bool:
    """Is there any round (respecting the bye rule) seating only least-met pairs?"""
    n = problem.n
    base = min((problem.meetings[a][b] for a, b in combinations(range(n), 2)), default=0)
    forced, pool = meetings.bye_candidates(problem.bye_counts, problem.byes)
    for extra in combinations(sorted(pool), problem.byes - len(forced)):
        seated = [i for i in range(n) if i not in forced and i not in extra]
        if any(_splits(seated, list(problem.sizes), problem.meetings, base)):
            return True
    return False


def _splits(left: list[int], sizes: list[int], met, base: int) -> Iterator[bool]:
    if not left:
        yield True
        return
    first, rest = left[0], left[1:]
    for size in set(sizes):
        for group in combinations(rest, size - 1):
            table = (first, *group)
            if all(met[a][b] == base for a, b in combinations(table, 2)):
                remaining = list(sizes)
                remaining.remove(size)
                yield from _splits([x for x in rest if x not in group], remaining, met, base)


@st.composite
def small_problems(draw: st.DrawFn) -> meetings.Problem:
    k = draw(st.integers(2, 4))
    smallest = draw(st.integers(2, k))
    n = draw(st.integers(smallest, 9))
    sizes, left_over = table_sizes(n, k, smallest)
    density = draw(st.floats(0, 0.7))
    rng = random.Random(draw(st.integers(0, 2**32)))
    met = [[0] * n for _ in range(n)]
    for a, b in combinations(range(n), 2):
        met[a][b] = met[b][a] = int(rng.random() < density) + int(rng.random() < density / 3)
    bye_counts = [rng.randrange(2) for _ in range(n)]
    return meetings.Problem(meetings=met, bye_counts=bye_counts, sizes=sizes, byes=left_over)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=small_problems(), salt=st.integers(0, 2**32))
def test_local_search_finds_a_repeat_free_round_whenever_one_exists(
    problem: meetings.Problem, salt: int
) -> None:
    split = meetings.split_round(problem, random.Random(salt))
    n = problem.n
    assert sorted([x for t in split.tables for x in t] + list(split.byes)) == list(range(n))
    assert [len(t) for t in split.tables] == list(problem.sizes)
    forced, pool = meetings.bye_candidates(problem.bye_counts, problem.byes)
    assert forced <= set(split.byes) <= forced | pool
    base = min((problem.meetings[a][b] for a, b in combinations(range(n), 2)), default=0)
    worst = max(
        (problem.meetings[a][b] for t in split.tables for a, b in combinations(t, 2)), default=base
    )
    if brute_force_level_zero_exists(problem):
        assert worst == base  # base == 0: no pair meets again
    else:
        assert worst > base


# The two bounds below are measured, not proved (the search is a heuristic); the examples are
# fixed (derandomize) so the suite cannot turn red on an unlucky draw. A sweep over 5..25
# entrants in tables of 2..4 found no pair spread above 2; tables of 5 with 9 or 10 entrants
# reach 3 (10 entrants in two tables of 5 for 3 rounds: some pair meets all 3 times by
# pigeonhole), and so does the seat spread with mixed table sizes.
MEASURED = settings(max_examples=25, deadline=None, derandomize=True)


@MEASURED
@given(k=st.integers(2, 4), data=st.data())
def test_local_search_spreads_meetings_evenly(k: int, data: st.DataObject) -> None:
    smallest = data.draw(st.integers(max(2, k - 1), k))
    n = data.draw(st.integers(k + 1, 16))
    config = Settings(table_size=k, min_table_size=smallest)
    _, history = play(field(n), config, data.draw(st.text(max_size=4)))
    met = pair_counts(history)
    counts = [met[frozenset(p)] for p in combinations([e.key for e in field(n)], 2)]
    assert max(counts) - min(counts) <= 2


@MEASURED
@given(k=st.integers(2, 4), data=st.data())
def test_local_search_seat_counts_within_two_with_equal_tables(k: int, data: st.DataObject) -> None:
    n = data.draw(st.integers(k + 1, 16))
    config = Settings(table_size=k, min_table_size=k)
    _, history = play(field(n), config, data.draw(st.text(max_size=4)))
    assert seat_spread(history, [e.key for e in field(n)], k) <= 2


@FAST
@given(event=events(max_entrants=14), seed=st.text(max_size=8))
def test_same_seed_same_rounds(event: tuple[int, Settings, dict[int, set[int]]], seed: str) -> None:
    n, config, withdrawals = event
    first, _ = play(field(n), config, seed, withdrawals)
    again, _ = play(field(n), config, seed, withdrawals)
    assert [rnd for _, rnd in first] == [rnd for _, rnd in again]


@pytest.mark.parametrize(("n", "k"), [(9, 3), (12, 4), (8, 2)])
def test_different_seeds_draw_different_rounds(n: int, k: int) -> None:
    config = Settings(table_size=k, min_table_size=k)
    firsts = {round_robin.next_round(field(n), History(), config, 1, f"s{i}") for i in range(6)}
    assert len(firsts) > 1


def test_four_entrants_in_pairs_play_the_three_perfect_matchings() -> None:
    played, _ = play(field(4), Settings(table_size=2, min_table_size=2), "x")
    matchings = {frozenset(frozenset(t.seats) for t in rnd.tables) for _, rnd in played}
    pairs = [
        frozenset(p)
        for p in [(100, 101), (102, 103), (100, 102), (101, 103), (100, 103), (101, 102)]
    ]
    assert matchings == {
        frozenset(pairs[0:2]),
        frozenset(pairs[2:4]),
        frozenset(pairs[4:6]),
    }


def test_the_search_takes_the_only_round_without_a_repeat() -> None:
    history = History(
        results=(
            Result(1, (1, 2), (1, 2), (0.0, 0.0)),
            Result(1, (3, 4), (1, 2), (0.0, 0.0)),
            Result(2, (3, 1), (1, 2), (0.0, 0.0)),
            Result(2, (4, 2), (1, 2), (0.0, 0.0)),
        )
    )
    config = Settings(table_size=2, min_table_size=2)
    rnd = round_robin.searched_round([1, 2, 3, 4], history, config, 3, "x")
    assert {frozenset(t.seats) for t in rnd.tables} == {frozenset((1, 4)), frozenset((2, 3))}
    # 2 sat second twice and 3 first twice: 2 goes first now (1 and 4 sat each seat once).
    assert Table(seats=(2, 3)) in rnd.tables


def test_byes_rotate_through_the_field() -> None:
    config = Settings(table_size=4, min_table_size=4, rounds=5)
    played, history = play(field(5), config, "byes")
    assert [len(rnd.byes) for _, rnd in played] == [1] * 5
    assert sorted(b.key for b in history.byes) == [e.key for e in field(5)]


@pytest.mark.parametrize(
    ("n", "k", "smallest", "rounds"),
    [
        (16, 4, 4, 5),
        (9, 3, 3, 4),
        (25, 5, 5, 6),
        (8, 2, 2, 7),
        (7, 2, 2, 7),
        (10, 4, 3, 4),
        (12, 4, 4, 4),
    ],
)
def test_default_rounds_let_each_pair_meet_about_once(
    n: int, k: int, smallest: int, rounds: int
) -> None:
    assert round_robin.total_rounds(n, Settings(table_size=k, min_table_size=smallest)) == rounds
    assert (
        round_robin.total_rounds(n, Settings(table_size=k, min_table_size=smallest, rounds=2)) == 2
    )


@pytest.mark.parametrize(
    ("n", "config", "message"),
    [
        (2, Settings(table_size=4, min_table_size=3), "2 entrants are too few"),
        (8, Settings(table_size=4, min_table_size=1), "at least two players"),
        (8, Settings(table_size=3, min_table_size=4), "smallest table"),
        (8, Settings(table_size=4, min_table_size=4, rounds=0), "at least one round"),
    ],
)
def test_check_refuses_what_cannot_be_played(n: int, config: Settings, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        round_robin.check(n, config)


def test_too_few_active_entrants_left_is_an_error_not_a_bad_round() -> None:
    config = Settings(table_size=3, min_table_size=3)
    rnd = round_robin.next_round(field(3), History(), config, 1, "x")
    assert rnd is not None
    history = record(History(), rnd)
    with pytest.raises(FormatError, match="too few"):
        round_robin.next_round(field(2), history, Settings(3, 3, rounds=2), 2, "x")


def test_the_registry_finds_round_robin_and_knockout_by_name() -> None:
    from tournaments.formats import get, knockout

    assert get("round_robin") is round_robin and round_robin.name == "round_robin"
    assert get("knockout") is knockout and knockout.name == "knockout"
