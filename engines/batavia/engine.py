"""The Batavia engine: setup, rebuilding from JSON and describing actions for people."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Action, Engine

from . import text
from .state import BataviaState


class BataviaEngine(Engine):
    """Batavia (3-5 players); rules and decisions in ``docs/engines/batavia.md``."""

    slug = "batavia"
    name = "Batavia"
    min_players = 3
    max_players = 5
    version = "1"
    options = {"open_track": False}
    max_legal_actions = 150

    def _new_game(self, num_players: int, options: dict[str, Any]) -> BataviaState:
        return BataviaState(num_players, options)

    def from_json(self, data: Mapping[str, Any]) -> BataviaState:
        return BataviaState.from_json(dict(data))

    def describe(self, action: Action) -> str:
        return text.describe(action)

    def describe_event(self, event: Mapping[str, Any]) -> str:
        return text.describe_event(event)
