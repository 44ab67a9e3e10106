"""Greedy Manila: place where this voyage's expected payout beats the cost.

The heart is :func:`expected_income`, this seat's expected earnings from
the voyage as the board stands: each boat at sea reaches Manila with the
probability that the remaining dice carry it past the last space; crews
split a boat's payout; harbor docks pay by how many boats arrive, shipyards
by how many fail; the insurance agent pays the shipyard's bills; pirates
share the boats that end on 13; shares held rise one price step when their
boat arrives. A placement, a pilot step or boarding is scored by how much it
raises that figure, minus what it costs (mortgaging counted as the 3 pesos
of wealth it loses). The harbor master's choices (buy, leave ashore, start
the boats) favour the goods this seat holds shares of; bids stay small.

Board numbers are the printed ones from ``docs/engines/manila.md``.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from .common import Action, View, best_index

PRICE_TRACK = (0, 5, 10, 20, 30)
ROUTE_END = 13
IN_MANILA = 14
MOVEMENTS = 3
DOCK_PAYOUT = (6, 8, 15)
DOCK_LETTERS = ("A", "B", "C")
PIRATE_COST = 5
INSURANCE_BONUS = 10
MORTGAGE_VALUE = 12
MORTGAGE_LOSS = 3
"""Wealth lost per mortgage: 12 pesos in hand against 15 owed."""
HARBOR_MASTER_VALUE = 8
"""What the greedy bot would pay at most to be harbor master."""
SPARE_CASH = 6
"""Cash kept back when buying a share, for the placements to come."""


@cache
def _dice_sums(dice: int) -> tuple[float, ...]:
    """Probability of each total of ``dice`` six-sided dice (index = total)."""
    dist = [1.0]
    for _ in range(dice):
        new = [0.0] * (len(dist) + 6)
        for total, p in enumerate(dist):
            for face in range(1, 7):
                new[total + face] += p / 6
        dist = new
    return tuple(dist)


def reach_probability(position: int, movements: int, target: int) -> float:
    """P(position + the remaining dice >= target)."""
    if position >= IN_MANILA:
        return 1.0
    need = target - position
    return sum(p for total, p in enumerate(_dice_sums(movements)) if total >= need)


def land_probability(position: int, movements: int, square: int) -> float:
    """P(the remaining dice end exactly on ``square``)."""
    if movements == 0 or position >= IN_MANILA:
        return 0.0
    sums = _dice_sums(movements)
    need = square - position
    return sums[need] if 0 <= need < len(sums) else 0.0


def price_step(price: int) -> int:
    """How much a share gains when its good's price rises one step."""
    index = PRICE_TRACK.index(price) if price in PRICE_TRACK else len(PRICE_TRACK) - 1
    return PRICE_TRACK[min(index + 1, len(PRICE_TRACK) - 1)] - price


def _at_least(probabilities: list[float]) -> list[float]:
    """P(at least k successes) for k = 0..n among independent events."""
    dist = [1.0]
    for p in probabilities:
        new = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            new[k] += q * (1 - p)
            new[k + 1] += q * p
        dist = new
    tail = [0.0] * (len(dist) + 1)
    for k in range(len(dist) - 1, -1, -1):
        tail[k] = tail[k + 1] + dist[k]
    return tail


def _remaining_movements(view: View) -> int:
    return max(0, MOVEMENTS - int(view.get("movement") or 0))


def expected_income(view: View, me: int, placement_rounds_left: int = 0) -> float:
    """This seat's expected earnings from the rest of the voyage, as the board stands."""
    boats: dict[str, Any] = view.get("boats") or {}
    if not boats:
        return 0.0
    movements = _remaining_movements(view)
    pirates = list(view.get("pirate_ship") or [])
    target = IN_MANILA if pirates else ROUTE_END
    my_shares = (view.get("private") or {}).get("shares") or {}
    prices = view.get("prices") or {}
    income = 0.0
    reach: list[float] = []
    for good, boat in boats.items():
        berth = boat.get("berth") or ""
        position = boat["position"]
        if position >= IN_MANILA or berth.startswith("harbor"):
            p_reach = 1.0
        elif berth.startswith("shipyard") or movements == 0:
            p_reach = 1.0 if movements == 0 and position >= target else 0.0
        else:
            p_reach = reach_probability(position, movements, target)
        reach.append(p_reach)
        crew = boat.get("crew") or []
        mine = crew.count(me)
        if mine:
            expected_crew = len(crew)
            if placement_rounds_left and p_reach < 1.0:
                free = boat.get("seats", len(crew)) - len(crew)
                expected_crew += 0.5 * free
            income += p_reach * boat["payout"] * mine / expected_crew
        income += p_reach * my_shares.get(good, 0) * price_step(prices.get(good, 0))
        if me in pirates and movements and not berth:
            income += (
                land_probability(position, movements, ROUTE_END) * boat["payout"] / len(pirates)
            )
    arrive = _at_least(reach)
    fail = _at_least([1 - p for p in reach])
    spaces = view.get("spaces") or {}
    agent = (spaces.get("insurance") or {}).get("seat")
    for k, letter in enumerate(DOCK_LETTERS):
        if (spaces.get(f"harbor_{letter}") or {}).get("seat") == me:
            income += arrive[k + 1] * DOCK_PAYOUT[k]
        if (spaces.get(f"shipyard_{letter}") or {}).get("seat") == me:
            income += fail[k + 1] * DOCK_PAYOUT[k]
        if agent == me:
            income -= fail[k + 1] * DOCK_PAYOUT[k]
    return income


def _me(view: View) -> dict[str, Any]:
    return view["players"][view["you"]]


def _spending_power(player: dict[str, Any]) -> int:
    return player["cash"] + MORTGAGE_VALUE * (player["shares"] - player["mortgaged"])


def _payment_cost(player: dict[str, Any], amount: int) -> float:
    """What paying ``amount`` costs in wealth: the amount plus mortgage losses."""
    short = amount - player["cash"]
    mortgages = 0 if short <= 0 else -(-short // MORTGAGE_VALUE)
    return amount + MORTGAGE_LOSS * mortgages


def _placement_price(view: View, space: str) -> int:
    if space in (view.get("boats") or {}):
        return view["boats"][space]["next_seat_cost"]
    if space == "pirate":
        return PIRATE_COST
    return view["spaces"][space]["cost"]


def placement_prices(view: View, legal: list[Action]) -> dict[str, int]:
    """What this seat would pay for each listed placement.

    A stowaway -- a seat with no money and no share left to mortgage, or one
    that cannot pay for any listed space -- takes a boat seat for nothing.
    """
    prices = {a["space"]: _placement_price(view, a["space"]) for a in legal if a["type"] == "place"}
    power = _spending_power(_me(view))
    if prices and (power == 0 or power < min(prices.values())):
        boats = view.get("boats") or {}
        prices = {space: 0 if space in boats else price for space, price in prices.items()}
    return prices


def _with_placement(view: View, me: int, space: str) -> View:
    """A shallow copy of the view with this seat's accomplice on ``space``."""
    after = dict(view)
    if space in (view.get("boats") or {}):
        boats = dict(view["boats"])
        boat = dict(boats[space])
        boat["crew"] = [*boat["crew"], me]
        boats[space] = boat
        after["boats"] = boats
    elif space == "pirate":
        after["pirate_ship"] = [*(view.get("pirate_ship") or []), me]
    else:
        spaces = dict(view["spaces"])
        spaces[space] = {**spaces[space], "seat": me}
        after["spaces"] = spaces
    return after


def _placement_rounds_left(view: View) -> int:
    """Placement rounds still to come after the current one (0 in the last)."""
    return max(0, _remaining_movements(view) - 1)


def choose_place(view: View, legal: list[Action], rng: random.Random) -> int:
    me = view["you"]
    player = _me(view)
    rounds_left = _placement_rounds_left(view)
    base = expected_income(view, me, rounds_left)
    prices = placement_prices(view, legal)

    def score(action: Action) -> float:
        if action["type"] != "place":
            return 0.0
        space = action["space"]
        gain = expected_income(_with_placement(view, me, space), me, rounds_left) - base
        if space == "insurance":
            gain += INSURANCE_BONUS
        return gain - _payment_cost(player, prices[space])

    return best_index(legal, score, rng)


def _moved(view: View, good: str, step: int) -> View:
    boats = dict(view["boats"])
    boat = dict(boats[good])
    boat["position"] = min(IN_MANILA, boat["position"] + step)
    if boat["position"] >= IN_MANILA:
        boat["berth"] = "harbor"
    boats[good] = boat
    return {**view, "boats": boats}


def choose_pilot(view: View, legal: list[Action], rng: random.Random) -> int:
    me = view["you"]

    def score(action: Action) -> float:
        if action["type"] != "pilot":
            return expected_income(view, me)
        return expected_income(_moved(view, action["good"], action["move"]), me) - 0.01

    return best_index(legal, score, rng)


def choose_board(view: View, legal: list[Action], rng: random.Random) -> int:
    me = view["you"]

    def score(action: Action) -> float:
        if action["type"] != "board":
            return expected_income(view, me)
        boats = dict(view["boats"])
        boat = dict(boats[action["good"]])
        crew = list(boat["crew"])
        if "evict" in action:
            del crew[action["evict"]]
        boat["crew"] = [*crew, me]
        boats[action["good"]] = boat
        pirates = list(view.get("pirate_ship") or [])
        if me in pirates:
            pirates.remove(me)
        return expected_income({**view, "boats": boats, "pirate_ship": pirates}, me)

    return best_index(legal, score, rng)


def _interest(view: View, good: str) -> float:
    """How much this seat gains when ``good`` reaches Manila (its shares' rise)."""
    shares = (view.get("private") or {}).get("shares") or {}
    step = price_step((view.get("prices") or {}).get(good, 0))
    return shares.get(good, 0) * step


def choose_send(view: View, legal: list[Action], rng: random.Random) -> int:
    me = view["you"]
    spaces = view.get("spaces") or {}
    taken = {boat.get("berth") for boat in (view.get("boats") or {}).values()}

    def next_free(kind: str) -> str | None:
        for letter in DOCK_LETTERS:
            if f"{kind}_{letter}" not in taken:
                return f"{kind}_{letter}"
        return None

    def score(action: Action) -> float:
        if action["to"] == "harbor":
            dock = next_free("harbor")
            mine = dock is not None and (spaces.get(dock) or {}).get("seat") == me
            return _interest(view, action["good"]) + (6 if mine else 0)
        holds_yard = any(
            (spaces.get(f"shipyard_{letter}") or {}).get("seat") == me for letter in DOCK_LETTERS
        )
        agent = (spaces.get("insurance") or {}).get("seat") == me
        return (4 if holds_yard else 0.5) - (8 if agent else 0)

    return best_index(legal, score, rng)


def choose_bid(view: View, legal: list[Action], rng: random.Random) -> int:
    player = _me(view)
    limit = min(HARBOR_MASTER_VALUE, player["cash"] - SPARE_CASH)
    bids = [(a["amount"], i) for i, a in enumerate(legal) if a["type"] == "bid"]
    affordable = [(amount, i) for amount, i in bids if amount <= limit]
    if affordable:
        return min(affordable)[1]
    for index, action in enumerate(legal):
        if action["type"] == "pass":
            return index
    return 0


def choose_buy(view: View, legal: list[Action], rng: random.Random) -> int:
    player = _me(view)
    costs = view.get("share_cost") or {}
    prices = view.get("prices") or {}
    shares = (view.get("private") or {}).get("shares") or {}

    def score(action: Action) -> float:
        if action["type"] != "buy":
            return 0.0
        good = action["good"]
        cost = costs.get(good, 5)
        if cost > player["cash"] - SPARE_CASH:
            return -1.0
        price = prices.get(good, 0)
        return price + price_step(price) - cost + 1.5 * shares.get(good, 0)

    return best_index(legal, score, rng)


def choose_start(view: View, legal: list[Action], rng: random.Random) -> int:
    def score(action: Action) -> float:
        good = action.get("good", "")
        return (_interest(view, good) + 0.1) * action.get("space", 0)

    return best_index(legal, score, rng)


def choose_ashore(view: View, legal: list[Action], rng: random.Random) -> int:
    return best_index(legal, lambda a: -_interest(view, a.get("good", "")), rng)


def choose(view: View, legal: list[Action], rng: random.Random) -> int:
    """The greedy Manila decision for any phase (see the module docstring)."""
    phase = view.get("phase")
    chooser = {
        "auction": choose_bid,
        "buy": choose_buy,
        "ashore": choose_ashore,
        "start_boats": choose_start,
        "place": choose_place,
        "board": choose_board,
        "pilot_small": choose_pilot,
        "pilot_large": choose_pilot,
        "plunder": choose_send,
    }.get(phase)
    if chooser is not None:
        return chooser(view, legal, rng)
    if phase == "redeem":
        # Redeeming is wealth-neutral (pay 15, owe 15 less); keep the cash liquid.
        return best_index(legal, lambda a: -a.get("count", 0), rng)
    return 0
