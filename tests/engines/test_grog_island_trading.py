"""Grog Island passing: goods from the bid track and the trade with one ship."""

from __future__ import annotations

import pytest

from engines import IllegalAction
from engines.grog_island.data import BUILDING_INDEX, COLOURS
from engines.grog_island.state import GrogState
from tests.engines.helpers import force_chance
from tests.engines.test_grog_island_support import act, bid, new_game, roll, types

PARROT_FIRST = ("parrot", "two_coins", "three_coins", "four_coins", "treasure", "objectives")
"""The parrot ship under yellow, the objectives ship at open sea."""


def passer_at(ships: tuple[str, ...], yellow: int, others: dict[str, int] | None = None):
    """Seat 1 of 3 has passed holding ``yellow`` lemons (+1 orange from the track)."""
    state = new_game(3, ships=ships)
    roll(state, yellow=2, green=2, blue=2, orange=5, grey=2)
    bid(state, 0, "orange")
    goods = [0] * 5
    goods[0] = yellow
    for colour, n in (others or {}).items():
        goods[COLOURS.index(colour)] = n
    state.goods[1] = goods
    act(state, 1, "pass")
    return state


def ship_names(state: GrogState, seat: int) -> list[str]:
    return [a["ship"] for a in state.legal_actions(seat) if a["type"] == "choose_ship"]


def test_worked_example_passing_takes_one_good_per_die_on_the_track() -> None:
    state = new_game(3)
    roll(state, yellow=4, green=2, blue=6, orange=1, grey=3)
    bid(state, 0, "yellow", "grey", "green")
    before = list(state.goods[1])
    act(state, 1, "pass")
    gained = [a - b for a, b in zip(state.goods[1], before, strict=True)]
    assert gained == [1, 1, 0, 0, 1]  # 1 yellow, 1 green, 1 grey
    assert state.events[-1] == {"type": "passed", "seat": 1, "goods": ["yellow", "grey", "green"]}
    assert not state.active[1] and state.stage == "trade_ship"


def test_worked_example_one_lemon_buys_one_parrot() -> None:
    state = passer_at(PARROT_FIRST, 1)
    act(state, 1, "choose_ship", ship="parrot")
    assert "end_trade" not in types(state, 1)  # at least one action is owed
    act(state, 1, "exchange", goods=["yellow"])
    force_chance(state, deck="parrot", seat=1, card="set_green")
    assert state.private[1]["parrots"][-1] == "set_green"
    assert state.goods[1][0] == 0
    act(state, 1, "end_trade")
    assert state.to_move == [2]


def buy_building(state: GrogState, seat: int, building: str, pay: list[str] | None = None) -> None:
    for _ in range(4):
        act(state, seat, "build_pay", goods=pay or ["yellow"])
    act(state, seat, "claim", building=building)


def test_worked_example_four_lemons_buy_one_building() -> None:
    state = passer_at(PARROT_FIRST, 4)
    act(state, 1, "choose_ship", ship="parrot")
    buy_building(state, 1, "yellow/pub")
    assert state.occupant[state_index("yellow/pub")] == 1
    assert state.crew[1] == 8 and state.goods[1][0] == 0
    assert state.vp[1] == 1  # the yellow white cloud gives 1 VP
    assert types(state, 1) == ["end_trade"]  # no lemon left for a parrot


def test_worked_example_five_lemons_buy_a_building_and_a_parrot() -> None:
    state = passer_at(PARROT_FIRST, 5)
    act(state, 1, "choose_ship", ship="parrot")
    act(state, 1, "exchange", goods=["yellow"])
    force_chance(state, deck="parrot", seat=1, card="hold")
    buy_building(state, 1, "yellow/hat")
    assert state.private[1]["parrots"] == ["hold", "hold"]
    assert state.occupant[state_index("yellow/hat")] == 1


def test_worked_example_ten_lemons_buy_two_buildings_and_two_parrots() -> None:
    state = passer_at(PARROT_FIRST, 10)
    act(state, 1, "choose_ship", ship="parrot")
    buy_building(state, 1, "yellow/sword")
    act(state, 1, "exchange", goods=["yellow"])
    force_chance(state, deck="parrot", seat=1, card="hold")
    act(state, 1, "exchange", goods=["yellow"])
    force_chance(state, deck="parrot", seat=1, card="set_grey")
    assert "exchange" not in types(state, 1)  # the parrot ship takes at most 2 goods
    buy_building(state, 1, "yellow/anchor")
    assert state.goods[1][0] == 0 and state.crew[1] == 7
    assert len(state.private[1]["parrots"]) == 3


def test_worked_example_three_goods_stand_in_for_one_lemon() -> None:
    state = passer_at(PARROT_FIRST, 0, {"blue": 2, "grey": 1})
    # blue, grey and orange ships want held goods; the others take substitutes
    assert ship_names(state, 1) == ["parrot", "two_coins", "three_coins", "four_coins", "treasure"]
    act(state, 1, "choose_ship", ship="parrot")
    assert "end_trade" not in types(state, 1)
    legal = [a["goods"] for a in state.legal_actions(1) if a["type"] == "exchange"]
    assert legal == [
        ["blue", "blue", "orange"], ["blue", "blue", "grey"], ["blue", "orange", "grey"],
    ]  # fmt: skip
    act(state, 1, "exchange", goods=["blue", "orange", "grey"])
    force_chance(state, deck="parrot", seat=1, card="hold")
    assert state.goods[1] == [0, 0, 1, 0, 0]


def test_building_paid_partly_with_substitutes_only_if_it_can_be_finished() -> None:
    state = passer_at(PARROT_FIRST, 3, {"green": 2})  # 3 lemons + green, green, orange
    act(state, 1, "choose_ship", ship="parrot")
    build = [a["goods"] for a in state.legal_actions(1) if a["type"] == "build_pay"]
    assert build == [["yellow"], ["green", "green", "orange"]]
    act(state, 1, "build_pay", goods=["green", "green", "orange"])
    act(state, 1, "build_pay", goods=["yellow"])
    act(state, 1, "build_pay", goods=["yellow"])
    assert types(state, 1) == ["build_pay"]  # mid-payment: nothing else
    act(state, 1, "build_pay", goods=["yellow"])
    assert types(state, 1) == ["claim"]
    with pytest.raises(IllegalAction):
        act(state, 1, "claim", building="green/hat")  # only on the ship's peninsula


def test_no_building_payment_without_a_free_building_or_crew() -> None:
    state = passer_at(PARROT_FIRST, 6)
    state.crew[1] = 0
    act(state, 1, "choose_ship", ship="parrot")
    assert "build_pay" not in types(state, 1)


def test_must_trade_with_a_ship_the_seat_can_supply() -> None:
    state = passer_at(PARROT_FIRST, 1)
    # one lemon and one orange: only the yellow and orange ships can be supplied;
    # the objectives ship at open sea never can
    assert ship_names(state, 1) == ["parrot", "four_coins"]
    with pytest.raises(IllegalAction):
        act(state, 1, "choose_ship", ship="objectives")


def test_special_case_no_free_ship_wants_a_held_good_disc_and_nothing() -> None:
    state = new_game(3)
    roll(state, yellow=2, green=5, blue=2, orange=2, grey=2)
    bid(state, 0, "green")
    act(state, 1, "pass")  # takes a green: must trade
    act(state, 1, "choose_ship", ship="three_coins")  # the ship under green
    act(state, 1, "exchange", goods=["green"])
    act(state, 1, "end_trade")
    state.goods[2] = [0, 0, 0, 0, 0]
    act(state, 2, "pass")  # takes a green, but the green ship holds a disc
    assert state.goods[2] == [0, 1, 0, 0, 0]
    assert ship_names(state, 2) == ["two_coins", "four_coins", "treasure", "parrot"]
    act(state, 2, "choose_ship", ship="parrot")
    assert state.legal_actions(2) == [{"type": "end_trade"}]
    act(state, 2, "end_trade")
    assert {"type": "trade_skipped", "seat": 2} in state.events
    assert state.discs == [1 if s == 1 else (2 if s == 4 else -1) for s in range(6)]
    assert state.stage == "pay"  # seat 0 is the last in


def test_special_case_still_allows_trading_by_substitution() -> None:
    state = new_game(3)
    roll(state, yellow=2, green=5, blue=2, orange=2, grey=2)
    bid(state, 0, "green")
    act(state, 1, "pass")
    act(state, 1, "choose_ship", ship="three_coins")
    act(state, 1, "exchange", goods=["green"])
    act(state, 1, "end_trade")
    state.goods[2] = [0, 3, 0, 0, 0]
    act(state, 2, "pass")
    act(state, 2, "choose_ship", ship="two_coins")
    assert state.legal_actions(2) == [
        {"type": "exchange", "goods": ["green", "green", "green"]},
        {"type": "end_trade"},
    ]
    act(state, 2, "exchange", goods=["green", "green", "green"])
    assert state.coins[2] == 10 and state.goods[2] == [0, 1, 0, 0, 0]


def test_coin_ships_pay_their_rate_up_to_their_limit() -> None:
    state = new_game(3)  # default ships: two_coins under yellow, four_coins under blue
    roll(state, yellow=2, green=2, blue=5, orange=2, grey=2)
    bid(state, 0, "blue")
    state.goods[1] = [6, 0, 0, 0, 0]
    act(state, 1, "pass")
    act(state, 1, "choose_ship", ship="two_coins")
    for _ in range(4):
        act(state, 1, "exchange", goods=["yellow"])
    assert state.coins[1] == 16
    assert "exchange" not in types(state, 1)
    act(state, 1, "end_trade")
    state.goods[2] = [0, 0, 2, 0, 0]
    act(state, 2, "pass")
    act(state, 2, "choose_ship", ship="four_coins")
    act(state, 2, "exchange", goods=["blue"])
    assert state.coins[2] == 12
    assert types(state, 2) == ["end_trade"]  # exactly one good


def test_objectives_ship_draws_that_many_keeps_one_returns_the_rest() -> None:
    ships = ("objectives", "two_coins", "three_coins", "four_coins", "treasure", "parrot")
    state = passer_at(ships, 3)
    act(state, 1, "choose_ship", ship="objectives")
    for card in ("building/rum", "goods/grey", "parrots"):
        act(state, 1, "exchange", goods=["yellow"])
        force_chance(state, deck="objective", seat=1, card=card)
    assert state.private[1]["drawn"] == ["building/rum", "goods/grey", "parrots"]
    assert state.view(0)["players"][1]["drawn_objectives"] == 3
    assert "end_trade" not in types(state, 1)  # must keep one first
    bottom = list(state.hidden["objective_bottom"])
    act(state, 1, "keep_objective", card="goods/grey")
    assert "goods/grey" in state.private[1]["objectives"]
    assert state.hidden["objective_bottom"] == [*bottom, "building/rum", "parrots"]
    assert state.private[1]["drawn"] == []
    assert "exchange" not in types(state, 1)
    assert state.events[-1] == {"type": "kept_objective", "seat": 1, "returned": 2}


def test_ship_at_open_sea_or_with_a_disc_cannot_be_chosen() -> None:
    state = new_game(4)
    roll(state, yellow=2, green=2, blue=2, orange=2, grey=6)
    bid(state, 0, "grey")
    state.goods[1] = [1, 0, 0, 0, 0]
    act(state, 1, "pass")
    act(state, 1, "choose_ship", ship="two_coins")
    act(state, 1, "exchange", goods=["yellow"])
    act(state, 1, "end_trade")
    state.goods[2] = [1, 1, 1, 1, 1]
    act(state, 2, "pass")
    # two_coins holds seat 1's disc, the objectives ship is at open sea
    assert ship_names(state, 2) == ["three_coins", "four_coins", "treasure", "parrot"]
    with pytest.raises(IllegalAction):
        act(state, 2, "choose_ship", ship="two_coins")


def state_index(building: str) -> int:
    return BUILDING_INDEX[building]
