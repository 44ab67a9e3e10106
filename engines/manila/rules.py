"""Dispatch: which legal-action builder serves each phase, which handler each action type.

Also the two chance events (the deal and the dice) and the redeeming round,
which are too small for modules of their own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import auction, data, flow, movement, placement

if TYPE_CHECKING:
    from .state import ManilaState

Action = dict[str, Any]


# ------------------------------------------------------------------- deal
def deal_outcomes(state: ManilaState) -> list[tuple[Action, float]]:
    """One starting share for the next seat, drawn from the undealt ones."""
    deck = state.hidden["deck"]
    seat = state.dealt // data.DEALT_PER_PLAYER
    total = sum(deck.values())
    return [
        ({"type": "deal", "seat": seat, "good": name}, deck[name] / total)
        for name in data.GOODS
        if deck[name] > 0
    ]


def apply_deal(state: ManilaState, seat: int, action: Action) -> None:
    name = action["good"]
    owner = action["seat"]
    state.hidden["deck"][name] -= 1
    state.private[owner]["shares"][name] += 1
    state.shares[owner] += 1
    state.dealt += 1
    state.events.append({"type": "dealt", "seat": owner})
    if state.dealt == data.DEALT_PER_PLAYER * state.num_players:
        flow.finish_deal(state)


def chance_outcomes(state: ManilaState) -> list[tuple[Action, float]]:
    if state.phase == "deal":
        return deal_outcomes(state)
    return movement.roll_outcomes(state)


def chance_key(state: ManilaState) -> str:
    if state.phase == "deal":
        per = data.DEALT_PER_PLAYER
        return f"deal/seat{state.dealt // per}/card{state.dealt % per}"
    if state.phase == "roll":
        return movement.roll_key(state)
    return ""


# ----------------------------------------------------------------- redeem
def legal_redeem(state: ManilaState) -> list[Action]:
    seat = state.mover
    most = min(state.mortgaged[seat], state.cash[seat] // data.REDEEM_COST)
    return [{"type": "redeem", "count": k} for k in range(most + 1)]


def apply_redeem(state: ManilaState, seat: int, action: Action) -> None:
    count = action["count"]
    if count:
        state.mortgaged[seat] -= count
        state.cash[seat] -= data.REDEEM_COST * count
        state.events.append({"type": "redeemed", "seat": seat, "count": count})
    flow.after_redeem(state)


def apply_pass(state: ManilaState, seat: int, action: Action) -> None:
    if state.phase == "auction":
        auction.apply_auction_pass(state, seat)
    else:
        placement.apply_placement_pass(state, seat)


LEGAL: dict[str, Callable[[ManilaState], list[Action]]] = {
    "auction": auction.legal_auction,
    "buy": auction.legal_buy,
    "ashore": auction.legal_ashore,
    "start_boats": auction.legal_start_boats,
    "place": placement.legal_place,
    "harbor_order": movement.legal_order,
    "shipyard_order": movement.legal_order,
    "board": movement.legal_board,
    "pilot_small": movement.legal_pilot,
    "pilot_large": movement.legal_pilot,
    "plunder": movement.legal_send,
    "redeem": legal_redeem,
}

APPLY: dict[str, Callable[[ManilaState, int, Action], None]] = {
    "deal": apply_deal,
    "roll": movement.apply_roll,
    "bid": auction.apply_bid,
    "more_bids": auction.apply_more_bids,
    "pass": apply_pass,
    "buy": auction.apply_buy,
    "skip_buy": auction.apply_skip_buy,
    "leave_ashore": auction.apply_leave_ashore,
    "start_boat": auction.apply_start_boat,
    "place": placement.apply_place,
    "harbor_order": movement.apply_harbor_order,
    "shipyard_order": movement.apply_shipyard_order,
    "board": movement.apply_board,
    "stay": movement.apply_stay,
    "pilot": movement.apply_pilot,
    "pilot_stop": movement.apply_pilot_stop,
    "send": movement.apply_send,
    "redeem": apply_redeem,
}
