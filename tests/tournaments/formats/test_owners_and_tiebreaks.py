"""Owners kept apart (Swiss, knockout) and tie-breaks in the order an event picks (pure).

Issue #31: round 1 of a Swiss with three owners' bots seated each owner's
bots together when the seeds grouped them. Each owner test builds exactly
that seeding and checks that the same call with owners allowed together
does group them, so the separation is the setting's doing.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import knockout, swiss
from tournaments.formats.base import Entrant, FormatError, History, Result, Settings
from tournaments.formats.owners import clashes, separate
from tournaments.formats.standings import standings
from tournaments.formats.tiebreaks import DEFAULT, TIE_BREAKS, check

THREES = Settings(table_size=3, min_table_size=3)


def grouped_field(owners: int, each: int) -> list[Entrant]:
    """Seeds 1..n with each owner's entrants on consecutive seeds (alice 1-3, bob 4-6, ...)."""
    return [
        Entrant(key=100 + seed, seed=seed, owner=(seed - 1) // each + 1)
        for seed in range(1, owners * each + 1)
    ]


def owner_clashes(tables, field: list[Entrant]) -> int:
    owners = {entrant.key: entrant.owner for entrant in field}
    return sum(clashes(table.seats, owners) for table in tables)


def test_swiss_round_one_seats_no_owner_twice_at_a_table() -> None:
    field = grouped_field(3, 3)
    round_1 = swiss.next_round(field, History(), THREES, 1, "seed")
    assert round_1 is not None and len(round_1.tables) == 3
    assert owner_clashes(round_1.tables, field) == 0
    allowed = Settings(table_size=3, min_table_size=3, separate_owners=False)
    together = swiss.next_round(field, History(), allowed, 1, "seed")
    assert owner_clashes(together.tables, field) == 9  # the finding, when allowed


def test_swiss_keeps_owners_apart_in_later_rounds_too() -> None:
    field = grouped_field(4, 3)
    fours = Settings(table_size=4, min_table_size=3)
    history = History()
    rng = random.Random(3)
    for number in range(1, 4):
        round_ = swiss.next_round(field, history, fours, number, "seed")
        assert owner_clashes(round_.tables, field) == 0, number
        results = []
        for table in round_.tables:
            ranks = list(range(1, len(table.seats) + 1))
            rng.shuffle(ranks)
            results.append(
                Result(number, table.seats, tuple(ranks), tuple(10.0 - r for r in ranks))
            )
        history = History(results=history.results + tuple(results))


def test_swiss_seats_an_owner_twice_only_when_it_has_more_than_the_tables() -> None:
    field = [*grouped_field(1, 4), Entrant(key=1, seed=5, owner=9), Entrant(key=2, seed=6)]
    round_1 = swiss.next_round(field, History(), THREES, 1, "seed")
    # Owner 1 has 4 entrants for 2 tables: 2 at each is the least possible (1 clash each).
    assert owner_clashes(round_1.tables, field) == 2


def test_knockout_round_one_separates_owners_within_the_snake_tiers() -> None:
    # The snake deals seeds 1, 4, 5, 8 to table 1 and 2, 3, 6, 7 to table 2: each owner's
    # pair lands at one table.
    owner_of_seed = {1: 1, 4: 1, 5: 2, 8: 2, 2: 3, 3: 3, 6: 4, 7: 4}
    field = [Entrant(key=100 + s, seed=s, owner=o) for s, o in sorted(owner_of_seed.items())]
    fours = Settings(table_size=4, min_table_size=3)
    allowed = Settings(table_size=4, min_table_size=3, separate_owners=False)
    together = knockout.next_round(field, History(), allowed, 1, "seed")
    assert owner_clashes(together.tables, field) == 4
    apart = knockout.next_round(field, History(), fours, 1, "seed")
    assert owner_clashes(apart.tables, field) == 0
    seed_of = {entrant.key: entrant.seed for entrant in field}
    # Still snake seeded: each table holds one of seeds 1-2, 3-4, 5-6 and 7-8.
    for table in apart.tables:
        tiers = sorted((seed_of[key] - 1) // 2 for key in table.seats)
        assert tiers == [0, 1, 2, 3]


@settings(max_examples=60, deadline=None)
@given(
    owners=st.lists(st.integers(min_value=0, max_value=4), min_size=2, max_size=12),
    tables=st.integers(min_value=1, max_value=4),
)
def test_separate_never_adds_clashes_and_keeps_every_entrant(owners, tables) -> None:
    keys = list(range(len(owners)))
    owner_of = {key: (owner or None) for key, owner in zip(keys, owners, strict=True)}
    groups = [keys[i::tables] for i in range(tables) if keys[i::tables]]
    result = separate(groups, owner_of)
    assert sorted(key for table in result for key in table) == keys
    assert [len(t) for t in result] == [len(g) for g in groups]
    for table, group in zip(result, groups, strict=True):  # tiers kept
        assert [keys.index(k) // tables for k in table] == [keys.index(k) // tables for k in group]
    before = sum(clashes(group, owner_of) for group in groups)
    assert sum(clashes(table, owner_of) for table in result) <= before


# ---------------------------------------------------------------- tie-breaks
def entrants(*keys: int) -> list[Entrant]:
    return [Entrant(key=key, seed=seed) for seed, key in enumerate(keys, start=1)]


def test_the_chosen_order_decides_between_the_same_results() -> None:
    # 1 and 2 end on 6 points each: 1 with the higher game score, 2 having beaten a
    # stronger tablemate (3, who ends on 6 points, against 1's 5, who ends on 0).
    history = History(
        results=(
            Result(1, (1, 5), (1, 2), (50.0, 0.0)),
            Result(1, (2, 3), (1, 2), (10.0, 0.0)),
            Result(1, (4, 6), (1, 2), (10.0, 0.0)),
            Result(2, (4, 1), (1, 2), (10.0, 0.0)),
            Result(2, (6, 2), (1, 2), (10.0, 0.0)),
            Result(2, (3, 5), (1, 2), (10.0, 0.0)),
        )
    )
    field = entrants(1, 2, 3, 4, 5, 6)
    by_score = Settings(2, 2, tie_breaks=("game_score",))
    by_beaten = Settings(2, 2, tie_breaks=("beaten_points", "game_score"))
    first = [s.key for s in standings(field, history, by_score)]
    second = [s.key for s in standings(field, history, by_beaten)]
    assert first.index(1) < first.index(2)  # 50 against 10
    assert second.index(2) < second.index(1)  # beat 6 points against 0
    line = standings(field, history, by_beaten)[0]
    assert [name for name, _ in line.tie_breaks] == ["beaten_points", "game_score"]


def test_wins_counts_first_places() -> None:
    history = History(
        results=(
            Result(1, (1, 2), (1, 2), (1.0, 100.0)),
            Result(2, (1, 3), (1, 2), (1.0, 100.0)),
            Result(3, (2, 3), (1, 2), (1.0, 100.0)),
            Result(3, (4, 1), (1, 2), (1.0, 100.0)),
        )
    )
    two = Settings(2, 2, tie_breaks=("wins",))
    rows = {
        s.key: dict(s.tie_breaks)["wins"] for s in standings(entrants(1, 2, 3, 4), history, two)
    }
    assert rows == {1: 2.0, 2: 1.0, 3: 0.0, 4: 1.0}


def test_empty_choice_is_the_documented_default() -> None:
    assert check(()) == DEFAULT
    assert set(DEFAULT) <= set(TIE_BREAKS)


@pytest.mark.parametrize(
    ("names", "says"),
    [(("buchholz",), "unknown tie-break 'buchholz'"), (("wins", "wins"), "listed twice")],
)
def test_a_bad_choice_is_refused_with_the_valid_names(names, says) -> None:
    with pytest.raises(FormatError, match=says):
        standings(entrants(1, 2), History(), Settings(2, 2, tie_breaks=names))
    if "unknown" in says:
        with pytest.raises(FormatError, match="choose from tablemates_points"):
            check(names)


def test_every_metric_gives_every_listed_entrant_a_value() -> None:
    history = History(results=(Result(1, (1, 2, 3), (1, 1, 3), (5.0, 5.0, 1.0)),))
    for name in TIE_BREAKS:
        line = standings(entrants(1, 2, 3, 9), history, Settings(3, 3, tie_breaks=(name,)))
        assert Counter(s.key for s in line) == Counter([1, 2, 3, 9])
        assert all(dict(s.tie_breaks)[name] >= 0 for s in line)
