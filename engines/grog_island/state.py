"""The Grog Island position: its fields, whose move it is, chance, copies and JSON.

Legal actions live in :mod:`.legal`, their effects and the round flow in
:mod:`.play`, the public view in :mod:`.view`; this module only holds the data.

Internally colours, ships and buildings are integer indices (see :mod:`.data`);
actions and views name them. Occupant codes of a building: a seat (0-3),
``FREE``, ``LOCKED`` or ``GHOST``.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from engines import CHANCE, Engine, State

from .data import (
    CLOUDS,
    COLOURS,
    CREW,
    DIE_FACES,
    FREE,
    GHOST,
    GHOST_SHIP,
    LOCKED,
    OBJECTIVE_DECK,
    OPEN_SEA,
    PARROT_DECK,
    SHIPS,
    TREASURE_DECK,
    TREASURE_MAX,
)
from .legal import LegalMixin
from .play import PlayMixin
from .view import ViewMixin

__all__ = ["DECKS", "FREE", "GHOST", "LOCKED", "POOL_KEYS", "GrogState"]

DECKS: tuple[str, ...] = ("objective", "treasure", "parrot")
"""Deck names; ``draws[i]`` counts each seat's draws from ``DECKS[i]`` (chance keys)."""
POOL_KEYS: dict[str, str] = {deck: f"{deck}_pool" for deck in DECKS}
"""Deck name -> the key in ``hidden`` of its random part (not a name formatted per draw)."""


def _by_card_text(item: tuple[Any, int]) -> str:
    """Draw outcomes are listed by the card's text (treasure values are ints)."""
    return str(item[0])


SCALARS: tuple[str, ...] = (
    "round",
    "start",
    "stage",
    "actor",
    "locks_left",
    "ghost_crew",
    "bid_total",
    "bidder",
    "committed",
    "holding",
    "revealed",
    "lock_colour",
    "winner",
    "last_crew",
    "final",
)
FLAT: tuple[str, ...] = (
    "crew",
    "coins",
    "vp",
    "occupant",
    "clouds",
    "ships",
    "dice",
    "bid",
    "active",
    "passers",
    "discs",
    "draft",
    "trade",
    "claims",
    "claimed_types",
    "returns",
)
NESTED: tuple[str, ...] = ("goods", "queue", "draws")
FIELDS = SCALARS + FLAT + NESTED


_ROLLS: tuple[list[tuple[dict[str, Any], float]], ...] = tuple(
    [({"type": "roll", "colour": c, "value": v}, 1 / DIE_FACES) for v in range(1, DIE_FACES + 1)]
    for c in COLOURS
)
"""The outcomes of each colour's die, built once (a quarter of all steps are rolls).

Like every listed action they are read-only: shared by all states and games.
"""
_CARD_ORDER: dict[str, tuple[Any, ...]] = {
    deck: tuple(sorted(set(cards), key=str))
    for deck, cards in zip(DECKS, (OBJECTIVE_DECK, TREASURE_DECK, PARROT_DECK), strict=True)
}
"""Each deck's distinct cards in the order draw outcomes are listed (by the card's text)."""

_DRAWS: dict[tuple[str, int], dict[Any, dict[str, Any]]] = {
    (deck, seat): {
        card: {"type": "draw", "deck": deck, "seat": seat, "card": card}
        for card in _CARD_ORDER[deck]
    }
    for deck in DECKS
    for seat in range(max(CREW))  # CREW is keyed by player count: every seat of the largest game
}
"""The draw actions of every deck, seat and card, built once (read-only, like _ROLLS)."""


class GrogState(ViewMixin, LegalMixin, PlayMixin, State):
    """One position of Grog Island; see the module docstring for the encoding."""

    __slots__ = FIELDS
    engine: ClassVar[Engine]

    # A silent seat passes the bid, declines to pay and to claim, ends a trade
    # as soon as it may, keeps an objective rather than pay more goods, and
    # mid-bid confirms the lowest total (docs/engines/grog_island.md, "Default action").
    default_preference = (
        {"type": "pass"},
        {"type": "decline"},
        {"type": "decline_claims"},
        {"type": "end_trade"},
        {"type": "keep_objective"},
        {"type": "bid"},
        {"type": "place"},
    )
    default_cheapest = {"pay": "coins", "pay_treasure": "value"}

    # ------------------------------------------------------------------ turn
    @property
    def is_over(self) -> bool:
        return self.stage == "over"  # exactly when ``to_move`` is empty

    @property
    def to_move(self) -> list[int]:
        if self.stage == "over":
            return []
        if self.queue:
            return [CHANCE]
        if self.returns:
            return [self.returns[0]]
        return [self.actor]

    # ---------------------------------------------------------------- chance
    def _chance_outcomes(self) -> list[tuple[dict[str, Any], float]]:
        if self.stage == "over" or not self.queue:
            return []
        task = self.queue[0]
        kind = task[0]
        if kind == "die":
            return _ROLLS[task[1]]  # the base hands out copies of the list, never this one
        if kind == "cloud":
            left = [c for c in CLOUDS if c not in self.clouds]
            p = 1 / len(left)
            peninsula = COLOURS[task[1]]
            return [({"type": "place_cloud", "peninsula": peninsula, "cloud": c}, p) for c in left]
        if kind == "ship":
            left = [name for i, (name, _, _) in enumerate(SHIPS) if i not in self.ships]
            p = 1 / len(left)
            return [({"type": "place_ship", "space": task[1], "ship": s}, p) for s in left]
        # a draw from the random part of a deck
        deck, seat = task[1], task[2]
        pool = self.hidden[POOL_KEYS[deck]]
        total = len(pool)
        draws = _DRAWS.get((deck, seat))
        if draws is not None and deck != "objective":
            # few kinds of card (3 treasures, 6 parrots): each counted by list.count, in
            # the order of their text, as sorting them would give
            outcomes = []
            found = 0
            for card in _CARD_ORDER[deck]:
                n = pool.count(card)
                if n:
                    found += n
                    outcomes.append((draws[card], n / total))
            if found == total:
                return outcomes
        if draws is not None:
            # one pass over the pool, counts kept in the order of the cards' text
            counts = dict.fromkeys(_CARD_ORDER[deck], 0)
            try:
                for card in pool:
                    counts[card] += 1
            except KeyError:  # a card foreign to the deck
                pass
            else:
                return [(draws[card], n / total) for card, n in counts.items() if n]
        counts = {}
        for card in pool:
            counts[card] = counts.get(card, 0) + 1
        return [  # a card foreign to the deck (a hand-made state): the general way
            ({"type": "draw", "deck": deck, "seat": seat, "card": card}, n / total)
            for card, n in sorted(counts.items(), key=_by_card_text)
        ]

    def chance_key(self) -> str:
        if not self.queue:
            return ""
        task = self.queue[0]
        kind = task[0]
        if kind == "die":
            return f"r{self.round}/die/{COLOURS[task[1]]}"
        if kind == "cloud":
            return f"setup/cloud/{COLOURS[task[1]]}"
        if kind == "ship":
            return f"setup/ship/{task[1]}"
        deck, seat = task[1], task[2]
        return f"{deck}/seat{seat}/{self.draws[DECKS.index(deck)][seat]}"

    def outcome(self) -> dict[str, list]:
        """Final VP totals; ranks by VP, then coins (ties share)."""
        if self.final is None:
            return {"scores": [], "ranks": []}
        return {"scores": list(self.final["scores"]), "ranks": list(self.final["ranks"])}

    # --------------------------------------------------------------- helpers
    def deck_size(self, deck: str) -> int:
        """Cards left in a deck (public: only list lengths are read)."""
        size = len(self.hidden[POOL_KEYS[deck]])
        if deck == "objective":
            size += len(self.hidden["objective_bottom"])
        return size

    def capital(self, seat: int) -> int:
        """Potential capital: coins + 3 per treasure card (values unseen)."""
        return self.coins[seat] + TREASURE_MAX * len(self.private[seat]["treasures"])

    def ghost_space(self) -> int:
        """Space of the ghost ship (two players), else ``OPEN_SEA`` (it never gives)."""
        if self.num_players != 2 or GHOST_SHIP not in self.ships:
            return OPEN_SEA
        return self.ships.index(GHOST_SHIP)

    # ----------------------------------------------------------- persistence
    def clone(self) -> GrogState:
        other = GrogState.__new__(GrogState)
        other.num_players = self.num_players
        other.options = dict(self.options)
        other.events = list(self.events)
        other.private = [{key: list(value) for key, value in seat.items()} for seat in self.private]
        other.hidden = {key: list(value) for key, value in self.hidden.items()}
        for name in SCALARS:
            setattr(other, name, getattr(self, name))
        for name in FLAT:
            setattr(other, name, list(getattr(self, name)))
        other.goods = [list(g) for g in self.goods]
        other.queue = [list(t) for t in self.queue]
        other.draws = [list(d) for d in self.draws]
        return other

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "engine": self.engine.slug,
            "version": self.engine.version,
            "num_players": self.num_players,
            "options": dict(self.options),
            "events": [dict(e) for e in self.events],
            "private": [{key: list(value) for key, value in seat.items()} for seat in self.private],
            "hidden": {key: list(value) for key, value in self.hidden.items()},
        }
        for name in SCALARS:
            data[name] = getattr(self, name)
        data["final"] = copy.deepcopy(self.final)
        for name in FLAT:
            data[name] = list(getattr(self, name))
        data["goods"] = [list(g) for g in self.goods]
        data["queue"] = [list(t) for t in self.queue]
        data["draws"] = [list(d) for d in self.draws]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GrogState:
        state = cls.__new__(cls)
        state.num_players = int(data["num_players"])
        state.options = dict(data.get("options", {}))
        state.events = [dict(e) for e in data["events"]]
        state.private = [
            {key: list(value) for key, value in seat.items()} for seat in data["private"]
        ]
        state.hidden = {key: list(value) for key, value in data["hidden"].items()}
        for name in SCALARS:
            setattr(state, name, data[name])
        state.final = copy.deepcopy(data["final"])
        for name in FLAT:
            setattr(state, name, list(data[name]))
        state.goods = [list(g) for g in data["goods"]]
        state.queue = [list(t) for t in data["queue"]]
        state.draws = [list(d) for d in data["draws"]]
        return state
