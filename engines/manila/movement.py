"""Dice, docking order, boarding, pilots, plunder and the shipyard order."""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING, Any

from . import data, flow

if TYPE_CHECKING:
    from .state import ManilaState

_SIXTH = 1 / 6


# ------------------------------------------------------------------ dice
def roll_outcomes(state: ManilaState) -> list[tuple[dict[str, Any], float]]:
    return _ROLLS[state.pending[0]]  # shared: the base hands out copies of the list, never it


_ROLLS: tuple[list[tuple[dict[str, Any], float]], ...] = tuple(
    [({"type": "roll", "good": name, "value": v}, _SIXTH) for v in range(1, 7)]
    for name in data.GOODS
)
"""Each boat's die outcomes, built once (a roll is a quarter of all steps); read-only."""


def roll_key(state: ManilaState) -> str:
    return f"v{state.voyage}/m{state.movement}/{data.GOODS[state.pending[0]]}"


def apply_roll(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    g = state.pending.pop(0)
    moved = state.position[g] + action["value"]
    state.position[g] = moved if moved <= data.ROUTE_END else data.IN_MANILA
    state.events.append({"type": "roll", "good": action["good"], "value": action["value"]})
    if not state.pending:
        flow.after_dice(state)


# --------------------------------------------------------- orders (A/B/C)
def legal_order(state: ManilaState) -> list[dict[str, Any]]:
    kind = state.phase
    return [
        {"type": kind, "goods": [data.GOODS[g] for g in order]}
        for order in permutations(state.pending)
    ]


def apply_harbor_order(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    state.pending = []
    for name in action["goods"]:
        flow.dock(state, data.GOOD_INDEX[name])
    flow.after_arrivals(state)


def apply_shipyard_order(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    state.pending = []
    for name in action["goods"]:
        flow.to_shipyard(state, data.GOOD_INDEX[name])
    flow.settle(state)


# -------------------------------------------------------------- boarding
def legal_board(state: ManilaState) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = []
    for g, evict in flow.boardable(state):
        if evict < 0:
            actions.append({"type": "board", "good": data.GOODS[g]})
        else:
            actions.append({"type": "board", "good": data.GOODS[g], "evict": evict})
    actions.append({"type": "stay"})
    return actions


def apply_board(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    """The deciding pirate leaves the ship for the boat; if the captain, the next one commands."""
    g = data.GOOD_INDEX[action["good"]]
    stayed = len(state.pirates) - len(state.queue)  # pirates ahead who decided to stay
    state.pirates.pop(stayed)
    state.queue.pop(0)
    crew = state.crew[g]
    event: dict[str, Any] = {"type": "boarded", "seat": seat, "good": action["good"]}
    if "evict" in action:
        index = action["evict"]
        event["sent_home"] = crew[index]
        crew[index] = seat
    else:
        index = len(crew)
        crew.append(seat)
    state.boarded.append([g, index])
    state.events.append(event)
    flow.next_boarder(state)


def apply_stay(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    state.queue.pop(0)
    state.events.append({"type": "stayed", "seat": seat})
    flow.next_boarder(state)


# ---------------------------------------------------------------- pilots
def legal_pilot(state: ManilaState) -> list[dict[str, Any]]:
    """One step (one boat, one space) at a time; the large pilot gets two steps.

    The large pilot's second step may move the same boat on in the same
    direction (2 spaces) or another boat 1 space.
    """
    first = state.pilot_first
    actions: list[dict[str, Any]] = []
    for g in flow.at_sea(state):
        name = data.GOODS[g]
        for move in (1, -1):
            if move < 0 and state.position[g] == 0:
                continue
            if first is not None and first[0] == g and first[1] != move:
                continue
            actions.append({"type": "pilot", "good": name, "move": move})
    actions.append({"type": "pilot_stop"})
    return actions


def apply_pilot(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    g = data.GOOD_INDEX[action["good"]]
    state.position[g] += action["move"]
    state.events.append(
        {"type": "piloted", "seat": seat, "good": action["good"], "move": action["move"]}
    )
    if state.position[g] > data.ROUTE_END:
        flow.dock(state, g)
    if state.phase == "pilot_small":
        flow.start_large_pilot(state)
    elif state.pilot_first is None and flow.at_sea(state):
        state.pilot_first = [g, action["move"]]
    else:
        state.pilot_first = None
        flow.start_movement(state, data.MOVEMENTS)


def apply_pilot_stop(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    state.events.append({"type": "pilot_stop", "seat": seat})
    if state.phase == "pilot_small":
        flow.start_large_pilot(state)
    else:
        state.pilot_first = None
        flow.start_movement(state, data.MOVEMENTS)


# ---------------------------------------------------------------- plunder
def legal_send(state: ManilaState) -> list[dict[str, Any]]:
    return [
        {"type": "send", "good": data.GOODS[g], "to": to}
        for g in state.pending
        for to in ("harbor", "shipyard")
    ]


def apply_send(state: ManilaState, seat: int, action: dict[str, Any]) -> None:
    g = data.GOOD_INDEX[action["good"]]
    state.pending.remove(g)
    state.events.append({"type": "sent", "good": action["good"], "to": action["to"]})
    if action["to"] == "harbor":
        flow.dock(state, g)
    if not state.pending:
        flow.start_shipyard(state)
