"""Grog Island views: exactly the spec's hidden items are hidden from other seats."""

from __future__ import annotations

import json
import random

import pytest

from engines import CHANCE
from engines.grog_island.state import GrogState
from tests.engines.helpers import force_chance, perturb_secrets, random_game, random_steps
from tests.engines.test_grog_island_support import ENGINE, act, bid, new_game, roll


def assert_no_leak(state: GrogState, salt: int = 0) -> None:
    """Perturb every other seat's secret and every deck: nothing a seat sees may move."""
    rng = random.Random(salt)
    assert perturb_secrets(state, None, rng).view(None) == state.view(None)
    for seat in range(state.num_players):
        other = perturb_secrets(state, seat, rng)
        assert other.view(seat) == state.view(seat)
        assert other.legal_actions(seat) == state.legal_actions(seat)
        assert other.to_move == state.to_move


def objectives_pending() -> GrogState:
    ships = ("objectives", "two_coins", "three_coins", "four_coins", "treasure", "parrot")
    state = new_game(3, ships=ships, parrots=["set_grey", "hold", "set_blue"], treasures=[3, 1, 2])
    roll(state, yellow=2, green=2, blue=2, orange=5, grey=2)
    bid(state, 0, "orange")
    state.goods[1] = [3, 0, 0, 0, 0]
    act(state, 1, "pass")
    act(state, 1, "choose_ship", ship="objectives")
    for card in ("building/rum", "goods/grey"):
        act(state, 1, "exchange", goods=["yellow"])
        force_chance(state, card=card)
    return state


def test_other_seats_secrets_never_change_a_view_mid_trade() -> None:
    state = objectives_pending()
    for salt in range(5):
        assert_no_leak(state, salt)


def test_view_shows_counts_not_cards() -> None:
    state = objectives_pending()
    view = state.view(2)
    me = view["private"]
    assert me == {
        "objectives": state.private[2]["objectives"],
        "treasures": [2],
        "parrots": ["set_blue"],
        "drawn": [],
    }
    seat1 = view["players"][1]
    assert seat1["drawn_objectives"] == 2 and seat1["objectives"] == 4
    assert seat1["treasures"] == 1 and seat1["parrots"] == 1
    assert seat1["potential_capital"] == 8 + 3
    text = json.dumps({k: v for k, v in view.items() if k != "private"})
    for secret in ("building/rum", "goods/grey", "set_grey", "hold"):
        assert secret not in text
    assert "private" not in state.view(None)
    assert view["decks"] == {"objective": 46 - 18 + 6 - 2, "treasure": 29, "parrot": 25}


def test_events_never_carry_a_secret() -> None:
    state = objectives_pending()
    for event in state.events:
        if event["type"] in ("drew", "returned_objective", "kept_objective"):
            assert "card" not in event and "value" not in event


def test_during_payment_and_claims_nothing_leaks() -> None:
    state = new_game(3, treasures=[3, 1, 2])
    roll(state, yellow=3, green=2, blue=6, orange=2, grey=2)
    bid(state, 0, "blue", "yellow", "green")
    for seat in (1, 2):
        act(state, seat, "pass")
        state.apply(seat, state.legal_actions(seat)[0])
        while state.stage == "trade":
            who = state.to_move[0]
            if who == CHANCE:
                state.apply(CHANCE, state.chance_outcomes()[0][0])
            else:
                legal = state.legal_actions(who)
                state.apply(who, legal[-1])
    assert state.stage == "pay"
    assert_no_leak(state, 1)
    act(state, 0, "pay_treasure", value=3)
    assert_no_leak(state, 2)
    assert state.events[-1] == {"type": "treasure_paid", "seat": 0, "value": 3}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_no_leak_across_whole_random_games(n: int) -> None:
    for step, (state, _, _) in enumerate(random_steps(ENGINE, n, seed=11 * n)):
        if step % 37 == 0:
            assert_no_leak(state, step)


def test_game_over_reveals_everything() -> None:
    final, _ = random_game(ENGINE, 3, seed=5)
    assert final.is_over
    view = final.view(None)
    assert view["revealed"] == final.private
    assert [row["total"] for row in view["final"]["breakdown"]] == final.outcome()["scores"]
