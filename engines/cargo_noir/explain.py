"""Specific reasons for refusing an action, written for bot authors."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data import BLACK_MARKET, CARD_INDEX, CARDS, CASINO, TOKEN_INDEX, TOKENS

if TYPE_CHECKING:
    from .state import CargoNoirState

Action = dict[str, Any]

_PHASE_TEXT = {
    "ships": "phase I (ship actions)",
    "smuggle": "phase II (smuggling)",
    "discard": "the discard step of phase II",
    "send": "phase III (sending ships)",
}


def explain(state: CargoNoirState, seat: int, action: Action, legal: list[Action]) -> str:
    """Why ``action`` is not among ``legal`` for ``seat``; falls back to a generic list."""
    kind = action["type"]
    kinds = sorted({a["type"] for a in legal})
    where = _PHASE_TEXT.get(state.phase, state.phase)
    if kind == "raise" and "withdraw" in kinds:
        kinds.append("raise")  # no raise affordable: say why below
    if kind not in kinds:
        return f"seat {seat} may not play {kind!r} in {where}; allowed now: {', '.join(kinds)}"
    reason = _specific(state, seat, action)
    if reason:
        return f"seat {seat} may not play {action}: {reason}"
    sample = [a for a in legal if a["type"] == kind][:5]
    return f"seat {seat} may not play {action}: legal {kind!r} actions include {sample}"


def _specific(state: CargoNoirState, seat: int, action: Action) -> str | None:
    kind = action["type"]
    coins = state.coins[seat]
    if kind in ("bid", "raise", "withdraw"):
        port = state.port_number.get(action.get("port"))
        if port is None:
            return f"no open port {action.get('port')!r}; open: {_port_names(state)}"
        if state.pending != port:
            return f"the open decision is about {state.ports[state.pending].name}"
        amount = action.get("coins" if kind == "bid" else "add")
        if kind != "withdraw" and isinstance(amount, int) and amount > coins:
            return f"only {coins} coins in the safe"
        if kind == "bid":
            return f"the bid must be at least {max(state.port_bids[port]) + 1} coins"
        if kind == "raise":
            need = state.highest_other_bid(port, seat) + 1 - state.port_bids[port][seat]
            return f"the stack must become the highest: add at least {max(1, need)} coins"
    if kind == "send":
        place = action.get("to")
        if place in (CASINO, BLACK_MARKET):
            return None
        port = state.port_number.get(place)
        if port is None:
            return f"no open port {place!r}; open: {_port_names(state)}"
        if state.port_bids[port][seat]:
            return f"a ship of seat {seat} is already at {place}"
        if port in state.abandoned:
            return f"seat {seat} abandoned {place} this turn"
        need = max(state.port_bids[port]) + 1
        return f"a bid at {place} needs {need} coins, the safe has {coins}"
    if kind == "buy":
        card = CARD_INDEX.get(action.get("card"))
        if card is None:
            return f"no card {action.get('card')!r}; cards: {', '.join(c.name for c in CARDS)}"
        spec = CARDS[card]
        if state.cards_left[card] <= 0:
            return f"no {spec.name} card is left"
        if spec.per_player and state.cards[seat][card] >= spec.per_player:
            return f"a player may hold at most {spec.per_player} {spec.name} cards"
        return f"{spec.name} costs {spec.cost}, only {state.buying_power(seat)} available"
    if kind in ("add", "discard", "market_swap"):
        good = action.get("give" if kind == "market_swap" else "good")
        index = TOKEN_INDEX.get(good)
        if index is None:
            return f"no good {good!r}; goods: {', '.join(TOKENS)}"
        if not state.warehouse[seat][index]:
            return f"seat {seat} holds no {good}"
        if kind == "market_swap" and TOKEN_INDEX.get(action.get("take")) not in state.market:
            return f"{action.get('take')!r} is not on display at the black market"
        if kind == "add":
            return f"{good} does not fit this {state.combo_kind} combination"
    if kind == "resolve":
        return f"seat {seat} has no unresolved ship at {action.get('at')!r}"
    return None


def _port_names(state: CargoNoirState) -> str:
    return ", ".join(port.name for port in state.ports)
