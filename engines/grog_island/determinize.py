"""Grog Island from one seat's view: the public table read back, the hidden cards sampled.

What is hidden (``docs/engines/determinization.md``): the other seats'
objective cards (kept and freshly drawn), treasure values and parrot cards
(how many of each is public), and the order of the three decks (their sizes
are public). Objective cards never leave the game, so the ones not in our
hand are exactly the other hands plus the objective deck. Treasures and
parrots that were paid or played are gone; the view does not say which, so
the unseen cards are drawn from the printed deck minus our own hand, and
whatever is not dealt to a hand or a deck counts as spent.

Not shown by the view, and so set to one consistent guess: which returned
objective cards wait at the bottom of the objective deck (all of the deck is
taken as shuffled), the order in which seats passed in this auction (only
read by the two-player ghost crew when nobody won), and, while chance is to
move, which dice of a round are still to roll (all of them). A card draw of
chance in the middle of a round cannot be told from the view: such a view is
refused with a ``ValueError``. A seat is never asked to act while one waits.
"""

from __future__ import annotations

import random
from typing import Any

from engines.determinize import integer, one_of

from .data import (
    BID_SPACES,
    BUILDING_IDS,
    COLOURS,
    FREE,
    GHOST,
    LOCKED,
    LOCKS,
    MAX_ROUNDS,
    OBJECTIVE_DECK,
    OBJECTIVES_DEALT,
    OPEN_SEA,
    PARROT_DECK,
    SHIP_INDEX,
    SHIP_SPACES,
    START_PARROTS,
    START_TREASURES,
    TREASURE_DECK,
)
from .state import DECKS, GrogState

STAGES = ("setup", "roll", "bid", "trade_ship", "trade", "pay", "reward", "lock", "ghost", "over")
"""Stages a view can show: the others (``next_turn``, ``end_round`` ...) pass without a decision."""
_OCCUPANTS = {None: FREE, "lock": LOCKED, "ghost": GHOST}


def determinize(
    view: dict[str, Any], rng: random.Random, num_players: int, options: dict[str, Any]
) -> GrogState:
    n = num_players
    state = GrogState.engine.new_game(n, options)
    state.events = []
    players = view["players"]
    if len(players) != n:
        raise ValueError(f"the view has {len(players)} players, the game {n}")
    state.round = integer(view["round"], "round", 0, MAX_ROUNDS)
    state.start = integer(view["start_player"], "start player", 0, n - 1)
    state.stage = one_of(view["stage"], "stage", STAGES)
    state.coins = [p["coins"] for p in players]
    state.vp = [p["vp"] for p in players]
    state.crew = [p["crew"] for p in players]
    state.goods = [[p["goods"][c] for c in COLOURS] for p in players]
    state.active = [p["in_auction"] for p in players]
    state.occupant = [
        _OCCUPANTS[o] if o in _OCCUPANTS else int(o)
        for o in (view["buildings"][b] for b in BUILDING_IDS)
    ]
    state.locks_left = integer(view["locks_left"], "locks left", 0, LOCKS)
    state.clouds = [view["clouds"][c] for c in COLOURS]
    spaces = [*COLOURS[:OPEN_SEA], "open_sea"]
    state.ships = [
        -1 if view["ships"][name] is None else SHIP_INDEX[view["ships"][name]] for name in spaces
    ]
    state.discs = [-1] * SHIP_SPACES
    for colour, seat in view["trade_discs"].items():
        state.discs[COLOURS.index(colour)] = seat
    state.dice = [view["dice"][c] for c in COLOURS]
    bid = view["bid"]
    state.bid = [COLOURS.index(c) for c in bid["dice"]]
    state.bid_total = bid["total"]
    state.bidder = -1 if bid["bidder"] is None else bid["bidder"]
    state.returns = list(view["pending_returns"])
    state.ghost_crew = view["ghost"]["crew"] if n == 2 else 0
    state.last_crew = any(c == 0 for c in state.crew)
    state.passers = [
        (state.start + k) % n for k in range(n) if not state.active[(state.start + k) % n]
    ]
    state.winner = state.bidder if state.stage in ("pay", "reward", "lock") else -1
    if state.stage in ("reward", "lock"):
        state.lock_colour = next(
            (c for c, r in zip(state.bid, BID_SPACES, strict=False) if r == "lock"), -1
        )
    _stage_details(state, view)
    state.queue = _pending_chance(state, view)
    to_move = view["to_move"]
    if to_move and to_move[0] >= 0 and not state.returns:
        state.actor = to_move[0]
    elif state.returns:
        state.actor = _actor_under_returns(state)
    if view.get("final") is not None:
        state.final = view["final"]
    _deal_cards(state, view, rng)
    return state


def _stage_details(state: GrogState, view: dict[str, Any]) -> None:
    turn = view.get("turn")
    if turn is not None:
        state.draft = [COLOURS.index(c) for c in turn["draft"]]
        state.holding = turn["holding"]
        state.committed = turn["committed"]
    trade = view.get("trade")
    if trade is not None:
        space = COLOURS.index(trade["peninsula"])
        state.trade = [
            space,
            trade["exchanged"],
            int(trade["exchange_closed"]),
            trade["building_units_paid"],
            int(trade["acted"]),
            int(trade["optional"]),
        ]
    payment = view.get("payment")
    if payment is not None:
        state.revealed = payment["revealed_treasure"]
    claims = view.get("claims")
    if claims is not None:
        state.claims = [COLOURS.index(c) for c in claims["peninsulas"]]
        state.claimed_types = list(claims["types_claimed"])


def _actor_under_returns(state: GrogState) -> int:
    """Whose turn resumes once the pending objective returns are done."""
    if state.stage == "trade":
        return state.discs[state.trade[0]]
    return state.bidder


def _pending_chance(state: GrogState, view: dict[str, Any]) -> list[list[Any]]:
    """The chance events still to come: the set-up's, or a round's dice."""
    if view["to_move"] != [-1]:
        return []
    if state.stage == "roll":
        return [["die", c] for c in range(len(COLOURS))]
    if state.stage != "setup":
        raise ValueError("a card draw of chance is pending; the view cannot tell which")
    queue: list[list[Any]] = [["cloud", p] for p, c in enumerate(state.clouds) if c is None]
    queue += [["ship", space] for space, ship in enumerate(state.ships) if ship < 0]
    for seat, p in enumerate(view["players"]):
        queue += [["draw", "objective", seat, "hand"]] * (OBJECTIVES_DEALT - p["objectives"])
        queue += [["draw", "treasure", seat, "hand"]] * (START_TREASURES - p["treasures"])
        queue += [["draw", "parrot", seat, "hand"]] * (START_PARROTS - p["parrots"])
    return queue


def _deal_cards(state: GrogState, view: dict[str, Any], rng: random.Random) -> None:
    """Our cards as shown; the unseen ones shuffled into the other hands and the decks.

    Once the game is over every hand is shown (``revealed``); only the decks are drawn.
    """
    players = view["players"]
    decks = view["decks"]
    keys_all = ("objectives", "treasures", "parrots", "drawn")
    hands: list[dict[str, list[Any]]] = [{key: [] for key in keys_all} for _ in players]
    shown = view["revealed"] if view.get("final") is not None else {view["you"]: view["private"]}
    known = list(range(len(players))) if isinstance(shown, list) else [view["you"]]
    for seat in known:
        hands[seat] = {key: list(shown[seat][key]) for key in keys_all}
    pools: dict[str, list[Any]] = {}
    for deck, printed, keys in (
        ("objective", OBJECTIVE_DECK, ("objectives", "drawn")),
        ("treasure", TREASURE_DECK, ("treasures",)),
        ("parrot", PARROT_DECK, ("parrots",)),
    ):
        unseen = list(printed)
        for seat in known:
            for key in keys:
                for card in hands[seat][key]:
                    unseen.remove(card)  # ValueError for a card the deck does not have
        rng.shuffle(unseen)
        for seat, p in enumerate(players):
            if seat in known:
                continue
            for key in keys:
                count = p["drawn_objectives"] if key == "drawn" else p[key]
                hands[seat][key], unseen = unseen[:count], unseen[count:]
        pools[deck], unseen = unseen[: decks[deck]], unseen[decks[deck] :]
        if len(pools[deck]) != decks[deck] or any(
            len(hands[s][k]) != (p["drawn_objectives"] if k == "drawn" else p[k])
            for s, p in enumerate(players)
            for k in keys
        ):
            raise ValueError(f"too few unseen {deck} cards for the hands and the deck")
        if deck == "objective" and unseen:
            raise ValueError("objective cards unaccounted for")
    state.private = hands
    state.hidden = {
        "objective_pool": pools["objective"],
        "objective_bottom": [],
        "treasure_pool": pools["treasure"],
        "parrot_pool": pools["parrot"],
    }
    state.draws = [[0] * state.num_players for _ in DECKS]
