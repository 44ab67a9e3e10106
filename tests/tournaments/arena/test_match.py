"""Properties of the pure arena matchmaking (``tournaments.formats.matchmaking.match``)."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import FormatError
from tournaments.formats.matchmaking import Candidate, first_table_size, match
from tournaments.formats.sizes import table_sizes


@st.composite
def pools(draw, max_size: int = 40):
    """Candidates (keys 0..n-1) with clashing owners, tied ratings and waits, some full."""
    count = draw(st.integers(0, max_size))
    owners = st.one_of(st.none(), st.integers(1, draw(st.integers(1, 8))))
    candidates = [
        Candidate(
            key=key,
            rating=draw(st.sampled_from([0.0, 10.0, 20.0, 25.0, 30.0, 40.0]))
            + draw(st.floats(0, 3)),
            owner=draw(owners),
            waiting=float(draw(st.integers(0, 5))),
            games_played=draw(st.integers(0, 3)),
            capacity=draw(st.sampled_from([0, 1, 1, 1, 2])),
            shares=draw(st.booleans()),
        )
        for key in range(count)
    ]
    table_size = draw(st.integers(2, 5))
    min_table_size = draw(st.integers(2, table_size))
    return candidates, table_size, min_table_size


def owner_rule_holds(table: Sequence[Candidate]) -> bool:
    per_owner = Counter(c.owner for c in table if c.owner is not None)
    return all(c.shares for c in table if c.owner is not None and per_owner[c.owner] > 1)


def largest_table_with(top: Candidate, candidates: Sequence[Candidate]) -> int:
    """Brute-force bound: the most seats any lawful table holding ``top`` can have."""
    others = [c for c in candidates if c.capacity >= 1 and c.key != top.key]
    size = 1 + sum(c.owner is None for c in others)
    for owner in {c.owner for c in others if c.owner is not None}:
        mine = [c for c in others if c.owner == owner]
        sharing = sum(c.shares for c in mine)
        if owner == top.owner:
            size += sharing if top.shares else 0
        else:
            size += max(1, sharing)
    return size


@settings(max_examples=300, deadline=None)
@given(pools(), st.text(max_size=5))
def test_every_table_is_lawful(pool, seed) -> None:
    candidates, table_size, min_table_size = pool
    by_key = {c.key: c for c in candidates}
    tables = match(candidates, table_size, min_table_size, seed)
    seated = [key for table in tables for key in table]
    assert len(seated) == len(set(seated)), "nobody sits at two tables"
    for table in tables:
        assert min_table_size <= len(table) <= table_size
        members = [by_key[key] for key in table]
        assert all(c.capacity >= 1 for c in members), "nobody over capacity"
        assert owner_rule_holds(members), f"one owner's non-sharing entrants at {table}"


@settings(max_examples=300, deadline=None)
@given(pools(), st.text(max_size=5))
def test_the_longest_waiting_sits_whenever_a_table_with_it_exists(pool, seed) -> None:
    candidates, table_size, min_table_size = pool
    free = [c for c in candidates if c.capacity >= 1]
    if not free:
        return
    first = min((-c.waiting, c.games_played) for c in free)
    tops = [c for c in free if (-c.waiting, c.games_played) == first]
    if len(tops) > 1:  # a tie is drawn from the seed: any of them may go first
        return
    top = tops[0]
    seated = {key for table in match(candidates, table_size, min_table_size, seed)
              for key in table}  # fmt: skip
    possible = largest_table_with(top, candidates) >= min_table_size
    assert (top.key in seated) == possible


@settings(max_examples=150, deadline=None)
@given(pools(), st.text(max_size=5))
def test_the_same_seed_gives_the_same_tables(pool, seed) -> None:
    candidates, table_size, min_table_size = pool
    first = match(candidates, table_size, min_table_size, seed)
    assert match(list(reversed(candidates)), table_size, min_table_size, seed) == first


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 60), st.integers(2, 5), st.data())
def test_without_owner_clashes_everyone_sits_but_the_remainder(count, table_size, data) -> None:
    """Distinct owners: every free candidate sits except what no split of sizes can seat."""
    min_table_size = data.draw(st.integers(2, table_size))
    candidates = [
        Candidate(key, rating=data.draw(st.floats(-50, 50)), owner=key, waiting=key % 7)
        for key in range(count)
    ]
    tables = match(candidates, table_size, min_table_size, data.draw(st.text(max_size=4)))
    _, left_over = table_sizes(count, table_size, min_table_size)
    assert sum(len(table) for table in tables) == count - left_over


def field(count: int = 40) -> list[Candidate]:
    return [Candidate(key, rating=float(key), owner=key) for key in range(count)]


def test_tables_are_close_in_rating_yet_the_leader_meets_the_field() -> None:
    candidates = field()
    spreads, leaders_opponents = [], Counter()
    for n in range(300):
        for table in match(candidates, 4, 3, f"pass-{n}"):
            spreads.append(max(table) - min(table))  # rating = key
            if 39 in table:
                leaders_opponents.update(key for key in table if key != 39)
    shuffler, random_spreads = random.Random(0), []
    for _ in range(300):
        keys = list(range(40))
        shuffler.shuffle(keys)
        random_spreads += [max(keys[i : i + 4]) - min(keys[i : i + 4]) for i in range(0, 40, 4)]
    assert statistics.mean(spreads) < 0.5 * statistics.mean(random_spreads)
    assert leaders_opponents.most_common(1)[0][0] == 38, "mostly its nearest rival"
    assert min(leaders_opponents) <= 20, "yet the leader meets the bottom half too"


def test_a_long_wait_widens_the_window() -> None:
    """At rest a seed's opponents lie within ``radius`` places; after a long wait, beyond."""
    candidates = [
        Candidate(key, rating=float(key), owner=key, games_played=1) for key in range(100)
    ]
    seedling = Candidate(100, rating=50.5, owner=100, games_played=0)
    reach = set()
    for n in range(100):
        first = match([*candidates, seedling], 4, 4, f"w{n}", radius=3)[0]
        assert 100 in first
        reach.update(abs(key - 50.5) for key in first if key != 100)
    assert max(reach) <= 3
    patient = Candidate(100, rating=50.5, owner=100, waiting=600.0)
    reach = set()
    for n in range(100):
        first = match([*candidates, patient], 4, 4, f"w{n}", radius=3, widen_seconds=60)[0]
        reach.update(abs(key - 50.5) for key in first if key != 100)
    assert max(reach) > 3


def test_shared_tables_need_every_clashing_entry_to_allow_it() -> None:
    alice = [Candidate(k, rating=25.0, owner=1, shares=True) for k in range(3)]
    [table] = match(alice, 3, 3, "s")
    assert sorted(table) == [0, 1, 2]
    one_refuses = [*alice[:2], Candidate(2, rating=25.0, owner=1, shares=False)]
    assert match(one_refuses, 3, 3, "s") == []


def test_the_fewest_games_seed_first_among_equal_waits() -> None:
    """Six free, tables of exactly 4: the two left out are never the one with fewest games."""
    for n in range(50):
        candidates = [
            Candidate(key, rating=float(key * 10), owner=key, games_played=5) for key in range(5)
        ]
        candidates.append(Candidate(5, rating=0.0, owner=5, games_played=0))
        seated = {key for table in match(candidates, 4, 4, f"f{n}") for key in table}
        assert 5 in seated


@pytest.mark.parametrize(("table_size", "min_table_size"), [(1, 1), (4, 5), (4, 1), (0, 0)])
def test_impossible_sizes_are_refused(table_size, min_table_size) -> None:
    with pytest.raises(FormatError, match="arena tables"):
        match(field(8), table_size, min_table_size, "x")


def test_bad_input_is_refused() -> None:
    with pytest.raises(FormatError, match="once"):
        match([Candidate(1, 0.0), Candidate(1, 1.0)], 2, 2, "x")
    with pytest.raises(FormatError, match="finite"):
        match([Candidate(1, float("nan")), Candidate(2, 1.0)], 2, 2, "x")
    with pytest.raises(FormatError, match="radius"):
        match(field(8), 4, 4, "x", radius=2)


@given(st.integers(0, 300), st.integers(2, 6), st.data())
def test_the_first_table_size_is_the_planned_splits_largest(count, table_size, data) -> None:
    min_table_size = data.draw(st.integers(2, table_size))
    sizes, _ = table_sizes(count, table_size, min_table_size)
    assert first_table_size(count, table_size, min_table_size) == (sizes[0] if sizes else 0)
