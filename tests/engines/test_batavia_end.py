"""Batavia's end: the final hex and the rest of its round, the last hand, scoring, stalemate."""

from __future__ import annotations

import pytest

from engines import IllegalAction
from engines.batavia.rules import COMPANIES, GOOD_INDEX
from engines.batavia.scoring import majority_awards
from tests.engines.helpers import force_chance
from tests.engines.test_batavia_helpers import (
    all_pass,
    cards,
    draw,
    new_game,
    play,
    set_front,
    set_hand,
    set_posts,
)

SILK = GOOD_INDEX["silk"]


def _open_game(n: int = 4):
    """An open-track game, seat 0 to act in round 1."""
    state = new_game(n, [cards(**dict.fromkeys(COMPANIES, 2))] * n, open_track=True)
    all_pass(state)
    return state


def _empty_stock(state) -> None:
    state.hidden["deck"] = dict.fromkeys(COMPANIES, 0)
    state.hidden["discard"] = dict.fromkeys(COMPANIES, 0)
    state.deck_size = state.discard_size = 0


def _take_final_hex(state, seat: int = 0) -> None:
    """``seat`` (to act) sits on the last space and plays one English card: the final hex."""
    state.merchants[seat] = 34
    state.taken_by[34] = seat
    set_hand(state, seat, england=1)
    play(state, seat, ["england"])


def test_final_hex_then_the_rest_of_the_round_may_only_move_to_a_post() -> None:
    state = _open_game()
    set_posts(state, 0, france=1, sweden=1)
    state.merchants[0] = 30
    state.taken_by[30] = 0
    set_hand(state, 0, england=3)
    play(state, 0, ["england"])
    assert state.final_hex == 0 and state.merchants[0] == 35
    assert {"type": "final_hex", "seat": 0} in state.events
    assert state.turn == 1 and state.phase == "act"  # no conversion for the taker
    assert state.gold[0] == 0

    # Seat 1 sits on space 33: an English majority is useless (no English post
    # ahead), a Swedish one reaches space 34.
    state.merchants[1] = 33
    set_hand(state, 1, england=2, sweden=1)
    assert {"type": "play", "company": "england"} in state.legal_actions(1)
    play(state, 1, ["england", "england"], done=False)
    assert {"type": "done"} not in state.legal_actions(1)
    with pytest.raises(IllegalAction, match="no majority that allows a move"):
        state.apply(1, {"type": "done"})
    play(state, 1, ["sweden"])
    assert state.merchants[1] == 34 and state.final_hex == 0

    # Seat 2 is past every post: it may only draw.
    state.merchants[2] = 32
    set_hand(state, 2, england=5)
    assert state.legal_actions(2) == [{"type": "draw"}]
    with pytest.raises(IllegalAction, match="final hex"):
        state.apply(2, {"type": "play", "company": "england"})
    draw(state, 2, ("france", "france"))
    draw(state, 3, ("france", "france"))
    assert state.is_over and state.final["reason"] == "final_hex"
    assert state.final["breakdown"][0]["final_hex"] == 4
    assert all(b["final_hex"] == 0 for b in state.final["breakdown"][1:])


def test_the_game_ends_after_the_round_of_the_final_hex_not_before() -> None:
    state = _open_game(3)
    draw(state, 0)
    _take_final_hex(state, 1)
    assert not state.is_over and state.turn == 2
    draw(state, 2)
    assert state.is_over and state.to_move == []
    assert state.legal_actions(0) == []


def test_at_the_end_everyone_plays_their_hand_and_seals_are_reassigned() -> None:
    state = _open_game()
    _empty_stock(state)
    set_front(state, 2, denmark=3)
    set_hand(state, 1, denmark=5)
    set_hand(state, 2, denmark=1)
    set_hand(state, 3)
    _take_final_hex(state, 0)
    for seat in (1, 2, 3):
        state.apply(seat, {"type": "draw"})
    assert state.is_over
    assert state.front[1][3] == 5 and state.front[2][3] == 4 and state.seals[3] == 1
    assert state.hand_size == [0, 0, 0, 0]
    assert {"type": "hand_played", "seat": 1, "cards": {"denmark": 5}} in state.events
    assert state.final["breakdown"][1]["seals"] >= 2


def _finish(state) -> dict:
    _empty_stock(state)
    for seat in range(state.num_players):
        set_hand(state, seat)
    _take_final_hex(state, 0)
    while not state.is_over:
        state.apply(state.turn, {"type": "draw"})
    return state.final


@pytest.mark.parametrize(
    ("silk", "expected"),
    [
        # Orange (seat 0) alone has most silk: 13; red gets nothing.
        ([3, 2, 0, 0, 0], [13, 0, 0, 0, 0]),
        # Red, yellow and blue (1, 2, 3) tie: 6 each.
        ([1, 2, 2, 2, 0], [0, 6, 6, 6, 0]),
        # Yellow and blue tie: 6 each; red, behind them, nothing.
        ([0, 1, 2, 2, 0], [0, 0, 6, 6, 0]),
        # Nobody stored silk: nobody scores it.
        ([0, 0, 0, 0, 0], [0, 0, 0, 0, 0]),
    ],
)
def test_worked_example_silk_majorities(silk: list[int], expected: list[int]) -> None:
    state = _open_game(5)
    for seat, count in enumerate(silk):
        state.crates[seat][SILK] = count
    final = _finish(state)
    assert [b["goods"].get("silk", 0) for b in final["breakdown"]] == expected


def test_every_good_has_its_own_values() -> None:
    assert majority_awards([1, 0, 0], 16, 8) == [16, 0, 0]
    assert majority_awards([2, 2, 1], 10, 5) == [5, 5, 0]
    state = _open_game(3)
    for g in range(7):
        state.crates[0][g] = 2
        state.crates[1][g] = 1 if g % 2 else 2
    final = _finish(state)
    assert final["breakdown"][0]["goods"] == {
        "tea": 5,
        "cotton": 11,
        "porcelain": 6,
        "silk": 13,
        "ginger": 7,
        "nutmeg": 15,
        "pepper": 8,
    }
    assert final["breakdown"][1]["goods"] == {"tea": 5, "porcelain": 6, "ginger": 7, "pepper": 8}


def test_most_letters_scores_five_and_tied_letters_two_each() -> None:
    state = _open_game(4)
    for seat, letters in enumerate([20, 20, 10, 10]):
        state.private[seat]["letters"] = letters
    final = _finish(state)
    assert [b["letters"] for b in final["breakdown"]] == [2, 2, 0, 0]
    assert final["breakdown"][0]["letters_held"] == 20
    state = _open_game(4)
    for seat, letters in enumerate([10, 10, 30, 10]):
        state.private[seat]["letters"] = letters
    final = _finish(state)
    assert [b["letters"] for b in final["breakdown"]] == [0, 0, 5, 0]


def test_total_gold_adds_every_source_and_ties_share_a_rank() -> None:
    state = _open_game(3)
    state.gold[1] = 9  # conversions
    state.crates[2][GOOD_INDEX["tea"]] = 1  # 10
    set_front(state, 1, france=2)  # a seal: 2
    final = _finish(state)
    # Seat 0: final hex 4 + English seal 2 + letters tied (15 each) 2 = 8.
    assert final["scores"] == [8, 9 + 2 + 2, 10 + 2]
    assert state.outcome() == {"scores": [8, 13, 12], "ranks": [3, 1, 2]}
    assert state.view(None)["final"]["scores"] == [8, 13, 12]
    assert state.view(None)["letters"] == [15, 15, 15]


def test_equal_gold_shares_the_rank() -> None:
    state = _open_game(3)
    state.gold[1] = 4
    state.gold[2] = 4
    set_front(state, 1, france=1)
    set_front(state, 2, sweden=1)
    final = _finish(state)
    assert final["scores"] == [8, 8, 8]
    assert state.outcome()["ranks"] == [1, 1, 1]


def test_stalemate_ends_a_round_where_nothing_can_be_drawn_and_nobody_played() -> None:
    state = new_game(4)
    _empty_stock(state)
    force_chance(state, type="die", value=3)  # no card left to reveal into the lot
    assert state.phase == "bid"
    for _ in range(4):
        state.apply(state.turn, {"type": "pass"})
    assert state.stock_empty_at_actions
    for seat in range(4):
        state.apply(seat, {"type": "draw"})
    assert state.is_over and state.final["reason"] == "stalemate"
    assert all(b["final_hex"] == 0 for b in state.final["breakdown"])


def test_no_stalemate_when_someone_played() -> None:
    state = new_game(4, [cards(sweden=10)] + [cards(england=5, france=5)] * 3)
    _empty_stock(state)
    force_chance(state, type="die", value=1)
    for _ in range(4):
        state.apply(state.turn, {"type": "pass"})
    play(state, 0, ["sweden"])
    for seat in (1, 2, 3):
        state.apply(seat, {"type": "draw"})
    assert not state.is_over and state.round == 2
