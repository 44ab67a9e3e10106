"""Scenario builders for the Batavia tests (and tests that they build what they say).

Situations are reached by forcing chance outcomes (``force_chance``) and
playing actions through ``apply``; where a full game would be needed to get
there (posts already held, cards already in front), fields are set directly
and the behaviour under test still runs through ``apply``.
"""

from __future__ import annotations

from typing import Any

import engines
from engines import CHANCE
from engines.batavia.rules import COMPANIES, COMPANY_INDEX, GOOD_INDEX, GOODS, NUM_GOODS
from engines.batavia.seals import update_seals
from engines.batavia.state import BataviaState
from tests.engines.helpers import force_chance

ENGINE = engines.get("batavia")

SIMPLE_TRACK = [(COMPANIES[i % 5], GOODS[i // 5]) for i in range(35)]
"""Space i holds company i % 5 and good i // 5: tea on 0-4, cotton on 5-9, ..."""


def cards(**counts: int) -> list[str]:
    """A hand as a list of company names, e.g. ``cards(england=4, sweden=6)``."""
    return [name for name in COMPANIES for _ in range(counts.get(name, 0))]


def new_game(
    n: int = 4,
    hands: list[list[str]] | None = None,
    track: list[tuple[str, str]] = SIMPLE_TRACK,
    open_track: bool = False,
) -> BataviaState:
    """A game after setup (round 1 about to roll), with the given face-up posts and hands."""
    state = ENGINE.new_game(n, {"open_track": open_track})
    reveal(state, track)
    hands = hands or [cards(england=2, netherlands=2, france=2, denmark=2, sweden=2)] * n
    assert all(len(h) == 10 for h in hands)
    while state.phase == "deal":
        seat, i = state.deal_index % n, state.deal_index // n
        force_chance(state, company=hands[seat][i])
    assert state.phase == "roll"
    return state


def reveal(state: BataviaState, track: list[tuple[str, str]] = SIMPLE_TRACK) -> None:
    """Force every pending post reveal to the given layout."""
    while state.phase == "reveal":
        company, good = track[state.revealed]
        force_chance(state, company=company, good=good)


def auction(state: BataviaState, die: int, lot: list[str], actions: list[dict[str, Any]]) -> None:
    """Roll ``die``, reveal ``lot`` (company names), then play the bidding ``actions`` in turn."""
    force_chance(state, type="die", value=die)
    for company in lot:
        force_chance(state, type="card", company=company)
    for action in actions:
        state.apply(state.turn, action)


def all_pass(state: BataviaState, die: int = 1, lot: tuple[str, ...] = ("england",)) -> None:
    """An auction everyone passes: the auctioneer plays first."""
    auction(state, die, list(lot), [{"type": "pass"}] * state.num_players)


def play(state: BataviaState, seat: int, companies: list[str], done: bool = True) -> None:
    for company in companies:
        state.apply(seat, {"type": "play", "company": company})
    if done:
        state.apply(seat, {"type": "done"})


def draw(state: BataviaState, seat: int, companies: tuple[str, ...] = ("england", "england")):
    state.apply(seat, {"type": "draw"})
    for company in companies:
        if state.to_move == [CHANCE]:
            force_chance(state, type="card", company=company)


def set_hand(state: BataviaState, seat: int, **counts: int) -> None:
    hand = {name: counts.get(name, 0) for name in COMPANIES}
    state.private[seat]["hand"] = hand
    state.hand_size[seat] = sum(hand.values())


def set_front(state: BataviaState, seat: int, **counts: int) -> None:
    state.front[seat] = [counts.get(name, 0) for name in COMPANIES]
    update_seals(state)


def set_posts(state: BataviaState, seat: int, **counts: int) -> None:
    state.posts[seat] = [counts.get(name, 0) for name in COMPANIES]


def space_of(state: BataviaState, company: str, good: str) -> int:
    code = COMPANY_INDEX[company] * NUM_GOODS + GOOD_INDEX[good]
    return state.track.index(code)


# ------------------------------------------------------ tests of the helpers
def test_new_game_lays_the_track_and_deals_the_hands_asked_for() -> None:
    hands = [cards(england=10), cards(sweden=10), cards(france=5, denmark=5)]
    state = new_game(3, hands)
    assert state.revealed == 10
    assert [state.track[i] for i in (0, 1, 5)] == [0 * 7 + 0, 1 * 7 + 0, 0 * 7 + 1]
    assert state.private[0]["hand"]["england"] == 10
    assert state.private[1]["hand"]["sweden"] == 10
    assert state.private[2]["hand"] == {
        "england": 0,
        "netherlands": 0,
        "france": 5,
        "denmark": 5,
        "sweden": 0,
    }
    assert state.hand_size == [10, 10, 10]
    assert state.deck_size == 80
    assert state.hidden["deck"]["england"] == 12


def test_all_pass_makes_the_auctioneer_first_player() -> None:
    state = new_game()
    all_pass(state)
    assert state.phase == "act"
    assert state.first_player == 0 and state.turn == 0
