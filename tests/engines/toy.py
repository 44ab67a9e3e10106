"""A tiny test-only game that exercises every part of the engine protocol.

High card: chance deals each seat one hidden card from a deck of 1..6 (one
card at a time, without replacement); then each seat in turn "raises" or
"holds"; a raiser scores card * 2, a holder scores card. It is registered only
by the tests, so the generic protocol tests are proven on a known-good
engine before they judge the real ones.
"""

from __future__ import annotations

from typing import Any

from engines import CHANCE, Engine, State, ranks_from_scores

DECK = (1, 2, 3, 4, 5, 6)


class HighCardState(State):
    __slots__ = ("choices", "next_deal")
    engine: Any = None

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        self.num_players = num_players
        self.options = options
        self.events = []
        self.private = [{"card": None} for _ in range(num_players)]
        self.hidden = {"deck": list(DECK)}
        self.choices: list[str | None] = [None] * num_players
        self.next_deal = 0

    @property
    def to_move(self) -> list[int]:
        if self.next_deal < self.num_players:
            return [CHANCE]
        for seat, choice in enumerate(self.choices):
            if choice is None:
                return [seat]
        return []

    def _legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self.to_move != [seat] or seat == CHANCE:
            return []
        return [{"type": "raise"}, {"type": "hold"}]

    def _chance_outcomes(self) -> list[tuple[dict[str, Any], float]]:
        if self.to_move != [CHANCE]:
            return []
        deck = self.hidden["deck"]
        return [({"type": "deal", "card": c}, 1 / len(deck)) for c in deck]

    def chance_key(self) -> str:
        return f"deal/seat{self.next_deal}"

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        if seat == CHANCE:
            self.hidden["deck"].remove(action["card"])
            self.private[self.next_deal]["card"] = action["card"]
            self.events.append({"type": "dealt", "seat": self.next_deal})
            self.next_deal += 1
        else:
            self.choices[seat] = action["type"]
            self.events.append({"type": action["type"], "seat": seat})

    def public_view(self) -> dict[str, Any]:
        view: dict[str, Any] = {"choices": list(self.choices), "dealt": self.next_deal}
        if self.is_over:
            view["cards"] = [p["card"] for p in self.private]
        return view

    def outcome(self) -> dict[str, list]:
        scores = [
            p["card"] * (2 if c == "raise" else 1)
            for p, c in zip(self.private, self.choices, strict=True)
        ]
        return {"scores": scores, "ranks": ranks_from_scores(scores)}

    def clone(self) -> HighCardState:
        other = HighCardState.__new__(HighCardState)
        other.num_players = self.num_players
        other.options = dict(self.options)
        other.events = list(self.events)
        other.private = [dict(p) for p in self.private]
        other.hidden = {"deck": list(self.hidden["deck"])}
        other.choices = list(self.choices)
        other.next_deal = self.next_deal
        return other

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": "toy_highcard",
            "num_players": self.num_players,
            "options": dict(self.options),
            "events": [dict(e) for e in self.events],
            "private": [dict(p) for p in self.private],
            "hidden": {"deck": list(self.hidden["deck"])},
            "choices": list(self.choices),
            "next_deal": self.next_deal,
        }


class HighCard(Engine):
    slug = "toy_highcard"
    name = "High card (test toy)"
    min_players = 2
    max_players = 4
    version = "1"
    options = {"unused_flag": False}

    def _new_game(self, num_players: int, options: dict[str, Any]) -> State:
        return HighCardState(num_players, options)

    def from_json(self, data: dict[str, Any]) -> State:
        state = HighCardState(data["num_players"], dict(data["options"]))
        state.events = [dict(e) for e in data["events"]]
        state.private = [dict(p) for p in data["private"]]
        state.hidden = {"deck": list(data["hidden"]["deck"])}
        state.choices = list(data["choices"])
        state.next_deal = data["next_deal"]
        return state

    def describe(self, action: dict[str, Any]) -> str:
        if action["type"] == "deal":
            return f"Deal a {action['card']}"
        return action["type"].capitalize()


TOY = HighCard()
HighCardState.engine = TOY
