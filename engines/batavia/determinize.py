"""Batavia from one seat's view: the public board read back, hands, letters and piles sampled.

What is hidden (``docs/engines/determinization.md``): which ship cards the
other seats hold (how many is public), how many letters each other seat has
(only the total is fixed: letters only change hands, 15 per seat), and the
contents of the deck and the discard pile (their sizes are public). Face-down
trading posts are not fixed until revealed (a reveal is a chance event), so
there is nothing of theirs to sample.

Every company has 22 cards: those not in front of a player, in the lot or in
our hand are the unseen ones, shuffled and dealt into the other hands, the
deck and the discard pile by their public sizes. The other seats' letters
are a uniformly random split of the letters we do not hold.

Not shown by the view, and so guessed (they matter only while chance is to
move, or to the stalemate rule): how many cards of a draw are still to come
(one), how many lot cards were drawn this round, which company a merchant
waiting for a reveal moves with, and whether the stock was empty when the
round's actions began.
"""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

from engines.determinize import integer, one_of

from .rules import (
    BLOCK,
    CARDS_PER_COMPANY,
    COMPANIES,
    COMPANY_INDEX,
    FACE_DOWN,
    FACE_UP_AT_START,
    GOOD_INDEX,
    GOODS,
    NUM_GOODS,
    STARTING_LETTERS,
    TRACK_LENGTH,
)
from .state import CHANCE_PHASES, BataviaState
from .turn import destinations

PHASES = (*CHANCE_PHASES, "act", "play", "bid", "move", "convert", "over")


def _counts(by_company: dict[str, int]) -> list[int]:
    return [by_company[name] for name in COMPANIES]


def determinize(
    view: dict[str, Any], rng: random.Random, num_players: int, options: dict[str, Any]
) -> BataviaState:
    n = num_players
    if view["game"] != "batavia" or view["num_players"] != n:
        raise ValueError("not a Batavia view of this player count")
    st = BataviaState(n, options)
    st.events = []
    players = view["players"]
    st.phase = one_of(view["phase"], "phase", PHASES)
    st.round = integer(view["round"], "round", 0, 10_000)
    st.auctioneer = integer(view["auctioneer"], "auctioneer", 0, n - 1)
    if view["first_player"] is not None:
        st.first_player = integer(view["first_player"], "first player", 0, n - 1)
    st.die = 0 if view["die"] is None else integer(view["die"], "die", 1, 6)
    st.lot = _counts(view["lot"])
    st.deck_size = view["deck_size"]
    st.discard_size = view["discard_size"]
    st.seals = [-1 if view["seals"][c] is None else view["seals"][c] for c in COMPANIES]
    for entry in view["track"]:
        if entry.get("face_down"):
            continue
        space = entry["space"]
        code = COMPANY_INDEX[entry["company"]] * NUM_GOODS + GOOD_INDEX[entry["good"]]
        st.track[space] = code
        st.taken_by[space] = entry.get("taken_by", -1)
    st.revealed = sum(1 for code in st.track if code != FACE_DOWN)
    st.final_hex = -1 if view["final_hex_taken_by"] is None else view["final_hex_taken_by"]
    st.merchants = [p["merchant"] for p in players]
    st.front = [_counts(p["front"]) for p in players]
    st.posts = [_counts(p["posts"]) for p in players]
    st.crates = [[p["crates"][g] for g in GOODS] for p in players]
    st.crates_left = [p["crates_left"] for p in players]
    st.gold = [p["gold"] for p in players]
    st.hand_size = [p["hand_size"] for p in players]
    to_move = view["to_move"]
    st.turn = to_move[0] if to_move and to_move[0] >= 0 else -1
    auction = view["auction"]
    if auction is not None:
        st.bid = -1 if auction["bid"] is None else auction["bid"]
        st.high_bidder = -1 if auction["high_bidder"] is None else auction["high_bidder"]
        st.in_auction = [s in auction["still_in"] for s in range(n)]
    turn = view["turn"]
    if turn is not None:
        st.turn = turn["seat"]
        st.acted = turn["acted_this_round"]
        st.turn_played = _counts(turn["played"])
        if st.phase == "convert":
            st.new_post = COMPANY_INDEX[turn["new_post_company"]]
            st.convert_chosen = list(turn["convert_chosen"])
    st.played_this_round = any(st.turn_played)
    st.stock_empty_at_actions = st.deck_size + st.discard_size == 0
    st.deal_index = sum(st.hand_size) if st.phase == "deal" else 0
    if st.phase == "draw":
        st.draw_left, st.draw_index = 1, 1
    if st.phase == "lot":
        st.lot_drawn = min(sum(st.lot), st.die - 1)
        st.lot_left = st.die - st.lot_drawn
    if st.phase == "reveal":
        _pending_reveal(st, rng)
    else:
        st.reveal_to = st.revealed
    if view.get("final") is not None:
        st.final = view["final"]
        for seat, letters in enumerate(view["letters"]):
            st.private[seat]["letters"] = letters
    else:
        _deal_letters(st, view, rng)
    _deal_cards(st, view, rng)
    return st


def _pending_reveal(st: BataviaState, rng: random.Random) -> None:
    """A block being turned face up: why (set-up, a move, a post just taken) and how far."""
    if st.round == 0:
        st.after_reveal = "setup"
        st.reveal_to = TRACK_LENGTH if st.options.get("open_track") else FACE_UP_AT_START
        return
    block_start = st.revealed - st.revealed % BLOCK
    st.reveal_to = min(block_start + BLOCK, TRACK_LENGTH)
    seat = st.turn
    space = st.merchants[seat]
    if 0 <= space == block_start - 1 and st.taken_by[space] == seat:
        st.after_reveal = "taken"
        company = st.track[space] // NUM_GOODS
        st.new_post = company if st.posts[seat][company] == 1 else -1
    else:
        st.after_reveal = "move"
        choices = destinations(st, seat)
        st.move_company = rng.choice(choices) if choices else 0


def _deal_letters(st: BataviaState, view: dict[str, Any], rng: random.Random) -> None:
    """Our letters as shown; the rest of the table's letters split uniformly among the others."""
    me = view["you"]
    mine = view["private"]["letters"]
    others = [s for s in range(st.num_players) if s != me]
    left = STARTING_LETTERS * st.num_players - mine
    if left < 0:
        raise ValueError("more letters in the hand than in the game")
    # A uniform composition of ``left`` into len(others) parts (stars and bars).
    bars = sorted(rng.sample(range(left + len(others) - 1), len(others) - 1))
    edges = [-1, *bars, left + len(others) - 1]
    for seat, (a, b) in zip(others, pairwise(edges), strict=True):
        st.private[seat]["letters"] = b - a - 1
    st.private[me]["letters"] = mine


def _deal_cards(st: BataviaState, view: dict[str, Any], rng: random.Random) -> None:
    """The unseen cards shuffled into the other hands, the deck and the discard pile."""
    me = view["you"]
    hand = {name: view["private"]["hand"][name] for name in COMPANIES}
    unseen = {}
    for c, name in enumerate(COMPANIES):
        shown = sum(row[c] for row in st.front) + st.lot[c] + hand[name]
        unseen[name] = CARDS_PER_COMPANY - shown
    pool = [name for name in COMPANIES for _ in range(unseen[name])]
    wanted = sum(st.hand_size) - st.hand_size[me] + st.deck_size + st.discard_size
    if min(unseen.values()) < 0 or len(pool) != wanted or sum(hand.values()) != st.hand_size[me]:
        raise ValueError("the cards in view, the hand sizes and the piles do not add up")
    rng.shuffle(pool)
    for seat in range(st.num_players):
        if seat == me:
            st.private[seat]["hand"] = hand
            continue
        size = st.hand_size[seat]
        dealt, pool = pool[:size], pool[size:]
        st.private[seat]["hand"] = {name: dealt.count(name) for name in COMPANIES}
    deck, discard = pool[: st.deck_size], pool[st.deck_size :]
    st.hidden = {
        "deck": {name: deck.count(name) for name in COMPANIES},
        "discard": {name: discard.count(name) for name in COMPANIES},
    }
