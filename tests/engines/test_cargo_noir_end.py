"""Cargo Noir scoring at the end: victory points and ties by the most valuable card."""

from __future__ import annotations

from engines.cargo_noir.scoring import best_card_vp, final_ranks
from tests.engines.test_cargo_noir_support import (
    act,
    give_cards,
    new_game,
    resolve_casinos,
    send_rest_to_casino,
)


def play_final_turn(cards: list[dict[str, int]], num_players: int = 2) -> dict:
    """Deal the given cards, jump to the last round and finish the game through ``apply``."""
    state = new_game(num_players)
    for _ in range(num_players):
        send_rest_to_casino(state)
    state.round = state.rounds
    for seat, held in enumerate(cards):
        give_cards(state, seat, held)
    for seat in range(num_players):
        assert state.seat == seat and state.phase == "ships"
        resolve_casinos(state)
        if state.phase == "smuggle":
            act(state, {"type": "end_smuggling"})
        send_rest_to_casino(state)
    assert state.is_over
    assert state.events[-1]["type"] == "game_over"
    return state.outcome()


def test_victory_points_are_the_sum_of_the_cards() -> None:
    outcome = play_final_turn([{"Cargo Ship": 2, "Villa": 1}, {"Warehouse": 1, "Syndicate": 1}])
    assert outcome == {"scores": [5 + 5 + 21, 3 + 3], "ranks": [1, 2]}


def test_tie_goes_to_the_player_with_the_most_valuable_card() -> None:
    # 21 each: Yacht (15) + Dive Bar (6) against a single Villa (21).
    outcome = play_final_turn([{"Yacht": 1, "Dive Bar": 1}, {"Villa": 1}])
    assert outcome == {"scores": [21, 21], "ranks": [2, 1]}


def test_still_tied_players_share_the_rank() -> None:
    outcome = play_final_turn(
        [{"Villa": 1, "Dive Bar": 1}, {"Villa": 1, "Warehouse": 2}, {"Night Club": 1}],
        num_players=3,
    )
    assert outcome == {"scores": [27, 27, 10], "ranks": [1, 1, 3]}


def test_coins_and_goods_are_worth_nothing() -> None:
    state = new_game(2)
    for _ in range(2):
        send_rest_to_casino(state)
    state.coins[0] = 300
    state.warehouse[0][0] = 9
    state.forget_cached_actions()
    assert state.outcome()["scores"] == [0, 0]


def test_ranking_helpers() -> None:
    assert best_card_vp([0] * 13) == 0
    assert final_ranks([10, 10, 5, 10], [6, 21, 100, 6]) == [2, 1, 4, 2]
