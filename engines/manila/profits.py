"""End of a voyage: everybody's profits at once, the insurance bill, price rises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import data
from .money import pay

if TYPE_CHECKING:
    from .state import ManilaState


def pay_profits(state: ManilaState) -> None:
    """Crews, docks and yards are paid together; then the insurance agent pays the yards.

    The bank pays crews of boats in Manila and occupied docks with a boat. A
    yard with a boat is paid by the insurance agent if there is one (to its
    occupant, or to the bank if nobody stands there; paying oneself is a
    no-op), else by the bank. The agent collects first, then pays, mortgaging
    as needed; what they still cannot pay the bank covers and forgives.
    """
    gains = [0] * state.num_players
    berth = state.berth
    for g in range(4):
        crew = state.crew[g]
        if crew and berth[g] in data.HARBOR and not state.plundered[g]:
            share = data.BOAT_PAYOUT[g] // len(crew)
            for seat in crew:
                gains[seat] += share
    spaces = state.spaces
    for dock in data.HARBOR:
        if spaces[dock] >= 0 and dock in berth:
            gains[spaces[dock]] += data.DOCK_PAYOUT[dock]
    agent = spaces[data.INSURANCE]
    owed = 0
    for yard in data.SHIPYARD:
        if yard not in berth:
            continue
        amount = data.DOCK_PAYOUT[yard - 3]
        occupant = spaces[yard]
        if agent < 0:
            if occupant >= 0:
                gains[occupant] += amount
        elif occupant != agent:
            owed += amount
            if occupant >= 0:
                gains[occupant] += amount  # received in full even if the agent falls short
    for seat, gain in enumerate(gains):
        state.cash[seat] += gain
    state.events.append({"type": "profits", "gains": gains})
    if owed:
        forgiven = pay(state, agent, owed)
        state.events.append(
            {"type": "insurance_paid", "seat": agent, "owed": owed, "forgiven": forgiven}
        )


def raise_prices(state: ManilaState) -> bool:
    """Each good whose boat lies in the harbor rises one step; True if one reached 30."""
    risen = []
    for g in range(4):
        if state.loaded[g] and state.berth[g] in data.HARBOR:
            state.prices[g] = data.NEXT_PRICE[state.prices[g]]
            risen.append(data.GOODS[g])
    if risen:
        state.events.append(
            {
                "type": "prices",
                "risen": risen,
                "prices": dict(zip(data.GOODS, state.prices, strict=True)),
            }
        )
    return data.END_PRICE in state.prices
