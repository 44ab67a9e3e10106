"""Manila: the deal, secrets, the auction for harbor master and the harbor master's duties."""

from __future__ import annotations

import pytest

import engines
from engines import CHANCE, Dealer, IllegalAction
from tests.engines.helpers import force_chance
from tests.engines.test_manila_helpers import (
    ENGINE,
    act,
    auction,
    dealt_game,
    duties,
    place,
    voyage_start,
)


def test_engine_metadata() -> None:
    engine = engines.get("manila")
    assert (engine.name, engine.min_players, engine.max_players) == ("Manila", 3, 5)
    assert engine.version == "2" and engine.options == {"pirates_replace": False}
    assert engine.max_legal_actions == 50


def test_deal_is_one_share_at_a_time_keyed_by_seat_and_card() -> None:
    state = ENGINE.new_game(4)
    assert state.to_move == [CHANCE]
    assert state.chance_key() == "deal/seat0/card0"
    outcomes = state.chance_outcomes()
    assert {a["good"]: p for a, p in outcomes} == {
        "ginseng": 0.25,
        "nutmeg": 0.25,
        "silk": 0.25,
        "jade": 0.25,
    }
    force_chance(state, good="jade")
    assert state.chance_key() == "deal/seat0/card1"
    assert {a["good"]: p for a, p in state.chance_outcomes()}["jade"] == pytest.approx(2 / 11)
    assert state.events[-1] == {"type": "dealt", "seat": 0}


def test_dealt_shares_are_private_and_undealt_ones_join_the_open_supply() -> None:
    state = dealt_game(4)
    assert state.view(1)["private"] == {"shares": {"ginseng": 0, "nutmeg": 0, "silk": 1, "jade": 1}}
    public = state.view(0)
    assert [p["shares"] for p in public["players"]] == [2, 2, 2, 2]
    assert all(sum(p["bought"].values()) == 0 for p in public["players"])
    assert "private" not in state.view(None)
    # 12 starting shares: 8 dealt (2 ginseng, 2 nutmeg, 2 silk, 2 jade), 4 back to the supply
    assert public["supply"] == {"ginseng": 3, "nutmeg": 3, "silk": 3, "jade": 3}
    assert state.hidden["deck"] == {"ginseng": 0, "nutmeg": 0, "silk": 0, "jade": 0}


def _perturbed(state, seat, good, delta=1):
    data = state.to_json()
    data["private"][seat]["shares"][good] += delta
    return ENGINE.from_json(data)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_changing_any_share_of_another_seat_changes_nothing_it_sees(n) -> None:
    state = voyage_start(n)
    place(state, "jade")
    for viewer in range(n):
        for other in range(n):
            if other == viewer:
                continue
            for good in ("ginseng", "nutmeg", "silk", "jade"):
                changed = _perturbed(state, other, good, 2)
                assert changed.view(viewer) == state.view(viewer)
                assert changed.legal_actions(viewer) == state.legal_actions(viewer)
                assert changed.view(None) == state.view(None)
        own = _perturbed(state, viewer, "jade")
        assert own.view(viewer) != state.view(viewer)  # the test would notice a leak


def test_changing_the_undealt_deck_changes_no_view() -> None:
    state = ENGINE.new_game(4)
    force_chance(state, good="silk")
    data = state.to_json()
    data["hidden"]["deck"] = {"ginseng": 1, "nutmeg": 5, "silk": 0, "jade": 4}
    changed = ENGINE.from_json(data)
    for viewer in [None, 0, 1, 2, 3]:
        assert changed.view(viewer) == state.view(viewer)


def test_dice_are_keyed_by_voyage_movement_and_good_whatever_players_do() -> None:
    dealer = Dealer(2024)
    rolls = []
    for jade_crew in (0, 2):
        state = voyage_start(4)
        place(state, *(["jade"] * jade_crew), *["pass"] * (4 - jade_crew))
        assert state.chance_key() == "v1/m1/nutmeg"
        seen = {}
        while state.phase == "roll" and state.movement == 1:
            key = state.chance_key()
            action = dealer.choose(state)
            seen[key] = action["value"]
            state.apply(CHANCE, action)
        rolls.append(seen)
    assert set(rolls[0]) == {"v1/m1/nutmeg", "v1/m1/silk", "v1/m1/jade"}
    assert rolls[0] == rolls[1]


# ---------------------------------------------------------------- auction
def test_nobody_bids_first_voyage_seat0_stays_for_free() -> None:
    state = dealt_game(4)
    assert state.phase == "auction" and state.to_move == [0]
    for seat in (0, 1, 2, 3):
        act(state, seat, "pass")
    assert state.harbor_master == 0 and state.cash == [30, 30, 30, 30]
    assert state.phase == "buy" and state.to_move == [0]
    assert state.events[-1] == {"type": "harbor_master", "seat": 0, "price": 0, "no_bids": True}


def test_last_player_may_still_bid_after_all_others_passed() -> None:
    state = dealt_game(4)
    for seat in (0, 1, 2):
        act(state, seat, "pass")
    assert state.to_move == [3]
    act(state, 3, "bid", amount=1)
    assert state.harbor_master == 3 and state.cash[3] == 29


def test_auction_runs_clockwise_and_the_winner_pays_then_starts_the_next_auction() -> None:
    state = dealt_game(4)
    act(state, 0, "bid", amount=5)
    act(state, 1, "bid", amount=7)
    act(state, 2, "pass")
    act(state, 3, "pass")
    assert state.to_move == [0]
    legal = state.legal_actions(0)
    assert legal[0] == {"type": "bid", "amount": 8}
    act(state, 0, "pass")
    assert state.harbor_master == 1 and state.cash == [30, 23, 30, 30]
    duties(state, "ginseng", {"nutmeg": 0, "silk": 4, "jade": 5})
    assert state.to_move == [1]  # the harbor master places first
    while state.phase == "place":
        act(state, state.mover, "pass")
    while state.phase != "auction":
        seat = state.to_move[0]
        if seat == CHANCE:
            force_chance(state, value=1)
        else:
            state.apply(seat, state.legal_actions(seat)[0])
    assert state.voyage == 2 and state.to_move == [1]


def test_a_bid_beyond_cash_is_paid_by_mortgaging_exactly_enough_shares() -> None:
    state = dealt_game(4)
    act(state, 0, "more_bids")
    second_page = [a["amount"] for a in state.legal_actions(0) if a["type"] == "bid"]
    assert second_page == list(range(49, 30 + 2 * 12 + 1))
    with pytest.raises(IllegalAction, match="seat 0 may not bid 55: only 54 pesos available"):
        state.apply(0, {"type": "bid", "amount": 55})
    with pytest.raises(IllegalAction, match="turn the page"):
        state.apply(0, {"type": "bid", "amount": 40})
    act(state, 0, "more_bids")  # wraps back to 1-48
    act(state, 0, "bid", amount=40)
    for seat in (1, 2, 3):
        act(state, seat, "pass")
    assert state.cash[0] == 30 + 12 - 40 and state.mortgaged[0] == 1
    assert {"type": "mortgaged", "seat": 0, "count": 1} in state.events


def test_bids_are_paged_so_every_affordable_bid_is_reachable_in_at_most_50_actions() -> None:
    state = dealt_game(4)
    state.cash[0] = 150  # 150 + 24 from shares
    first = state.legal_actions(0)
    assert len(first) == 50
    assert first[:2] == [{"type": "bid", "amount": 1}, {"type": "bid", "amount": 2}]
    assert first[-2:] == [{"type": "more_bids"}, {"type": "pass"}]
    with pytest.raises(IllegalAction, match="more_bids"):
        state.apply(0, {"type": "bid", "amount": 120})
    pages = []
    for _ in range(5):
        legal = state.legal_actions(0)
        assert len(legal) <= 50 and {"type": "more_bids"} in legal
        pages.append([a["amount"] for a in legal if a["type"] == "bid"])
        act(state, 0, "more_bids")
    assert [(p[0], p[-1]) for p in pages] == [(1, 48), (49, 96), (97, 144), (145, 174), (1, 48)]
    act(state, 0, "more_bids")  # page 3 again: 97-144
    act(state, 0, "bid", amount=120)
    assert state.high_bid == 120 and state.to_move == [1]


def test_bid_not_above_the_high_bid_is_explained() -> None:
    state = dealt_game(4)
    act(state, 0, "bid", amount=9)
    with pytest.raises(IllegalAction, match="must exceed the high bid of 9"):
        state.apply(1, {"type": "bid", "amount": 9})


# ------------------------------------------------------------------ duties
@pytest.mark.parametrize(
    ("good", "price", "cost"),
    [("nutmeg", 10, 10), ("silk", 20, 20), ("ginseng", 0, 5), ("jade", 5, 5)],
)
def test_share_cost_is_price_but_at_least_5(good, price, cost) -> None:
    state = dealt_game(4)
    state.prices = [0, 10, 20, 5]
    auction(state)
    assert state.view(None)["share_cost"][good] == cost
    act(state, 0, "buy", good=good)
    assert state.cash[0] == 30 - cost
    assert state.view(None)["players"][0]["bought"][good] == 1
    assert state.view(0)["private"]["shares"][good] == 1 + (good in ("ginseng", "nutmeg"))
    assert state.events[-1] == {"type": "bought", "seat": 0, "good": good, "price": cost}
    assert state.supply[("ginseng", "nutmeg", "silk", "jade").index(good)] == 2


def test_a_share_too_dear_is_not_offered_and_is_explained() -> None:
    state = dealt_game(4)
    state.prices = [0, 10, 20, 5]
    state.cash[0] = 0
    state.mortgaged[0] = 1  # 12 pesos available
    auction(state)
    assert {"type": "buy", "good": "silk"} not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="may not buy silk for 20: only 12 pesos available"):
        state.apply(0, {"type": "buy", "good": "silk"})


def _starts(state):
    return {(a["good"], a["space"]) for a in state.legal_actions(state.mover)}


def test_starting_spaces_4_3_2_and_0_4_5_are_legal() -> None:
    for starts in ({"nutmeg": 4, "silk": 3, "jade": 2}, {"nutmeg": 0, "silk": 4, "jade": 5}):
        state = dealt_game(4)
        auction(state)
        duties(state, "ginseng", starts)
        assert state.position[1:] == list(starts.values())
        assert state.phase == "place"


def test_after_4_and_5_the_third_boat_must_start_on_0_and_above_5_is_illegal() -> None:
    state = dealt_game(4)
    auction(state)
    act(state, 0, "skip_buy")
    act(state, 0, "leave_ashore", good="ginseng")
    assert ("nutmeg", 6) not in _starts(state)
    with pytest.raises(IllegalAction, match="a boat starts on space 0 to 5, not 6"):
        state.apply(0, {"type": "start_boat", "good": "nutmeg", "space": 6})
    act(state, 0, "start_boat", good="nutmeg", space=4)
    act(state, 0, "start_boat", good="silk", space=5)
    assert _starts(state) == {("jade", 0)}
    with pytest.raises(IllegalAction, match="must sum to 9, so it may start on 0"):
        state.apply(0, {"type": "start_boat", "good": "jade", "space": 1})
