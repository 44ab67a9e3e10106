"""Cargo Noir phase II: combinations, victory cards, no change, limits, discarding.

Every worked example of the spec is here (the seed's "Diamanti" are jewels).
"""

from __future__ import annotations

import pytest

from engines import IllegalAction
from engines.cargo_noir.scoring import combination_value
from tests.engines.test_cargo_noir_support import (
    act,
    buy,
    card_count,
    held,
    reach_smuggling,
    smuggle,
)

EXAMPLE_GOODS = {"jewels": 4, "wild": 1, "cars": 3, "weapons": 1}
"""The seed's warehouse: 4 diamonds, 1 wild, 3 luxury cars, 1 weapon."""


def test_smuggling_value_table() -> None:
    assert [combination_value("different", k) for k in range(1, 10)] == [
        1, 3, 6, 10, 15, 21, 28, 36, 45,
    ]  # fmt: skip
    assert [combination_value("same", k) for k in range(1, 10)] == [
        1, 4, 9, 16, 25, 36, 49, 64, 81,
    ]  # fmt: skip


def test_example_four_jewels_and_a_wild_buy_a_ship_and_a_warehouse() -> None:
    state = reach_smuggling(goods=EXAMPLE_GOODS)
    assert smuggle(state, "same", ["jewels", "jewels", "jewels", "jewels", "wild"]) == 25
    buy(state, "Cargo Ship")
    assert state.credit == 10
    buy(state, "Warehouse")
    assert state.credit == 0
    assert card_count(state, 0, "Cargo Ship") == card_count(state, 0, "Warehouse") == 1
    assert held(state, 0) == {"cars": 3, "weapons": 1}
    assert state.view(0)["players"][0]["capacity"] == 8


def test_example_three_cars_and_a_weapon_buy_a_warehouse() -> None:
    state = reach_smuggling(goods=EXAMPLE_GOODS)
    assert smuggle(state, "same", ["cars", "cars", "cars"]) == 9
    assert {"type": "buy", "card": "Warehouse"} not in state.legal_actions(0)
    assert smuggle(state, "different", ["weapons"]) == 1
    buy(state, "Warehouse")
    assert state.credit == 0
    assert held(state, 0) == {"jewels": 4, "wild": 1}  # kept for later


@pytest.mark.parametrize(
    "cards",
    [["Cargo Ship", "Warehouse", "Warehouse"], ["Cargo Ship", "Warehouse", "Syndicate"]],
)
def test_example_all_the_goods_are_worth_35(cards: list[str]) -> None:
    state = reach_smuggling(goods=EXAMPLE_GOODS)
    total = smuggle(state, "same", ["jewels"] * 4 + ["wild"])
    total += smuggle(state, "same", ["cars"] * 3)
    total += smuggle(state, "different", ["weapons"])
    assert total == state.credit == 35
    for card in cards:
        buy(state, card)
    assert state.credit == 0
    assert held(state, 0) == {}


def test_example_last_round_nine_different_goods_and_four_coins_buy_cronies() -> None:
    nine = ["alcohol", "weapons", "art", "cars", "cigars", "ivory", "jewels", "gold", "uranium"]
    state = reach_smuggling(goods=dict.fromkeys(nine, 1), last_round=True)
    state.coins[0] = 4
    state.forget_cached_actions()
    assert smuggle(state, "different", nine) == 45
    assert state.view(0)["last_round"] is True
    buy(state, "Cronies")
    assert card_count(state, 0, "Cronies") == 1
    assert (state.credit, state.coins[0]) == (0, 0)
    assert state.events[-1] == {
        "type": "bought_card",
        "seat": 0,
        "card": "Cronies",
        "coins_used": 4,
    }


def test_coins_add_to_smuggled_value_only_in_the_last_round() -> None:
    nine = ["alcohol", "weapons", "art", "cars", "cigars", "ivory", "jewels", "gold", "uranium"]
    state = reach_smuggling(goods=dict.fromkeys(nine, 1))
    assert state.coins[0] == 13
    smuggle(state, "different", nine)
    assert {"type": "buy", "card": "Cronies"} not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="Cronies costs 49, only 45 available"):
        buy(state, "Cronies")
    # Before the last round even 13 coins buy nothing without smuggling.
    bare = reach_smuggling(goods={"cars": 1})
    assert all(a["type"] != "buy" for a in bare.legal_actions(0))
    last = reach_smuggling(goods={"cars": 1}, last_round=True)
    buy(last, "Dive Bar")  # 6 coins of the 13, credit first (none), then coins
    assert last.coins[0] == 7


def test_last_round_spends_credit_before_coins() -> None:
    state = reach_smuggling(goods={"cars": 2}, last_round=True)
    smuggle(state, "same", ["cars", "cars"])
    buy(state, "Night Club")  # cost 10: 4 credit + 6 coins
    assert (state.credit, state.coins[0]) == (0, 7)


def test_no_change_is_given_and_unspent_value_is_lost() -> None:
    state = reach_smuggling(goods={"cars": 3, "gold": 2})
    smuggle(state, "same", ["cars", "cars", "cars"])  # 9
    buy(state, "Dive Bar")  # 6
    assert state.credit == 3
    assert {a.get("card") for a in state.legal_actions(0) if a["type"] == "buy"} == set()
    act(state, {"type": "end_smuggling"})
    assert {"type": "credit_lost", "seat": 0, "value": 3} in state.events
    assert state.credit == 0 and state.phase == "send"
    assert held(state, 0) == {"gold": 2}


def test_wilds_stand_for_any_good_and_a_combination_may_be_all_wilds() -> None:
    state = reach_smuggling(goods={"wild": 3, "cars": 1, "gold": 1})
    assert smuggle(state, "same", ["wild", "wild"]) == 4
    assert smuggle(state, "different", ["cars", "wild", "gold"]) == 6


def test_same_type_combination_accepts_only_its_good_and_wilds() -> None:
    state = reach_smuggling(goods={"wild": 1, "cars": 2, "gold": 1})
    act(state, {"type": "start_combination", "kind": "same"})
    first = {a["good"] for a in state.legal_actions(0) if a["type"] == "add"}
    assert first == {"wild", "cars", "gold"}
    assert {"type": "smuggle"} not in state.legal_actions(0)  # nothing in it yet
    act(state, {"type": "add", "good": "wild"})
    act(state, {"type": "add", "good": "cars"})
    assert [a for a in state.legal_actions(0) if a["type"] == "add"] == [
        {"type": "add", "good": "cars"}
    ]
    with pytest.raises(IllegalAction, match="gold does not fit this same combination"):
        act(state, {"type": "add", "good": "gold"})
    act(state, {"type": "add", "good": "cars"})
    assert state.legal_actions(0) == [{"type": "smuggle"}]
    act(state, {"type": "smuggle"})
    assert state.credit == 9


def test_different_types_combination_refuses_a_repeated_good() -> None:
    state = reach_smuggling(goods={"cars": 2, "gold": 1})
    act(state, {"type": "start_combination", "kind": "different"})
    act(state, {"type": "add", "good": "cars"})
    adds = [a["good"] for a in state.legal_actions(0) if a["type"] == "add"]
    assert adds == ["gold"]


def test_a_combination_holds_at_most_nine_goods() -> None:
    state = reach_smuggling(goods={"cars": 12})
    act(state, {"type": "start_combination", "kind": "same"})
    for _ in range(9):
        act(state, {"type": "add", "good": "cars"})
    assert state.legal_actions(0) == [{"type": "smuggle"}]
    act(state, {"type": "smuggle"})
    assert state.credit == 81 and held(state, 0) == {"cars": 3}


def test_smuggled_goods_go_to_the_discard_pile() -> None:
    state = reach_smuggling(goods={"cars": 3})
    before = state.discard_size
    smuggle(state, "same", ["cars", "cars"])
    assert state.discard_size == before + 2
    assert state.hidden["discard"]["cars"] == 2
    assert state.events[-1] == {
        "type": "smuggled", "seat": 0, "kind": "same", "goods": ["cars", "cars"], "value": 4,
    }  # fmt: skip


def test_at_most_two_of_each_smuggler_card_per_player() -> None:
    state = reach_smuggling(goods={"cars": 9}, cards={"Warehouse": 2, "Syndicate": 2})
    smuggle(state, "same", ["cars"] * 9)  # 81
    buyable = {a["card"] for a in state.legal_actions(0) if a["type"] == "buy"}
    assert "Warehouse" not in buyable and "Syndicate" not in buyable
    assert {"Cargo Ship", "Night Club", "Principality"} <= buyable
    with pytest.raises(IllegalAction, match="at most 2 Warehouse cards"):
        buy(state, "Warehouse")
    buy(state, "Cargo Ship")
    buy(state, "Cargo Ship")
    assert "Cargo Ship" not in {a.get("card") for a in state.legal_actions(0)}
    assert state.ships[0] == 5  # 3 + the 2 extra ships
    buy(state, "Night Club")
    buy(state, "Night Club")  # common cards have no per-player limit
    assert card_count(state, 0, "Night Club") == 2


def test_cards_are_limited_to_the_copies_left() -> None:
    state = reach_smuggling(goods={"cars": 9})
    smuggle(state, "same", ["cars"] * 9)  # 81
    buy(state, "Paparazzi")  # the only copy
    assert state.view(None)["cards_left"]["Paparazzi"] == 0
    with pytest.raises(IllegalAction, match="no Paparazzi card is left"):
        buy(state, "Paparazzi")
    state.cards_left[5] = 0  # Yacht: every copy already taken
    state.forget_cached_actions()
    assert {"type": "buy", "card": "Yacht"} not in state.legal_actions(0)


def test_cargo_ship_adds_a_ship_at_once() -> None:
    state = reach_smuggling(goods={"cars": 4, "gold": 1})
    smuggle(state, "same", ["cars"] * 4)  # 16
    buy(state, "Cargo Ship")
    assert state.ships[0] == 4
    act(state, {"type": "end_smuggling"})
    assert state.phase == "send" and state.view(0)["players"][0]["ships_home"] == 4
    for _ in range(4):
        act(state, {"type": "send", "to": "casino"})
    assert state.seat == 1 and state.at_casino[0] == 4


def test_excess_goods_are_discarded_down_to_capacity() -> None:
    state = reach_smuggling(goods={"cars": 5, "gold": 4})
    act(state, {"type": "end_smuggling"})
    assert state.phase == "discard"
    assert state.legal_actions(0) == [
        {"type": "discard", "good": "cars"},
        {"type": "discard", "good": "gold"},
    ]
    before = state.discard_size
    for _ in range(3):
        act(state, {"type": "discard", "good": "gold"})
    assert held(state, 0) == {"cars": 5, "gold": 1}
    assert state.phase == "send" and state.discard_size == before + 3
    assert state.hidden["discard"]["gold"] == 3


def test_warehouse_card_raises_capacity_before_discarding() -> None:
    state = reach_smuggling(goods={"cars": 4, "gold": 5, "art": 1})
    smuggle(state, "same", ["gold", "gold", "gold"])  # 9
    smuggle(state, "different", ["art"])  # 1
    buy(state, "Warehouse")  # 8 slots now
    act(state, {"type": "end_smuggling"})
    assert state.phase == "send"  # 6 goods left, within 8
    assert state.view(0)["players"][0]["capacity"] == 8


def test_phase_two_is_skipped_when_there_is_nothing_to_smuggle_or_buy() -> None:
    from tests.engines.test_cargo_noir_support import all_casino_round_one, resolve_casinos

    state = all_casino_round_one(2)
    resolve_casinos(state)
    assert state.phase == "send" and state.credit == 0
