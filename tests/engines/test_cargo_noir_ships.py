"""Cargo Noir phases I and III: the casino, the black market, ports, bids and the bag."""

from __future__ import annotations

import pytest

from engines import CHANCE, IllegalAction
from engines.cargo_noir.data import BID_WINDOW
from tests.engines.helpers import force_chance
from tests.engines.test_cargo_noir_support import (
    act,
    all_casino_round_one,
    give_cards,
    held,
    new_game,
    resolve,
    resolve_casinos,
    send,
    send_rest_to_casino,
    set_bag,
    set_goods,
)


def finish_turn(state: object) -> None:
    """Resolve the current seat's casino ships, then send every ship home to the casino."""
    resolve_casinos(state)
    send_rest_to_casino(state)


def test_example_casino_pays_two_coins_per_ship() -> None:
    state = all_casino_round_one(2)
    assert state.coins[0] == 7
    resolve(state, "casino")
    assert state.coins[0] == 9 and state.at_casino[0] == 2
    resolve(state, "casino")
    resolve(state, "casino")
    assert state.coins[0] == 13
    assert state.events[-3:] == [{"type": "casino", "seat": 0, "coins": 2}] * 3


def contested_rio(syndicates: int = 0) -> object:
    """Round 1: seat 0 bids 2 at Rio, seat 1 outbids with 3; round 2, seat 0 to move."""
    state = new_game(2, ports={"Rio": ["cars", "cars", "gold"]})
    send(state, "Rio", 2)
    send_rest_to_casino(state)
    act(state, {"type": "send", "to": "Rio"})
    assert [a["coins"] for a in state.legal_actions(1)] == [3, 4, 5, 6, 7]  # at least max + 1
    act(state, {"type": "bid", "port": "Rio", "coins": 3})
    send_rest_to_casino(state)
    give_cards(state, 1, {"Syndicate": syndicates})
    return state


def test_outbid_ship_may_raise_above_the_highest_stack_and_stays() -> None:
    state = contested_rio()
    resolve(state, "Rio")
    assert state.view(0)["turn"]["pending"] == "Rio"
    legal = state.legal_actions(0)
    assert legal[0] == {"type": "raise", "port": "Rio", "add": 2}  # 2 + 2 > 3
    assert legal[-1] == {"type": "withdraw", "port": "Rio"}
    assert [a["add"] for a in legal[:-1]] == [2, 3, 4, 5]  # the 5 coins left in the safe
    with pytest.raises(IllegalAction, match="add at least 2 coins"):
        act(state, {"type": "raise", "port": "Rio", "add": 1})
    act(state, {"type": "raise", "port": "Rio", "add": 2})
    assert state.port_bids[state.port_number["Rio"]] == [4, 3]
    resolve_casinos(state)
    # The raised ship stays at Rio: only two ships to send, Rio not among the places.
    assert state.phase == "send"
    assert state.view(0)["players"][0]["ships_home"] == 2
    assert {"type": "send", "to": "Rio"} not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="already at Rio"):
        act(state, {"type": "send", "to": "Rio"})


def test_outbid_ship_may_withdraw_and_not_return_this_turn() -> None:
    state = contested_rio()
    resolve(state, "Rio")
    act(state, {"type": "withdraw", "port": "Rio"})
    assert state.coins[0] == 5 + 2  # the stack comes back
    assert state.port_bids[state.port_number["Rio"]] == [0, 3]
    assert state.events[-1]["syndicate_bonus"] == 0
    resolve_casinos(state)
    assert {"type": "send", "to": "Rio"} not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="abandoned Rio this turn"):
        act(state, {"type": "send", "to": "Rio"})


def test_lone_stack_buys_the_port_which_is_refilled_from_the_bag() -> None:
    state = contested_rio()
    resolve(state, "Rio")
    act(state, {"type": "withdraw", "port": "Rio"})
    finish_turn(state)  # seat 0's turn ends: 3 ships home after phase I
    assert state.seat == 1
    coins = state.coins[1]
    bag = state.bag_size
    resolve(state, "Rio")  # alone now: pays 3 to the bank, takes every good
    assert held(state, 1) == {"cars": 2, "gold": 1}
    assert state.coins[1] == coins
    assert state.events[-1] == {
        "type": "bought_goods", "seat": 1, "port": "Rio", "coins": 3,
        "goods": ["cars", "cars", "gold"],
    }  # fmt: skip
    rio = state.port_number["Rio"]
    assert state.port_bids[rio] == [0, 0] and state.port_goods[rio] == []
    keys = []
    for good in ["art", "art", "wild"]:
        keys.append(state.chance_key())
        force_chance(state, good=good)
    assert keys == ["r2/seat1/refill/Rio/0", "r2/seat1/refill/Rio/1", "r2/seat1/refill/Rio/2"]
    assert state.view(None)["ports"][rio]["goods"] == ["art", "art", "wild"]
    assert state.bag_size == bag - 3 and state.to_move == [1]


def test_example_two_syndicates_two_abandoned_ports_pay_four() -> None:
    """Each Syndicate pays 2 once per turn, for one abandoned port each."""
    state = new_game(2)
    send(state, "Rio", 1)
    send(state, "Bombay", 1)
    send(state, "casino")
    send(state, "Rio", 2)
    send(state, "Bombay", 2)
    send(state, "casino")
    give_cards(state, 0, {"Syndicate": 2})
    resolve(state, "Rio")
    act(state, {"type": "withdraw", "port": "Rio"})
    assert state.events[-1]["syndicate_bonus"] == 2
    resolve(state, "Bombay")
    act(state, {"type": "withdraw", "port": "Bombay"})
    assert state.events[-1]["syndicate_bonus"] == 2
    resolve(state, "casino")
    # 7 - 2 bid + 2 back + 2 bonus + 2 bonus + 2 casino
    assert state.coins[0] == 7 - 2 + 2 + 4 + 2
    assert state.view(None)["turn"]["syndicate_bonuses_paid"] == 2


@pytest.mark.parametrize(("syndicates", "bonus"), [(0, 0), (1, 2), (2, 2)])
def test_syndicate_bonus_for_one_abandoned_port(syndicates: int, bonus: int) -> None:
    state = contested_rio()
    give_cards(state, 0, {"Syndicate": syndicates})
    resolve(state, "Rio")
    act(state, {"type": "withdraw", "port": "Rio"})
    assert state.coins[0] == 5 + 2 + bonus


def test_one_syndicate_pays_once_for_two_abandoned_ports() -> None:
    state = new_game(2)
    for coins in (1, 2):
        send(state, "Rio", coins)
        send(state, "Bombay", coins)
        send(state, "casino")
    give_cards(state, 0, {"Syndicate": 1})
    for port in ("Rio", "Bombay"):
        resolve(state, port)
        act(state, {"type": "withdraw", "port": port})
    bonuses = [e["syndicate_bonus"] for e in state.events if e["type"] == "withdraw"]
    assert bonuses == [2, 0]


def test_raise_is_refused_beyond_the_safe_and_withdraw_is_always_possible() -> None:
    state = contested_rio()
    state.coins[0] = 1  # cannot reach 4
    state.forget_cached_actions()
    resolve(state, "Rio")
    assert state.legal_actions(0) == [{"type": "withdraw", "port": "Rio"}]
    with pytest.raises(IllegalAction, match="only 1 coins in the safe"):
        act(state, {"type": "raise", "port": "Rio", "add": 2})


def test_casino_coins_may_fund_a_raise_in_the_same_phase() -> None:
    state = contested_rio()
    state.coins[0] = 0
    state.forget_cached_actions()
    resolve(state, "casino")  # +2
    resolve(state, "Rio")
    assert {"type": "raise", "port": "Rio", "add": 2} in state.legal_actions(0)


def test_black_market_swap_and_draw() -> None:
    market = ["uranium", "uranium", "art", "cars", "cigars", "ivory", "jewels", "gold"]
    state = new_game(2, market=market)
    send(state, "black_market")
    send(state, "black_market")
    send(state, "casino")
    send_rest_to_casino(state)
    set_goods(state, 0, {"cars": 1})
    resolve(state, "black_market")
    legal = state.legal_actions(0)
    swaps = [(a["give"], a["take"]) for a in legal if a["type"] == "market_swap"]
    assert swaps == [("cars", g) for g in ["art", "cigars", "ivory", "jewels", "gold", "uranium"]]
    assert legal[-1] == {"type": "market_draw"}
    act(state, {"type": "market_swap", "give": "cars", "take": "uranium"})
    assert held(state, 0) == {"uranium": 1}
    assert state.view(None)["black_market"] == ["cars", *market[1:]]
    resolve(state, "black_market")
    act(state, {"type": "market_draw"})
    assert state.to_move == [CHANCE] and state.chance_key() == "r2/seat0/market/0"
    force_chance(state, good="wild")
    assert held(state, 0) == {"uranium": 1, "wild": 1}
    assert state.to_move == [0]


def test_black_market_with_nothing_to_give_offers_only_the_draw() -> None:
    state = new_game(2)
    send(state, "black_market")
    send_rest_to_casino(state)
    send_rest_to_casino(state)
    resolve(state, "black_market")
    assert state.legal_actions(0) == [{"type": "market_draw"}]


def test_black_market_with_no_goods_and_no_tokens_is_skipped() -> None:
    state = new_game(2)
    send(state, "black_market")
    send_rest_to_casino(state)
    send_rest_to_casino(state)
    set_bag(state, {}, {})
    resolve(state, "black_market")
    assert state.legal_actions(0) == [{"type": "market_skip"}]
    act(state, {"type": "market_skip"})


def test_empty_bag_is_refilled_from_the_discard_pile() -> None:
    state = contested_rio()
    resolve(state, "Rio")
    act(state, {"type": "withdraw", "port": "Rio"})
    finish_turn(state)
    set_bag(state, {"cars": 1}, {"ivory": 2, "art": 1})
    resolve(state, "Rio")  # seat 1 buys Rio: three slots to refill
    assert state.chance_outcomes() == [({"type": "draw", "good": "cars"}, 1.0)]
    force_chance(state, good="cars")
    assert {"type": "bag_refilled", "tokens": 3} in state.events
    assert (state.bag_size, state.discard_size) == (3, 0)
    outcomes = dict((a["good"], p) for a, p in state.chance_outcomes())
    assert outcomes == pytest.approx({"ivory": 2 / 3, "art": 1 / 3})
    force_chance(state, good="ivory")
    force_chance(state, good="art")
    rio = state.port_number["Rio"]
    assert state.view(None)["ports"][rio]["goods"] == ["cars", "ivory", "art"]
    assert state.bag_size == 1 and state.hidden["bag"]["ivory"] == 1


def test_port_stays_short_when_bag_and_discards_are_both_empty() -> None:
    state = contested_rio()
    resolve(state, "Rio")
    act(state, {"type": "withdraw", "port": "Rio"})
    finish_turn(state)
    set_bag(state, {"gold": 1}, {})
    resolve(state, "Rio")
    force_chance(state, good="gold")
    assert state.to_move == [1]
    assert {"type": "bag_empty", "undrawn": 2} in state.events
    assert state.port_goods[state.port_number["Rio"]] == [7]  # gold
    resolve(state, "casino")
    resolve(state, "casino")
    assert {"type": "resolve", "at": "black_market"} not in state.legal_actions(1)


def test_goods_above_capacity_are_kept_until_phase_two() -> None:
    state = contested_rio()
    resolve(state, "Rio")
    act(state, {"type": "withdraw", "port": "Rio"})
    finish_turn(state)
    set_goods(state, 1, {"ivory": 6})
    resolve(state, "Rio")
    for good in ["art", "art", "art"]:
        force_chance(state, good=good)
    assert sum(state.warehouse[1]) == 9  # kept during phase I
    resolve_casinos(state)
    act(state, {"type": "end_smuggling"})
    assert state.phase == "discard"


def test_bids_need_one_more_than_every_stack_and_at_most_one_ship_per_port() -> None:
    state = new_game(3)
    send(state, "Rio", 4)
    assert {"type": "send", "to": "Rio"} not in state.legal_actions(0)
    send_rest_to_casino(state)
    state.coins[1] = 4
    state.forget_cached_actions()
    assert {"type": "send", "to": "Rio"} not in state.legal_actions(1)
    with pytest.raises(IllegalAction, match="needs 5 coins, the safe has 4"):
        act(state, {"type": "send", "to": "Rio"})
    send_rest_to_casino(state)
    act(state, {"type": "send", "to": "Rio"})
    assert state.legal_actions(2)[0] == {"type": "bid", "port": "Rio", "coins": 5}
    with pytest.raises(IllegalAction, match="only 7 coins in the safe"):
        act(state, {"type": "bid", "port": "Rio", "coins": 8})


def test_bid_amounts_are_a_bounded_window() -> None:
    state = new_game(2)
    state.coins[0] = 500
    state.forget_cached_actions()
    act(state, {"type": "send", "to": "Rio"})
    bids = state.legal_actions(0)
    assert len(bids) == BID_WINDOW
    assert bids[0]["coins"] == 1 and bids[-1]["coins"] == BID_WINDOW


def test_resolution_order_is_the_players_choice() -> None:
    state = new_game(2)
    send(state, "black_market")
    send(state, "Rio", 1)
    send(state, "casino")
    send_rest_to_casino(state)
    assert state.legal_actions(0) == [
        {"type": "resolve", "at": "casino"},
        {"type": "resolve", "at": "black_market"},
        {"type": "resolve", "at": "Rio"},
    ]
    resolve(state, "Rio")  # alone: bought, refilled
    while state.to_move == [CHANCE]:
        force_chance(state, good="cigars")
    assert state.legal_actions(0) == [
        {"type": "resolve", "at": "casino"},
        {"type": "resolve", "at": "black_market"},
    ]
