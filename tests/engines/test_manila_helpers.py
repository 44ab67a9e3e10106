"""Shared set-up for the Manila tests: deal fixed hands, run auctions, duties, placements, dice.

Every helper plays through ``apply`` (chance through ``force_chance``), so the
behaviour under test always runs the real rules. Holds no tests itself.
"""

from __future__ import annotations

from typing import Any

import engines
from engines.manila import ManilaState
from tests.engines.helpers import force_chance

ENGINE = engines.get("manila")
HANDS = (
    ("ginseng", "nutmeg"),
    ("silk", "jade"),
    ("ginseng", "silk"),
    ("nutmeg", "jade"),
    ("ginseng", "jade"),
)
"""Seat s is dealt HANDS[s] (never more than 3 of a good in any 3-5 player game)."""


def dealt_game(n: int = 4, options: dict[str, Any] | None = None) -> ManilaState:
    state = ENGINE.new_game(n, options)
    for seat in range(n):
        for good in HANDS[seat]:
            force_chance(state, seat=seat, good=good)
    return state


def act(state: ManilaState, seat: int, type: str, **fields: Any) -> None:
    assert state.to_move == [seat], f"expected seat {seat} to move, not {state.to_move}"
    state.apply(seat, {"type": type, **fields})


def auction(state: ManilaState, winner: int | None = None, amount: int = 0) -> None:
    """Everybody passes except ``winner``, who bids ``amount`` when first asked."""
    assert state.phase == "auction"
    while state.phase == "auction":
        seat = state.mover
        if seat == winner and state.high_bidder != winner:
            act(state, seat, "bid", amount=amount)
        else:
            act(state, seat, "pass")


def duties(state: ManilaState, ashore: str, starts: dict[str, int], buy: str | None = None) -> None:
    """The harbor master's three duties (buy optional)."""
    hm = state.harbor_master
    if state.phase == "buy":
        if buy:
            act(state, hm, "buy", good=buy)
        else:
            act(state, hm, "skip_buy")
    act(state, hm, "leave_ashore", good=ashore)
    for good, space in starts.items():
        act(state, hm, "start_boat", good=good, space=space)


def place(state: ManilaState, *spaces: str) -> None:
    """The next placements in turn order; "pass" passes."""
    for space in spaces:
        assert state.phase == "place", f"not placing but {state.phase}"
        if space == "pass":
            act(state, state.mover, "pass")
        else:
            act(state, state.mover, "place", space=space)


def roll(state: ManilaState, **dice: int) -> None:
    """One movement: force the die of every boat at sea."""
    assert state.phase == "roll", f"not rolling but {state.phase}"
    movement = state.movement
    while state.phase == "roll" and state.movement == movement:
        good = ("ginseng", "nutmeg", "silk", "jade")[state.pending[0]]
        force_chance(state, good=good, value=dice[good])


def voyage_start(
    n: int = 4,
    ashore: str = "ginseng",
    starts: dict[str, int] | None = None,
    options: dict[str, Any] | None = None,
) -> ManilaState:
    """A dealt game at the start of placement of voyage 1 (seat 0 harbor master for free)."""
    state = dealt_game(n, options)
    auction(state)
    duties(state, ashore, starts or {"nutmeg": 0, "silk": 4, "jade": 5})
    return state
