"""Grog Island final scoring: treasure, coins, the four objective kinds, ties."""

from __future__ import annotations

from engines.grog_island.data import BUILDING_INDEX, GHOST, LOCKED
from engines.grog_island.scoring import final_scores, ranks
from engines.grog_island.state import GrogState
from tests.engines.test_grog_island_support import act, new_game
from tests.engines.test_grog_island_winning import phil_wins


def place(state: GrogState, seat: int, *buildings: str) -> None:
    for b in buildings:
        state.occupant[BUILDING_INDEX[b]] = seat


def score(state: GrogState) -> list[dict]:
    return final_scores(
        state.num_players, state.vp, state.coins, state.goods, state.occupant, state.private
    )


def test_worked_example_three_treasures_and_seven_coins() -> None:
    state = new_game(3)
    state.private[0]["treasures"] = [1, 2, 3]
    state.private[0]["objectives"] = []
    state.coins[0] = 7
    row = score(state)[0]
    assert row["treasure_vp"] == 3 and row["coin_vp"] == 1 and row["total"] == 4


def test_worked_example_phils_six_objectives() -> None:
    state = new_game(3)
    phil = 0
    place(state, phil, "orange/sword", "orange/anchor", "yellow/pub", "yellow/hat", "blue/anchor")
    place(state, 1, "yellow/sword", "yellow/peg_leg", "yellow/hook", "orange/hook")
    state.private[phil]["objectives"] = [
        "peninsula/orange",
        "peninsula/yellow",
        "building/anchor",
        "building/lucky_charm",
        "building/pub",
        "goods/blue",
    ]
    state.goods[phil] = [1, 1, 3, 0, 1]  # 3 blue and 3 other goods
    state.private[phil]["treasures"] = [1, 2, 3]
    state.coins[phil] = 7
    row = score(state)[phil]
    assert row["objectives"] == {
        "peninsula/orange": 6,  # 2 against 1
        "peninsula/yellow": 2,  # 2 against 3: present, no majority
        "building/anchor": 6,  # two anchor shops
        "building/lucky_charm": 0,
        "building/pub": 6,
        "goods/blue": 4,  # 3 blue + 3 others as one
    }
    assert row["total"] == 24 + 3 + 1


def test_duplicate_objectives_count_once() -> None:
    state = new_game(3)
    place(state, 0, "yellow/pub")
    state.private[0]["objectives"] = ["building/pub", "building/pub", "parrots", "parrots"]
    state.private[0]["parrots"] = ["hold", "hold", "set_grey"]
    state.private[0]["treasures"] = []
    state.coins[0] = 4
    row = score(state)[0]
    assert row["objectives"] == {"building/pub": 6, "parrots": 3}
    assert row["total"] == 9


def test_goods_objectives_share_one_three_for_one_bonus() -> None:
    state = new_game(3)
    state.private[0]["objectives"] = ["goods/blue", "goods/grey"]
    state.goods[0] = [2, 2, 1, 0, 4]  # yellow, green are spare: 4 -> 1 more
    row = score(state)[0]
    assert sum(row["objectives"].values()) == 1 + 4 + 1
    state.private[0]["objectives"] = ["parrots"]
    assert sum(score(state)[0]["objectives"].values()) == 1  # goods need a goods card


def test_peninsula_majority_is_strict_and_counts_ghosts() -> None:
    state = new_game(2)
    state.private[0]["objectives"] = ["peninsula/green"]
    place(state, 0, "green/sword", "green/hat")
    place(state, GHOST, "green/anchor", "green/peg_leg")
    state.occupant[BUILDING_INDEX["green/figurehead"]] = LOCKED
    assert score(state)[0]["objectives"] == {"peninsula/green": 2}  # tie with the ghost
    state.occupant[BUILDING_INDEX["green/anchor"]] = -1
    assert score(state)[0]["objectives"] == {"peninsula/green": 6}
    state.private[0]["objectives"] = ["peninsula/blue"]
    assert score(state)[0]["objectives"] == {"peninsula/blue": 0}


def test_building_objective_pays_per_building_of_the_type() -> None:
    state = new_game(3)
    state.private[0]["objectives"] = ["building/sword", "building/voodoo"]
    place(state, 0, "yellow/sword", "blue/sword", "grey/sword", "orange/voodoo")
    assert score(state)[0]["objectives"] == {"building/sword": 6, "building/voodoo": 4}


def test_ties_broken_by_coins_then_shared() -> None:
    assert ranks([10, 10, 8], [3, 5, 9]) == [2, 1, 3]
    assert ranks([10, 10, 8], [5, 5, 9]) == [1, 1, 3]


def test_outcome_through_play_ranks_by_vp_then_coins() -> None:
    state = phil_wins()
    for seat in range(3):
        state.private[seat]["objectives"] = []
        state.private[seat]["treasures"] = [] if seat else [3]
    state.crew[0] = 1
    state.vp = [0, 2, 2]
    state.coins[1], state.coins[2] = 4, 9
    act(state, 0, "pay_treasure", value=3)
    act(state, 0, "pay", coins=6)
    act(state, 0, "claim", building="yellow/sword")  # +1 VP (cloud), +2 coins
    act(state, 0, "lock", building="orange/hook")
    assert state.is_over
    # seat 0: VP 1 (space 3) + 1 (cloud); seat 1: 2 VP, 4 coins; seat 2: 2 VP, 9 coins -> +1
    assert state.outcome() == {"scores": [2, 2, 3], "ranks": [3, 2, 1]}  # 2 coins < 4
    final = state.view(1)["final"]["breakdown"]
    assert final[2]["coin_vp"] == 1 and final[0]["coins"] == 2
