"""Payments with automatic, minimal mortgaging (an engine decision of the spec)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import MORTGAGE_VALUE

if TYPE_CHECKING:
    from .state import ManilaState


def available(state: ManilaState, seat: int) -> int:
    """What ``seat`` could pay now: cash plus 12 per unmortgaged share."""
    return state.cash[seat] + MORTGAGE_VALUE * (state.shares[seat] - state.mortgaged[seat])


def pay(state: ManilaState, seat: int, amount: int) -> int:
    """``seat`` pays ``amount`` to the bank, mortgaging exactly as many shares as needed.

    Returns what could not be paid even after mortgaging every share (only the
    insurance agent can end up there; the bank covers and forgives it).
    """
    cash = state.cash[seat]
    if cash < amount:
        free = state.shares[seat] - state.mortgaged[seat]
        need = -(-(amount - cash) // MORTGAGE_VALUE)
        count = need if need < free else free
        if count:
            state.mortgaged[seat] += count
            cash += MORTGAGE_VALUE * count
            state.events.append({"type": "mortgaged", "seat": seat, "count": count})
    paid = amount if amount < cash else cash
    state.cash[seat] = cash - paid
    return amount - paid
