"""Manila's actions and public events as English sentences for people (game pages).

Actions and events name spaces by their JSON names (``"harbor_A"``,
``"pilot_small"``, ``"pirate"``) and list seats and goods as JSON lists and
maps; people read "harbor dock A", "the small pilot", "the pirate ship",
"seat 1 and seat 3". Every event type the engine emits has a sentence here
(``EVENT_TYPES``, checked by a test). Texts never fail: a malformed action
or event gets a plain fallback sentence, since verification reports also
describe tampered actions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engines.text import action_sentence, event_sentence

from .data import GOODS, INSURANCE_BONUS, LETTERS, MORTGAGE_VALUE, REDEEM_COST

Text = Callable[[Mapping[str, Any]], str]

_SPACES = {
    "harbor_A": "harbor dock A",
    "harbor_B": "harbor dock B",
    "harbor_C": "harbor dock C",
    "shipyard_A": "shipyard berth A",
    "shipyard_B": "shipyard berth B",
    "shipyard_C": "shipyard berth C",
    "pilot_small": "the small pilot's space",
    "pilot_large": "the large pilot's space",
    "insurance": "the insurance office",
    "pirate": "the pirate ship",
}
_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


# ------------------------------------------------------------------ grammar
def count(number: Any, singular: str, plural: str | None = None) -> str:
    """``"1 peso"``, ``"3 pesos"``, ``"minus 1 peso"``; ``plural`` for irregular nouns.

    Raises ``TypeError`` for anything but an integer, so a malformed action
    gets the fallback sentence rather than "None pesos".
    """
    if not isinstance(number, int) or isinstance(number, bool):
        raise TypeError(f"not a count: {number!r}")
    if number < 0:
        return f"minus {count(-number, singular, plural)}"
    noun = singular if number == 1 else (plural or f"{singular}s")
    return f"{number} {noun}"


def pesos(number: Any) -> str:
    return count(number, "peso")


def join(words: Iterable[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``; nothing at all is ``"nobody"``."""
    items = list(words)
    if not items:
        return "nobody"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} and {items[-1]}"


def number(value: Any) -> int:
    """An integer field, or ``TypeError`` (a malformed action gets the fallback sentence)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"not an integer: {value!r}")
    return value


def one_of(value: Any, allowed: Iterable[str]) -> str:
    """A name from a known set, or ``ValueError``."""
    if value not in tuple(allowed):
        raise ValueError(f"unknown name: {value!r}")
    return str(value)


def good(name: Any) -> str:
    return one_of(name, GOODS)


def letter(name: Any) -> str:
    """A dock or shipyard berth: A, B or C."""
    return one_of(name, LETTERS)


def destination(name: Any) -> str:
    """Where a plundered boat is sent."""
    return one_of(name, ("harbor", "shipyard"))


def seat(value: Any) -> str:
    return f"seat {number(value)}"


def seats(numbers: Iterable[Any]) -> str:
    """Distinct seats in first-seen order: ``[1, 3, 1]`` -> "seat 1 and seat 3"."""
    return join(seat(n) for n in dict.fromkeys(numbers))


def space(name: Any) -> str:
    """A placement space: a boat ("the jade boat") or a named space."""
    if name in _SPACES:
        return _SPACES[name]
    return f"the {good(name)} boat"


def ordinal(value: Any) -> str:
    return _ORDINALS.get(number(value), f"{value}th")


def direction(move: Any) -> str:
    """A pilot's step: +1 is forward, -1 back."""
    return {1: "forward", -1: "back"}[number(move)]


# ------------------------------------------------------------------ actions
def _place(a: Mapping[str, Any]) -> str:
    name = a["space"]
    if name == "insurance":
        return f"Take the insurance office and its {pesos(INSURANCE_BONUS)}"
    if name in ("pilot_small", "pilot_large"):
        return f"Become the {'small' if name == 'pilot_small' else 'large'} pilot"
    return f"Place an accomplice on {space(name)}"


def _board(a: Mapping[str, Any]) -> str:
    text = f"Leave the pirate ship and board the {good(a['good'])} boat"
    if "evict" in a:
        text += f", sending its {ordinal(number(a['evict']) + 1)} crew member home"
    return text


_ACTIONS: dict[str, Text] = {
    "deal": lambda a: f"Deal a {good(a['good'])} share to {seat(a['seat'])}",
    "roll": lambda a: f"The die for the {good(a['good'])} boat shows {number(a['value'])}",
    "bid": lambda a: f"Bid {pesos(a['amount'])} to become harbor master",
    "more_bids": lambda a: "Show the next page of bids",
    "pass": lambda a: "Pass",
    "buy": lambda a: f"Buy a {good(a['good'])} share",
    "skip_buy": lambda a: "Buy no share",
    "leave_ashore": lambda a: f"Leave the {good(a['good'])} ashore this voyage",
    "start_boat": lambda a: f"Start the {good(a['good'])} boat on space {number(a['space'])}",
    "place": _place,
    "harbor_order": lambda a: (
        "Dock the boats in this order: "
        + " then ".join(good(g) for g in a["goods"])
        + " (the first on dock A)"
    ),
    "shipyard_order": lambda a: (
        "Send the boats to the shipyard in this order: "
        + " then ".join(good(g) for g in a["goods"])
        + " (the first on berth A)"
    ),
    "board": _board,
    "stay": lambda a: "Stay on the pirate ship",
    "pilot": lambda a: f"Move the {good(a['good'])} boat one space {direction(a['move'])}",
    "pilot_stop": lambda a: "Move no more boats",
    "send": lambda a: f"Send the plundered {good(a['good'])} boat to the {destination(a['to'])}",
    "redeem": lambda a: (
        "Redeem no mortgaged share"
        if a["count"] == 0
        else f"Redeem {count(a['count'], 'mortgaged share')} for {pesos(REDEEM_COST * a['count'])}"
    ),
}


def describe(action: Mapping[str, Any]) -> str:
    """An action as a short imperative sentence (no full stop)."""
    return action_sentence(_ACTIONS, action)


# ------------------------------------------------------------------- events
def _harbor_master(e: Mapping[str, Any]) -> str:
    if e.get("no_bids"):
        return f"Nobody bids: {seat(e['seat'])} stays harbor master for free."
    return f"{seat(e['seat'])} becomes harbor master for {pesos(e['price'])}."


def _placed(e: Mapping[str, Any]) -> str:
    who, name, cost = seat(e["seat"]), e["space"], e["cost"]
    if name == "insurance":
        return (
            f"{who} takes the insurance office and receives {pesos(INSURANCE_BONUS)} from the bank."
        )
    if name in ("pilot_small", "pilot_large"):
        size = "small" if name == "pilot_small" else "large"
        return f"{who} becomes the {size} pilot for {pesos(cost)}."
    if cost == 0:
        return f"{who} stows away on {space(name)} for free."
    return f"{who} places an accomplice on {space(name)} for {pesos(cost)}."


def _boarded(e: Mapping[str, Any]) -> str:
    text = f"{seat(e['seat'])} leaves the pirate ship and boards the {good(e['good'])} boat"
    if "sent_home" in e:
        text += f", sending an accomplice of {seat(e['sent_home'])} home"
    return text + "."


def _piloted(e: Mapping[str, Any]) -> str:
    way = direction(e["move"])
    return f"{seat(e['seat'])}, as pilot, moves the {good(e['good'])} boat one space {way}."


def _plundered(e: Mapping[str, Any]) -> str:
    shares = Counter(e["pirates"])
    takes = join(f"{seat(s)} takes {pesos(n * e['each'])}" for s, n in shares.items())
    crew = e["crew_sent_home"]
    home = (
        f"its crew ({seats(crew)}) go home empty-handed" if crew else "it had nobody aboard to lose"
    )
    return f"Pirates plunder the {good(e['good'])} boat on space 13: {takes}; {home}."


def _profits(e: Mapping[str, Any]) -> str:
    earned = [(s, gain) for s, gain in enumerate(e["gains"]) if gain]
    if not earned:
        return "Nobody earns anything this voyage."
    return "Profits: " + join(f"{seat(s)} earns {pesos(gain)}" for s, gain in earned) + "."


def _insurance_paid(e: Mapping[str, Any]) -> str:
    who, owed, forgiven = seat(e["seat"]), e["owed"], e["forgiven"]
    if not forgiven:
        return f"{who}, the insurance agent, pays {pesos(owed)} for the boats in the shipyard."
    return (
        f"{who}, the insurance agent, owes {pesos(owed)} for the boats in the shipyard, "
        f"can pay only {pesos(owed - forgiven)}, and the bank forgives the other {forgiven}."
    )


def _prices(e: Mapping[str, Any]) -> str:
    risen = join(good(name) for name in e["risen"])
    now = join(f"{good(name)} {number(price)}" for name, price in e["prices"].items())
    subject = "price of" if len(e["risen"]) == 1 else "prices of"
    verb = "rises" if len(e["risen"]) == 1 else "rise"
    return f"The {subject} {risen} {verb} one step; share prices are now {now}."


def _game_over(e: Mapping[str, Any]) -> str:
    order = sorted(range(len(e["ranks"])), key=lambda s: (e["ranks"][s], s))
    places = join(f"{seat(s)} {ordinal(e['ranks'][s])} with {pesos(e['scores'][s])}" for s in order)
    return f"The game is over and every share is revealed. Final wealth: {places}."


def _supply(e: Mapping[str, Any]) -> str:
    shares = join(count(n, f"{good} share") for good, n in e["supply"].items())
    return f"The undealt shares join the open supply, which now holds {shares}."


_EVENTS: dict[str, Text] = {
    "dealt": lambda e: f"{seat(e['seat'])} is dealt a share, face down.",
    "supply": _supply,
    "voyage": lambda e: f"Voyage {number(e['voyage'])} begins with the auction for harbor master.",
    "bid": lambda e: f"{seat(e['seat'])} bids {pesos(e['amount'])} to become harbor master.",
    "pass": lambda e: f"{seat(e['seat'])} passes.",
    "harbor_master": _harbor_master,
    "bought": lambda e: (
        f"{seat(e['seat'])} buys a {good(e['good'])} share for {pesos(e['price'])}."
    ),
    "skip_buy": lambda e: f"{seat(e['seat'])} buys no share.",
    "left_ashore": lambda e: f"The {good(e['good'])} is left ashore this voyage.",
    "boat_started": lambda e: f"The {good(e['good'])} boat starts on space {number(e['space'])}.",
    "placed": _placed,
    "roll": lambda e: f"The die for the {good(e['good'])} boat shows {number(e['value'])}.",
    "docked": lambda e: (
        f"The {good(e['good'])} boat reaches Manila and docks at harbor dock {letter(e['dock'])}."
    ),
    "repaired": lambda e: (
        f"The {good(e['good'])} boat goes to the shipyard for repair, on berth {letter(e['yard'])}."
    ),
    "boarded": _boarded,
    "stayed": lambda e: f"{seat(e['seat'])} stays on the pirate ship.",
    "piloted": _piloted,
    "pilot_stop": lambda e: f"{seat(e['seat'])}, as pilot, moves no more boats.",
    "plundered": _plundered,
    "sent": lambda e: (
        f"The pirate captain sends the plundered {good(e['good'])} boat "
        f"to the {destination(e['to'])}."
    ),
    "profits": _profits,
    "insurance_paid": _insurance_paid,
    "mortgaged": lambda e: (
        f"{seat(e['seat'])} mortgages {count(e['count'], 'share')} to the bank "
        f"for {pesos(MORTGAGE_VALUE * e['count'])}."
    ),
    "redeemed": lambda e: (
        f"{seat(e['seat'])} redeems {count(e['count'], 'mortgaged share')} "
        f"for {pesos(REDEEM_COST * e['count'])}."
    ),
    "prices": _prices,
    "game_over": _game_over,
}

EVENT_TYPES = frozenset(_EVENTS)
"""Every event type the engine emits (a test checks each has a sentence)."""


def describe_event(event: Mapping[str, Any]) -> str:
    """A public event as one or two full sentences."""
    return event_sentence(_EVENTS, event)
