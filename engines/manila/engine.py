"""The Manila engine object: setup, rebuilding from JSON, describing actions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines import Engine

from .state import ManilaState
from .views import describe


class Manila(Engine):
    slug = "manila"
    name = "Manila"
    min_players = 3
    max_players = 5
    version = "2"
    options = {"pirates_replace": False}
    max_legal_actions = 50

    def _new_game(self, num_players: int, options: dict[str, Any]) -> ManilaState:
        return ManilaState(num_players, options)

    def from_json(self, data: Mapping[str, Any]) -> ManilaState:
        return ManilaState.from_json(dict(data))

    def describe(self, action: dict[str, Any]) -> str:
        return describe(action)


ENGINE = Manila()
ManilaState.engine = ENGINE
