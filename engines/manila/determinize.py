"""Manila from one seat's view: the public board read back, the other seats' shares sampled.

What is hidden (``docs/engines/determinization.md``): which goods the other
seats were dealt face down (how many, and what they bought in the open, is
public) and, while the deal runs, which shares are still in the deck. The
shares dealt so far plus the deck are the twelve starting shares (three per
good) minus the seat's own dealt shares; after the deal the undealt ones have
joined the open supply, so the other seats' dealt shares are fixed as a
multiset: per good ``5 - supply - everything bought`` minus the seat's own.

Not shown by the view, and so set to one consistent guess: which pirates
already boarded this voyage (``boarded``; only the ``pirates_replace`` variant
reads it), and in the boarding phase how many of a seat's two pirates have
already decided (when one seat holds both pirate spaces).
"""

from __future__ import annotations

import random
from typing import Any

from engines import CHANCE
from engines.determinize import integer, one_of

from . import data, flow, rules
from .state import OVER, ManilaState

_BERTHS = {f"harbor_{letter}": i for i, letter in enumerate(data.LETTERS)} | {
    f"shipyard_{letter}": 3 + i for i, letter in enumerate(data.LETTERS)
}

PHASES = (*rules.LEGAL, "deal", "roll", "over")


def _dealt_so_far(num_players: int, dealt: int, seat: int) -> int:
    """How many face-down shares ``seat`` holds after ``dealt`` cards of the deal."""
    per = data.DEALT_PER_PLAYER
    return max(0, min(per, dealt - per * seat))


def determinize(
    view: dict[str, Any], rng: random.Random, num_players: int, options: dict[str, Any]
) -> ManilaState:
    n = num_players
    state = ManilaState(n, options)
    state.phase = one_of(view["phase"], "phase", PHASES)
    state.voyage = integer(view["voyage"], "voyage", 0, 1000)
    state.movement = integer(view["movement"], "movement", 0, data.MOVEMENTS)
    state.round = integer(view["placement_round"], "placement round", 0, 10)
    state.harbor_master = integer(view["harbor_master"], "harbor master", 0, n - 1)
    if view["to_move"] is not None:
        state.mover = view["to_move"]
    else:
        state.mover = CHANCE if view["chance_to_move"] else OVER
    state.prices = [view["prices"][g] for g in data.GOODS]
    state.supply = [view["supply"][g] for g in data.GOODS]
    players = view["players"]
    if len(players) != n:
        raise ValueError(f"the view has {len(players)} players, the game {n}")
    state.cash = [p["cash"] for p in players]
    state.shares = [p["shares"] for p in players]
    state.mortgaged = [p["mortgaged"] for p in players]
    state.bought = [[p["bought"][g] for g in data.GOODS] for p in players]
    state.accomplices = [p["accomplices_left"] for p in players]
    state.placing = [p["placing"] for p in players]
    boats = view["boats"]
    for g, name in enumerate(data.GOODS):
        boat = boats.get(name)
        if boat is None:
            continue
        state.loaded[g] = True
        state.position[g] = boat["position"]
        state.berth[g] = -1 if boat["berth"] is None else _BERTHS[boat["berth"]]
        state.crew[g] = list(boat["crew"])
        state.plundered[g] = boat["plundered"]
    state.spaces = [
        -1 if view["spaces"][name]["seat"] is None else view["spaces"][name]["seat"]
        for name in data.SPACE_NAMES
    ]
    state.pirates = list(view["pirate_ship"])
    state.dealt = view["shares_dealt"] if state.phase == "deal" else data.DEALT_PER_PLAYER * n
    auction = view.get("auction")
    if auction is not None:
        state.high_bid = auction["high_bid"]
        state.high_bidder = -1 if auction["high_bidder"] is None else auction["high_bidder"]
        state.passed = list(auction["passed"])
        state.bid_page = auction["bid_page"]
    state.pending = [data.GOOD_INDEX[g] for g in view.get("pending", [])]
    first = view.get("large_pilot_first_step")
    if first is not None:
        state.pilot_first = [data.GOOD_INDEX[first["good"]], first["move"]]
    state.queue = _queue(state, view)
    _deal_hidden(state, view, rng)
    return state


def _queue(state: ManilaState, view: dict[str, Any]) -> list[int]:
    """Who is still to decide in the phases that take turns by a queue."""
    phase = state.phase
    mover = state.mover
    if phase == "redeem":
        return list(view["redeem_queue"])
    if phase == "place":
        order = flow.seats_from(state, state.harbor_master)
        rest = order[order.index(mover) :]
        return [s for s in rest if state.placing[s] and state.accomplices[s] > 0]
    if phase == "board":
        # The queue is the pirates still to decide: a suffix of the ship's crew.
        return state.pirates[state.pirates.index(mover) :]
    return []


def _deal_hidden(state: ManilaState, view: dict[str, Any], rng: random.Random) -> None:
    """Our shares as shown; the other seats' face-down shares (and the deck) drawn at random."""
    n = state.num_players
    me = view["you"]
    final = view.get("final")
    if final is not None:  # the game is over: every hand was revealed
        state.private = [{"shares": {g: s[g] for g in data.GOODS}} for s in final["shares"]]
        return
    mine = {g: view["private"]["shares"][g] for g in data.GOODS}
    own_dealt = {g: mine[g] - state.bought[me][i] for i, g in enumerate(data.GOODS)}
    if state.phase == "deal":
        unseen = {g: data.DEALT_PER_GOOD - own_dealt[g] for g in data.GOODS}
    else:
        unseen = {
            g: data.SHARES_PER_GOOD
            - state.supply[i]
            - sum(row[i] for row in state.bought)
            - own_dealt[g]
            for i, g in enumerate(data.GOODS)
        }
    pool = [g for g in data.GOODS for _ in range(unseen[g])]
    if min(unseen.values(), default=0) < 0:
        raise ValueError("the view's shares and supply do not add up")
    rng.shuffle(pool)
    for seat in range(n):
        if seat == me:
            state.private[seat]["shares"] = dict(mine)
            continue
        count = _dealt_so_far(n, state.dealt, seat)
        hand, pool = pool[:count], pool[count:]
        if len(hand) < count:
            raise ValueError("too few unseen shares for the other seats' hands")
        shares = {g: state.bought[seat][i] for i, g in enumerate(data.GOODS)}
        for g in hand:
            shares[g] += 1
        state.private[seat]["shares"] = shares
    deck = dict.fromkeys(data.GOODS, 0)
    if state.phase == "deal":
        for g in pool:
            deck[g] += 1
    elif pool:
        raise ValueError("unseen shares left over after the deal")
    state.hidden["deck"] = deck
