"""The Cargo Noir engine: setup, rebuilding from JSON, and describing actions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines import Engine

from .data import BLACK_MARKET, CASINO
from .state import CargoNoirState

_PLACES = {CASINO: "the casino", BLACK_MARKET: "the black market"}


def _place(name: str) -> str:
    return _PLACES.get(name, name)


class CargoNoir(Engine):
    """Smuggling goods for victory cards; see ``docs/engines/cargo_noir.md``."""

    slug = "cargo_noir"
    name = "Cargo Noir"
    min_players = 2
    max_players = 5
    version = "1"
    options: Mapping[str, Any] = {}
    max_legal_actions = 150

    def _new_game(self, num_players: int, options: dict[str, Any]) -> CargoNoirState:
        return CargoNoirState(num_players, options)

    def from_json(self, data: Mapping[str, Any]) -> CargoNoirState:
        return CargoNoirState.from_json(dict(data))

    def describe(self, action: dict[str, Any]) -> str:
        kind = action.get("type")
        text = {
            "draw": lambda a: f"Draw {a['good']} from the bag",
            "resolve": lambda a: f"Resolve the ship at {_place(a['at'])}",
            "market_swap": lambda a: f"Swap {a['give']} for {a['take']} at the black market",
            "market_draw": lambda a: "Draw a random good from the bag at the black market",
            "market_skip": lambda a: "Do nothing at the black market (nothing to swap or draw)",
            "raise": lambda a: f"Add {a['add']} coins to the stack at {a['port']}",
            "withdraw": lambda a: f"Withdraw the ship and coins from {a['port']}",
            "start_combination": lambda a: (
                "Start a combination of goods of the same type"
                if a["kind"] == "same"
                else "Start a combination of goods of different types"
            ),
            "add": lambda a: f"Add {a['good']} to the combination",
            "smuggle": lambda a: "Smuggle the combination",
            "buy": lambda a: f"Buy a {a['card']} card",
            "end_smuggling": lambda a: "End smuggling",
            "discard": lambda a: f"Discard one {a['good']}",
            "send": lambda a: f"Send a ship to {_place(a['to'])}",
            "bid": lambda a: f"Bid {a['coins']} coins at {a['port']}",
        }.get(kind)
        if text is None:
            return f"Unknown action {action!r}"
        try:
            return text(action)
        except (KeyError, TypeError):
            return f"Malformed {kind} action {action!r}"


ENGINE = CargoNoir()
CargoNoirState.engine = ENGINE
