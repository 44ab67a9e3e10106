"""Grog Island setup, chance keys and the engine's data table."""

from __future__ import annotations

import random

import pytest

from engines import CHANCE, Dealer, IllegalAction
from engines.grog_island.data import (
    BUILDING_TYPES,
    BUILDINGS,
    BUILDINGS_ON,
    OBJECTIVE_DECK,
    PARROT_DECK,
    TREASURE_DECK,
)
from tests.engines.helpers import force_chance
from tests.engines.test_grog_island_support import ENGINE, act, new_game


def test_data_table_matches_the_component_list() -> None:
    assert len(BUILDINGS) == 35
    assert all(len(on) == 7 for on in BUILDINGS_ON)
    copies = {kind: sum(1 for _, t in BUILDINGS if t == kind) for kind in BUILDING_TYPES}
    assert copies == {
        "sword": 5, "peg_leg": 5, "anchor": 4, "hat": 4, "hook": 4, "figurehead": 3,
        "cannonball": 3, "voodoo": 3, "pub": 1, "lucky_charm": 1, "map_maker": 1, "rum": 1,
    }  # fmt: skip
    assert sorted(TREASURE_DECK) == [1] * 10 + [2] * 12 + [3] * 10
    assert PARROT_DECK.count("hold") == 8 and len(PARROT_DECK) == 28
    assert len(OBJECTIVE_DECK) == 46 and len(set(OBJECTIVE_DECK)) == 23


@pytest.mark.parametrize(("n", "crew"), [(2, 9), (3, 9), (4, 7)])
def test_each_player_starts_with_crew_coins_cards_and_a_chosen_good(n: int, crew: int) -> None:
    state = new_game(n, goods=["blue", "grey", "orange", "green"][:n], treasures=[1, 3, 2, 2][:n])
    assert state.crew == [crew] * n
    assert state.coins == [8] * n and state.vp == [0] * n
    assert [g for g in state.goods[1]] == [0, 0, 0, 0, 1]
    assert [p["treasures"] for p in state.private] == [[1], [3], [2], [2]][:n]
    assert all(len(p["parrots"]) == 1 for p in state.private)
    assert state.start == 0
    assert state.ghost_crew == (9 if n == 2 else 0)


def test_six_objectives_dealt_four_kept_two_go_under_the_deck_in_order() -> None:
    hands = [
        [
            "building/sword",
            "building/hat",
            "parrots",
            "goods/blue",
            "peninsula/grey",
            "building/rum",
        ],
        ["building/pub", "building/hook", "parrots", "goods/grey", "goods/green", "building/hat"],
    ]
    keep = [hands[0][:4], hands[1][2:]]
    state = new_game(2, objectives=hands, keep=keep)
    assert sorted(state.private[0]["objectives"]) == sorted(keep[0])
    assert state.hidden["objective_bottom"] == [
        "peninsula/grey", "building/rum", "building/pub", "building/hook",
    ]  # fmt: skip
    assert state.view(1)["decks"]["objective"] == 46 - 12 + 4


def test_setup_decisions_come_one_at_a_time_and_refuse_a_fifth_return() -> None:
    state = ENGINE.new_game(2)
    while state.to_move == [CHANCE]:
        state.apply(CHANCE, state.chance_outcomes()[0][0])
    assert state.to_move == [0]
    assert [a["good"] for a in state.legal_actions(0)] == [
        "yellow", "green", "blue", "orange", "grey",
    ]  # fmt: skip
    act(state, 0, "choose_good", good="green")
    assert {a["type"] for a in state.legal_actions(0)} == {"return_objective"}
    card = state.legal_actions(0)[0]["card"]
    act(state, 0, "return_objective", card=card)
    act(state, 0, "return_objective", card=state.legal_actions(0)[0]["card"])
    assert state.to_move == [1]
    with pytest.raises(IllegalAction):
        act(state, 0, "return_objective", card=state.private[0]["objectives"][0])


def test_chance_keys_name_the_event_and_the_seat() -> None:
    state = ENGINE.new_game(3)
    keys = []
    while state.to_move == [CHANCE]:
        keys.append(state.chance_key())
        state.apply(CHANCE, state.chance_outcomes()[0][0])
    assert keys[:6] == [
        "setup/cloud/yellow", "setup/cloud/green", "setup/cloud/blue",
        "setup/cloud/orange", "setup/cloud/grey", "setup/ship/0",
    ]  # fmt: skip
    assert "objective/seat2/5" in keys and "treasure/seat1/0" in keys
    assert "parrot/seat0/0" in keys and len(keys) == len(set(keys))


def test_same_seed_same_dice_whatever_the_players_choose() -> None:
    """Dice are keyed by round and colour, so the choices before do not matter."""

    def first_round_dice(seed: int, pick: int) -> list[int]:
        state = ENGINE.new_game(3)
        dealer = Dealer(seed)
        rng = random.Random(pick)
        while state.round < 1 or state.to_move == [CHANCE]:
            seat = state.to_move[0]
            action = (
                dealer.choose(state) if seat == CHANCE else rng.choice(state.legal_actions(seat))
            )
            state.apply(seat, action)
        return list(state.dice)

    assert first_round_dice(7, 1) == first_round_dice(7, 2)
    assert first_round_dice(7, 1) != first_round_dice(8, 1)


def test_two_players_lay_the_three_coins_ship_ghost_side_up() -> None:
    state = new_game(2)
    view = state.view(None)
    assert view["ghost"] == {"ship": "three_coins", "crew": 9}
    # no other player count has a ghost
    assert "ghost" not in new_game(3).view(None)
    force_chance(state, colour="yellow", value=1)
    assert state.to_move == [CHANCE]
