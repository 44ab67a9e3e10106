"""Batavia phase A: the die, the lot and the auction (bids, passes, payment around the table)."""

from __future__ import annotations

import pytest

from engines import CHANCE, IllegalAction
from engines.batavia.auction import payments
from tests.engines.helpers import force_chance
from tests.engines.test_batavia_helpers import all_pass, auction, draw, new_game

PASS = {"type": "pass"}


def bid(amount: int) -> dict:
    return {"type": "bid", "amount": amount}


def everyone_draws(state) -> None:
    while state.phase in ("act", "draw"):
        draw(state, state.turn)


def test_worked_example_die_three_auctions_three_cards_as_one_lot() -> None:
    state = new_game(4)
    assert state.chance_key() == "die/r1"
    force_chance(state, type="die", value=3)
    assert [state.chance_key() for _ in range(1)] == ["lot/r1/0"]
    for company in ("england", "england", "sweden"):
        force_chance(state, type="card", company=company)
    view = state.view(None)
    assert view["lot"] == {"england": 2, "netherlands": 0, "france": 0, "denmark": 0, "sweden": 1}
    assert view["die"] == 3 and view["phase"] == "bid"
    assert state.deck_size == 110 - 40 - 3
    # Seat 1 (left of the auctioneer) opens; it wins alone and takes all three.
    for action in (bid(2), PASS, PASS, PASS):
        state.apply(state.turn, action)
    assert state.private[1]["hand"]["england"] == 2 + 2
    assert state.private[1]["hand"]["sweden"] == 2 + 1
    assert state.hand_size[1] == 13
    assert state.first_player == 1 and state.turn == 1 and state.phase == "act"
    assert sum(state.lot) == 0


def test_bidding_starts_left_of_the_auctioneer_and_goes_round_until_one_is_left() -> None:
    state = new_game(4)
    force_chance(state, type="die", value=1)
    force_chance(state, type="card", company="france")
    order = []
    for action in (bid(0), bid(1), PASS, bid(2), bid(3), PASS, PASS):
        order.append(state.turn)
        state.apply(state.turn, action)
    # 1 bids 0, 2 bids 1, 3 passes, 0 bids 2, 1 bids 3, 2 passes, 0 passes.
    assert order == [1, 2, 3, 0, 1, 2, 0]
    assert state.first_player == 1
    assert state.private[1]["letters"] == 12


def test_bids_are_amounts_from_the_current_bid_plus_one_to_the_letters_held() -> None:
    state = new_game(4)
    auction(state, 1, ["france"], [bid(3)])
    legal = state.legal_actions(2)
    assert legal[0] == PASS
    assert [a["amount"] for a in legal[1:]] == list(range(4, 16))
    with pytest.raises(IllegalAction, match="may not bid 40: only 15 letters held"):
        state.apply(2, bid(40))
    with pytest.raises(IllegalAction, match="more than the current bid of 3"):
        state.apply(2, bid(3))


def test_a_player_who_cannot_outbid_is_still_asked_and_may_only_pass() -> None:
    state = new_game(4)
    state.private[2]["letters"] = 3
    auction(state, 1, ["france"], [bid(3)])
    assert state.to_move == [2]
    assert state.legal_actions(2) == [PASS]


def test_first_bid_may_be_zero_and_a_lone_player_still_gets_to_bid() -> None:
    state = new_game(3)
    auction(state, 2, ["france", "denmark"], [PASS, PASS])
    assert state.to_move == [0]  # the auctioneer, last one in, has not bid yet
    state.apply(0, bid(0))
    assert state.first_player == 0
    assert state.private[0]["hand"]["france"] == 3
    assert [p["letters"] for p in state.private] == [15, 15, 15]


def test_payment_around_the_table_when_the_bid_exceeds_the_other_players() -> None:
    state = new_game(4)
    auction(state, 1, ["france"], [bid(7), PASS, PASS, PASS])
    # Seat 1 pays 7 letters one at a time to seats 2, 3, 0, 2, 3, 0, 2.
    assert [p["letters"] for p in state.private] == [17, 8, 18, 17]
    won = next(e for e in state.events if e["type"] == "auction_won")
    assert won == {
        "type": "auction_won",
        "seat": 1,
        "amount": 7,
        "cards": {"france": 1},
        "paid": [2, 0, 3, 2],
    }
    assert payments(3, 2, 5) == [3, 2, 0]
    assert payments(5, 4, 2) == [1, 1, 0, 0, 0]


def test_everyone_passes_first_round_the_auctioneer_plays_first_and_the_lot_carries_over() -> None:
    state = new_game(4)
    auction(state, 3, ["england", "england", "sweden"], [PASS] * 4)
    assert state.first_player == 0 and state.turn == 0
    assert {"type": "auction_unsold", "lot_size": 3} in state.events
    everyone_draws(state)
    assert state.round == 2 and state.auctioneer == 0
    force_chance(state, type="die", value=2)
    assert state.chance_key() == "lot/r2/0"
    for company in ("france", "denmark"):
        force_chance(state, type="card", company=company)
    assert state.view(None)["lot"] == {
        "england": 2,
        "netherlands": 0,
        "france": 1,
        "denmark": 1,
        "sweden": 1,
    }
    for action in (PASS, bid(1), PASS, PASS):
        state.apply(state.turn, action)
    assert state.first_player == 2
    assert state.hand_size[2] == 10 + 2 + 5  # dealt, drawn, the five-card lot


def test_everyone_passes_later_the_first_player_is_unchanged() -> None:
    state = new_game(4)
    auction(state, 1, ["france"], [PASS, bid(0), PASS, PASS])
    assert state.first_player == 2
    everyone_draws(state)
    assert state.auctioneer == 2
    all_pass(state)
    assert state.first_player == 2 and state.turn == 2


def test_the_lot_stops_short_when_deck_and_discard_are_empty() -> None:
    state = new_game(4)
    state.hidden["deck"] = dict.fromkeys(state.hidden["deck"], 0)
    state.hidden["deck"]["sweden"] = 1
    state.deck_size = 1
    force_chance(state, type="die", value=4)
    force_chance(state, type="card", company="sweden")
    assert state.phase == "bid" and state.to_move == [1]
    assert sum(state.lot) == 1


def test_die_outcomes_are_fair() -> None:
    state = new_game(3)
    outcomes = state.chance_outcomes()
    assert [a["value"] for a, _ in outcomes] == [1, 2, 3, 4, 5, 6]
    assert all(abs(p - 1 / 6) < 1e-12 for _, p in outcomes)
    assert state.to_move == [CHANCE]
