"""The Batavia state: its fields, turn order, persistence and the dispatch of actions.

The rules themselves live in small modules (``track``, ``cards``, ``auction``,
``turn``, ``flow``, ``scoring``); this class only holds the position and
routes each action to the module that knows what it means. It sits above
them all: a chance card goes to the module of the phase that asked for it,
and what a revealed block was for (``track.apply_reveal`` returns it) is
carried out here, so no rules module calls back up into one that imports it.
Everything public is a plain slot; the secrets live in ``private`` (hand,
letters) and ``hidden`` (deck and discard pile), as the engine protocol
requires.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engines.base import CHANCE, Action, Engine, State, ranks_from_scores

from . import auction, cards, flow, track, turn
from .explain import explain
from .rules import (
    CARDS_PER_COMPANY,
    COMPANIES,
    CRATES,
    FACE_DOWN,
    FACE_UP_AT_START,
    NUM_COMPANIES,
    NUM_GOODS,
    START,
    STARTING_LETTERS,
    TRACK_LENGTH,
)
from .scoring import score
from .views import public_view

CHANCE_PHASES = frozenset({"reveal", "deal", "roll", "lot", "draw"})

# Public fields, saved as they are by to_json (lists of ints are copied one level
# or two deep by clone/from_json; see _NESTED).
_SCALARS = (
    "phase",
    "round",
    "turn",
    "auctioneer",
    "first_player",
    "die",
    "lot_left",
    "lot_drawn",
    "bid",
    "high_bidder",
    "acted",
    "draw_left",
    "draw_index",
    "deal_index",
    "revealed",
    "reveal_to",
    "after_reveal",
    "move_company",
    "final_hex",
    "deck_size",
    "discard_size",
    "new_post",
    "stock_empty_at_actions",
    "played_this_round",
)
_FLAT = (
    "lot",
    "in_auction",
    "track",
    "taken_by",
    "merchants",
    "seals",
    "crates_left",
    "gold",
    "hand_size",
    "turn_played",
    "convert_chosen",
)
_NESTED = ("front", "posts", "crates")


class BataviaState(State):
    """One position of a Batavia game (see ``docs/engines/batavia.md``)."""

    __slots__ = (*_SCALARS, *_FLAT, *_NESTED, "final")

    engine: ClassVar[Engine]

    # A silent seat passes the auction, draws rather than plays, stops playing
    # once it may, keeps its posts (docs/engines/batavia.md, "Default action").
    default_preference = (
        {"type": "pass"},
        {"type": "draw"},
        {"type": "done"},
        {"type": "convert_done"},
    )

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        n = num_players
        self.num_players = n
        self.options = options
        self.events = []
        self.private = [
            {"hand": dict.fromkeys(COMPANIES, 0), "letters": STARTING_LETTERS} for _ in range(n)
        ]
        self.hidden = {
            "deck": dict.fromkeys(COMPANIES, CARDS_PER_COMPANY),
            "discard": dict.fromkeys(COMPANIES, 0),
        }
        self.phase = "reveal"
        self.round = 0
        self.turn = -1
        self.auctioneer = 0
        self.first_player = -1
        self.die = 0
        self.lot_left = 0
        self.lot_drawn = 0
        self.bid = -1
        self.high_bidder = -1
        self.acted = 0
        self.draw_left = 0
        self.draw_index = 0
        self.deal_index = 0
        self.revealed = 0
        self.reveal_to = TRACK_LENGTH if options.get("open_track") else FACE_UP_AT_START
        self.after_reveal = "setup"
        self.move_company = -1
        self.final_hex = -1
        self.deck_size = CARDS_PER_COMPANY * NUM_COMPANIES
        self.discard_size = 0
        self.new_post = -1
        self.stock_empty_at_actions = False
        self.played_this_round = False
        self.lot = [0] * NUM_COMPANIES
        self.in_auction = [False] * n
        self.track = [FACE_DOWN] * TRACK_LENGTH
        self.taken_by = [-1] * TRACK_LENGTH
        self.merchants = [START] * n
        self.seals = [-1] * NUM_COMPANIES
        self.crates_left = [CRATES] * n
        self.gold = [0] * n
        self.hand_size = [0] * n
        self.turn_played = [0] * NUM_COMPANIES
        self.convert_chosen = []
        self.front = [[0] * NUM_COMPANIES for _ in range(n)]
        self.posts = [[0] * NUM_COMPANIES for _ in range(n)]
        self.crates = [[0] * NUM_GOODS for _ in range(n)]
        self.final = None

    # ----------------------------------------------------------------- turn
    @property
    def is_over(self) -> bool:
        return self.phase == "over"  # exactly when ``to_move`` is empty

    @property
    def to_move(self) -> list[int]:
        phase = self.phase
        if phase == "over":
            return []
        if phase in CHANCE_PHASES:
            return [CHANCE]
        return [self.turn]

    def _legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if seat != self.turn or phase in CHANCE_PHASES or phase == "over":
            return []
        if phase == "act":
            return turn.act_actions(self, seat)
        if phase == "play":
            return turn.play_actions(self, seat)
        if phase == "bid":
            return auction.bid_actions(self, seat)
        if phase == "move":
            return turn.move_actions(self, seat)
        return turn.convert_actions(self, seat)

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        phase = self.phase
        if phase in ("deal", "lot", "draw"):
            return cards.card_outcomes(self)
        if phase == "roll":
            return auction.die_outcomes()
        if phase == "reveal":
            return track.reveal_outcomes(self)
        return []

    def chance_key(self) -> str:
        phase = self.phase
        if phase == "draw":
            return f"draw/r{self.round}/seat{self.turn}/{self.draw_index}"
        if phase == "lot":
            return f"lot/r{self.round}/{self.lot_drawn}"
        if phase == "roll":
            return f"die/r{self.round}"
        if phase == "deal":
            n = self.num_players
            return f"deal/seat{self.deal_index % n}/card{self.deal_index // n}"
        if phase == "reveal":
            return f"post/space{self.revealed}"
        raise ValueError(f"no chance event pending in phase {phase!r}")

    def _apply(self, seat: int, action: Action) -> None:
        kind = action["type"]
        if seat == CHANCE:
            if kind == "card":  # the phase that asked for it takes it
                phase = self.phase
                if phase == "draw":
                    turn.draw_card(self, action["company"])
                elif phase == "lot":
                    auction.lot_card(self, action["company"])
                else:  # deal
                    flow.deal_card(self, action["company"])
            elif kind == "die":
                auction.apply_die(self, int(action["value"]))
            else:  # a post; once its block is face up, on with what the reveal was for
                then = track.apply_reveal(self, action["company"], action["good"])
                if then == "move":
                    turn.move_merchant(self, self.turn, self.move_company)
                elif then == "setup":
                    self.phase = "deal"
                elif then:  # "taken": the merchant stood on the last face-up space
                    turn.after_taking(self, self.turn)
        elif kind == "play":
            turn.play_card(self, seat, action["company"])
        elif kind == "draw":
            turn.start_draw(self, seat)
        elif kind == "done":
            turn.finish_playing(self, seat)
        elif kind == "bid":
            auction.place_bid(self, seat, int(action["amount"]))
        elif kind == "pass":
            auction.pass_bid(self, seat)
        elif kind == "move":
            turn.choose_destination(self, seat, action["company"])
        elif kind == "convert":
            turn.choose_conversion(self, seat, action["company"])
        else:  # convert_done
            turn.finish_conversion(self, seat)

    def explain_illegal(self, seat: int, action: Action, legal: list[Action]) -> str:
        return explain(self, seat, action, legal) or super().explain_illegal(seat, action, legal)

    # ---------------------------------------------------------------- views
    def public_view(self) -> dict[str, Any]:
        return public_view(self)

    def outcome(self) -> dict[str, list]:
        scores = score(self)["scores"] if self.final is None else self.final["scores"]
        return {"scores": list(scores), "ranks": ranks_from_scores(scores)}

    # ---------------------------------------------------------- persistence
    def clone(self) -> BataviaState:
        other = BataviaState.__new__(BataviaState)
        other.num_players = self.num_players
        other.options = dict(self.options)
        other.events = list(self.events)  # event dicts are never mutated
        other.private = [{"hand": dict(p["hand"]), "letters": p["letters"]} for p in self.private]
        hidden = self.hidden
        other.hidden = {"deck": dict(hidden["deck"]), "discard": dict(hidden["discard"])}
        for name in _SCALARS:
            setattr(other, name, getattr(self, name))
        for name in _FLAT:
            setattr(other, name, list(getattr(self, name)))
        for name in _NESTED:
            setattr(other, name, [list(row) for row in getattr(self, name)])
        other.final = self.final  # set once at the end, never mutated
        return other

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "engine": "batavia",
            "num_players": self.num_players,
            "options": dict(self.options),
            "events": _copy_json(self.events),
            "private": [{"hand": dict(p["hand"]), "letters": p["letters"]} for p in self.private],
            "hidden": {
                "deck": dict(self.hidden["deck"]),
                "discard": dict(self.hidden["discard"]),
            },
        }
        for name in _SCALARS:
            data[name] = getattr(self, name)
        for name in _FLAT:
            data[name] = list(getattr(self, name))
        for name in _NESTED:
            data[name] = [list(row) for row in getattr(self, name)]
        data["final"] = _copy_json(self.final)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BataviaState:
        """A plain copy of ``to_json`` output (tolerates any values of the same shape)."""
        state = cls.__new__(cls)
        state.num_players = data["num_players"]
        state.options = dict(data["options"])
        state.events = _copy_json(data["events"])
        state.private = [dict(_copy_json(p)) for p in data["private"]]
        state.hidden = _copy_json(data["hidden"])
        for name in _SCALARS:
            setattr(state, name, data[name])
        for name in _FLAT:
            setattr(state, name, list(data[name]))
        for name in _NESTED:
            setattr(state, name, [list(row) for row in data[name]])
        state.final = _copy_json(data["final"])
        return state


def _copy_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    return value
