"""Greedy Grog Island: chase this seat's objectives, bid only when the prize beats passing.

Everything is measured in estimated victory points for this seat:

* a building is worth its type's objective VP if the seat holds that
  objective, its part in a peninsula-majority objective (2 for the first crew
  member there, 6 for a strict majority), the cloud's reward and the coins of
  still-free buildings of the same type;
* a bid (a row of dice) is worth the buildings its first two dice claim and
  the VP of spaces 3 and 5, minus its price in coins; it is made only when
  that beats passing, which brings one good per die on the bid track and a
  trade (the bot plans the whole row, then places it die by die);
* at a ship it buys the building worth most when it can pay four units, then
  exchanges the goods it does not need for a goods objective;
* it keeps and returns objective cards by what they are likely to score, and
  pays with coins before it gives up treasure cards (each is 1 VP at the end).

Scoring numbers are the ones in ``docs/engines/grog_island.md``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import pairwise, permutations
from typing import Any

from .common import Action, View, best_index, first_index

COLOURS = ("yellow", "green", "blue", "orange", "grey")
TYPE_VP = {
    "sword": 2,
    "peg_leg": 2,
    "anchor": 3,
    "hat": 3,
    "hook": 3,
    "figurehead": 4,
    "cannonball": 4,
    "voodoo": 4,
    "pub": 6,
    "lucky_charm": 6,
    "map_maker": 6,
    "rum": 6,
}
COIN_VALUE = 0.35
"""VP-equivalent of a coin: 1 VP per 5 at the end, plus what it buys in auctions."""
CLOUD_VALUE = {"vp": 1.0, "parrot": 0.5, "objective_swap": 0.3, "nothing": 0.0, "black": 0.0}
GOOD_VALUE = 0.6
"""A good towards a building (four buy one) or an exchange."""
TRADE_VALUE = 1.0
"""What the trade after passing is worth beyond the goods it spends."""
SHIP_UNIT_VALUE = {
    "two_coins": 2 * COIN_VALUE,
    "three_coins": 3 * COIN_VALUE,
    "four_coins": 4 * COIN_VALUE,
    "treasure": 1.0 + 2 * COIN_VALUE,
    "parrot": 0.4,
    "objectives": 0.6,
}
"""Value of one unit given to each ship's exchange (a parrot is 1 VP with the objective)."""
SHIP_LIMIT = {
    "two_coins": 4,
    "three_coins": 2,
    "four_coins": 1,
    "treasure": 2,
    "parrot": 2,
    "objectives": 3,
}
BUILDING_UNITS = 4


# -------------------------------------------------------------- the seat
def _me(view: View) -> dict[str, Any]:
    return view["players"][view["you"]]


def _objectives(view: View) -> set[str]:
    return set((view.get("private") or {}).get("objectives") or [])


def _buildings(view: View) -> dict[str, Any]:
    return view.get("buildings") or {}


def _crew_on(view: View, colour: str) -> dict[Any, int]:
    counts: dict[Any, int] = {}
    for name, holder in _buildings(view).items():
        if holder is not None and holder != "lock" and name.startswith(colour + "/"):
            counts[holder] = counts.get(holder, 0) + 1
    return counts


def majority_points(view: View, colour: str, extra: int = 0) -> int:
    """What a peninsula objective on ``colour`` scores with ``extra`` more crew there."""
    counts = _crew_on(view, colour)
    me = view["you"]
    mine = counts.get(me, 0) + extra
    other = max((n for holder, n in counts.items() if holder != me), default=0)
    if mine > other:
        return 6
    return 2 if mine else 0


def building_value(view: View, building: str, objectives: set[str] | None = None) -> float:
    """Estimated VP of this seat claiming ``building`` (``"<colour>/<type>"``)."""
    objectives = _objectives(view) if objectives is None else objectives
    colour, kind = building.split("/", 1)
    value = 0.5
    if f"building/{kind}" in objectives:
        value += TYPE_VP.get(kind, 2)
    if f"peninsula/{colour}" in objectives:
        value += majority_points(view, colour, 1) - majority_points(view, colour)
    cloud = (view.get("clouds") or {}).get(colour)
    value += CLOUD_VALUE.get(cloud or "nothing", 0.0)
    if cloud == "parrot" and "parrots" in objectives:
        value += 1.0
    if cloud != "black":
        free_alike = sum(
            1
            for name, holder in _buildings(view).items()
            if holder is None and name != building and name.split("/", 1)[1] == kind
        )
        value += COIN_VALUE * free_alike
    return value


def _free_buildings(view: View, colour: str) -> list[str]:
    return [
        name
        for name, holder in _buildings(view).items()
        if holder is None and name.startswith(colour + "/")
    ]


def best_claim(view: View, colour: str, exclude_type: str | None = None) -> tuple[float, str]:
    """(value, building) of the best free building on ``colour``; (0, "") if none."""
    if _me(view).get("crew", 0) <= 0:
        return 0.0, ""
    best = (0.0, "")
    for name in _free_buildings(view, colour):
        if exclude_type and name.endswith("/" + exclude_type):
            continue
        value = building_value(view, name)
        if value > best[0]:
            best = (value, name)
    return best


def good_value(view: View, colour: str) -> float:
    """A good of ``colour``: 1 VP kept for a goods objective, else a building unit."""
    return 1.0 if f"goods/{colour}" in _objectives(view) else GOOD_VALUE


def objective_value(view: View, card: str, hand: Sequence[str]) -> float:
    """How much an objective card is likely to score (a duplicate scores once)."""
    if list(hand).count(card) > 1:
        return 0.0
    kind, _, what = card.partition("/")
    me = _me(view)
    if kind == "building":
        owned = sum(
            1
            for name, holder in _buildings(view).items()
            if holder == view["you"] and name.endswith("/" + what)
        )
        free = sum(
            1
            for name, holder in _buildings(view).items()
            if holder is None and name.endswith("/" + what)
        )
        return TYPE_VP.get(what, 2) * (owned + min(free, 2) * 0.4)
    if kind == "peninsula":
        return max(majority_points(view, what), 1.5 if _free_buildings(view, what) else 0)
    if kind == "goods":
        return me["goods"].get(what, 0) + 1.5
    if kind == "parrots":
        return me.get("parrots", 0) + 1.0
    return 0.0


# -------------------------------------------------------------- bidding
ClaimTable = dict[str, list[tuple[float, str]]]


def claim_table(view: View) -> ClaimTable:
    """Per peninsula, its free buildings as (value, name), best first (none without crew)."""
    table: ClaimTable = {colour: [] for colour in COLOURS}
    if _me(view).get("crew", 0) <= 0:
        return table
    objectives = _objectives(view)
    for name, holder in _buildings(view).items():
        if holder is None:
            table.setdefault(name.split("/", 1)[0], []).append(
                (building_value(view, name, objectives), name)
            )
    for claims in table.values():
        claims.sort(reverse=True)
    return table


def arrangement_value(table: ClaimTable, dice: Sequence[str]) -> float:
    """VP this seat expects from winning with ``dice`` on the bid spaces (before paying)."""
    value = 0.0
    if dice:
        first = table.get(dice[0]) or []
        kind = first[0][1].split("/", 1)[1] if first else None
        value += first[0][0] if first else 0.0
        if len(dice) >= 2:
            second = [v for v, name in table.get(dice[1]) or [] if not name.endswith(f"/{kind}")]
            value += second[0] if second else 0.0
    if len(dice) >= 3:
        value += 1.0
    if len(dice) >= 5:
        value += 1.0
    return value


def bid_cost(view: View, total: int) -> float:
    coins = _me(view).get("coins", 0)
    # Beyond the coins, treasure cards pay: each is also a VP lost.
    return COIN_VALUE * total + 0.3 * max(0, total - coins)


def pass_value(view: View) -> float:
    bid = view.get("bid") or {}
    return sum(good_value(view, c) for c in bid.get("dice") or []) + TRADE_VALUE


def _arrangements(dice_values: dict[str, int]) -> list[tuple[str, ...]]:
    """Every row of distinct dice with non-increasing values, 1 to 5 long."""
    rows: list[tuple[str, ...]] = []
    colours = sorted(dice_values, key=lambda c: -dice_values[c])
    for length in range(1, len(colours) + 1):
        for row in permutations(colours, length):
            if all(dice_values[a] >= dice_values[b] for a, b in pairwise(row)):
                rows.append(row)
    return rows


def best_bid(view: View) -> tuple[float, tuple[str, ...]]:
    """(net value, row) of the best bid this seat may make now; (-inf, ()) if none."""
    dice = view.get("dice") or {}
    bid = view.get("bid") or {}
    turn = view.get("turn") or {}
    current = bid.get("total") or 0
    holding = bool(turn.get("holding"))
    capital = _me(view).get("potential_capital", 0)
    draft = tuple(turn.get("draft") or [])
    best: tuple[float, tuple[str, ...]] = (float("-inf"), ())
    table = claim_table(view)
    for row in _arrangements(dice):
        if row[: len(draft)] != draft:
            continue
        total = sum(dice[c] for c in row)
        if total > capital or total < current or (total == current and not holding):
            continue
        if bid.get("total") is None and total < 1:
            continue
        net = arrangement_value(table, row) - bid_cost(view, total)
        if net > best[0]:
            best = (net, row)
    return best


def choose_bid(view: View, legal: list[Action], rng: random.Random) -> int:
    draft = list((view.get("turn") or {}).get("draft") or [])
    passing = first_index(legal, type="pass")
    net, row = best_bid(view)
    if passing is not None and (not row or net <= pass_value(view)):
        return passing
    if row and len(row) > len(draft):
        index = first_index(legal, type="place", colour=row[len(draft)])
        if index is not None:
            return index
    confirm = first_index(legal, type="bid")
    if confirm is not None:
        return confirm
    # Only dice or parrots that keep a bid reachable are listed: take the cheapest die.
    dice = view.get("dice") or {}
    return best_index(
        legal,
        lambda a: -dice.get(a.get("colour"), 0) if a["type"] == "place" else -100.0,
        rng,
    )


# --------------------------------------------------------------- trading
def _units(goods: dict[str, int], colour: str) -> int:
    """Units a ship of ``colour`` accepts: its goods one each, any three others one."""
    others = sum(n for c, n in goods.items() if c != colour)
    return goods.get(colour, 0) + others // 3


def ship_value(view: View, peninsula: str, ship: str) -> float:
    goods = dict(_me(view)["goods"])
    units = _units(goods, peninsula)
    value = 0.0
    if units >= BUILDING_UNITS:
        value += best_claim(view, peninsula)[0]
        units -= BUILDING_UNITS
    unit = SHIP_UNIT_VALUE.get(ship, 0.5)
    if ship == "parrot" and "parrots" in _objectives(view):
        unit += 1.0
    spare = goods.get(peninsula, 0) - (goods.get(peninsula, 0) if _keeps(view, peninsula) else 0)
    value += unit * min(SHIP_LIMIT.get(ship, 1), units, max(spare, 0) + units // 2)
    return value


def _keeps(view: View, colour: str) -> bool:
    """Goods of ``colour`` score 1 VP each at the end for this seat."""
    return f"goods/{colour}" in _objectives(view)


def choose_ship(view: View, legal: list[Action], rng: random.Random) -> int:
    ships = {name: colour for colour, name in (view.get("ships") or {}).items()}
    return best_index(legal, lambda a: ship_value(view, ships.get(a["ship"], ""), a["ship"]), rng)


def _payment_cost(view: View, goods: Sequence[str]) -> float:
    return sum(good_value(view, c) for c in goods)


def choose_trade(view: View, legal: list[Action], rng: random.Random) -> int:
    trade = view.get("trade") or {}
    ship = trade.get("ship", "")
    colour = trade.get("peninsula", "")
    claims = [a for a in legal if a["type"] == "claim"]
    if claims:
        return best_index(legal, lambda a: building_value(view, a.get("building", "")), rng)
    keeps = [a for a in legal if a["type"] == "keep_objective"]
    if keeps:
        hand = list((view.get("private") or {}).get("objectives") or [])
        return best_index(
            legal,
            lambda a: (
                objective_value(view, a["card"], [*hand, a["card"]])
                if a["type"] == "keep_objective"
                else -1.0
            ),
            rng,
        )
    goods = dict(_me(view)["goods"])
    paid = trade.get("building_units_paid", 0)
    building = best_claim(view, colour)[0]
    can_build = _units(goods, colour) >= BUILDING_UNITS - paid and building > 0
    unit = SHIP_UNIT_VALUE.get(ship, 0.5) + (
        1.0 if ship == "parrot" and "parrots" in _objectives(view) else 0.0
    )

    def score(action: Action) -> float:
        kind = action["type"]
        if kind == "build_pay":
            if not can_build and paid == 0:
                return float("-inf")
            return 2.0 + building / BUILDING_UNITS - _payment_cost(view, action["goods"]) * 0.5
        if kind == "exchange":
            if paid and can_build:
                return float("-inf")
            return unit - _payment_cost(view, action["goods"])
        if kind == "end_trade":
            return 0.0
        return -1.0

    return best_index(legal, score, rng)


# ---------------------------------------------------------------- the rest
def choose_pay(view: View, legal: list[Action], rng: random.Random) -> int:
    pay = first_index(legal, type="pay")
    coins = _me(view).get("coins", 0)
    payment = view.get("payment") or {}
    owed = payment.get("bid", 0) - payment.get("revealed_treasure", 0)
    if pay is not None and coins >= owed:
        return pay
    treasures = [(a["value"], i) for i, a in enumerate(legal) if a["type"] == "pay_treasure"]
    if treasures:
        return max(treasures)[1]
    if pay is not None:
        return pay
    return 0


def choose_claim(view: View, legal: list[Action], rng: random.Random) -> int:
    return best_index(
        legal,
        lambda a: building_value(view, a["building"]) if a["type"] == "claim" else 0.0,
        rng,
    )


def choose_lock(view: View, legal: list[Action], rng: random.Random) -> int:
    """Lock what is worth most to a rival and least to this seat."""

    def score(action: Action) -> float:
        building = action.get("building", "")
        kind = building.split("/", 1)[-1]
        return TYPE_VP.get(kind, 2) - 2 * building_value(view, building)

    return best_index(legal, score, rng)


def choose_return(view: View, legal: list[Action], rng: random.Random) -> int:
    hand = list((view.get("private") or {}).get("objectives") or [])
    hand += list((view.get("private") or {}).get("drawn") or [])
    return best_index(legal, lambda a: -objective_value(view, a.get("card", ""), hand), rng)


def choose_good(view: View, legal: list[Action], rng: random.Random) -> int:
    objectives = _objectives(view) | set((view.get("private") or {}).get("drawn") or [])

    def score(action: Action) -> float:
        colour = action.get("good", "")
        return (2.0 if f"goods/{colour}" in objectives else 0.0) + (
            1.0 if f"peninsula/{colour}" in objectives else 0.0
        )

    return best_index(legal, score, rng)


def choose(view: View, legal: list[Action], rng: random.Random) -> int:
    """The greedy Grog Island decision for any stage (see the module docstring)."""
    types = {a["type"] for a in legal}
    if "return_objective" in types:
        return choose_return(view, legal, rng)
    if "choose_good" in types:
        return choose_good(view, legal, rng)
    stage = view.get("stage")
    if stage == "bid":
        return choose_bid(view, legal, rng)
    if stage == "trade_ship":
        return choose_ship(view, legal, rng)
    if stage == "trade":
        return choose_trade(view, legal, rng)
    if stage == "pay":
        return choose_pay(view, legal, rng)
    if stage == "reward":
        return choose_claim(view, legal, rng)
    if stage in ("lock", "ghost"):
        return choose_lock(view, legal, rng)
    return 0
