"""Grog Island's actions and public events as English sentences for game pages.

Actions and events use JSON names (``"yellow/pub"``, ``"three_coins"``,
``"objective_swap"``, ``"set_blue"``, ``"building/rum"``); people read "the
Grog Hole pub on the yellow peninsula", "the three-coins ship", "the
objective-swap cloud", "a set-the-blue-die parrot card", "the rum distillery
objective". Goods are named by colour and by what they are: "2 yellow lemons".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engines.text import (
    action_sentence,
    article,
    capitalize,
    count,
    event_sentence,
    join,
    victory_points_verdict,
)

from .data import BUILDING_LABELS, COLOURS, OPEN_SEA

GOOD_WORDS: dict[str, tuple[str, str]] = {
    "yellow": ("lemon", "lemons"),
    "green": ("coconut", "coconuts"),
    "blue": ("fish", "fish"),
    "orange": ("grog barrel", "grog barrels"),
    "grey": ("treasure map", "treasure maps"),
}
"""A good's noun by colour (singular, plural): "1 blue fish", "2 orange grog barrels"."""

SHIP_WORDS = {
    "two_coins": "two-coins ship",
    "three_coins": "three-coins ship",
    "four_coins": "four-coins ship",
    "treasure": "treasure ship",
    "parrot": "parrot ship",
    "objectives": "objectives ship",
}
CLOUD_WORDS = {
    "objective_swap": "objective-swap cloud",
    "vp": "victory-point cloud",
    "parrot": "parrot cloud",
    "nothing": "empty white cloud",
    "black": "black cloud",
}
DECK_WORDS = {"objective": "objective card", "treasure": "treasure card", "parrot": "parrot card"}

Text = Callable[[Mapping[str, Any]], str]


def seat(number: Any) -> str:
    return f"Seat {number}"


def goods(colours: Iterable[Any]) -> str:
    """``["yellow", "yellow", "blue"]`` -> "2 yellow lemons and 1 blue fish"."""
    counts = Counter(str(c) for c in colours)
    words = [(c, n, GOOD_WORDS.get(c, ("good", "goods"))) for c, n in counts.items()]
    return join(count(n, f"{c} {one}", f"{c} {many}") for c, n, (one, many) in words)


def building_type(kind: str) -> str:
    """A building type as words: "sword shop", "Grog Hole pub"."""
    if kind == "pub":
        return "Grog Hole pub"
    return BUILDING_LABELS.get(kind, kind.replace("_", " "))


def building(name: Any) -> str:
    """``"yellow/pub"`` -> "the Grog Hole pub on the yellow peninsula"."""
    colour, _, kind = str(name).partition("/")
    return f"the {building_type(kind)} on the {colour} peninsula"


def ship(name: Any) -> str:
    return f"the {SHIP_WORDS.get(str(name), str(name).replace('_', '-') + ' ship')}"


def cloud(name: Any) -> str:
    return f"the {CLOUD_WORDS.get(str(name), str(name).replace('_', '-') + ' cloud')}"


def parrot_card(name: Any) -> str:
    name = str(name)
    if name == "hold":
        return "a hold-the-bid parrot card"
    return f"a set-the-{name.removeprefix('set_')}-die parrot card"


def objective(name: Any) -> str:
    """``"building/rum"`` -> "the rum distillery objective"; ``"goods/blue"`` likewise."""
    kind, _, key = str(name).partition("/")
    if kind == "building":
        return f"the {building_type(key)} objective"
    if kind == "goods":
        return f"the {key} goods objective ({GOOD_WORDS.get(key, ('', 'goods'))[1]})"
    if kind == "peninsula":
        return f"the {key} peninsula objective"
    return "the parrot objective"


def drawn_card(deck: Any, card: Any) -> str:
    if deck == "treasure":
        return f"a treasure card worth {count(int(card), 'coin')}"
    if deck == "parrot":
        return parrot_card(card)
    return f"{objective(card)} card"


def space(number: Any) -> str:
    number = int(number)
    if number == OPEN_SEA:
        return "at open sea"
    return f"under the {COLOURS[number]} peninsula"


def what_a_ship_gives(gives: Any) -> str:
    """``"coins:2"`` -> "2 coins"; ``"card:objective"`` -> "an objective card to choose from"."""
    what, _, amount = str(gives).partition(":")
    if what == "coins":
        return count(int(amount), "coin")
    if amount == "objective":
        return "an objective card to choose from"
    return article(DECK_WORDS.get(amount, "card"))


# ------------------------------------------------------------------ actions
_ACTIONS: dict[str, Text] = {
    "roll": lambda a: f"The {a.get('colour')} die shows {a.get('value')}",
    "place_cloud": lambda a: (
        f"{capitalize(cloud(a.get('cloud')))} goes over the {a.get('peninsula')} peninsula"
    ),
    "place_ship": lambda a: f"{capitalize(ship(a.get('ship')))} lies {space(a.get('space'))}",
    "draw": lambda a: f"{seat(a.get('seat'))} draws {drawn_card(a.get('deck'), a.get('card'))}",
    "choose_good": lambda a: f"Take {goods([a.get('good')])} as the starting good",
    "return_objective": lambda a: f"Put {objective(a.get('card'))} card under the objective deck",
    "pass": lambda a: "Pass: take goods and trade with a ship",
    "parrot": lambda a: (
        "Play a hold-the-bid parrot card: the bid may equal the current one"
        if a.get("card") == "hold"
        else f"Play a parrot card: set the {str(a.get('card')).removeprefix('set_')} die "
        f"to {a.get('value')}"
    ),
    "place": lambda a: f"Put the {a.get('colour')} die on the next bid space",
    "bid": lambda a: f"Bid {count(int(a.get('total', 0)), 'coin')}",
    "choose_ship": lambda a: f"Trade with {ship(a.get('ship'))}",
    "exchange": lambda a: f"Give {goods(a.get('goods') or [])} for the ship's exchange",
    "build_pay": lambda a: f"Give {goods(a.get('goods') or [])} towards a building",
    "keep_objective": lambda a: (
        f"Keep {objective(a.get('card'))} card and put the other drawn cards under the deck"
    ),
    "end_trade": lambda a: "End the trade",
    "claim": lambda a: f"Claim {building(a.get('building'))}",
    "decline_claims": lambda a: "Claim no more buildings",
    "pay_treasure": lambda a: (
        f"Pay with a treasure card worth {count(int(a.get('value', 0)), 'coin')}"
    ),
    "pay": lambda a: (
        f"Pay the rest of the bid with {count(int(a.get('coins', 0)), 'coin')}"
        if a.get("coins")
        else "Finish paying: the treasure covers the bid"
    ),
    "decline": lambda a: "Do not pay: win nothing",
    "lock": lambda a: f"Lock {building(a.get('building'))}",
    "ghost": lambda a: f"Put a ghost crew member on {building(a.get('building'))}",
}


def describe(action: Mapping[str, Any]) -> str:
    """An action as a short imperative sentence (no full stop)."""
    return action_sentence(_ACTIONS, action)


# ------------------------------------------------------------------- events
def _bid(e: Mapping[str, Any]) -> str:
    dice = list(e.get("dice") or [])
    holding = " (a parrot card holds the bid)" if e.get("hold") else ""
    return (
        f"{seat(e.get('seat'))} bids {count(int(e.get('total', 0)), 'coin')} with the "
        f"{join(dice)} {'die' if len(dice) == 1 else 'dice'}{holding}."
    )


def _passed(e: Mapping[str, Any]) -> str:
    taken = e.get("goods") or []
    what = goods(taken) if taken else "no goods"
    return f"{seat(e.get('seat'))} passes and takes {what}."


def _exchanged(e: Mapping[str, Any]) -> str:
    return (
        f"{seat(e.get('seat'))} gives {goods(e.get('goods') or [])} to the ship for "
        f"{what_a_ship_gives(e.get('gives'))}."
    )


def _kept(e: Mapping[str, Any]) -> str:
    returned = int(e.get("returned", 0))
    if not returned:
        return f"{seat(e.get('seat'))} keeps the objective card drawn at the ship."
    return (
        f"{seat(e.get('seat'))} keeps one objective card drawn at the ship and puts "
        f"{count(returned, 'card')} under the deck."
    )


def _claimed(e: Mapping[str, Any]) -> str:
    kind = str(e.get("building")).partition("/")[2]
    parts = [f"{seat(e.get('seat'))} puts a crew member on {building(e.get('building'))}"]
    sky = e.get("cloud")
    if sky == "vp":
        parts.append("the victory-point cloud gives 1 victory point")
    elif sky == "parrot":
        parts.append("the parrot cloud gives a parrot card if any is left")
    elif sky == "objective_swap":
        parts.append("the objective-swap cloud lets them draw an objective card and return one")
    coins = int(e.get("coins", 0))
    if sky == "black":
        parts.append("under the black cloud no coins are paid")
    elif coins:
        parts.append(
            f"{count(coins, 'coin')} for the free {building_type(kind)}s on other peninsulas"
        )
    return "; ".join(parts) + "."


def _paid(e: Mapping[str, Any]) -> str:
    bid = count(int(e.get("bid", 0)), "coin")
    coins = int(e.get("coins", 0))
    change = int(e.get("change", 0))
    who = seat(e.get("seat"))
    if change:
        change_text = count(change, "coin")
        return f"{who} has paid the bid of {bid} with treasure and gets {change_text} in change."
    if coins:
        return f"{who} pays {count(coins, 'coin')} of the bid of {bid}."
    return f"{who} has paid the bid of {bid} with treasure."


def _ships_moved(e: Mapping[str, Any]) -> str:
    ships = list(e.get("ships") or [])
    under = [f"{ship(name)} under {COLOURS[i]}" for i, name in enumerate(ships[:OPEN_SEA])]
    sea = f", and {ship(ships[OPEN_SEA])} is at open sea" if len(ships) > OPEN_SEA else ""
    return f"The ships move one space to the right: {join(under)}{sea}."


_EVENTS: dict[str, Text] = {
    "rolled": lambda e: f"The {e.get('colour')} die shows {e.get('value')}.",
    "cloud": lambda e: (
        f"{capitalize(cloud(e.get('cloud')))} goes over the {e.get('peninsula')} peninsula."
    ),
    "ship": lambda e: f"{capitalize(ship(e.get('ship')))} lies {space(e.get('space'))}.",
    "drew": lambda e: (
        f"{seat(e.get('seat'))} draws {article(DECK_WORDS.get(str(e.get('deck')), 'card'))}."
    ),
    "chose_good": lambda e: (
        f"{seat(e.get('seat'))} takes {goods([e.get('good')])} as the starting good."
    ),
    "returned_objective": lambda e: (
        f"{seat(e.get('seat'))} puts an objective card under the objective deck."
    ),
    "round": lambda e: (
        f"Round {e.get('round')} begins: seat {e.get('start_player')} is the start player "
        f"and rolls the five dice."
    ),
    "won_auction": lambda e: (
        f"{seat(e.get('seat'))} wins the auction with a bid of "
        f"{count(int(e.get('bid', 0)), 'coin')}."
    ),
    "parrot_played": lambda e: (
        f"{seat(e.get('seat'))} plays a hold-the-bid parrot card: this bid may equal the "
        f"current one."
        if e.get("card") == "hold"
        else f"{seat(e.get('seat'))} plays a parrot card and sets the "
        f"{str(e.get('card')).removeprefix('set_')} die to {e.get('value')}."
    ),
    "bid": _bid,
    "passed": _passed,
    "trade_ship": lambda e: (
        f"{seat(e.get('seat'))} trades with {ship(e.get('ship'))} under the "
        f"{e.get('peninsula')} peninsula."
    ),
    "exchanged": _exchanged,
    "kept_objective": _kept,
    "paid_for_building": lambda e: (
        f"{seat(e.get('seat'))} gives {goods(e.get('goods') or [])} towards a building."
    ),
    "trade_skipped": lambda e: (
        f"{seat(e.get('seat'))} can supply no free ship and leaves the trade disc without trading."
    ),
    "claimed": _claimed,
    "treasure_paid": lambda e: (
        f"{seat(e.get('seat'))} reveals a treasure card worth "
        f"{count(int(e.get('value', 0)), 'coin')} to pay the bid."
    ),
    "paid": _paid,
    "declined_payment": lambda e: (
        f"{seat(e.get('seat'))} does not pay the bid of {count(int(e.get('bid', 0)), 'coin')} "
        f"and wins nothing."
    ),
    "declined_claims": lambda e: f"{seat(e.get('seat'))} claims no more buildings.",
    "locked": lambda e: f"{seat(e.get('seat'))} locks {building(e.get('building'))}.",
    "ghost_crew": lambda e: (
        f"{seat(e.get('seat'))} puts a ghost crew member on {building(e.get('building'))}."
    ),
    "ships_moved": _ships_moved,
    "game_over": victory_points_verdict,
}

EVENT_TYPES = frozenset(_EVENTS)
"""Every event type the engine emits (a test checks each has a sentence)."""


def describe_event(event: Mapping[str, Any]) -> str:
    """A public event as one or two full sentences."""
    return event_sentence(_EVENTS, event)
