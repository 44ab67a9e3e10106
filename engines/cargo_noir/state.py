"""The Cargo Noir state: its fields, chance, copying and serialisation.

What a player may do lives in :mod:`.legal`, what an action does in
:mod:`.play`, what people see in :mod:`.view`; this module ties them into one
``State`` with ``__slots__`` and integer indices internally (goods, cards and
ports by number) for speed. Actions, views and JSON use names.

Secrets: nothing is private to a seat (warehouses, coins and cards are public
by the spec); the bag's and the discard pile's contents are in
``hidden`` (``{"bag": {token: count}, "discard": {token: count}}``) while
their sizes are public fields.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engines import CHANCE, Engine, State

from .board import NO_PENDING, OPEN_PORTS, PENDING_MARKET, PORT_NUMBER
from .data import (
    BLACK_MARKET_SIZE,
    CARDS,
    START_COINS,
    START_SHIPS,
    TOKEN_INDEX,
    TOKENS,
    TOKENS_PER_GOOD,
    rounds_for,
)
from .explain import explain
from .legal import LegalActionsMixin
from .play import PlayMixin
from .scoring import best_card_vp, final_ranks, victory_points
from .view import ViewMixin

_DRAW_NAMES: tuple[tuple[dict[str, Any], str], ...] = tuple(
    ({"type": "draw", "good": name}, name) for name in TOKENS
)
"""The draw of each token kind, built once (read-only, like every listed action)."""


class CargoNoirState(LegalActionsMixin, PlayMixin, ViewMixin, State):
    """One position of a Cargo Noir game, mutated in place."""

    __slots__ = (
        "abandoned",
        "at_casino",
        "at_market",
        "bag_size",
        "cards",
        "cards_left",
        "coins",
        "combo",
        "combo_kind",
        "credit",
        "discard_size",
        "draws",
        "market",
        "market_draws",
        "pending",
        "phase",
        "port_bids",
        "port_goods",
        "port_number",
        "ports",
        "resolved",
        "round",
        "rounds",
        "seat",
        "ships",
        "syndicate_paid",
        "warehouse",
    )

    engine: ClassVar[Engine]

    # A silent seat risks no coin and spends no credit: it withdraws when
    # outbid, draws at the black market, closes a combination, ends smuggling,
    # sends its ships to the casino, and bids the least it may at a port it was
    # already sent to (docs/engines/cargo_noir.md, "Default action").
    default_preference = (
        {"type": "withdraw"},
        {"type": "market_draw"},
        {"type": "market_skip"},
        {"type": "smuggle"},
        {"type": "end_smuggling"},
        {"type": "send", "to": "casino"},
        {"type": "resolve", "at": "casino"},
    )
    default_cheapest = {"bid": "coins", "raise": "add"}

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        """A fresh game: chance first fills the black market and every open port."""
        n = num_players
        self.num_players = n
        self.options = options
        self.events = []
        self.private = [{} for _ in range(n)]
        bag = {name: TOKENS_PER_GOOD for name in TOKENS}
        bag["wild"] = n
        self.hidden = {"bag": bag, "discard": dict.fromkeys(TOKENS, 0)}
        self.ports = OPEN_PORTS[n]
        self.port_number = PORT_NUMBER[n]
        self.rounds = rounds_for(n)
        self.round = 1
        self.seat = 0
        self.phase = "send"
        self.coins = [START_COINS] * n
        self.ships = [START_SHIPS] * n
        self.at_casino = [0] * n
        self.at_market = [0] * n
        self.warehouse = [[0] * len(TOKENS) for _ in range(n)]
        self.cards = [[0] * len(CARDS) for _ in range(n)]
        self.cards_left = [card.copies for card in CARDS]
        self.market: list[int] = []
        self.port_goods: list[list[int]] = [[] for _ in self.ports]
        self.port_bids = [[0] * n for _ in self.ports]
        self.bag_size = sum(bag.values())
        self.discard_size = 0
        self.draws = [("market", slot, f"setup/market/{slot}") for slot in range(BLACK_MARKET_SIZE)]
        for p, port in enumerate(self.ports):
            self.draws += [("port", p, f"setup/port/{port.name}/{i}") for i in range(port.slots)]
        self._reset_turn()
        self.events.append({"type": "setup", "ports": [port.name for port in self.ports]})
        self.events.append({"type": "turn", "round": 1, "seat": 0})

    def _reset_turn(self) -> None:
        """Clear what lasts only for the current seat's turn."""
        self.resolved: list[int] = []
        self.abandoned: list[int] = []
        self.syndicate_paid = 0
        self.market_draws = 0
        self.pending = NO_PENDING
        self.credit = 0
        self.combo_kind: str | None = None
        self.combo: list[int] = []

    # ----------------------------------------------------------------- turn
    @property
    def to_move(self) -> list[int]:
        if self.draws:
            return [CHANCE]
        if self.phase == "over":
            return []
        return [self.seat]

    @property
    def is_over(self) -> bool:
        return self.phase == "over" and not self.draws

    def _chance_outcomes(self) -> list[tuple[dict[str, Any], float]]:
        """One token drawn from the bag, each kind as likely as its share of the bag."""
        if not self.draws:
            return []
        bag = self.hidden["bag"]
        drawable = []
        total = 0
        for action, name in _DRAW_NAMES:
            count = bag.get(name, 0)
            if count > 0:
                total += count
                drawable.append((action, count))
        return [(action, count / total) for action, count in drawable]

    def chance_key(self) -> str:
        return self.draws[0][2] if self.draws else ""

    def explain_illegal(self, seat: int, action: dict[str, Any], legal: list) -> str:
        return explain(self, seat, action, legal)

    # -------------------------------------------------------------- outcome
    def outcome(self) -> dict[str, list]:
        scores = [victory_points(cards) for cards in self.cards]
        ranks = final_ranks(scores, [best_card_vp(cards) for cards in self.cards])
        return {"scores": scores, "ranks": ranks}

    # ---------------------------------------------------------- persistence
    def clone(self) -> CargoNoirState:
        other = CargoNoirState.__new__(CargoNoirState)
        other.num_players = self.num_players
        other.options = dict(self.options)
        other.events = list(self.events)
        other.private = [{} for _ in self.private]
        other.hidden = {"bag": dict(self.hidden["bag"]), "discard": dict(self.hidden["discard"])}
        other.ports = self.ports
        other.port_number = self.port_number
        other.rounds = self.rounds
        other.round = self.round
        other.seat = self.seat
        other.phase = self.phase
        other.coins = list(self.coins)
        other.ships = list(self.ships)
        other.at_casino = list(self.at_casino)
        other.at_market = list(self.at_market)
        other.warehouse = [list(w) for w in self.warehouse]
        other.cards = [list(c) for c in self.cards]
        other.cards_left = list(self.cards_left)
        other.market = list(self.market)
        other.port_goods = [list(g) for g in self.port_goods]
        other.port_bids = [list(b) for b in self.port_bids]
        other.bag_size = self.bag_size
        other.discard_size = self.discard_size
        other.draws = list(self.draws)
        other.resolved = list(self.resolved)
        other.abandoned = list(self.abandoned)
        other.syndicate_paid = self.syndicate_paid
        other.market_draws = self.market_draws
        other.pending = self.pending
        other.credit = self.credit
        other.combo_kind = self.combo_kind
        other.combo = list(self.combo)
        return other

    def _pending_json(self) -> str | None:
        if self.pending == PENDING_MARKET:
            return "black_market"
        if self.pending >= 0:
            return self.ports[self.pending].name
        return None

    def to_json(self) -> dict[str, Any]:
        names = [port.name for port in self.ports]
        return {
            "engine": "cargo_noir",
            "num_players": self.num_players,
            "options": dict(self.options),
            "events": [dict(e) for e in self.events],
            "private": [{} for _ in self.private],
            "hidden": {
                "bag": dict(self.hidden["bag"]),
                "discard": dict(self.hidden["discard"]),
            },
            "round": self.round,
            "seat": self.seat,
            "phase": self.phase,
            "coins": list(self.coins),
            "ships": list(self.ships),
            "at_casino": list(self.at_casino),
            "at_market": list(self.at_market),
            "warehouse": [_token_counts(w) for w in self.warehouse],
            "cards": [_card_counts(c) for c in self.cards],
            "cards_left": _card_counts(self.cards_left),
            "black_market": [TOKENS[g] for g in self.market],
            "ports": {
                name: {
                    "goods": [TOKENS[g] for g in self.port_goods[p]],
                    "bids": list(self.port_bids[p]),
                }
                for p, name in enumerate(names)
            },
            "bag_size": self.bag_size,
            "discard_size": self.discard_size,
            "draws": [list(d) for d in self.draws],
            "turn": {
                "resolved": [names[p] for p in self.resolved],
                "abandoned": [names[p] for p in self.abandoned],
                "syndicate_paid": self.syndicate_paid,
                "market_draws": self.market_draws,
                "pending": self._pending_json(),
                "credit": self.credit,
                "combination_kind": self.combo_kind,
                "combination": [TOKENS[g] for g in self.combo],
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CargoNoirState:
        """Rebuild a state from :meth:`to_json` output (a plain copy; secrets as given)."""
        n = data["num_players"]
        state = cls.__new__(cls)
        state.num_players = n
        state.options = dict(data["options"])
        state.events = [dict(e) for e in data["events"]]
        state.private = [dict(p) for p in data["private"]]
        hidden = data["hidden"]
        state.hidden = {"bag": dict(hidden["bag"]), "discard": dict(hidden["discard"])}
        state.ports = OPEN_PORTS[n]
        state.port_number = PORT_NUMBER[n]
        number = state.port_number
        state.rounds = rounds_for(n)
        state.round = data["round"]
        state.seat = data["seat"]
        state.phase = data["phase"]
        state.coins = list(data["coins"])
        state.ships = list(data["ships"])
        state.at_casino = list(data["at_casino"])
        state.at_market = list(data["at_market"])
        state.warehouse = [[w.get(name, 0) for name in TOKENS] for w in data["warehouse"]]
        state.cards = [[c.get(card.name, 0) for card in CARDS] for c in data["cards"]]
        state.cards_left = [data["cards_left"].get(card.name, 0) for card in CARDS]
        state.market = [TOKEN_INDEX[g] for g in data["black_market"]]
        ports = [data["ports"][port.name] for port in state.ports]
        state.port_goods = [[TOKEN_INDEX[g] for g in port["goods"]] for port in ports]
        state.port_bids = [list(port["bids"]) for port in ports]
        state.bag_size = data["bag_size"]
        state.discard_size = data["discard_size"]
        state.draws = [(kind, index, key) for kind, index, key in data["draws"]]
        turn = data["turn"]
        state.resolved = [number[name] for name in turn["resolved"]]
        state.abandoned = [number[name] for name in turn["abandoned"]]
        state.syndicate_paid = turn["syndicate_paid"]
        state.market_draws = turn["market_draws"]
        pending = turn["pending"]
        if pending is None:
            state.pending = NO_PENDING
        elif pending == "black_market":
            state.pending = PENDING_MARKET
        else:
            state.pending = number[pending]
        state.credit = turn["credit"]
        state.combo_kind = turn["combination_kind"]
        state.combo = [TOKEN_INDEX[g] for g in turn["combination"]]
        return state


def _token_counts(counts: list[int]) -> dict[str, int]:
    return {name: counts[i] for i, name in enumerate(TOKENS)}


def _card_counts(counts: list[int]) -> dict[str, int]:
    return {card.name: counts[i] for i, card in enumerate(CARDS)}
