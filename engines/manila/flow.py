"""The order of a voyage: which decision comes next, and the automatic steps between.

Rule modules apply one decision and then call one of these functions, which
run everything automatic (docking a lone boat, paying profits, raising
prices ...) until the next decision, and set ``phase`` and ``mover`` for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines import CHANCE

from . import data, profits
from .money import available, pay

if TYPE_CHECKING:
    from .state import ManilaState

OVER = -2


def seats_from(state: ManilaState, first: int) -> list[int]:
    """All seats clockwise, starting with ``first``."""
    n = state.num_players
    return [(first + i) % n for i in range(n)]


def at_sea(state: ManilaState) -> list[int]:
    """Loaded boats not yet in the harbor or the shipyard."""
    loaded, berth = state.loaded, state.berth
    boats = []
    for g in range(4):  # a plain loop: cheaper than a comprehension on four boats
        if loaded[g] and berth[g] < 0:
            boats.append(g)
    return boats


# ------------------------------------------------------------------ deal
def finish_deal(state: ManilaState) -> None:
    """The undealt starting shares join the open supply; the first voyage begins."""
    deck = state.hidden["deck"]
    for g, name in enumerate(data.GOODS):
        state.supply[g] += deck[name]
        deck[name] = 0
    state.events.append(
        {"type": "supply", "supply": dict(zip(data.GOODS, state.supply, strict=True))}
    )
    begin_voyage(state)


# --------------------------------------------------------------- auction
def begin_voyage(state: ManilaState) -> None:
    n = state.num_players
    state.voyage += 1
    state.movement = 0
    state.round = 0
    state.loaded = [False] * 4
    state.position = [-1] * 4
    state.berth = [-1] * 4
    state.plundered = [False] * 4
    state.crew = [[], [], [], []]
    state.spaces = [-1] * len(data.SPACE_NAMES)
    state.pirates = []
    state.boarded = []
    state.accomplices = [0] * n
    state.placing = [False] * n
    state.queue = []
    state.pending = []
    state.pilot_first = None
    state.passed = [False] * n
    state.high_bid = 0
    state.high_bidder = -1
    state.bid_page = 0
    state.phase = "auction"
    state.mover = state.harbor_master
    state.events.append({"type": "voyage", "voyage": state.voyage})


def end_auction(state: ManilaState) -> None:
    """The last bidder becomes harbor master and pays; with no bid the old one stays."""
    winner = state.high_bidder
    if winner >= 0:
        state.harbor_master = winner
        pay(state, winner, state.high_bid)
        state.events.append({"type": "harbor_master", "seat": winner, "price": state.high_bid})
    else:
        state.events.append(
            {"type": "harbor_master", "seat": state.harbor_master, "price": 0, "no_bids": True}
        )
    start_buy(state)


def buyable(state: ManilaState) -> list[int]:
    """Goods whose share the harbor master can buy now (supply left, affordable)."""
    money = available(state, state.harbor_master)
    return [g for g in range(4) if state.supply[g] and data.share_cost(state.prices[g]) <= money]


def start_buy(state: ManilaState) -> None:
    state.mover = state.harbor_master
    state.phase = "buy" if buyable(state) else "ashore"


def start_placement(state: ManilaState) -> None:
    n = state.num_players
    state.accomplices = [data.accomplices_per_player(n)] * n
    state.placing = [True] * n
    next_round(state)


# ------------------------------------------------------------- placement
def next_round(state: ManilaState) -> None:
    """Open the next placement round, or go on if nobody is left to place."""
    state.round += 1
    placing, accomplices = state.placing, state.accomplices
    n, first = state.num_players, state.harbor_master
    queue = []
    for i in range(n):  # seats_from(state, first), without building it
        s = (first + i) % n
        if placing[s] and accomplices[s] > 0:
            queue.append(s)
    if queue:
        state.phase = "place"
        state.queue = queue
        state.mover = queue[0]
    else:
        state.queue = []
        end_round(state)


def after_placement_turn(state: ManilaState) -> None:
    state.queue.pop(0)
    if state.queue:
        state.mover = state.queue[0]
    else:
        end_round(state)


def end_round(state: ManilaState) -> None:
    """A movement follows each of the last three rounds; pilots act before the third."""
    movement = state.round - (data.accomplices_per_player(state.num_players) - data.MOVEMENTS)
    if movement < 1:
        next_round(state)
    elif movement < data.MOVEMENTS:
        start_movement(state, movement)
    else:
        start_pilots(state)


# -------------------------------------------------------------- movement
def start_movement(state: ManilaState, movement: int) -> None:
    state.movement = movement
    state.pending = at_sea(state)
    if state.pending:
        state.phase = "roll"
        state.mover = CHANCE
    else:
        after_dice(state)


def after_dice(state: ManilaState) -> None:
    """Boats past 13 reach the harbor (after movement 3 also those on 13 if no pirate waits)."""
    position = state.position
    sea = at_sea(state)
    arrivals = [g for g in sea if position[g] > data.ROUTE_END]
    if state.movement == data.MOVEMENTS and not state.pirates:
        arrivals += [g for g in sea if position[g] == data.ROUTE_END]
    if len(arrivals) > 1:
        state.phase = "harbor_order"
        state.pending = arrivals
        state.mover = state.harbor_master
        return
    for g in arrivals:
        dock(state, g)
    after_arrivals(state)


def dock(state: ManilaState, good: int) -> None:
    """Put a boat on the first free harbor dock (A, then B, then C)."""
    taken = set(state.berth)
    dock_index = next(d for d in data.HARBOR if d not in taken)
    state.berth[good] = dock_index
    state.position[good] = data.IN_MANILA
    state.events.append(
        {"type": "docked", "good": data.GOODS[good], "dock": data.LETTERS[dock_index]}
    )


def to_shipyard(state: ManilaState, good: int) -> None:
    taken = set(state.berth)
    yard = next(y for y in data.SHIPYARD if y not in taken)
    state.berth[good] = yard
    state.events.append(
        {"type": "repaired", "good": data.GOODS[good], "yard": data.LETTERS[yard - 3]}
    )


def after_arrivals(state: ManilaState) -> None:
    if state.movement == 1:
        next_round(state)
    elif state.movement == 2:
        start_boarding(state)
    else:
        start_plunder(state)


# ---------------------------------------------------------------- pirates
def boardable(state: ManilaState) -> list[tuple[int, int]]:
    """(good, crew index to evict or -1) a pirate may board after movement 2."""
    options: list[tuple[int, int]] = []
    replace = state.options.get("pirates_replace", False)
    for g in at_sea(state):
        if state.position[g] != data.ROUTE_END:
            continue
        crew = state.crew[g]
        if len(crew) < len(data.SEAT_COSTS[g]):
            options.append((g, -1))
        elif replace:
            options += [(g, i) for i in range(len(crew)) if [g, i] not in state.boarded]
    return options


def start_boarding(state: ManilaState) -> None:
    """After movement 2 each pirate on the ship decides in turn, the captain first.

    ``queue`` holds the pirates still to decide (a seat holding both pirate
    spaces decides twice); whoever stayed keeps their place at the front of
    ``pirates``, so the first pirate still aboard is always the captain.
    """
    state.queue = list(state.pirates)
    next_boarder(state)


def next_boarder(state: ManilaState) -> None:
    """The next pirate decides, while a boat on 13 can be boarded; then placement goes on."""
    if state.queue and boardable(state):
        state.phase = "board"
        state.mover = state.queue[0]
    else:
        next_round(state)


def start_plunder(state: ManilaState) -> None:
    """Boats on 13 after movement 3 are plundered by the pirates still on the ship."""
    targets = [g for g in at_sea(state) if state.position[g] == data.ROUTE_END]
    if not targets:  # after_dice already docked them if no pirate waits
        start_shipyard(state)
        return
    pirates = state.pirates
    for g in targets:
        share = data.BOAT_PAYOUT[g] // len(pirates)
        for seat in pirates:
            state.cash[seat] += share
        state.plundered[g] = True
        state.events.append(
            {
                "type": "plundered",
                "good": data.GOODS[g],
                "pirates": list(pirates),
                "each": share,
                "crew_sent_home": state.crew[g],
            }
        )
        state.crew[g] = []
    state.phase = "plunder"
    state.pending = targets
    state.mover = pirates[0]


def start_shipyard(state: ManilaState) -> None:
    """Every boat still at sea goes to the shipyard; then the voyage is settled."""
    goods = at_sea(state)
    if len(goods) > 1:
        state.phase = "shipyard_order"
        state.pending = goods
        state.mover = state.harbor_master
        return
    for g in goods:
        to_shipyard(state, g)
    settle(state)


# ----------------------------------------------------------------- pilots
def start_pilots(state: ManilaState) -> None:
    pilot = state.spaces[data.PILOT_SMALL]
    if pilot >= 0 and at_sea(state):
        state.phase = "pilot_small"
        state.mover = pilot
    else:
        start_large_pilot(state)


def start_large_pilot(state: ManilaState) -> None:
    pilot = state.spaces[data.PILOT_LARGE]
    state.pilot_first = None
    if pilot >= 0 and at_sea(state):
        state.phase = "pilot_large"
        state.mover = pilot
    else:
        start_movement(state, data.MOVEMENTS)


# ------------------------------------------------------------ end of voyage
def settle(state: ManilaState) -> None:
    """Profits, prices, then the end of the game or the redeeming round."""
    profits.pay_profits(state)
    if profits.raise_prices(state):
        end_game(state)
    else:
        start_redeem(state)


def can_redeem(state: ManilaState, seat: int) -> bool:
    return state.mortgaged[seat] > 0 and state.cash[seat] >= data.REDEEM_COST


def start_redeem(state: ManilaState) -> None:
    state.queue = [s for s in seats_from(state, state.harbor_master) if can_redeem(state, s)]
    if state.queue:
        state.phase = "redeem"
        state.mover = state.queue[0]
    else:
        begin_voyage(state)


def after_redeem(state: ManilaState) -> None:
    state.queue.pop(0)
    if state.queue:
        state.mover = state.queue[0]
    else:
        begin_voyage(state)


def end_game(state: ManilaState) -> None:
    state.phase = "over"
    state.mover = OVER
    outcome = state.outcome()
    state.events.append(
        {
            "type": "game_over",
            "scores": outcome["scores"],
            "ranks": outcome["ranks"],
            "shares": [dict(p["shares"]) for p in state.private],
        }
    )
