"""The Manila position: plain public fields plus the two secret dicts.

Goods and spaces are indices internally (see :mod:`.data`); the JSON form of
the state stores these lists as they are, while views and actions use names.
Secrets: ``private[seat]["shares"]`` holds the seat's own shares by good
(the two dealt face down, plus any bought); ``hidden["deck"]`` holds the
undealt starting shares while the deal runs. Everything a public view needs
(how many shares a seat holds, how many are mortgaged, what it bought in the
open) lives in public fields, so a view never reads a secret.
"""

from __future__ import annotations

from typing import Any

from engines import CHANCE, State, ranks_from_scores

from . import data, rules
from .explain import explain
from .views import public_view

OVER = -2
"""``mover`` once the game has ended."""
_LEGAL = rules.LEGAL
_APPLY = rules.APPLY

_SCALARS = (
    "phase",
    "voyage",
    "movement",
    "round",
    "harbor_master",
    "mover",
    "dealt",
    "high_bid",
    "high_bidder",
    "bid_page",
)
_LISTS = (
    "cash",
    "shares",
    "mortgaged",
    "prices",
    "supply",
    "loaded",
    "position",
    "berth",
    "plundered",
    "spaces",
    "pirates",
    "accomplices",
    "placing",
    "queue",
    "passed",
    "pending",
)
_NESTED = ("bought", "crew", "boarded")


class ManilaState(State):
    """One position of a game of Manila (mutated in place by ``apply``)."""

    __slots__ = (*_SCALARS, *_LISTS, *_NESTED, "pilot_first")

    engine: Any = None  # set by engines.manila.engine

    # A silent seat commits nothing: it passes in the auction and placement,
    # buys no share, keeps its pirate ashore, stops a pilot, redeems nothing
    # (docs/engines/manila.md, "Default action").
    default_preference = (
        {"type": "pass"},
        {"type": "skip_buy"},
        {"type": "stay"},
        {"type": "pilot_stop"},
        {"type": "redeem", "count": 0},
    )

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        n = num_players
        self.num_players = n
        self.options = options
        self.events: list[dict[str, Any]] = []
        self.private = [{"shares": dict.fromkeys(data.GOODS, 0)} for _ in range(n)]
        self.hidden: dict[str, Any] = {"deck": dict.fromkeys(data.GOODS, data.DEALT_PER_GOOD)}
        self.phase = "deal"
        self.voyage = 0
        self.movement = 0
        self.round = 0
        self.harbor_master = 0
        self.mover = CHANCE
        self.dealt = 0
        self.high_bid = 0
        self.high_bidder = -1
        self.bid_page = 0
        self.cash = [data.START_CASH] * n
        self.shares = [0] * n
        self.mortgaged = [0] * n
        self.bought = [[0] * 4 for _ in range(n)]
        self.prices = [0] * 4
        self.supply = [data.SHARES_PER_GOOD - data.DEALT_PER_GOOD] * 4
        self.loaded = [False] * 4
        self.position = [-1] * 4
        self.berth = [-1] * 4
        self.plundered = [False] * 4
        self.crew: list[list[int]] = [[], [], [], []]
        self.spaces = [-1] * len(data.SPACE_NAMES)
        self.pirates: list[int] = []
        self.boarded: list[list[int]] = []
        """[good, crew index] of each pirate who boarded this voyage (the variant spares them)."""
        self.accomplices = [0] * n
        self.placing = [False] * n
        self.queue: list[int] = []
        self.passed = [False] * n
        self.pending: list[int] = []
        self.pilot_first: list[int] | None = None

    # ----------------------------------------------------------------- turn
    @property
    def to_move(self) -> list[int]:
        mover = self.mover
        return [] if mover == OVER else [mover]

    @property
    def is_over(self) -> bool:
        return self.mover == OVER

    def _legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if seat != self.mover or seat < 0:
            return []
        return _LEGAL[self.phase](self)

    def _chance_outcomes(self) -> list[tuple[dict[str, Any], float]]:
        if self.mover != CHANCE:
            return []
        return rules.chance_outcomes(self)

    def chance_key(self) -> str:
        return rules.chance_key(self)

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        _APPLY[action["type"]](self, seat, action)

    def explain_illegal(self, seat: int, action: dict[str, Any], legal: list) -> str:
        return explain(self, seat, action, legal) or super().explain_illegal(seat, action, legal)

    # ---------------------------------------------------------------- views
    def public_view(self) -> dict[str, Any]:
        return public_view(self)

    # -------------------------------------------------------------- outcome
    def wealth(self, seat: int) -> int:
        """Cash + price of every share owned - 15 per mortgaged share (the final score)."""
        owned = self.private[seat]["shares"]
        value = sum(self.prices[g] * owned[name] for g, name in enumerate(data.GOODS))
        return self.cash[seat] + value - data.REDEEM_COST * self.mortgaged[seat]

    def outcome(self) -> dict[str, list]:
        scores = [self.wealth(seat) for seat in range(self.num_players)]
        return {"scores": scores, "ranks": ranks_from_scores(scores)}

    # ---------------------------------------------------------- persistence
    def clone(self) -> ManilaState:
        other = ManilaState.__new__(ManilaState)
        other.num_players = self.num_players
        other.options = dict(self.options)
        other.events = list(self.events)  # event dicts are never mutated
        other.private = [{"shares": dict(p["shares"])} for p in self.private]
        other.hidden = {"deck": dict(self.hidden["deck"])}
        for name in _SCALARS:
            setattr(other, name, getattr(self, name))
        for name in _LISTS:
            setattr(other, name, list(getattr(self, name)))
        for name in _NESTED:
            setattr(other, name, [list(row) for row in getattr(self, name)])
        other.pilot_first = None if self.pilot_first is None else list(self.pilot_first)
        return other

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "engine": "manila",
            "num_players": self.num_players,
            "options": dict(self.options),
            "events": [dict(e) for e in self.events],
            "private": [{"shares": dict(p["shares"])} for p in self.private],
            "hidden": {"deck": dict(self.hidden["deck"])},
        }
        for name in _SCALARS:
            out[name] = getattr(self, name)
        for name in _LISTS:
            out[name] = list(getattr(self, name))
        for name in _NESTED:
            out[name] = [list(row) for row in getattr(self, name)]
        out["pilot_first"] = None if self.pilot_first is None else list(self.pilot_first)
        return out

    @classmethod
    def from_json(cls, data_: dict[str, Any]) -> ManilaState:
        state = cls.__new__(cls)
        state.num_players = data_["num_players"]
        state.options = dict(data_["options"])
        state.events = [dict(e) for e in data_["events"]]
        state.private = [{"shares": dict(p["shares"])} for p in data_["private"]]
        state.hidden = {"deck": dict(data_["hidden"]["deck"])}
        for name in _SCALARS:
            setattr(state, name, data_[name])
        for name in _LISTS:
            setattr(state, name, list(data_[name]))
        for name in _NESTED:
            setattr(state, name, [list(row) for row in data_[name]])
        first = data_["pilot_first"]
        state.pilot_first = None if first is None else list(first)
        return state
