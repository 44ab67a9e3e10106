"""The Manila engine object: setup, rebuilding from JSON, describing actions and events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines import Engine

from . import text
from .state import ManilaState


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
        return text.describe(action)

    def describe_event(self, event: Mapping[str, Any]) -> str:
        """A public event as a sentence for people (game pages show it)."""
        return text.describe_event(event)


ENGINE = Manila()
ManilaState.engine = ENGINE
