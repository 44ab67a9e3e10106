"""Grog Island bids: placement rules, potential capital, openers, parrot cards."""

from __future__ import annotations

import itertools
import random

import pytest

from engines import IllegalAction
from engines.grog_island.data import COLOURS
from engines.grog_island.state import GrogState
from tests.engines.test_grog_island_support import act, bid, new_game, roll, types


def legal_bids(state: GrogState, seat: int) -> set[tuple[str, ...]]:
    """Every complete bid reachable through the die-by-die actions (no parrots)."""
    found: set[tuple[str, ...]] = set()

    def walk(s: GrogState) -> None:
        actions = s.legal_actions(seat)
        assert len(actions) <= 150
        for action in actions:
            if action["type"] == "bid":
                found.add(tuple(COLOURS[c] for c in s.draft))
            elif action["type"] == "place":
                child = s.clone()
                child.apply(seat, action)
                walk(child)

    walk(state)
    return found


def brute_force_bids(dice: list[int], lo: int, hi: int) -> set[tuple[str, ...]]:
    """Every ordered arrangement: 1-5 dice, non-increasing, lo <= sum <= hi."""
    result = set()
    for k in range(1, 6):
        for combo in itertools.permutations(range(5), k):
            values = [dice[c] for c in combo]
            if all(a >= b for a, b in itertools.pairwise(values)) and lo <= sum(values) <= hi:
                result.add(tuple(COLOURS[c] for c in combo))
    return result


def test_worked_example_opening_six_then_raising_to_eight() -> None:
    state = new_game(3)
    roll(state, yellow=3, green=2, blue=6, orange=1, grey=3)
    bid(state, 0, "yellow", "green", "orange")
    assert state.bid_total == 6 and state.bidder == 0
    expected = {"dice": ["yellow", "green", "orange"], "total": 6, "bidder": 0}
    assert state.view(None)["bid"] == expected
    # Martina returns orange, puts grey on space 2 and green on space 3.
    bid(state, 1, "yellow", "grey", "green")
    assert state.bid_total == 8 and state.bid == [0, 4, 1]


def test_dice_go_left_to_right_never_increasing() -> None:
    state = new_game(3)
    roll(state, yellow=3, green=2, blue=6, orange=1, grey=3)
    act(state, 0, "place", colour="green")
    with pytest.raises(IllegalAction, match="values must not increase"):
        act(state, 0, "place", colour="yellow")
    act(state, 0, "place", colour="orange")  # 2 then 1 is fine
    assert state.draft == [1, 3]


def test_equal_dice_may_stand_in_either_order() -> None:
    state = new_game(3)
    roll(state, yellow=3, green=2, blue=6, orange=1, grey=3)
    bids = legal_bids(state, 0)
    assert ("yellow", "grey") in bids and ("grey", "yellow") in bids


def test_a_raise_must_be_strictly_higher() -> None:
    state = new_game(3)
    roll(state, yellow=3, green=2, blue=6, orange=1, grey=3)
    bid(state, 0, "yellow", "green", "orange")  # 6
    bids = legal_bids(state, 1)
    assert ("blue",) not in bids  # 6 = 6 is not a raise
    assert ("blue", "orange") in bids  # 7
    assert all(sum(state.dice[COLOURS.index(c)] for c in b) > 6 for b in bids)
    act(state, 1, "place", colour="blue")
    with pytest.raises(IllegalAction, match="must exceed the current bid 6"):
        act(state, 1, "bid", total=6)


def test_potential_capital_counts_each_treasure_as_three() -> None:
    state = new_game(3)
    state.coins[0] = 6
    state.private[0]["treasures"] = [1, 1]
    assert state.view(1)["players"][0]["potential_capital"] == 12
    roll(state, yellow=6, green=6, blue=1, orange=1, grey=1)
    bids = legal_bids(state, 0)
    assert ("yellow", "green") in bids  # exactly 12
    assert ("yellow", "green", "blue") not in bids  # 13 is above capital
    act(state, 0, "place", colour="yellow")
    act(state, 0, "place", colour="green")
    with pytest.raises(IllegalAction, match=r"at most 12 \(potential capital\)"):
        act(state, 0, "place", colour="blue")
    act(state, 0, "bid", total=12)
    assert state.bid_total == 12


@pytest.mark.parametrize("seed", range(40))
def test_every_legal_bid_is_reachable_and_nothing_else(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(3)
    faces = [rng.randint(1, 6) for _ in COLOURS] if seed % 4 else [rng.randint(1, 6)] * 5
    roll(state, **dict(zip(COLOURS, faces, strict=True)))
    state.coins[0] = rng.randint(0, 30)
    state.private[0]["treasures"] = []
    state.private[0]["parrots"] = []
    capital = state.coins[0]
    expected = brute_force_bids(faces, 1, capital)
    assert legal_bids(state, 0) == expected
    if expected:
        assert "pass" not in types(state, 0)  # the opener must open


def test_five_equal_dice_still_fit_in_short_lists() -> None:
    state = new_game(3)
    roll(state, yellow=4, green=4, blue=4, orange=4, grey=4)
    state.coins[0] = 30
    assert len(legal_bids(state, 0)) == 5 + 20 + 60 + 120 + 120


def test_start_player_who_cannot_open_passes_and_the_next_player_opens() -> None:
    state = new_game(3)
    state.coins[0] = 0
    state.private[0]["treasures"] = []
    state.private[0]["parrots"] = []
    roll(state, yellow=3, green=2, blue=6, orange=1, grey=3)
    assert state.legal_actions(0) == [{"type": "pass"}]
    act(state, 0, "pass")
    assert state.goods[0] == [1, 0, 0, 0, 0]  # no die on the track: no goods
    act(state, 0, "choose_ship", ship="two_coins")
    act(state, 0, "exchange", goods=["yellow"])
    act(state, 0, "end_trade")
    assert state.to_move == [1]
    assert "pass" not in types(state, 1)  # now seat 1 opens and must
    bid(state, 1, "blue")
    assert state.to_move == [2]
    assert "pass" in types(state, 2)


def test_a_seat_that_cannot_raise_may_only_pass() -> None:
    state = new_game(3)
    state.coins[1] = 5
    state.private[1]["treasures"] = []
    roll(state, yellow=3, green=2, blue=6, orange=1, grey=3)
    bid(state, 0, "blue")  # 6 > capital 5 of seat 1
    assert state.legal_actions(1) == [{"type": "pass"}]


def test_last_seat_in_without_a_bid_must_open_and_wins_at_once() -> None:
    state = new_game(2)
    state.coins[0] = 0
    state.private[0]["treasures"] = []
    roll(state, yellow=3, green=2, blue=6, orange=1, grey=3)
    act(state, 0, "pass")
    act(state, 0, "choose_ship", ship="two_coins")
    act(state, 0, "exchange", goods=["yellow"])
    act(state, 0, "end_trade")
    assert "pass" not in types(state, 1)
    bid(state, 1, "orange")
    assert state.stage == "pay" and state.winner == 1 and state.bid_total == 1


def test_set_die_parrot_changes_the_die_for_the_round() -> None:
    state = new_game(3, parrots=["set_blue", "hold", "hold"])
    roll(state, yellow=3, green=2, blue=1, orange=1, grey=3)
    assert {"type": "parrot", "card": "set_blue", "value": 6} in state.legal_actions(0)
    act(state, 0, "parrot", card="set_blue", value=6)
    assert state.dice[2] == 6 and state.private[0]["parrots"] == []
    assert "pass" not in types(state, 0)  # a played parrot commits to a bid
    assert state.events[-1] == {"type": "parrot_played", "seat": 0, "card": "set_blue", "value": 6}
    bid(state, 0, "blue", "yellow")
    assert state.bid_total == 9
    assert state.dice[2] == 6  # stays so for the round


def test_hold_parrot_lets_a_bid_equal_the_current_one() -> None:
    state = new_game(3, parrots=["set_blue", "hold", "hold"])
    roll(state, yellow=3, green=2, blue=6, orange=1, grey=3)
    bid(state, 0, "blue")  # 6
    state.coins[1] = 6
    state.private[1]["treasures"] = []  # capital 6: no raise possible
    assert {"type": "parrot", "card": "hold"} in state.legal_actions(1)
    act(state, 1, "parrot", card="hold")
    bids = legal_bids(state, 1)
    assert bids == brute_force_bids(state.dice, 6, 6)
    assert ("yellow", "grey") in bids and ("blue",) in bids
    bid(state, 1, "grey", "yellow")
    assert state.bid_total == 6 and state.bidder == 1


def test_hold_is_not_offered_to_an_opener_or_beyond_capital() -> None:
    state = new_game(3, parrots=["hold", "hold", "hold"])
    roll(state, yellow=3, green=2, blue=6, orange=1, grey=3)
    assert "parrot" not in types(state, 0)  # nothing to hold yet
    bid(state, 0, "blue", "yellow", "green")  # 11
    state.coins[1] = 9
    state.private[1]["treasures"] = []
    assert types(state, 1) == ["pass"]


def test_two_set_parrots_may_be_needed_together() -> None:
    state = new_game(3, parrots=["hold", "set_yellow", "hold"])
    roll(state, yellow=6, green=6, blue=6, orange=5, grey=5)
    state.private[0]["parrots"] = []
    state.coins[0] = 40
    bid(state, 0, "yellow", "green", "blue", "orange", "grey")  # 28
    state.bid_total = 29  # as if a parrot had made it 29 earlier this round
    state.private[1]["parrots"] = ["set_orange", "set_grey"]
    state.coins[1] = 40
    legal = state.legal_actions(1)
    assert "place" not in {a["type"] for a in legal}  # 30 needs both fives turned to six
    assert {"type": "parrot", "card": "set_orange", "value": 6} in legal
    assert {"type": "parrot", "card": "set_orange", "value": 5} not in legal
    assert {"type": "parrot", "card": "set_grey", "value": 4} not in legal
    act(state, 1, "parrot", card="set_orange", value=6)
    assert state.legal_actions(1) == [{"type": "parrot", "card": "set_grey", "value": 6}]
    act(state, 1, "parrot", card="set_grey", value=6)
    bid(state, 1, "yellow", "green", "blue", "orange", "grey")
    assert state.bid_total == 30


def test_malformed_place_actions_are_refused_with_a_message() -> None:
    state = new_game(3)
    roll(state, yellow=3, green=2, blue=6, orange=1, grey=3)
    before = state.to_json()
    for colour in (["yellow"], None, 7, "purple"):
        with pytest.raises(IllegalAction, match="place"):
            act(state, 0, "place", colour=colour)
    assert state.to_json() == before
