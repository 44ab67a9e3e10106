"""Placing accomplices: free spaces, their costs, stowaways, passing for good."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import data, flow
from .money import available, pay

if TYPE_CHECKING:
    from .state import ManilaState


def open_spaces(state: ManilaState) -> list[tuple[str, int]]:
    """(space name, cost) of every free space; a boat offers its cheapest free seat.

    A boat already in the harbor takes no more crew (engine decision);
    docks and yards stay open whether or not a boat lies there.
    """
    spaces: list[tuple[str, int]] = []
    for g in range(4):
        if state.loaded[g] and state.berth[g] < 0:
            aboard = len(state.crew[g])
            costs = data.SEAT_COSTS[g]
            if aboard < len(costs):
                spaces.append((data.GOODS[g], costs[aboard]))
    for i, occupant in enumerate(state.spaces):
        if occupant < 0:
            spaces.append((data.SPACE_NAMES[i], data.SPACE_COST[i]))
    if len(state.pirates) < data.PIRATE_SEATS:
        spaces.append((data.PIRATE, data.PIRATE_COST))
    return spaces


def is_stowaway(state: ManilaState, seat: int, spaces: list[tuple[str, int]]) -> bool:
    """True if ``seat`` cannot pay even the cheapest free space (mortgages counted)."""
    return bool(spaces) and available(state, seat) < min(cost for _, cost in spaces)


def placement_costs(state: ManilaState, seat: int) -> dict[str, int]:
    """Space name -> what ``seat`` would pay there now (only spaces it may take)."""
    spaces = open_spaces(state)
    if is_stowaway(state, seat, spaces):
        return {name: 0 for name, _ in spaces if name in data.GOOD_INDEX}
    money = available(state, seat)
    return {name: cost for name, cost in spaces if cost <= money}


def legal_place(state: ManilaState) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = [
        {"type": "place", "space": name} for name in placement_costs(state, state.mover)
    ]
    actions.append({"type": "pass"})
    return actions


def apply_place(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    name = action["space"]
    cost = placement_costs(state, seat)[name]
    pay(state, seat, cost)
    good = data.GOOD_INDEX.get(name)
    if good is not None:
        state.crew[good].append(seat)
    elif name == data.PIRATE:
        state.pirates.append(seat)
    else:
        state.spaces[data.SPACE_INDEX[name]] = seat
        if name == "insurance":
            state.cash[seat] += data.INSURANCE_BONUS
    state.accomplices[seat] -= 1
    state.events.append({"type": "placed", "seat": seat, "space": name, "cost": cost})
    flow.after_placement_turn(state)


def apply_placement_pass(state: ManilaState, seat: int) -> None:
    state.placing[seat] = False
    state.events.append({"type": "pass", "seat": seat})
    flow.after_placement_turn(state)
