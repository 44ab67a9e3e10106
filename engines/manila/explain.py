"""Specific reasons for refused actions, written for bot authors."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import auction, data, flow, placement
from .money import available

if TYPE_CHECKING:
    from .state import ManilaState


def explain(state: ManilaState, seat: int, action: dict[str, Any], legal: list) -> str | None:
    """A precise message, or None to fall back to the generic one."""
    kind = action.get("type")
    if kind == "bid" and state.phase == "auction":
        return _bid(state, seat, action)
    if kind == "place" and state.phase == "place":
        return _place(state, seat, action)
    if kind == "start_boat" and state.phase == "start_boats":
        return _start(state, action)
    if kind == "buy" and state.phase == "buy":
        return _buy(state, seat, action)
    if kind == "redeem" and state.phase == "redeem":
        return (
            f"seat {seat} may redeem 0 to {len(legal) - 1} shares now "
            f"({state.mortgaged[seat]} mortgaged, {state.cash[seat]} pesos, 15 each)"
        )
    return None


def _bid(state: ManilaState, seat: int, action: dict[str, Any]) -> str | None:
    amount = action.get("amount")
    if not isinstance(amount, int) or isinstance(amount, bool) or set(action) != {"type", "amount"}:
        return 'a bid is {"type": "bid", "amount": <integer>}'
    low, high, top = auction.bid_window(state, seat)
    if amount <= state.high_bid:
        return (
            f"seat {seat} may not bid {amount}: a bid must exceed the high bid of {state.high_bid}"
        )
    if amount > top:
        return (
            f"seat {seat} may not bid {amount}: only {top} pesos available "
            f"({state.cash[seat]} cash + 12 per unmortgaged share)"
        )
    if amount > high:
        return (
            f"seat {seat} may bid {amount}, but it is not on the listed page ({low}-{high}); "
            'send {"type": "more_bids"} first'
        )
    if amount < low:
        return (
            f"seat {seat} may bid {amount}, but the listed page is {low}-{high}; "
            'send {"type": "more_bids"} to turn the page (it wraps around)'
        )
    return None


def _place(state: ManilaState, seat: int, action: dict[str, Any]) -> str | None:
    name = action.get("space")
    if set(action) != {"type", "space"}:
        return 'a placement is {"type": "place", "space": <space name>}'
    known = (*data.GOODS, *data.SPACE_NAMES, data.PIRATE)
    if name not in known:
        return f"no space {name!r}; spaces are {', '.join(known)}"
    good = data.GOOD_INDEX.get(name)
    if good is not None:
        if not state.loaded[good]:
            return f"{name} is ashore this voyage: its boat has no seats"
        if state.berth[good] >= 0:
            return f"the {name} boat has already arrived and takes no more crew"
        if len(state.crew[good]) >= len(data.SEAT_COSTS[good]):
            return f"the {name} boat is full"
    elif name == data.PIRATE:
        if len(state.pirates) >= data.PIRATE_SEATS:
            return "the pirate ship is full"
    elif state.spaces[data.SPACE_INDEX[name]] >= 0:
        return f"{name} is taken by seat {state.spaces[data.SPACE_INDEX[name]]}"
    costs = dict(placement.open_spaces(state))
    if name in costs and name not in placement.placement_costs(state, seat):
        return (
            f"seat {seat} may not place on {name}: it costs {costs[name]} pesos, "
            f"only {available(state, seat)} available (cash + 12 per unmortgaged share)"
        )
    return None


def _start(state: ManilaState, action: dict[str, Any]) -> str | None:
    name = action.get("good")
    space = action.get("space")
    if name not in data.GOOD_INDEX or not isinstance(space, int):
        return 'a start is {"type": "start_boat", "good": <good>, "space": 0-5}'
    g = data.GOOD_INDEX[name]
    if not state.loaded[g]:
        return f"{name} is left ashore this voyage"
    if state.position[g] >= 0:
        return f"the {name} boat has already started on {state.position[g]}"
    if not 0 <= space <= data.MAX_START:
        return f"a boat starts on space 0 to 5, not {space}"
    allowed = auction.start_spaces(state, g)
    return (
        f"the {name} boat may not start on {space}: the three starts must sum to 9, "
        f"so it may start on {', '.join(map(str, allowed))}"
    )


def _buy(state: ManilaState, seat: int, action: dict[str, Any]) -> str | None:
    name = action.get("good")
    if name not in data.GOOD_INDEX:
        return f"no good {name!r}; goods are {', '.join(data.GOODS)}"
    g = data.GOOD_INDEX[name]
    if not state.supply[g]:
        return f"no {name} share is left in the supply"
    cost = data.share_cost(state.prices[g])
    if g not in flow.buyable(state):
        return (
            f"seat {seat} may not buy {name} for {cost}: "
            f"only {available(state, seat)} pesos available"
        )
    return None
