"""The Grog Island engine: setup of a new game and action descriptions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines import Engine

from . import text
from .data import (
    BUILDINGS,
    COLOURS,
    CREW,
    FREE,
    GHOST_CREW,
    LOCKS,
    OBJECTIVE_DECK,
    OBJECTIVES_DEALT,
    PARROT_DECK,
    SHIP_SPACES,
    START_COINS,
    START_PARROTS,
    START_TREASURES,
    TREASURE_DECK,
)
from .state import DECKS, GrogState


class GrogIslandEngine(Engine):
    slug = "grog_island"
    name = "Grog Island"
    min_players = 2
    max_players = 4
    version = "1"
    options: Mapping[str, Any] = {}
    max_legal_actions = 150

    def _new_game(self, num_players: int, options: dict[str, Any]) -> GrogState:
        s = GrogState.__new__(GrogState)
        s.num_players = num_players
        s.options = options
        s.events = []
        s.private = [
            {"objectives": [], "treasures": [], "parrots": [], "drawn": []}
            for _ in range(num_players)
        ]
        s.hidden = {
            "objective_pool": list(OBJECTIVE_DECK),
            "objective_bottom": [],
            "treasure_pool": list(TREASURE_DECK),
            "parrot_pool": list(PARROT_DECK),
        }
        s.round = 0
        s.start = 0
        s.stage = "setup"
        s.actor = 0
        s.locks_left = LOCKS
        s.ghost_crew = GHOST_CREW if num_players == 2 else 0
        s.bid_total = 0
        s.bidder = -1
        s.committed = False
        s.holding = False
        s.revealed = 0
        s.lock_colour = -1
        s.winner = -1
        s.last_crew = False
        s.final = None
        s.crew = [CREW[num_players]] * num_players
        s.coins = [START_COINS] * num_players
        s.vp = [0] * num_players
        s.occupant = [FREE] * len(BUILDINGS)
        s.clouds = [None] * len(COLOURS)
        s.ships = [-1] * SHIP_SPACES
        s.dice = [0] * len(COLOURS)
        s.bid = []
        s.active = [False] * num_players
        s.passers = []
        s.discs = [-1] * SHIP_SPACES
        s.draft = []
        s.trade = []
        s.claims = []
        s.claimed_types = []
        s.returns = []
        s.goods = [[0] * len(COLOURS) for _ in range(num_players)]
        s.draws = [[0] * num_players for _ in DECKS]
        queue: list[list[Any]] = [["cloud", p] for p in range(len(COLOURS))]
        queue += [["ship", space] for space in range(SHIP_SPACES)]
        for seat in range(num_players):
            queue += [["draw", "objective", seat, "hand"]] * OBJECTIVES_DEALT
            queue += [["draw", "treasure", seat, "hand"]] * START_TREASURES
            queue += [["draw", "parrot", seat, "hand"]] * START_PARROTS
        s.queue = [list(t) for t in queue]
        return s

    def from_json(self, data: Mapping[str, Any]) -> GrogState:
        return GrogState.from_json(dict(data))

    def describe(self, action: dict[str, Any]) -> str:
        return text.describe(action)

    def describe_event(self, event: Mapping[str, Any]) -> str:
        return text.describe_event(event)


ENGINE = GrogIslandEngine()
GrogState.engine = ENGINE
