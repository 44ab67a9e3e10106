"""The Cargo Noir engine: setup, rebuilding from JSON, and describing actions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines import Engine

from . import text
from .state import CargoNoirState


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
        return text.describe(action)

    def describe_event(self, event: Mapping[str, Any]) -> str:
        return text.describe_event(event)


ENGINE = CargoNoir()
CargoNoirState.engine = ENGINE
