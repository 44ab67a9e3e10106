"""Cargo Noir setup, turn order, game length and chance keys."""

from __future__ import annotations

import pytest

from engines import CHANCE, Dealer
from engines.cargo_noir.data import BLACK_MARKET_SIZE, TOKENS_PER_GOOD
from tests.engines.helpers import random_game
from tests.engines.test_cargo_noir_support import (
    ENGINE,
    new_game,
    send,
    send_rest_to_casino,
)

OPEN_PORTS = {
    2: ["Rotterdam", "New York", "Bombay", "Rio", "Panama"],
    3: ["Rotterdam", "New York", "Bombay", "Rio", "Panama", "Hong Kong"],
    4: ["Rotterdam", "New York", "Bombay", "Rio", "Panama", "Hong Kong", "Cape Town"],
    5: ["Rotterdam", "New York", "Bombay", "Rio", "Panama", "Hong Kong", "Cape Town", "Tangier"],
}


def test_engine_identity() -> None:
    assert (ENGINE.slug, ENGINE.name, ENGINE.version) == ("cargo_noir", "Cargo Noir", "1")
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 5)
    assert dict(ENGINE.options) == {} and ENGINE.max_legal_actions == 150


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_fills_market_and_open_ports_one_token_at_a_time(n: int) -> None:
    state = ENGINE.new_game(n)
    assert state.to_move == [CHANCE]
    assert state.bag_size == 9 * TOKENS_PER_GOOD + n  # as many wilds as players
    assert state.hidden["bag"]["wild"] == n
    keys = []
    while state.to_move == [CHANCE]:
        keys.append(state.chance_key())
        state.apply(CHANCE, Dealer(7).choose(state))
    slots = {"Rotterdam": 4, "New York": 3, "Bombay": 3, "Rio": 3, "Panama": 2}
    slots |= {"Hong Kong": 2, "Cape Town": 1, "Tangier": 2}
    view = state.view(None)
    assert [p["name"] for p in view["ports"]] == OPEN_PORTS[n]
    assert all(len(p["goods"]) == slots[p["name"]] for p in view["ports"])
    assert len(view["black_market"]) == BLACK_MARKET_SIZE
    filled = BLACK_MARKET_SIZE + sum(slots[name] for name in OPEN_PORTS[n])
    assert len(keys) == filled == len(set(keys))
    assert keys[0] == "setup/market/0" and "setup/port/New York/2" in keys
    assert view["bag_size"] == 9 * TOKENS_PER_GOOD + n - filled
    assert all(p["coins"] == 7 and p["ships"] == 3 and p["capacity"] == 6 for p in view["players"])


def test_round_one_starts_at_phase_three_for_every_seat() -> None:
    state = new_game(3)
    for seat in range(3):
        assert (state.round, state.seat, state.phase) == (1, seat, "send")
        legal = state.legal_actions(seat)
        assert {a["type"] for a in legal} == {"send"}
        assert {"type": "send", "to": "casino"} in legal
        assert {"type": "send", "to": "black_market"} in legal
        send_rest_to_casino(state)
    assert (state.round, state.seat, state.phase) == (2, 0, "ships")
    assert {a["type"] for a in state.legal_actions(0)} == {"resolve"}


def test_every_available_ship_must_be_sent_before_the_turn_passes() -> None:
    state = new_game(2)
    send(state, "casino")
    send(state, "black_market")
    assert state.seat == 0 and state.view(None)["players"][0]["ships_home"] == 1
    send(state, "Rio", 1)
    assert state.seat == 1


@pytest.mark.parametrize(("n", "rounds"), [(2, 11), (3, 11), (4, 10), (5, 10)])
def test_game_length_by_player_count(n: int, rounds: int) -> None:
    final, _ = random_game(ENGINE, n, seed=3)
    turns = [e for e in final.events if e["type"] == "turn"]
    assert len(turns) == n * rounds
    assert turns[-1] == {"type": "turn", "round": rounds, "seat": n - 1}
    assert final.events[-1]["type"] == "game_over" and final.is_over


def test_final_turn_ends_after_phase_two_without_sending_ships() -> None:
    """Phase III of the very last turn could change nothing, so the game ends there."""
    state = new_game(2)
    for _ in range(2):
        send_rest_to_casino(state)
    state.round = state.rounds
    state.seat = 1
    state.at_casino[1] = 3
    state.forget_cached_actions()
    for _ in range(3):
        state.apply(1, {"type": "resolve", "at": "casino"})
    # Last round: 13 coins buy cards, so phase II has a choice.
    assert state.phase == "smuggle" and {"type": "buy", "card": "Dive Bar"} in (
        state.legal_actions(1)
    )
    state.apply(1, {"type": "end_smuggling"})
    assert state.is_over and state.to_move == []
    assert state.legal_actions(1) == []


def test_same_seed_gives_the_same_setup_and_keys_name_the_event() -> None:
    dealer = Dealer(99)

    def setup(n: int) -> tuple[list[str], dict]:
        state = ENGINE.new_game(n)
        while state.to_move == [CHANCE]:
            state.apply(CHANCE, dealer.choose(state))
        view = state.view(None)
        return view["black_market"], {p["name"]: p["goods"] for p in view["ports"]}

    market, ports = setup(4)
    assert setup(4) == (market, ports)
    # The same event has the same key in a 5-player game: the shared ports start the same
    # unless the bag's contents differ (5 wilds instead of 4), which is what "as far as
    # the game allows" means; the keys themselves are identical.
    state = ENGINE.new_game(5)
    assert state.chance_key() == "setup/market/0"
