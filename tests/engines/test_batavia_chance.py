"""Batavia chance: setup, post reveals, card draws and keys that make duplicate deals possible."""

from __future__ import annotations

import random
from collections import Counter

import engines
from engines import CHANCE, Dealer
from engines.batavia.rules import FACE_DOWN, NUM_GOODS
from tests.engines.helpers import force_chance, random_steps
from tests.engines.test_batavia_helpers import ENGINE, all_pass, new_game


def test_setup_reveals_ten_posts_then_deals_ten_cards_to_each_seat_one_at_a_time() -> None:
    state = ENGINE.new_game(3)
    keys = []
    dealer = Dealer(7)
    while state.to_move == [CHANCE] and state.phase != "roll":
        keys.append(state.chance_key())
        state.apply(CHANCE, dealer.choose(state))
    assert keys[:10] == [f"post/space{i}" for i in range(10)]
    assert keys[10:13] == ["deal/seat0/card0", "deal/seat1/card0", "deal/seat2/card0"]
    assert keys[-1] == "deal/seat2/card9" and len(keys) == 40
    assert state.chance_key() == "die/r1"
    assert state.hand_size == [10, 10, 10] and state.deck_size == 80
    assert state.track[10:] == [FACE_DOWN] * 25
    assert state.events.count({"type": "dealt", "seat": 1}) == 10
    assert [p["letters"] for p in state.private] == [15, 15, 15]
    assert state.crates_left == [12, 12, 12] and state.merchants == [-1, -1, -1]


def test_a_reveal_offers_only_posts_the_setup_could_have_put_there() -> None:
    state = ENGINE.new_game(4)
    first = state.chance_outcomes()
    assert len(first) == 35 and abs(sum(p for _, p in first) - 1) < 1e-12
    force_chance(state, company="denmark", good="silk")
    second = state.chance_outcomes()
    assert len(second) == 4 * 7
    assert all(a["company"] != "denmark" for a, _ in second)
    for company in ("england", "netherlands", "france", "sweden"):
        force_chance(state, company=company, good="tea")
    # Block 2: every company again; Denmark has no silk left, the others no tea.
    block2 = [a for a, _ in state.chance_outcomes()]
    assert len(block2) == 30
    assert {"type": "post", "company": "denmark", "good": "silk"} not in block2
    assert {"type": "post", "company": "france", "good": "tea"} not in block2
    assert {"type": "post", "company": "denmark", "good": "tea"} in block2
    assert all(abs(p - 1 / 30) < 1e-12 for _, p in state.chance_outcomes())


def test_open_track_reveals_all_35_posts_at_setup() -> None:
    state = ENGINE.new_game(4, {"open_track": True})
    dealer = Dealer(3)
    while state.phase == "reveal":
        state.apply(CHANCE, dealer.choose(state))
    assert state.revealed == 35 and FACE_DOWN not in state.track
    assert not any("face_down" in space for space in state.view(None)["track"])
    _assert_track_layout(state.track)


def _assert_track_layout(track: list[int]) -> None:
    for block in range(len(track) // 5):
        companies = sorted(code // NUM_GOODS for code in track[block * 5 : block * 5 + 5])
        assert companies == [0, 1, 2, 3, 4]
    per_company = Counter((code // NUM_GOODS, code % NUM_GOODS) for code in track)
    assert len(per_company) == 35


def test_random_open_track_games_never_reveal_again_and_keep_the_layout() -> None:
    for seed in range(5):
        phases = {
            s.phase
            for s, _, _ in random_steps(ENGINE, 4, seed, {"open_track": True})
            if s.round > 0
        }
        assert "reveal" not in phases


def test_random_games_keep_cards_letters_and_track_consistent() -> None:
    for n in (3, 4, 5):
        for seed in range(4):
            state = None
            for state, _, _ in random_steps(ENGINE, n, seed):
                hands = sum(sum(p["hand"].values()) for p in state.private)
                assert hands == sum(state.hand_size)
                total = (
                    hands
                    + sum(map(sum, state.front))
                    + sum(state.lot)
                    + state.deck_size
                    + state.discard_size
                )
                assert total == 110
                assert sum(state.hidden["deck"].values()) == state.deck_size
                assert sum(state.hidden["discard"].values()) == state.discard_size
                assert sum(p["letters"] for p in state.private) == 15 * n
            assert state is not None
            revealed = state.track[: state.revealed]
            assert len(revealed) % 5 == 0
            if len(revealed) == 35:
                _assert_track_layout(revealed)
            for block in range(len(revealed) // 5):
                chunk = revealed[block * 5 : block * 5 + 5]
                assert sorted(c // NUM_GOODS for c in chunk) == [0, 1, 2, 3, 4]


def _play_with(seed: int, player_seed: int, n: int = 4):
    """A random game whose chance comes from ``seed`` and players from ``player_seed``."""
    state = ENGINE.new_game(n)
    dealer = Dealer(seed)
    rng = random.Random(player_seed)
    dice = {}
    while not state.is_over:
        seat = state.to_move[0]
        if seat == CHANCE:
            if state.phase == "roll":
                action = dealer.choose(state)
                dice[state.round] = action["value"]
            else:
                action = dealer.choose(state)
        else:
            action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
    return state, dice


def test_the_same_seed_gives_the_same_dice_track_and_deal_whatever_the_players_do() -> None:
    a, dice_a = _play_with(11, 1)
    b, dice_b = _play_with(11, 2)
    shared_rounds = set(dice_a) & set(dice_b)
    assert shared_rounds and all(dice_a[r] == dice_b[r] for r in shared_rounds)
    common = min(a.revealed, b.revealed)
    assert a.track[:common] == b.track[:common]
    hands = []
    for options in ({}, {"open_track": True}):
        start = engines.get("batavia").new_game(4, options)
        dealer = Dealer(11)
        while start.phase != "roll":
            start.apply(CHANCE, dealer.choose(start))
        hands.append([p["hand"] for p in start.private])
    # Opening the track adds 25 reveals before the deal; each seat still gets the same cards.
    assert hands[0] == hands[1]


def test_card_draws_are_weighted_by_what_is_left_in_the_deck() -> None:
    state = new_game(4)
    force_chance(state, type="die", value=1)
    outcomes = dict((a["company"], p) for a, p in state.chance_outcomes())
    assert abs(outcomes["england"] - 14 / 70) < 1e-12
    assert abs(sum(outcomes.values()) - 1) < 1e-12


def test_an_empty_deck_is_refilled_from_the_discard_pile() -> None:
    state = new_game(4)
    all_pass(state)
    state.hidden["deck"] = dict.fromkeys(state.hidden["deck"], 0)
    state.hidden["deck"]["sweden"] = 1
    state.deck_size = 1
    state.hidden["discard"]["denmark"] = 3
    state.discard_size = 3
    state.apply(0, {"type": "draw"})
    assert state.chance_key() == "draw/r1/seat0/0"
    force_chance(state, company="sweden")
    assert {"type": "reshuffled", "cards": 3} in state.events
    assert state.deck_size == 3 and state.discard_size == 0
    assert state.chance_key() == "draw/r1/seat0/1"
    assert [a["company"] for a, _ in state.chance_outcomes()] == ["denmark"]
    force_chance(state, company="denmark")
    assert state.turn == 1 and state.hand_size[0] == 12


def test_drawing_from_an_empty_deck_and_discard_draws_nothing() -> None:
    state = new_game(4)
    all_pass(state)
    state.hidden["deck"] = dict.fromkeys(state.hidden["deck"], 0)
    state.deck_size = 0
    state.apply(0, {"type": "draw"})
    assert state.to_move == [1] and state.hand_size[0] == 10
