"""The Batavia engine: setup, rebuilding from JSON and describing actions for people."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Action, Engine

from .state import BataviaState


class BataviaEngine(Engine):
    """Batavia (3-5 players); rules in ``shared/rules/batavia.md``, decisions in the docs."""

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
        kind = action.get("type")
        company = str(action.get("company", "")).capitalize()
        if kind == "card":
            return f"Ship card: {company}"
        if kind == "die":
            return f"The die shows {action.get('value')}"
        if kind == "post":
            return f"Reveal a {company} post of {action.get('good')}"
        if kind == "bid":
            return f"Bid {action.get('amount')} letters"
        if kind == "pass":
            return "Pass"
        if kind == "draw":
            return "Draw 2 ship cards"
        if kind == "play":
            return f"Play a {company} ship card"
        if kind == "done":
            return "Stop playing cards and move the merchant"
        if kind == "move":
            return f"Move to the next {company} trading post"
        if kind == "convert":
            return f"Convert a {company} post into gold"
        if kind == "convert_done":
            return "Finish converting"
        return f"{kind}"
