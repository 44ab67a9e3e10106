"""Batavia's actions and public events as English sentences for game pages.

Actions and events name companies and goods by their JSON names
(``"netherlands"``, ``"silk"``); people read "a Dutch ship card". Track
spaces are numbered 1-35 here, as on the board (the JSON uses 0-34).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engines.text import action_sentence, article, capitalize, count, event_sentence, join

from .rules import FINAL_HEX_GOLD

ADJECTIVES = {
    "england": "English",
    "netherlands": "Dutch",
    "france": "French",
    "denmark": "Danish",
    "sweden": "Swedish",
}
"""A company's adjective: "a Dutch ship card", "the Danish seal"."""

Text = Callable[[Mapping[str, Any]], str]


def company(name: Any) -> str:
    return ADJECTIVES.get(str(name), str(name).capitalize())


def seat(number: Any) -> str:
    return f"seat {number}"


def cards(by_company: Mapping[str, int]) -> str:
    """``{"england": 2, "sweden": 1}`` -> "3 ship cards (2 English, 1 Swedish)"."""
    held = [(company(c), n) for c, n in by_company.items() if n]
    if not held:
        return "no ship card"
    if len(held) == 1:
        name, n = held[0]
        return count(n, f"{name} ship card")
    parts = ", ".join(f"{n} {name}" for name, n in held)
    return f"{count(sum(n for _, n in held), 'ship card')} ({parts})"


def space(number: Any) -> str:
    return f"space {int(number) + 1}"


# ------------------------------------------------------------------ actions
_ACTIONS: dict[str, Text] = {
    "card": lambda a: f"Draw {article(company(a.get('company')))} ship card",
    "die": lambda a: f"The die shows {a.get('value')}",
    "post": lambda a: (
        f"Reveal {article(company(a.get('company')))} trading post of {a.get('good')}"
    ),
    "bid": lambda a: f"Bid {count(int(a.get('amount', 0)), 'letter')}",
    "pass": lambda a: "Pass",
    "draw": lambda a: "Draw 2 ship cards",
    "play": lambda a: f"Play {article(company(a.get('company')))} ship card",
    "done": lambda a: "Stop playing cards and move the merchant",
    "move": lambda a: f"Move to the next {company(a.get('company'))} trading post",
    "convert": lambda a: f"Choose {article(company(a.get('company')))} post to convert into gold",
    "convert_done": lambda a: "Finish converting",
}


def describe(action: Mapping[str, Any]) -> str:
    """An action as a short imperative sentence (no full stop)."""
    return action_sentence(_ACTIONS, action)


# ------------------------------------------------------------------- events
def _auction_won(e: Mapping[str, Any]) -> str:
    paid = e.get("paid") or []
    receivers = [f"{seat(s)} gets {count(n, 'letter')}" for s, n in enumerate(paid) if n]
    payment = f"; {join(receivers)}" if receivers else ""
    return (
        f"{capitalize(seat(e.get('seat')))} wins the auction for "
        f"{count(int(e.get('amount', 0)), 'letter')}, taking {cards(e.get('cards') or {})} "
        f"and the first-player ship{payment}."
    )


def _moved(e: Mapping[str, Any]) -> str:
    good = e.get("good")
    crate = (
        f"a crate goes to the {good} warehouse"
        if e.get("crate")
        else "no crate is left to store the good"
    )
    return (
        f"{capitalize(seat(e.get('seat')))} moves the merchant to {space(e.get('space'))} and "
        f"takes {article(company(e.get('company')))} trading post of {good}; {crate}."
    )


def _pirates(e: Mapping[str, Any]) -> str:
    sunk = [company(c) for c in e.get("companies") or []]
    noun = "company" if len(sunk) == 1 else "companies"
    return (
        f"Pirates attack the biggest {noun}: all {count(int(e.get('cards', 0)), 'ship card')} "
        f"of the {join(sunk)} {noun} in play are discarded."
    )


def _hand_played(e: Mapping[str, Any]) -> str:
    shown = e.get("cards") or {}
    who = capitalize(seat(e.get("seat")))
    if not any(shown.values()):
        return f"{who} has no cards left in hand."
    return f"{who} lays down the rest of the hand: {cards(shown)}."


def _game_over(e: Mapping[str, Any]) -> str:
    why = {
        "final_hex": "the final hex was taken",
        "stalemate": "no card was left to draw or play",
    }.get(str(e.get("reason")), "the game has ended")
    gold = enumerate(e.get("scores") or [])
    scores = [f"{seat(s)} has {count(g, 'gold', 'gold')}" for s, g in gold]
    return f"The game is over ({why}). In the end {join(scores)}."


def _seal(e: Mapping[str, Any]) -> str:
    name = company(e.get("company"))
    if e.get("seat") is None:
        return f"Nobody holds the {name} majority: the {name} seal goes back to the board."
    return f"{capitalize(seat(e.get('seat')))} takes the {name} seal (majority of {name} cards)."


_EVENTS: dict[str, Text] = {
    "post_revealed": lambda e: (
        f"{capitalize(space(e.get('space')))} is revealed: "
        f"{article(company(e.get('company')))} trading post of {e.get('good')}."
    ),
    "dealt": lambda e: f"{capitalize(seat(e.get('seat')))} is dealt a ship card.",
    "round": lambda e: (
        f"Round {e.get('round')} begins; {seat(e.get('auctioneer'))} is the auctioneer."
    ),
    "die": lambda e: (
        f"{capitalize(seat(e.get('seat')))} rolls the die: {e.get('value')}, so up to "
        f"{count(int(e.get('value', 0)), 'ship card')} join the lot."
    ),
    "lot_card": lambda e: (
        f"{capitalize(article(company(e.get('company'))))} ship card is added to the lot."
    ),
    "bid": lambda e: (
        f"{capitalize(seat(e.get('seat')))} bids {count(int(e.get('amount', 0)), 'letter')}."
    ),
    "pass": lambda e: f"{capitalize(seat(e.get('seat')))} passes.",
    "auction_won": _auction_won,
    "auction_unsold": lambda e: (
        f"Everybody passed: the lot of {count(int(e.get('lot_size', 0)), 'ship card')} waits "
        f"for the next auction."
    ),
    "draw": lambda e: f"{capitalize(seat(e.get('seat')))} draws ship cards instead of playing.",
    "drew": lambda e: f"{capitalize(seat(e.get('seat')))} draws a ship card.",
    "reshuffled": lambda e: (
        f"The deck is empty: the discard pile of {count(int(e.get('cards', 0)), 'ship card')} "
        f"is shuffled into a new deck."
    ),
    "played": lambda e: (
        f"{capitalize(seat(e.get('seat')))} plays {article(company(e.get('company')))} ship card."
    ),
    "seal": _seal,
    "reveal_for_move": lambda e: (
        f"No {company(e.get('company'))} trading post is face up ahead of "
        f"{seat(e.get('seat'))}: the next five spaces are revealed."
    ),
    "moved": _moved,
    "final_hex": lambda e: (
        f"{capitalize(seat(e.get('seat')))} has no trading post ahead and takes the final hex "
        f"({count(FINAL_HEX_GOLD, 'gold', 'gold')}); the game ends after this round."
    ),
    "converted": lambda e: (
        f"{capitalize(seat(e.get('seat')))} converts "
        f"{join('one ' + company(c) for c in e.get('companies') or [])} trading post"
        f"{'' if len(e.get('companies') or []) == 1 else 's'} into "
        f"{count(int(e.get('gold', 0)), 'gold', 'gold')}."
    ),
    "pirates": _pirates,
    "hand_played": _hand_played,
    "game_over": _game_over,
}

EVENT_TYPES = frozenset(_EVENTS)
"""Every event type the engine emits (a test checks each has a sentence)."""


def describe_event(event: Mapping[str, Any]) -> str:
    """A public event as one or two full sentences."""
    return event_sentence(_EVENTS, event)
