"""Cargo Noir from one seat's view: everything on the table read back, the bag sampled.

Nothing is private to a seat. What is hidden is which tokens are in the bag
and which in the discard pile (their sizes are public). Every token of the
game (14 of each good, one wild per player) is on the table (warehouses, the
black market, the ports, a combination being smuggled) or in one of the two
piles, so the unseen tokens are fixed as a multiset; ``determinize`` deals
them at random into a bag and a discard pile of the public sizes.

Not shown by the view: whether chance still has tokens to draw. Empty port
slots (and a short black market at set-up) are read as draws to come, which
is right unless the bag ran dry earlier and left a port short. A token drawn
for a ship at the black market does not show at all: it is taken as drawn
already, unless the seat would have nothing to do, which only the pending
draw explains. Whenever a seat is asked to
act no draw is pending, so a bot never meets either case. The counter of a
seat's black-market draws only names chance events.
"""

from __future__ import annotations

import random
from typing import Any

from engines.determinize import integer, one_of

from .board import NO_PENDING, PENDING_MARKET
from .data import BLACK_MARKET, BLACK_MARKET_SIZE, CARDS, TOKEN_INDEX, TOKENS, TOKENS_PER_GOOD
from .state import CargoNoirState

PHASES = ("send", "ships", "smuggle", "discard", "over")


def determinize(
    view: dict[str, Any], rng: random.Random, num_players: int, options: dict[str, Any]
) -> CargoNoirState:
    n = num_players
    state = CargoNoirState(n, options)
    state.events = []
    players = view["players"]
    if len(players) != n:
        raise ValueError(f"the view has {len(players)} players, the game {n}")
    state.round = integer(view["round"], "round", 1, state.rounds)
    state.seat = integer(view["seat"], "seat to move", 0, n - 1)
    state.phase = one_of(view["phase"], "phase", PHASES)
    state.coins = [p["coins"] for p in players]
    state.ships = [p["ships"] for p in players]
    state.at_casino = [p["ships_at_casino"] for p in players]
    state.at_market = [p["ships_at_black_market"] for p in players]
    state.warehouse = [[p["warehouse"].get(t, 0) for t in TOKENS] for p in players]
    state.cards = [[p["cards"].get(card.name, 0) for card in CARDS] for p in players]
    state.cards_left = [view["cards_left"][card.name] for card in CARDS]
    state.market = [TOKEN_INDEX[t] for t in view["black_market"]]
    ports = view["ports"]
    if [p["name"] for p in ports] != [port.name for port in state.ports]:
        raise ValueError("the view's ports are not this player count's ports")
    state.port_goods = [[TOKEN_INDEX[t] for t in p["goods"]] for p in ports]
    state.port_bids = [[0] * n for _ in ports]
    for p, port in enumerate(ports):
        for bid in port["bids"]:
            state.port_bids[p][bid["seat"]] = bid["coins"]
    state.bag_size = view["bag_size"]
    state.discard_size = view["discard_size"]
    state.draws = _pending_draws(state)
    turn = view["turn"]
    number = state.port_number
    pending = turn["pending"]
    if pending is None:
        state.pending = NO_PENDING
    elif pending == BLACK_MARKET:
        state.pending = PENDING_MARKET
    else:
        state.pending = number[pending]
    state.resolved = [number[name] for name in turn["resolved"]]
    state.abandoned = [number[name] for name in turn["abandoned"]]
    state.syndicate_paid = turn["syndicate_bonuses_paid"]
    state.credit = turn["credit"]
    combination = turn["combination"]
    if combination is None:
        state.combo_kind, state.combo = None, []
    else:
        state.combo_kind = combination["kind"]
        state.combo = [TOKEN_INDEX[t] for t in combination["goods"]]
    _fill_piles(state, rng)
    if not state.draws and state.phase != "over" and not state.legal_actions(state.seat):
        # Stuck without a draw: the seat's ship at the black market is drawing.
        state.draws = [("seat", state.seat, "determinized/market")]
        state.forget_cached_actions()
    return state


def _pending_draws(state: CargoNoirState) -> list[tuple[str, int, str]]:
    """Chance's draws still to come, as far as the table shows them.

    The view does not list them; a short black market (only while the game
    is set up) or a port with empty slots is waiting for tokens, unless both
    piles are empty (the bag ran out and the draws were given up).
    """
    if not state.bag_size + state.discard_size:
        return []
    draws = [
        ("market", slot, f"determinized/market/{slot}")
        for slot in range(len(state.market), BLACK_MARKET_SIZE)
    ]
    for p, port in enumerate(state.ports):
        draws += [
            ("port", p, f"determinized/port/{port.name}/{i}")
            for i in range(len(state.port_goods[p]), port.slots)
        ]
    return draws


def _fill_piles(state: CargoNoirState, rng: random.Random) -> None:
    """The tokens not on the table, shuffled into a bag and a discard pile of the public sizes."""
    unseen = {t: TOKENS_PER_GOOD for t in TOKENS}
    unseen["wild"] = state.num_players
    seen = [*state.market, *state.combo]
    for goods in state.port_goods:
        seen += goods
    for warehouse in state.warehouse:
        for g, count in enumerate(warehouse):
            seen += [g] * count
    for g in seen:
        unseen[TOKENS[g]] -= 1
    if min(unseen.values()) < 0 or sum(unseen.values()) != state.bag_size + state.discard_size:
        raise ValueError("the tokens on the table and the piles' sizes do not add up")
    pool = [t for t in TOKENS for _ in range(unseen[t])]
    rng.shuffle(pool)
    bag = dict.fromkeys(TOKENS, 0)
    discard = dict.fromkeys(TOKENS, 0)
    for i, t in enumerate(pool):
        (bag if i < state.bag_size else discard)[t] += 1
    state.hidden = {"bag": bag, "discard": discard}
