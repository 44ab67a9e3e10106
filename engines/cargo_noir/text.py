"""Cargo Noir's actions and public events as English sentences for game pages.

Actions and events name tokens (``"cars"``, ``"wild"``), places
(``"black_market"``) and cards (``"Cargo Ship"``) by their JSON names; people
read "2 car tokens", "the black market", "a Cargo Ship card".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engines.text import (
    action_sentence,
    article,
    count,
    event_sentence,
    join,
    victory_points_verdict,
)

from .data import BLACK_MARKET, CASINO

TOKEN_WORDS = {
    "alcohol": "alcohol",
    "weapons": "weapon",
    "art": "art",
    "cars": "car",
    "cigars": "cigar",
    "ivory": "ivory",
    "jewels": "jewel",
    "gold": "gold",
    "uranium": "uranium",
    "wild": "wild",
}
"""The word before "token": "1 weapon token", "3 jewel tokens"."""

_PLACES = {CASINO: "the casino", BLACK_MARKET: "the black market"}

Text = Callable[[Mapping[str, Any]], str]


def place(name: Any) -> str:
    return _PLACES.get(str(name), str(name))


def tokens(names: Iterable[Any]) -> str:
    """``["cars", "cars", "wild"]`` -> "2 car tokens and 1 wild token" (in first-seen order)."""
    counts = Counter(str(name) for name in names)
    return join(count(n, f"{TOKEN_WORDS.get(name, name)} token") for name, n in counts.items())


def seat(number: Any) -> str:
    return f"Seat {number}"


def coins(number: Any) -> str:
    return count(int(number), "coin")


def card(name: Any) -> str:
    return f"{article(str(name))} card"


# ------------------------------------------------------------------ actions
_ACTIONS: dict[str, Text] = {
    "draw": lambda a: f"Draw {tokens([a['good']])} from the bag",
    "resolve": lambda a: f"Resolve the ship at {place(a['at'])}",
    "market_swap": lambda a: (
        f"Swap {tokens([a['give']])} for {tokens([a['take']])} at the black market"
    ),
    "market_draw": lambda a: "Draw a random token from the bag at the black market",
    "market_skip": lambda a: "Do nothing at the black market (nothing to swap or draw)",
    "raise": lambda a: f"Add {coins(a['add'])} to the stack at {a['port']}",
    "withdraw": lambda a: f"Withdraw the ship and its coins from {a['port']}",
    "start_combination": lambda a: (
        "Start a combination of goods of the same type"
        if a["kind"] == "same"
        else "Start a combination of goods of different types"
    ),
    "add": lambda a: f"Add {tokens([a['good']])} to the combination",
    "smuggle": lambda a: "Smuggle the combination",
    "buy": lambda a: f"Buy {card(a['card'])}",
    "end_smuggling": lambda a: "End smuggling",
    "discard": lambda a: f"Discard {tokens([a['good']])}",
    "send": lambda a: f"Send a ship to {place(a['to'])}",
    "bid": lambda a: f"Leave a stack of {coins(a['coins'])} at {a['port']}",
}


def describe(action: Mapping[str, Any]) -> str:
    """An action as a short imperative sentence (no full stop)."""
    return action_sentence(_ACTIONS, action)


# ------------------------------------------------------------------- events
def _drawn(e: Mapping[str, Any]) -> str:
    good = tokens([e.get("good")])
    if "seat" in e:
        return f"{seat(e['seat'])} draws {good} from the bag."
    return f"Drawn from the bag for {place(e.get('to'))}: {good}."


def _bought_goods(e: Mapping[str, Any]) -> str:
    goods = e.get("goods") or []
    taken = tokens(goods) if goods else "nothing (the port was empty)"
    return (
        f"{seat(e.get('seat'))} pays {coins(e.get('coins', 0))} to the bank and takes the goods "
        f"of {e.get('port')}: {taken}."
    )


def _withdraw(e: Mapping[str, Any]) -> str:
    bonus = int(e.get("syndicate_bonus", 0))
    extra = f", and gets {coins(bonus)} from the bank for a Syndicate card" if bonus else ""
    return (
        f"{seat(e.get('seat'))} withdraws from {e.get('port')} and takes back "
        f"{coins(e.get('coins_back', 0))}{extra}."
    )


def _smuggled(e: Mapping[str, Any]) -> str:
    kind = "all of one type" if e.get("kind") == "same" else "all of different types"
    return (
        f"{seat(e.get('seat'))} smuggles {tokens(e.get('goods') or [])} ({kind}) "
        f"for a smuggling value of {e.get('value')}."
    )


def _bought_card(e: Mapping[str, Any]) -> str:
    used = int(e.get("coins_used", 0))
    extra = f", paying {coins(used)} of it from the safe" if used else ""
    return f"{seat(e.get('seat'))} buys {card(e.get('card'))}{extra}."


def _sent(e: Mapping[str, Any]) -> str:
    to = e.get("to")
    if "coins" in e:
        return f"{seat(e.get('seat'))} sends a ship to {to} on a stack of {coins(e['coins'])}."
    return f"{seat(e.get('seat'))} sends a ship to {place(to)}."


_EVENTS: dict[str, Text] = {
    "setup": lambda e: (
        f"The game starts with {count(len(e.get('ports') or []), 'port')} open "
        f"({join(e.get('ports') or [])}); the black market and the ports are filled from the bag."
    ),
    "turn": lambda e: f"Round {e.get('round')}: {seat(e.get('seat')).lower()} plays a turn.",
    "drawn": _drawn,
    "casino": lambda e: (
        f"{seat(e.get('seat'))}'s ship at the casino brings back {coins(e.get('coins', 0))}."
    ),
    "outbid": lambda e: (
        f"{seat(e.get('seat'))} has been outbid at {e.get('port')} and must raise or withdraw."
    ),
    "bought_goods": _bought_goods,
    "market_swap": lambda e: (
        f"{seat(e.get('seat'))} swaps {tokens([e.get('give')])} for {tokens([e.get('take')])} "
        f"at the black market."
    ),
    "market_draw": lambda e: (
        f"{seat(e.get('seat'))}'s ship at the black market draws a token from the bag."
    ),
    "market_skip": lambda e: (
        f"{seat(e.get('seat'))}'s ship at the black market finds nothing to swap or draw."
    ),
    "raise": lambda e: (
        f"{seat(e.get('seat'))} adds {coins(e.get('add', 0))} to the stack at {e.get('port')} "
        f"(now {coins(e.get('stack', 0))}) and leaves the ship there for another round."
    ),
    "withdraw": _withdraw,
    "smuggled": _smuggled,
    "bought_card": _bought_card,
    "credit_lost": lambda e: (
        f"{seat(e.get('seat'))} loses {count(int(e.get('value', 0)), 'point')} of unspent "
        f"smuggling value (no change is given)."
    ),
    "discarded": lambda e: (
        f"{seat(e.get('seat'))} discards {tokens([e.get('good')])} (the warehouse is full)."
    ),
    "sent": _sent,
    "bag_refilled": lambda e: (
        f"The bag is empty: {count(int(e.get('tokens', 0)), 'discarded token')} "
        f"{'is' if e.get('tokens') == 1 else 'are'} shuffled back into it."
    ),
    "bag_empty": lambda e: (
        f"The bag and the discard pile are empty: {count(int(e.get('undrawn', 0)), 'token')} "
        f"cannot be drawn."
    ),
    "game_over": victory_points_verdict,
}

EVENT_TYPES = frozenset(_EVENTS)
"""Every event type the engine emits (a test checks each has a sentence)."""


def describe_event(event: Mapping[str, Any]) -> str:
    """A public event as one or two full sentences."""
    return event_sentence(_EVENTS, event)
