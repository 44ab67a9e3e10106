"""Batavia phase B: playing cards, majorities and seals, moving, revealing, converting, pirates.

Includes the spec's worked examples (Anna's 4 Dutch + 2 French, the two
conversion examples, the Danish pirate attack) and the issue's edge cases.
"""

from __future__ import annotations

import pytest

from engines import CHANCE, IllegalAction
from engines.batavia.rules import COMPANIES
from tests.engines.helpers import force_chance
from tests.engines.test_batavia_helpers import (
    all_pass,
    cards,
    new_game,
    play,
    reveal,
    set_front,
    set_hand,
    set_posts,
)


def _first_turn(hand0: list[str], n: int = 4, others: list[str] | None = None):
    """Seat 0 to act in round 1 (everyone passed the auction) holding ``hand0``.

    The other seats are dealt two cards of each company, then (if ``others``
    is given) their hands are set to ``others`` directly.
    """
    state = new_game(n, [hand0] + [cards(**dict.fromkeys(COMPANIES, 2))] * (n - 1))
    if others is not None:
        for seat in range(1, n):
            set_hand(state, seat, **{c: others.count(c) for c in COMPANIES})
    all_pass(state)
    assert state.turn == 0 and state.phase == "act"
    return state


def test_worked_example_anna_plays_four_dutch_and_two_french() -> None:
    state = _first_turn(cards(netherlands=4, france=2, sweden=4))
    before = state.view(None)["cards_in_play"]
    play(state, 0, ["netherlands"] * 4 + ["france"] * 2, done=False)
    after = state.view(None)
    assert after["cards_in_play"]["netherlands"] - before["netherlands"] == 4
    assert after["cards_in_play"]["france"] - before["france"] == 2
    assert after["cards_in_play_total"] == 6
    assert after["players"][0]["hand_size"] == 4
    state.apply(0, {"type": "done"})
    # Both new seals allow a move: the player chooses.
    assert state.view(None)["seals"]["netherlands"] == 0
    assert state.legal_actions(0) == [
        {"type": "move", "company": "netherlands"},
        {"type": "move", "company": "france"},
    ]
    state.apply(0, {"type": "move", "company": "netherlands"})
    assert state.merchants[0] == 1  # space 1: the first Dutch post (tea)
    assert state.view(None)["players"][0]["crates"]["tea"] == 1
    assert state.turn == 1 and state.phase == "act"


def test_play_is_one_card_at_a_time_and_done_needs_a_majority() -> None:
    state = _first_turn(cards(france=1, sweden=9), others=cards(france=10))
    set_front(state, 1, france=2)
    state.apply(0, {"type": "play", "company": "france"})
    # France 1 vs 2: no majority yet, so no "done"; sweden would make one.
    assert {"type": "done"} not in state.legal_actions(0)
    assert state.legal_actions(0) == [{"type": "play", "company": "sweden"}]
    state.apply(0, {"type": "play", "company": "sweden"})
    assert {"type": "done"} in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="no france card"):
        state.apply(0, {"type": "play", "company": "france"})


def test_player_who_cannot_reach_a_majority_must_draw() -> None:
    state = _first_turn(cards(england=10))
    set_front(state, 1, england=11)
    assert state.legal_actions(0) == [{"type": "draw"}]
    with pytest.raises(IllegalAction, match="must draw"):
        state.apply(0, {"type": "play", "company": "england"})
    state.apply(0, {"type": "draw"})
    force_chance(state, company="sweden")
    force_chance(state, company="sweden")
    assert state.private[0]["hand"]["sweden"] == 2
    assert state.hand_size[0] == 12
    assert state.turn == 1


def test_majority_held_before_allows_playing_any_card() -> None:
    state = _first_turn(cards(france=1, england=9), others=cards(sweden=10))
    set_front(state, 0, denmark=1)
    set_front(state, 1, france=3)
    state.apply(0, {"type": "play", "company": "france"})
    state.apply(0, {"type": "done"})  # Danish majority held before playing
    assert state.merchants[0] == 3  # the first Danish post


def test_seal_goes_back_to_the_board_on_a_tie() -> None:
    state = _first_turn(cards(england=10), others=cards(france=2, sweden=8))
    set_front(state, 0, france=2)
    assert state.seals[2] == 0
    draw_turn(state, 0)
    play(state, 1, ["france", "france"], done=False)
    assert {"type": "done"} not in state.legal_actions(1)
    play(state, 1, ["sweden"])
    assert state.seals[2] == -1  # France 2 - 2: back on the board
    assert state.view(None)["seals"]["france"] is None
    assert state.seals[4] == 1
    assert {"type": "seal", "company": "france", "seat": None} in state.events


def draw_turn(state, seat: int) -> None:
    state.apply(seat, {"type": "draw"})
    while state.phase == "draw":
        force_chance(state, company="denmark")


def test_merchant_skips_taken_spaces_and_other_merchants() -> None:
    state = _first_turn(cards(denmark=10))
    state.taken_by[3] = 2
    state.merchants[2] = 3
    play(state, 0, ["denmark"])
    assert state.merchants[0] == 8  # space 3 is taken, the next Danish post is space 8


def test_move_that_needs_face_down_posts_revealed() -> None:
    state = _first_turn(cards(england=10))
    state.merchants[0] = 6  # past both face-up English posts (spaces 0 and 5)
    play(state, 0, ["england"])
    assert state.to_move == [CHANCE] and state.phase == "reveal"
    assert state.chance_key() == "post/space10"
    assert {"type": "reveal_for_move", "seat": 0, "company": "england"} in state.events
    reveal(state)
    assert state.revealed == 15
    assert state.merchants[0] == 10 and state.taken_by[10] == 0
    assert state.crates[0][2] == 1  # porcelain: space 10 in the simple layout
    assert state.turn == 1 and state.phase == "act"


def test_landing_on_the_last_face_up_space_reveals_the_next_five() -> None:
    state = _first_turn(cards(sweden=10))
    state.merchants[0] = 4
    play(state, 0, ["sweden"])
    assert state.merchants[0] == 9
    assert state.phase == "reveal" and state.chance_key() == "post/space10"
    reveal(state)
    assert state.revealed == 15 and state.phase == "act" and state.turn == 1


def test_worked_example_danish_post_converts_three_companies_for_six() -> None:
    state = _first_turn(cards(denmark=10))
    set_posts(state, 0, england=1, france=1, sweden=2)
    play(state, 0, ["denmark"])
    assert state.phase == "convert"
    assert state.legal_actions(0) == [
        {"type": "convert", "company": "england"},
        {"type": "convert", "company": "france"},
        {"type": "convert", "company": "sweden"},
        {"type": "convert_done"},
    ]
    for company in ("england", "france", "sweden"):
        state.apply(0, {"type": "convert", "company": company})
    assert state.legal_actions(0) == [{"type": "convert_done"}]
    state.apply(0, {"type": "convert_done"})
    assert state.gold[0] == 6
    assert state.view(None)["players"][0]["posts"] == {
        "england": 0,
        "netherlands": 0,
        "france": 0,
        "denmark": 1,
        "sweden": 1,
    }


def test_worked_example_anna_converts_four_others_not_the_new_english_post() -> None:
    state = _first_turn(cards(england=10))
    set_posts(state, 0, netherlands=1, france=1, denmark=1, sweden=1)
    play(state, 0, ["england"])
    legal = state.legal_actions(0)
    assert {"type": "convert", "company": "england"} not in legal
    with pytest.raises(IllegalAction, match="england post"):
        state.apply(0, {"type": "convert", "company": "england"})
    for company in ("netherlands", "france", "denmark", "sweden"):
        state.apply(0, {"type": "convert", "company": company})
    state.apply(0, {"type": "convert_done"})
    assert state.gold[0] == 10
    assert state.posts[0] == [1, 0, 0, 0, 0]


def test_converting_a_subset_keeps_the_rest() -> None:
    state = _first_turn(cards(denmark=10))
    set_posts(state, 0, england=1, france=1, sweden=2)
    play(state, 0, ["denmark"])
    state.apply(0, {"type": "convert", "company": "france"})
    state.apply(0, {"type": "convert", "company": "sweden"})
    state.apply(0, {"type": "convert_done"})
    assert state.gold[0] == 3
    assert state.posts[0] == [1, 0, 0, 1, 1]
    assert {"type": "converted", "seat": 0, "companies": ["france", "sweden"], "gold": 3} in (
        state.events
    )


def test_no_conversion_when_the_new_post_is_of_a_company_already_held() -> None:
    state = _first_turn(cards(denmark=10))
    set_posts(state, 0, england=1, denmark=1)
    play(state, 0, ["denmark"])
    assert state.phase == "act" and state.turn == 1
    assert state.posts[0][3] == 2


def test_keeping_every_post_is_allowed() -> None:
    state = _first_turn(cards(denmark=10))
    set_posts(state, 0, england=1)
    play(state, 0, ["denmark"])
    state.apply(0, {"type": "convert_done"})
    assert state.gold[0] == 0 and state.posts[0] == [1, 0, 0, 1, 0]


def test_worked_example_pirates_sink_all_eleven_danish_cards() -> None:
    state = _first_turn(cards(denmark=5, england=5), others=cards(sweden=10))
    set_front(state, 0, denmark=6, england=2)
    set_front(state, 1, denmark=4, france=4)
    set_front(state, 2, sweden=4, netherlands=3)
    assert sum(map(sum, state.front)) == 23
    play(state, 0, ["denmark", "england"], done=False)
    assert state.view(None)["cards_in_play_total"] == 25
    assert state.view(None)["cards_in_play"]["denmark"] == 11
    state.apply(0, {"type": "done"})
    state.apply(0, {"type": "move", "company": "denmark"})
    assert state.merchants[0] == 3  # the move happens before the pirates
    assert all(row[3] == 0 for row in state.front)
    assert state.discard_size == 11 and state.hidden["discard"]["denmark"] == 11
    assert state.seals[3] == -1
    assert {"type": "pirates", "companies": ["denmark"], "cards": 11} in state.events
    assert state.view(None)["cards_in_play_total"] == 14


def test_pirates_sink_every_tied_company() -> None:
    state = _first_turn(cards(sweden=10), others=cards(sweden=10))
    set_front(state, 1, england=8)
    set_front(state, 0, sweden=7)
    set_front(state, 2, france=5)
    set_front(state, 3, netherlands=4)
    play(state, 0, ["sweden"])
    assert {"type": "pirates", "companies": ["england", "sweden"], "cards": 16} in state.events
    assert [sum(row[c] for row in state.front) for c in range(5)] == [0, 4, 5, 0, 0]
    assert state.discard_size == 16
    assert state.seals == [-1, 3, 2, -1, -1]


def test_three_players_meet_the_pirates_at_21() -> None:
    state = _first_turn(cards(sweden=10), n=3, others=cards(england=10))
    set_front(state, 1, england=10)
    set_front(state, 0, sweden=9)
    play(state, 0, ["sweden"])
    assert not any(e["type"] == "pirates" for e in state.events)
    draw_turn(state, 1)
    draw_turn(state, 2)
    all_pass(state)  # round 2: seat 0 auctioneer and first player
    play(state, 0, ["sweden"])
    reveal(state)  # the merchant reached space 9, the last face-up space
    assert {"type": "pirates", "companies": ["sweden"], "cards": 11} in state.events


def test_no_pirates_after_a_draw() -> None:
    state = _first_turn(cards(sweden=10))
    set_front(state, 1, england=20)
    set_front(state, 2, france=10)
    draw_turn(state, 0)
    assert not any(e["type"] == "pirates" for e in state.events)
    assert sum(map(sum, state.front)) == 30


def test_out_of_crates_still_takes_the_post() -> None:
    state = _first_turn(cards(sweden=10))
    state.crates_left[0] = 0
    play(state, 0, ["sweden"])
    assert state.posts[0][4] == 1 and sum(state.crates[0]) == 0
    assert state.events[-1]["type"] != "moved" or not state.events[-1]["crate"]
    moved = [e for e in state.events if e["type"] == "moved"]
    assert moved[-1]["crate"] is False


def test_set_hand_helper_keeps_public_size() -> None:
    state = _first_turn(cards(sweden=10))
    set_hand(state, 0, england=3)
    assert state.view(None)["players"][0]["hand_size"] == 3
