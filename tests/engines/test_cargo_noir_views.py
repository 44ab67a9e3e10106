"""Cargo Noir views and secrets: only the bag's and discards' contents are hidden."""

from __future__ import annotations

import copy
import json
import random

import pytest

from engines import CHANCE
from engines.cargo_noir.data import TOKENS
from tests.engines.helpers import random_steps
from tests.engines.test_cargo_noir_support import ENGINE, new_game, send


def sampled_states(num_players: int, seed: int, every: int = 37) -> list:
    return [
        state.clone()
        for step, (state, _, _) in enumerate(random_steps(ENGINE, num_players, seed))
        if step % every == 0
    ]


def hidden_variants(state) -> list:
    """One rebuilt state per hidden item changed (each bag and discard count)."""
    data = state.to_json()
    variants = []
    for pile in ("bag", "discard"):
        for name in TOKENS:
            changed = copy.deepcopy(data)
            changed["hidden"][pile][name] += 3
            variants.append(ENGINE.from_json(changed))
    return variants


@pytest.mark.parametrize("num_players", [2, 5])
def test_changing_any_hidden_item_changes_no_view(num_players: int) -> None:
    for state in sampled_states(num_players, seed=11):
        views = [state.view(seat) for seat in [None, *range(num_players)]]
        legal = [state.legal_actions(seat) for seat in range(num_players)]
        for other in hidden_variants(state):
            assert [other.view(seat) for seat in [None, *range(num_players)]] == views
            assert [other.legal_actions(seat) for seat in range(num_players)] == legal
            assert other.to_move == state.to_move
            if state.to_move == [CHANCE]:
                assert other.chance_key() == state.chance_key()


def test_nothing_is_private_and_the_piles_show_only_their_sizes() -> None:
    state = new_game(3)
    assert state.private == [{}, {}, {}]
    view = state.view(1)
    assert view["private"] == {} and view["you"] == 1
    assert view["bag_size"] == state.bag_size and view["discard_size"] == 0
    text = json.dumps(view)
    assert '"bag"' not in text and '"discard"' not in text
    assert set(state.to_json()["hidden"]) == {"bag", "discard"}


def test_public_view_shows_warehouses_coins_cards_and_stacks() -> None:
    state = new_game(2, ports={"Rio": ["cars", "gold", "wild"]})
    send(state, "Rio", 3)
    view = state.view(None)
    rio = next(p for p in view["ports"] if p["name"] == "Rio")
    assert rio == {
        "name": "Rio", "slots": 3, "goods": ["cars", "gold", "wild"],
        "bids": [{"seat": 0, "coins": 3}],
    }  # fmt: skip
    player = view["players"][0]
    assert player["coins"] == 4 and player["ships"] == 3 and player["ships_home"] == 2
    assert player["warehouse"] == {} and player["cards"] == {} and player["victory_points"] == 0
    assert view["cards_left"]["Cargo Ship"] == 8 and view["cards_left"]["Cronies"] == 1
    assert view["phase"] == "send" and view["seat"] == 0 and view["rounds"] == 11


def test_events_never_hold_a_secret_and_are_json() -> None:
    for state in sampled_states(4, seed=5, every=101):
        for event in state.events:
            assert isinstance(event["type"], str)
            assert "bag" not in event and "discard" not in event
        json.dumps(state.events)


def test_legal_action_lists_stay_short() -> None:
    longest = 0
    rng = random.Random(1)
    for seed in range(20):
        for state, seat, _ in random_steps(ENGINE, rng.choice([2, 3, 4, 5]), seed):
            if seat != CHANCE:
                longest = max(longest, len(state.legal_actions(seat)))
    assert 0 < longest <= ENGINE.max_legal_actions


def test_every_action_type_has_a_description() -> None:
    samples = [
        ({"type": "draw", "good": "cars"}, "Draw 1 car token from the bag"),
        ({"type": "resolve", "at": "casino"}, "Resolve the ship at the casino"),
        (
            {"type": "market_swap", "give": "art", "take": "gold"},
            "Swap 1 art token for 1 gold token",
        ),
        ({"type": "raise", "port": "Rio", "add": 2}, "Add 2 coins to the stack at Rio"),
        ({"type": "raise", "port": "Rio", "add": 1}, "Add 1 coin to the stack at Rio"),
        ({"type": "buy", "card": "Cronies"}, "Buy a Cronies card"),
        ({"type": "withdraw", "port": "Rio"}, "Withdraw the ship and its coins from Rio"),
        ({"type": "buy", "card": "Villa"}, "Buy a Villa card"),
        ({"type": "send", "to": "black_market"}, "Send a ship to the black market"),
        ({"type": "bid", "port": "New York", "coins": 4}, "Leave a stack of 4 coins at New York"),
    ]
    for action, text in samples:
        assert ENGINE.describe(action).startswith(text)
    assert ENGINE.describe({"type": "fly"}) == "An unknown action"


def test_json_round_trip_mid_turn_keeps_the_open_decision() -> None:
    state = new_game(2)
    state.apply(0, {"type": "send", "to": "Rio"})
    rebuilt = ENGINE.from_json(json.loads(json.dumps(state.to_json())))
    assert rebuilt.legal_actions(0) == state.legal_actions(0)
    assert rebuilt.view(0)["turn"]["pending"] == "Rio"
