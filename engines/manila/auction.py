"""The auction for harbor master and the harbor master's three duties.

Bids are listed in pages so that no list exceeds 50 entries while every
affordable bid stays reachable: a page holds up to 48 consecutive amounts
starting just above the high bid, plus ``more_bids`` (next page, wrapping
back to the first after the last) when the affordable bids need more than
one page, plus ``pass``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import data, flow
from .money import available, pay

if TYPE_CHECKING:
    from .state import ManilaState

BIDS_PER_PAGE = 48
_BIDS: list[dict[str, Any]] = [{"type": "bid", "amount": a} for a in range(512)]
"""Bid actions built once (a slice is a fresh list of them); larger amounts are built per list."""
_MORE_BIDS: dict[str, Any] = {"type": "more_bids"}
_PASS: dict[str, Any] = {"type": "pass"}
_SKIP_BUY: dict[str, Any] = {"type": "skip_buy"}
_BUY = tuple({"type": "buy", "good": name} for name in data.GOODS)
_LEAVE_ASHORE = tuple({"type": "leave_ashore", "good": name} for name in data.GOODS)
_START_BOAT = tuple(
    tuple({"type": "start_boat", "good": name, "space": k} for k in range(data.MAX_START + 1))
    for name in data.GOODS
)
"""Shared, read-only actions (every listed action is), not built per list."""


def bid_window(state: ManilaState, seat: int) -> tuple[int, int, int]:
    """(lowest listed bid, highest listed bid, highest affordable bid)."""
    top = available(state, seat)
    low = state.high_bid + 1 + BIDS_PER_PAGE * state.bid_page
    high = min(top, low + BIDS_PER_PAGE - 1)
    return low, high, top


def legal_auction(state: ManilaState) -> list[dict[str, Any]]:
    low, high, top = bid_window(state, state.mover)
    if high < len(_BIDS):
        actions: list[dict[str, Any]] = _BIDS[low : high + 1]
    else:
        actions = [{"type": "bid", "amount": a} for a in range(low, high + 1)]
    if top - state.high_bid > BIDS_PER_PAGE:
        actions.append(_MORE_BIDS)
    actions.append(_PASS)
    return actions


def apply_bid(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    state.high_bid = action["amount"]
    state.high_bidder = seat
    state.bid_page = 0
    state.events.append({"type": "bid", "seat": seat, "amount": action["amount"]})
    _next_bidder(state, seat)


def apply_more_bids(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    """Next page of bids; after the last page, back to the first."""
    _, high, top = bid_window(state, seat)
    state.bid_page = state.bid_page + 1 if high < top else 0


def apply_auction_pass(state: ManilaState, seat: int) -> None:
    state.passed[seat] = True
    state.bid_page = 0
    state.events.append({"type": "pass", "seat": seat})
    _next_bidder(state, seat)


def _next_bidder(state: ManilaState, seat: int) -> None:
    """Clockwise to the next player still in; the auction ends when one bidder is left."""
    passed = state.passed
    left = passed.count(False)
    if left == 0 or (left == 1 and state.high_bidder >= 0 and not passed[state.high_bidder]):
        flow.end_auction(state)
        return
    n = state.num_players
    nxt = (seat + 1) % n
    while passed[nxt]:
        nxt = (nxt + 1) % n
    state.mover = nxt


# ------------------------------------------------------------ duties
def legal_buy(state: ManilaState) -> list[dict[str, Any]]:
    actions = [_BUY[g] for g in flow.buyable(state)]
    actions.append(_SKIP_BUY)
    return actions


def apply_buy(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    name = action["good"]
    g = data.GOOD_INDEX[name]
    cost = data.share_cost(state.prices[g])
    pay(state, seat, cost)
    state.supply[g] -= 1
    state.shares[seat] += 1
    state.bought[seat][g] += 1
    state.private[seat]["shares"][name] += 1
    state.events.append({"type": "bought", "seat": seat, "good": name, "price": cost})
    state.phase = "ashore"


def apply_skip_buy(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    state.events.append({"type": "skip_buy", "seat": seat})
    state.phase = "ashore"


def legal_ashore(state: ManilaState) -> list[dict[str, Any]]:
    return list(_LEAVE_ASHORE)


def apply_leave_ashore(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    ashore = data.GOOD_INDEX[action["good"]]
    state.loaded = [g != ashore for g in range(4)]
    state.events.append({"type": "left_ashore", "good": action["good"]})
    state.phase = "start_boats"


def start_spaces(state: ManilaState, good: int) -> list[int]:
    """Starting spaces for ``good`` that still let the others complete the sum of 9.

    Every ``k`` in 0..5 with ``0 <= 9 - used - k <= 5 * after``: one run of integers.
    """
    loaded, position = state.loaded, state.position
    used = after = 0
    for g in range(4):
        if loaded[g]:
            if position[g] >= 0:
                used += position[g]
            else:
                after += 1
    left = data.START_SUM - used
    return list(range(max(0, left - data.MAX_START * (after - 1)), min(data.MAX_START, left) + 1))


def legal_start_boats(state: ManilaState) -> list[dict[str, Any]]:
    loaded, position = state.loaded, state.position
    actions: list[dict[str, Any]] = []
    spaces: list[int] | None = None
    for g in range(4):
        if loaded[g] and position[g] < 0:
            if spaces is None:
                spaces = start_spaces(state, g)  # the same for every boat still to start
            if spaces:  # one run of integers: a slice of the boat's prebuilt actions
                actions.extend(_START_BOAT[g][spaces[0] : spaces[-1] + 1])
    return actions


def apply_start_boat(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    g = data.GOOD_INDEX[action["good"]]
    state.position[g] = action["space"]
    state.events.append({"type": "boat_started", "good": action["good"], "space": action["space"]})
    position, loaded = state.position, state.loaded
    for g in range(4):  # a loop: no generator for all() per boat started
        if loaded[g] and position[g] < 0:
            return
    flow.start_placement(state)
