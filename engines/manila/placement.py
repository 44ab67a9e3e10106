"""Placing accomplices: free spaces, their costs, stowaways, passing for good."""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any

from . import data, flow
from .money import available, pay

if TYPE_CHECKING:
    from .state import ManilaState


_cost = itemgetter(1)
_SINGLE_SPACES = tuple(zip(data.SPACE_NAMES, data.SPACE_COST, strict=True))
_DEAREST = max(*data.SPACE_COST, data.PIRATE_COST, *(max(c) for c in data.SEAT_COSTS))
"""Whoever can pay this much can pay any space: no need to look for the cheapest."""
_BOAT_SEATS = tuple(len(costs) for costs in data.SEAT_COSTS)
_PLACE_GOOD = tuple({"type": "place", "space": name} for name in data.GOODS)
_PLACE_SPACE = tuple({"type": "place", "space": name} for name in data.SPACE_NAMES)
_PLACE_PIRATE = {"type": "place", "space": data.PIRATE}
_PLACE_BY_NAME = {a["space"]: a for a in (*_PLACE_GOOD, *_PLACE_SPACE, _PLACE_PIRATE)}
_PASS = {"type": "pass"}
"""Placement actions built once and shared by every list (listed actions are read-only)."""


def open_spaces(state: ManilaState) -> list[tuple[str, int]]:
    """(space name, cost) of every free space; a boat offers its cheapest free seat.

    A boat already in the harbor takes no more crew (engine decision);
    docks and yards stay open whether or not a boat lies there.
    """
    spaces: list[tuple[str, int]] = []
    loaded, berth, crew = state.loaded, state.berth, state.crew
    for g in range(4):
        if loaded[g] and berth[g] < 0:
            aboard = len(crew[g])
            costs = data.SEAT_COSTS[g]
            if aboard < len(costs):
                spaces.append((data.GOODS[g], costs[aboard]))
    spaces += [
        pair for pair, occupant in zip(_SINGLE_SPACES, state.spaces, strict=True) if occupant < 0
    ]
    if len(state.pirates) < data.PIRATE_SEATS:
        spaces.append((data.PIRATE, data.PIRATE_COST))
    return spaces


def is_stowaway(money: int, spaces: list[tuple[str, int]]) -> bool:
    """Whether a player with ``money`` available (mortgages counted) is a stowaway.

    The rules make a stowaway of a player who has no money and no share left
    to mortgage (even while the insurance office, which costs nothing, is
    free), and of one who cannot pay for any free space.
    """
    return bool(spaces) and (money == 0 or money < min(map(_cost, spaces)))


def placement_costs(state: ManilaState, seat: int) -> dict[str, int]:
    """Space name -> what ``seat`` would pay there now (only spaces it may take).

    A stowaway may take any free boat seat for nothing, besides the spaces it
    can pay for (with no money at all: the insurance office, if free).
    """
    spaces = open_spaces(state)
    money = available(state, seat)
    if money >= _DEAREST:
        return dict(spaces)
    if is_stowaway(money, spaces):
        return {
            name: 0 if name in data.GOOD_INDEX else cost
            for name, cost in spaces
            if name in data.GOOD_INDEX or cost <= money
        }
    return {name: cost for name, cost in spaces if cost <= money}


def legal_place(state: ManilaState) -> list[dict[str, Any]]:
    seat = state.mover
    money = available(state, seat)
    if money >= _DEAREST:  # every free space, as ``open_spaces`` lists them
        loaded, berth, crew = state.loaded, state.berth, state.crew
        actions: list[dict[str, Any]] = []
        for g in range(4):  # plain loops: cheaper than comprehensions on 4 and 9 items
            if loaded[g] and berth[g] < 0 and len(crew[g]) < _BOAT_SEATS[g]:
                actions.append(_PLACE_GOOD[g])
        for i, occupant in enumerate(state.spaces):
            if occupant < 0:
                actions.append(_PLACE_SPACE[i])
        if len(state.pirates) < data.PIRATE_SEATS:
            actions.append(_PLACE_PIRATE)
    else:  # ``placement_costs``, without building its table
        spaces = open_spaces(state)
        if is_stowaway(money, spaces):
            actions = [
                _PLACE_BY_NAME[name]
                for name, cost in spaces
                if name in data.GOOD_INDEX or cost <= money
            ]
        else:
            actions = [_PLACE_BY_NAME[name] for name, cost in spaces if cost <= money]
    actions.append(_PASS)
    return actions


def apply_place(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    name = action["space"]
    good = data.GOOD_INDEX.get(name)
    # ``placement_costs(state, seat)[name]`` without building the table: a space costs
    # its price; only a boat seat is free, and only for a stowaway (who is never one
    # who can pay the dearest space), so only then are the open spaces listed.
    if good is not None:
        cost = data.SEAT_COSTS[good][len(state.crew[good])]
        money = available(state, seat)
        if money < _DEAREST and is_stowaway(money, open_spaces(state)):
            cost = 0
    elif name == data.PIRATE:
        cost = data.PIRATE_COST
    else:
        cost = data.SPACE_COST[data.SPACE_INDEX[name]]
    pay(state, seat, cost)
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
