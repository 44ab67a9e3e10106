"""Greedy Cargo Noir: hoard goods that make big combinations, cash them in for the best cards.

The bot values its warehouse by :func:`plan`, a quick split of the goods into
combinations (every type held twice or more as a "same" set, the single
goods together as one "different" set, each wild where it adds most) and its
smuggling value. It smuggles when it would otherwise lose goods (the
warehouse is nearly full), when the game is ending, or when the value buys
enough victory points; it then builds those combinations token by token and
buys the cards a small knapsack picks (most victory points, a Cargo Ship
early counting for its extra ship). Ships go where they add most: a port
whose goods raise the plan's value most per coin bid, the black market when
a swap or a draw improves the warehouse, else the casino. Outbid at a port,
it raises only when the goods are worth the coins.

Card costs and victory points are the ones in ``docs/engines/cargo_noir.md``.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any

from .common import Action, View, best_index, first_index

GOODS = ("alcohol", "weapons", "art", "cars", "cigars", "ivory", "jewels", "gold", "uranium")
WILD = "wild"
DIFFERENT_VALUE = (0, 1, 3, 6, 10, 15, 21, 28, 36, 45)
SAME_VALUE = (0, 1, 4, 9, 16, 25, 36, 49, 64, 81)
MAX_COMBINATION = 9
CARDS: dict[str, tuple[int, int]] = {
    "Cargo Ship": (15, 5),
    "Warehouse": (10, 3),
    "Syndicate": (10, 3),
    "Dive Bar": (6, 6),
    "Night Club": (10, 10),
    "Yacht": (15, 15),
    "Villa": (21, 21),
    "Paparazzi": (25, 30),
    "Militia": (28, 35),
    "Show Business": (36, 45),
    "Cronies": (49, 60),
    "Bank": (64, 80),
    "Principality": (81, 100),
}
"""Card -> (cost in smuggling value, victory points)."""
SMUGGLER_CARDS = ("Cargo Ship", "Warehouse", "Syndicate")
SMUGGLER_LIMIT = 2
EXTRA_SHIP_PER_ROUND = 1.5
"""Victory-point equivalent of one more ship for each round left."""
CASH_IN_VP = 21
"""Smuggle before the warehouse is full when the credit buys this many VP."""
COIN_VALUE = 0.6
"""Plan value (smuggling credit) of one coin, outside the last round."""
CASINO_VALUE = 2 * COIN_VALUE


# ------------------------------------------------------------------ plans
def plan(goods: Counter[str]) -> tuple[int, list[tuple[str, Counter[str]]]]:
    """(smuggling value, combinations) of a quick split of ``goods`` into combinations."""
    groups: list[tuple[str, Counter[str]]] = []
    singles: Counter[str] = Counter()
    for good in GOODS:
        count = goods.get(good, 0)
        while count >= 2:
            size = min(count, MAX_COMBINATION)
            groups.append(("same", Counter({good: size})))
            count -= size
        if count == 1:
            singles[good] = 1
    if singles:
        groups.append(("different", singles))
    for _ in range(goods.get(WILD, 0)):
        best, best_gain = None, 0
        for index, (kind, group) in enumerate(groups):
            size = sum(group.values())
            if size >= MAX_COMBINATION:
                continue
            table = SAME_VALUE if kind == "same" else DIFFERENT_VALUE
            gain = table[size + 1] - table[size]
            if gain > best_gain:
                best, best_gain = index, gain
        if best is None:
            groups.append(("same", Counter({WILD: 1})))
        else:
            groups[best][1][WILD] += 1
    value = sum(
        (SAME_VALUE if kind == "same" else DIFFERENT_VALUE)[sum(group.values())]
        for kind, group in groups
    )
    groups.sort(key=lambda g: -sum(g[1].values()))
    return value, groups


def plan_value(goods: Counter[str]) -> int:
    """The smuggling value of :func:`plan` (memoised: the bot asks it often)."""
    return _plan_value(_key(goods))


@lru_cache(maxsize=4096)
def _plan_value(items: tuple[tuple[str, int], ...]) -> int:
    return plan(Counter(dict(items)))[0]


# ----------------------------------------------------------------- buying
def _players(view: View) -> list[dict[str, Any]]:
    return view["players"]


def _me(view: View) -> dict[str, Any]:
    return view["players"][view["you"]]


def _rounds_left(view: View) -> int:
    """Rounds after the current one."""
    return max(0, view.get("rounds", 10) - view.get("round", 1))


def card_worth(view: View, card: str) -> float:
    """Victory points of a card, plus what its effect is worth for the rest of the game."""
    _cost, vp = CARDS[card]
    rounds_left = _rounds_left(view)
    if card == "Cargo Ship":
        return vp + EXTRA_SHIP_PER_ROUND * rounds_left
    if card == "Warehouse":
        return vp + (1.0 if rounds_left > 2 else 0.0)
    return float(vp)


def _card_limit(view: View, card: str) -> int:
    left = (view.get("cards_left") or {}).get(card, 0)
    if card in SMUGGLER_CARDS:
        owned = (_me(view).get("cards") or {}).get(card, 0)
        if card == "Cargo Ship":
            owned = max(owned, _me(view).get("ships", 3) - 3)
        return max(0, min(left, SMUGGLER_LIMIT - owned))
    return left


def best_purchase(view: View, budget: int) -> tuple[float, list[str]]:
    """(worth, cards) of the most valuable set of cards costing at most ``budget``."""
    items: list[tuple[str, int, float]] = []
    for card, (cost, _vp) in CARDS.items():
        if cost <= budget:
            items.extend(
                (card, cost, card_worth(view, card)) for _ in range(_card_limit(view, card))
            )
    best: list[tuple[float, list[str]]] = [(0.0, [])] * (budget + 1)
    for card, cost, worth in items:
        for spend in range(budget, cost - 1, -1):
            candidate = best[spend - cost][0] + worth
            if candidate > best[spend][0] + 1e-9:
                best[spend] = (candidate, [*best[spend - cost][1], card])
    return best[budget]


# ------------------------------------------------------------ smuggling
def _warehouse(view: View) -> Counter[str]:
    return Counter({k: v for k, v in (_me(view).get("warehouse") or {}).items() if v})


def _budget(view: View, credit: int) -> int:
    if view.get("last_round"):
        return credit + _me(view).get("coins", 0)
    return credit


def should_cash_in(view: View) -> bool:
    """Whether to smuggle this turn rather than keep collecting."""
    goods = _warehouse(view)
    if not goods:
        return False
    value = plan_value(goods)
    worth, cards = best_purchase(view, _budget(view, value))
    if not cards:
        return False
    total = sum(goods.values())
    return (
        bool(view.get("last_round"))
        or _rounds_left(view) <= 1
        or total >= _me(view).get("capacity", 6) - 1
        or worth >= CASH_IN_VP
    )


def choose_menu(view: View, legal: list[Action], rng: random.Random) -> int:
    turn = view.get("turn") or {}
    credit = turn.get("credit", 0)
    goods = _warehouse(view)
    starts = {a["kind"]: i for i, a in enumerate(legal) if a["type"] == "start_combination"}
    end = first_index(legal, type="end_smuggling")
    cashing = credit > 0 or should_cash_in(view)
    if cashing and goods and starts:
        kind = plan(goods)[1][0][0]
        if kind in starts:
            return starts[kind]
    if cashing:
        _worth, cards = best_purchase(view, _budget(view, credit))
        if cards:
            card = max(cards, key=lambda c: CARDS[c][0])
            index = first_index(legal, type="buy", card=card)
            if index is not None:
                return index
    if end is not None:
        return end
    return 0


def choose_add(view: View, legal: list[Action], rng: random.Random) -> int:
    """Fill the combination being built as the plan of (warehouse + combination) says."""
    combination = (view.get("turn") or {}).get("combination") or {}
    current = Counter(combination.get("goods") or [])
    kind = combination.get("kind")
    whole = _warehouse(view) + current
    for planned_kind, group in plan(whole)[1]:
        if planned_kind != kind or any(current[g] > group[g] for g in current):
            continue
        missing = group - current
        for good in sorted(missing, key=lambda g: g == WILD):
            index = first_index(legal, type="add", good=good)
            if index is not None:
                return index
        break
    smuggle = first_index(legal, type="smuggle")
    if smuggle is not None:
        return smuggle
    return best_index(legal, lambda a: 0.0 if a.get("good") == WILD else 1.0, rng)


def choose_discard(view: View, legal: list[Action], rng: random.Random) -> int:
    goods = _warehouse(view)

    def score(action: Action) -> float:
        after = goods.copy()
        after[action["good"]] -= 1
        return plan_value(after)

    return best_index(legal, score, rng)


# ---------------------------------------------------------------- ships
def _port(view: View, name: str) -> dict[str, Any]:
    for port in view.get("ports") or []:
        if port["name"] == name:
            return port
    return {"goods": [], "bids": []}


def goods_gain(view: View, extra: list[str], base: int | None = None) -> float:
    """How much ``extra`` tokens raise the warehouse plan's value (capacity counted).

    ``base`` is the current warehouse's trimmed value when the caller has it.
    """
    goods = _warehouse(view)
    if base is None:
        base = plan_value(_trimmed(view, goods))
    return float(plan_value(_trimmed(view, goods + Counter(extra))) - base)


def _trimmed(view: View, goods: Counter[str]) -> Counter[str]:
    """``goods`` cut down to capacity + 2 (what could be kept until the next cash-in)."""
    room = _me(view).get("capacity", 6) + 2
    if sum(goods.values()) <= room:
        return goods
    return Counter(dict(_trim(_key(goods), room)))


def _key(goods: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((g, n) for g, n in goods.items() if n > 0))


@lru_cache(maxsize=4096)
def _trim(items: tuple[tuple[str, int], ...], room: int) -> tuple[tuple[str, int], ...]:
    """Drop, one token at a time, the token whose loss costs the plan least."""
    goods = Counter(dict(items))
    while sum(goods.values()) > room:
        worst = max(
            (g for g in goods if goods[g]),
            key=lambda g: plan_value(goods - Counter({g: 1})),
        )
        goods[worst] -= 1
        goods = +goods
    return _key(goods)


def draw_gain(view: View) -> float:
    """Expected plan gain of one random good (wilds left out: they are rare)."""
    base = plan_value(_trimmed(view, _warehouse(view)))
    return sum(goods_gain(view, [g], base) for g in GOODS) / len(GOODS)


def _coin_value(view: View) -> float:
    return 1.0 if _rounds_left(view) <= 1 else COIN_VALUE


def choose_send(view: View, legal: list[Action], rng: random.Random) -> int:
    if view.get("last_round"):
        # Nothing sent now comes back before the end; keep the coins.
        return best_index(legal, lambda a: 1.0 if a.get("to") == "casino" else 0.0, rng)
    coins = _me(view).get("coins", 0)
    coin_value = _coin_value(view)

    def score(action: Action) -> float:
        where = action["to"]
        if where == "casino":
            return 2 * coin_value
        if where == "black_market":
            return max(draw_gain(view), 0.5)
        port = _port(view, where)
        price = max((b["coins"] for b in port["bids"]), default=0) + 1
        if price > coins:
            return float("-inf")
        return goods_gain(view, port["goods"]) - coin_value * (price + 1)

    return best_index(legal, score, rng)


def choose_bid(view: View, legal: list[Action], rng: random.Random) -> int:
    """The lowest bid, one coin more when it can be spared (random rivals overbid)."""
    amounts = sorted((a["coins"], i) for i, a in enumerate(legal) if a["type"] == "bid")
    if len(amounts) >= 2:
        port = _port(view, legal[amounts[0][1]]["port"])
        if goods_gain(view, port["goods"]) > _coin_value(view) * (amounts[1][0] + 1):
            return amounts[1][1]
    return amounts[0][1] if amounts else 0


def choose_resolve(view: View, legal: list[Action], rng: random.Random) -> int:
    """Casino and ports first, so the black market sees the goods they bring."""
    order = {"casino": 0, "black_market": 2}
    return best_index(legal, lambda a: -order.get(a.get("at", ""), 1), rng)


def choose_market(view: View, legal: list[Action], rng: random.Random) -> int:
    goods = _warehouse(view)
    base = plan_value(goods)
    drawn = draw_gain(view)

    def score(action: Action) -> float:
        if action["type"] == "market_draw":
            return drawn
        if action["type"] == "market_swap":
            after = goods.copy()
            after[action["give"]] -= 1
            after[action["take"]] += 1
            return plan_value(+after) - base
        return 0.0

    return best_index(legal, score, rng)


def choose_outbid(view: View, legal: list[Action], rng: random.Random) -> int:
    raises = sorted((a["add"], i) for i, a in enumerate(legal) if a["type"] == "raise")
    withdraw = first_index(legal, type="withdraw")
    if raises:
        add, index = raises[0]
        port = _port(view, legal[index]["port"])
        if goods_gain(view, port["goods"]) > _coin_value(view) * (add + 2):
            return index
    return withdraw if withdraw is not None else 0


def choose(view: View, legal: list[Action], rng: random.Random) -> int:
    """The greedy Cargo Noir decision for any phase (see the module docstring)."""
    types = {a["type"] for a in legal}
    if types & {"add", "smuggle"}:
        return choose_add(view, legal, rng)
    if types & {"start_combination", "buy", "end_smuggling"}:
        return choose_menu(view, legal, rng)
    if "discard" in types:
        return choose_discard(view, legal, rng)
    if "send" in types:
        return choose_send(view, legal, rng)
    if "bid" in types:
        return choose_bid(view, legal, rng)
    if "resolve" in types:
        return choose_resolve(view, legal, rng)
    if types & {"market_swap", "market_draw", "market_skip"}:
        return choose_market(view, legal, rng)
    if types & {"raise", "withdraw"}:
        return choose_outbid(view, legal, rng)
    return 0
