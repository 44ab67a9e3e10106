"""Swiss for k-player tables (tournaments.formats.swiss): coverage, sizes, repeats, byes.

Events are simulated: each round is paired by the format, then given random
results (ranks with the occasional tie), and the next round is paired from
that history, sometimes after a withdrawal.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import get
from tournaments.formats.base import Bye, Entrant, FormatError, History, Result, Round, Settings
from tournaments.formats.sizes import table_sizes
from tournaments.formats.standings import points_by_entrant, standings
from tournaments.formats.swiss import check, next_round, total_rounds


def field(count: int) -> list[Entrant]:
    """Entrants 101, 102, ... seeded in that order."""
    return [Entrant(key=100 + seed, seed=seed) for seed in range(1, count + 1)]


def play(round_: Round, rng: random.Random, ties: bool = True) -> list[Result]:
    """Random results for every table of a round (ties now and then when ``ties``)."""
    results = []
    for table in round_.tables:
        size = len(table.seats)
        if ties:
            ranks = tuple(rng.randint(1, size) for _ in range(size))
        else:
            shuffled = list(range(1, size + 1))
            rng.shuffle(shuffled)
            ranks = tuple(shuffled)
        scores = tuple(float(10 * (size - rank)) for rank in ranks)
        results.append(Result(round_.number, table.seats, ranks, scores))
    return results


def extend(history: History, round_: Round, results: list[Result]) -> History:
    return History(
        results=history.results + tuple(results),
        byes=history.byes + tuple(Bye(round_.number, key) for key in round_.byes),
    )


def pairs(keys) -> set[frozenset[int]]:
    return {frozenset(pair) for pair in combinations(keys, 2)}


def repeats(round_: Round, history: History) -> int:
    """Earlier meetings of tablemates in this round (a pair that met twice counts 2)."""
    met = Counter(frozenset(p) for r in history.results for p in combinations(r.seats, 2))
    return sum(met[pair] for table in round_.tables for pair in pairs(table.seats))


def assert_covers(round_: Round, active: list[Entrant], settings_: Settings) -> None:
    """Tables plus byes hold every active entrant exactly once, in allowed table sizes."""
    seated = [key for table in round_.tables for key in table.seats]
    assert Counter(seated + list(round_.byes)) == Counter(e.key for e in active)
    sizes, left_over = table_sizes(len(active), settings_.table_size, settings_.min_table_size)
    assert sorted(len(t.seats) for t in round_.tables) == sorted(sizes)
    assert len(round_.byes) == left_over
    assert all(
        settings_.min_table_size <= len(t.seats) <= settings_.table_size for t in round_.tables
    )


# --- rules and round counts ---------------------------------------------------------------


def test_registry_finds_swiss() -> None:
    assert get("swiss").name == "swiss"


def test_default_round_count() -> None:
    fours = Settings(table_size=4, min_table_size=3)
    assert total_rounds(9, Settings(table_size=3, min_table_size=3)) == 3  # 3^2 >= 9, + 1
    assert total_rounds(1000, fours) == 6  # 4^5 >= 1000, + 1
    assert total_rounds(16, fours) == 3
    assert total_rounds(17, fours) == 4
    assert total_rounds(4, fours) == 2
    assert total_rounds(4, Settings(table_size=4, min_table_size=3, rounds=7)) == 7


@pytest.mark.parametrize(
    ("count", "settings_", "message"),
    [
        (2, Settings(table_size=4, min_table_size=3), "at least 3 entrants"),
        (8, Settings(table_size=4, min_table_size=1), "smallest table"),
        (8, Settings(table_size=4, min_table_size=5), "smallest table"),
        (8, Settings(table_size=1, min_table_size=1), "at least 2 seats"),
        (8, Settings(table_size=4, min_table_size=3, rounds=0), "at least 1 round"),
        (8, Settings(table_size=4, min_table_size=3, bye_points=-1), "negative"),
    ],
)
def test_impossible_events_are_refused_with_a_reason(count, settings_, message) -> None:
    with pytest.raises(FormatError, match=message):
        check(count, settings_)
    with pytest.raises(FormatError, match=message):
        next_round(field(count), History(), settings_, 1, "seed")


def test_round_numbers_start_at_one() -> None:
    with pytest.raises(FormatError, match="from 1"):
        next_round(field(8), History(), Settings(4, 4), 0, "seed")


def test_no_round_after_the_last() -> None:
    settings_ = Settings(table_size=4, min_table_size=4, rounds=2)
    rng = random.Random(1)
    history = History()
    for number in (1, 2):
        round_ = next_round(field(8), history, settings_, number, "seed")
        assert round_ is not None
        history = extend(history, round_, play(round_, rng))
    assert next_round(field(8), history, settings_, 3, "seed") is None


def test_a_withdrawal_does_not_shorten_the_default_event() -> None:
    # 17 entrants in tables of 4: 4 rounds (4^3 >= 17). After one withdraws, 16 are
    # active (16 alone would get 3 rounds), but the event still has 4.
    settings_ = Settings(table_size=4, min_table_size=3)
    everyone = field(17)
    rng = random.Random(2)
    history = History()
    active = everyone
    for number in range(1, 5):
        round_ = next_round(active, history, settings_, number, "seed")
        assert round_ is not None, f"round {number} missing"
        history = extend(history, round_, play(round_, rng))
        active = everyone[1:]  # the top seed withdrew after round 1
    assert next_round(active, history, settings_, 5, "seed") is None


# --- round 1, byes, determinism -------------------------------------------------------------


def test_round_one_groups_by_seed() -> None:
    round_ = next_round(field(12), History(), Settings(4, 4), 1, "seed")
    assert round_ is not None
    assert [sorted(t.seats) for t in round_.tables] == [
        [101, 102, 103, 104],
        [105, 106, 107, 108],
        [109, 110, 111, 112],
    ]
    assert round_.byes == ()


def test_round_one_byes_go_to_the_lowest_seeds() -> None:
    round_ = next_round(field(10), History(), Settings(4, 4), 1, "seed")
    assert round_ is not None
    assert sorted(round_.byes) == [109, 110]
    assert [sorted(t.seats) for t in round_.tables] == [[101, 102, 103, 104], [105, 106, 107, 108]]


def test_byes_rotate_to_the_lowest_ranked_who_had_none() -> None:
    # 10 entrants in tables of exactly 4: two byes a round for five rounds.
    settings_ = Settings(table_size=4, min_table_size=4, rounds=5)
    entrants = field(10)
    rng = random.Random(3)
    history = History()
    for number in range(1, 6):
        before = standings(entrants, history, settings_)
        round_ = next_round(entrants, history, settings_, number, "seed")
        assert round_ is not None
        fewest = min(s.byes for s in before)
        candidates = [s.key for s in before if s.byes == fewest]
        if len(candidates) >= 2:
            assert list(round_.byes) == candidates[::-1][:2]  # lowest ranked first
        history = extend(history, round_, play(round_, rng))
    counts = Counter(bye.key for bye in history.byes)
    assert sorted(counts.values()) == [1] * 10  # five rounds, ten byes, one each


def test_the_same_inputs_give_the_same_round() -> None:
    settings_ = Settings(table_size=4, min_table_size=3)
    rng = random.Random(4)
    history = History()
    for number in range(1, 4):
        round_ = next_round(field(23), history, settings_, number, "event-seed")
        again = next_round(list(reversed(field(23))), history, settings_, number, "event-seed")
        assert round_ == again
        history = extend(history, round_, play(round_, rng))


# --- properties ------------------------------------------------------------------------------


@st.composite
def events(draw):
    size = draw(st.integers(2, 5))
    smallest = draw(st.integers(2, size))
    count = draw(st.integers(smallest, 40))
    return (
        count,
        Settings(table_size=size, min_table_size=smallest, rounds=draw(st.integers(1, 4))),
        draw(st.integers(0, 2**32)),
    )


@settings(max_examples=40, deadline=None)
@given(events())
def test_every_round_covers_the_active_entrants_once(event) -> None:
    """Also after withdrawals between rounds; byes never twice while someone has none."""
    count, settings_, seed = event
    rng = random.Random(seed)
    active = field(count)
    history = History()
    for number in range(1, settings_.rounds + 1):
        round_ = next_round(active, history, settings_, number, str(seed))
        assert round_ is not None and round_.number == number
        assert_covers(round_, active, settings_)
        byes = Counter(bye.key for bye in history.byes)
        fewest = min(byes[e.key] for e in active)
        assert all(byes[key] == fewest for key in round_.byes) or all(
            byes[e.key] > fewest for e in active if e.key not in round_.byes
        )
        history = extend(history, round_, play(round_, rng))
        if len(active) > settings_.min_table_size and rng.random() < 0.4:
            active.remove(rng.choice(active))  # a withdrawal between rounds
    assert next_round(active, history, settings_, settings_.rounds + 1, str(seed)) is None


def fewest_repeats(keys: list[int], sizes: list[int], met: Counter) -> int:
    """Brute force: the fewest repeat meetings of any partition of keys into ``sizes``."""
    best = None

    def search(left: list[int], sizes_left: list[int], total: int) -> None:
        nonlocal best
        if best is not None and total >= best:
            return
        if not left:
            best = total
            return
        first, rest = left[0], left[1:]
        for size in set(sizes_left):
            others = list(sizes_left)
            others.remove(size)
            for combo in combinations(rest, size - 1):
                cost = sum(met[pair] for pair in pairs((first, *combo)))
                search([k for k in rest if k not in combo], others, total + cost)

    search(keys, sizes, 0)
    assert best is not None
    return best


def crowded_past(seed: int) -> tuple[list[Entrant], History, Settings, int]:
    """A small event (4 to 10 entrants) with a random past: 1 to 4 earlier rounds of
    random tables (not Swiss ones), so the next round often cannot avoid every repeat."""
    rng = random.Random(seed)
    size = rng.randint(2, 4)
    smallest = rng.randint(2, size)
    count = rng.randint(max(smallest, 4), 10)
    past = rng.randint(1, 4)
    entrants = field(count)
    results = []
    for number in range(1, past + 1):
        keys = [e.key for e in entrants]
        rng.shuffle(keys)
        sizes, start = table_sizes(count, size, smallest)
        for table_size in sizes:
            seats = tuple(keys[start : start + table_size])
            start += table_size
            ranks = tuple(rng.randint(1, table_size) for _ in seats)
            results.append(Result(number, seats, ranks, tuple(0.0 for _ in seats)))
    settings_ = Settings(table_size=size, min_table_size=smallest, rounds=past + 1)
    return entrants, History(tuple(results)), settings_, past + 1


def assert_fewest_repeats(seed: int) -> None:
    entrants, history, settings_, number = crowded_past(seed)
    round_ = next_round(entrants, history, settings_, number, "seed")
    assert round_ is not None
    seated = sorted(key for table in round_.tables for key in table.seats)
    met = Counter(frozenset(p) for r in history.results for p in combinations(r.seats, 2))
    least = fewest_repeats(seated, [len(t.seats) for t in round_.tables], met)
    assert repeats(round_, history) == least


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_swiss_avoids_every_avoidable_repeat(seed: int) -> None:
    """Up to 10 entrants: the round has no repeat when a repeat-free partition of its
    seated entrants into its table sizes exists, and never more repeats than the fewest
    any partition has (brute force over all partitions)."""
    assert_fewest_repeats(seed)


@pytest.mark.parametrize("seed", [17, 44, 53])
def test_fewest_repeats_where_swaps_alone_fall_short(seed: int) -> None:
    """Pasts where the swaps and the random search leave one repeat too many (found by
    running the property above without the exhaustive search): the exhaustive search
    must find the better split."""
    assert_fewest_repeats(seed)


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 12), st.integers(0, 2**32))
def test_round_two_keeps_score_groups_together(tables: int, seed: int) -> None:
    """After a round 1 of 4-tables without ties, 4m entrants have m entrants on each of
    6, 3, 1 and 0 points, and no two of a group met. Round 2 then pairs exactly like the
    points order: with the points sorted high to low and cut into consecutive fours, the
    i-th table's points are the i-th four (so a table spans at most two neighbouring
    groups, never 6 with 0 or 1), and nobody meets a round-1 tablemate again."""
    count = 4 * tables
    settings_ = Settings(table_size=4, min_table_size=4, rounds=3)
    entrants = field(count)
    rng = random.Random(seed)
    first = next_round(entrants, History(), settings_, 1, str(seed))
    assert first is not None
    history = extend(History(), first, play(first, rng, ties=False))
    second = next_round(entrants, history, settings_, 2, str(seed))
    assert second is not None
    points = points_by_entrant(history, settings_)
    ordered = sorted(points.values(), reverse=True)
    expected = [sorted(ordered[i : i + 4]) for i in range(0, count, 4)]
    assert [sorted(points[key] for key in t.seats) for t in second.tables] == expected
    assert repeats(second, history) == 0


@pytest.mark.parametrize("seed", range(5))
def test_a_mid_sized_event_meets_no_one_twice(seed: int) -> None:
    """30 entrants in tables of 4 and 3 for 5 rounds (too many for the exhaustive search,
    so the swaps and the random search do it): each meets about 15 of 29, and no round
    repeats a meeting."""
    settings_ = Settings(table_size=4, min_table_size=3, rounds=5)
    rng = random.Random(seed)
    history = History()
    entrants = field(30)
    for number in range(1, 6):
        round_ = next_round(entrants, history, settings_, number, "seed")
        assert round_ is not None
        assert repeats(round_, history) == 0
        history = extend(history, round_, play(round_, rng))


def test_seat_orders_come_from_balance_seats(monkeypatch) -> None:
    """Swiss chooses who sits together; seats.balance_seats alone chooses the seat order
    (the rule every format shares), given the whole history, the event seed and round."""
    from tournaments.formats import seats, swiss

    calls = []

    def spy(groups, history, seed, round_number):
        tables = seats.balance_seats(groups, history, seed, round_number)
        calls.append((groups, history, seed, round_number, tables))
        return tables

    monkeypatch.setattr(swiss, "balance_seats", spy)
    settings_ = Settings(table_size=4, min_table_size=3, rounds=3)
    rng = random.Random(5)
    history = History()
    for number in range(1, 4):
        round_ = next_round(field(15), history, settings_, number, "event-seed")
        assert round_ is not None
        groups, seen_history, seed, seen_round, tables = calls[-1]
        assert (seen_history, seed, seen_round) == (history, "event-seed", number)
        assert [sorted(group) for group in groups] == [sorted(t.seats) for t in round_.tables]
        assert round_.tables == tables
        history = extend(history, round_, play(round_, rng))
    assert len(calls) == 3
