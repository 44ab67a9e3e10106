"""Phase B: a player's action -- draw two cards, or play cards, move, convert; then pirates.

Playing is split into small decisions: ``play`` one card at a time (any
company in hand), then ``done``; ``move`` picks the destination company when
several seals allow a move; ``convert`` picks the conversion set one company
at a time, then ``convert_done``.

The majority condition ("held a majority before playing, or hold one after")
reduces to "hold a majority after": a player's own counts only grow while
playing and nobody else's change, so a majority held before is still held.
A majority in company ``c`` is *reachable* when the cards of ``c`` in front
plus those in hand beat every other player; playing any card never makes a
reachable majority unreachable, so once a player may start playing they can
always finish. After the final hex is taken, only majorities of companies
with a post still ahead of the merchant count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import discard, stock_ready, take_card
from .flow import end_action
from .rules import (
    COMPANIES,
    COMPANY_INDEX,
    CONVERSION_GOLD,
    DRAW_COUNT,
    FINAL_HEX,
    GOODS,
    NUM_COMPANIES,
    NUM_GOODS,
    TRACK_LENGTH,
    pirate_threshold,
)
from .seals import others_best_all, update_seals
from .track import next_post, post_ahead, start_reveal

if TYPE_CHECKING:
    from engines.base import Action

    from .state import BataviaState


_DRAW: Action = {"type": "draw"}
_DONE: Action = {"type": "done"}
_CONVERT_DONE: Action = {"type": "convert_done"}
_PLAY: dict[str, Action] = {name: {"type": "play", "company": name} for name in COMPANIES}
_MOVE: tuple[Action, ...] = tuple({"type": "move", "company": name} for name in COMPANIES)
_CONVERT: tuple[Action, ...] = tuple({"type": "convert", "company": name} for name in COMPANIES)
"""Actions built once and shared by every list (listed actions are read-only)."""


# ----------------------------------------------------------------- legality
def reachable_companies(st: BataviaState, seat: int) -> list[int]:
    """Companies whose majority ``seat`` could hold by playing cards from hand now."""
    hand = st.private[seat]["hand"]
    front = st.front
    mine = front[seat]
    best = others_best_all(front, seat)
    final_phase = st.final_hex >= 0
    found = []
    for c, name in enumerate(COMPANIES):
        if mine[c] + hand[name] > best[c] and (not final_phase or post_ahead(st, seat, c)):
            found.append(c)
    return found


def majority_reached(st: BataviaState, seat: int) -> bool:
    """Whether ``seat`` now holds a majority that lets it stop playing and move."""
    front = st.front
    mine = front[seat]
    best = others_best_all(front, seat)
    final_phase = st.final_hex >= 0
    for c in range(NUM_COMPANIES):
        if mine[c] > best[c] and (not final_phase or post_ahead(st, seat, c)):
            return True
    return False


def _card_choices(st: BataviaState, seat: int) -> list[Action]:
    hand = st.private[seat]["hand"]
    return [_PLAY[name] for name in COMPANIES if hand[name]]


def act_actions(st: BataviaState, seat: int) -> list[Action]:
    actions: list[Action] = [_DRAW]
    if st.hand_size[seat] and reachable_companies(st, seat):
        actions += _card_choices(st, seat)
    return actions


def play_actions(st: BataviaState, seat: int) -> list[Action]:
    actions = _card_choices(st, seat)
    if majority_reached(st, seat):
        actions.append(_DONE)
    return actions


def destinations(st: BataviaState, seat: int) -> list[int]:
    """Companies whose seal ``seat`` holds and that still have a post ahead."""
    seals = st.seals
    return [c for c in range(NUM_COMPANIES) if seals[c] == seat and post_ahead(st, seat, c)]


def move_actions(st: BataviaState, seat: int) -> list[Action]:
    return [_MOVE[c] for c in destinations(st, seat)]


def convertible(st: BataviaState, seat: int) -> list[int]:
    """Companies of posts held before the new one, not yet chosen for conversion."""
    posts = st.posts[seat]
    chosen = st.convert_chosen
    return [
        c
        for c in range(NUM_COMPANIES)
        if c != st.new_post and posts[c] and COMPANIES[c] not in chosen
    ]


def convert_actions(st: BataviaState, seat: int) -> list[Action]:
    actions: list[Action] = [_CONVERT[c] for c in convertible(st, seat)]
    actions.append(_CONVERT_DONE)
    return actions


# -------------------------------------------------------------------- draw
def start_draw(st: BataviaState, seat: int) -> None:
    st.events.append({"type": "draw", "seat": seat})
    st.draw_left = DRAW_COUNT
    st.draw_index = 0
    continue_draw(st, seat)


def draw_card(st: BataviaState, company: str) -> None:
    """The player to move draws a card of ``company`` from the deck, then draws on or ends."""
    take_card(st, company)
    seat = st.turn
    st.private[seat]["hand"][company] += 1
    st.hand_size[seat] += 1
    st.events.append({"type": "drew", "seat": seat})
    st.draw_index += 1
    st.draw_left -= 1
    continue_draw(st, seat)


def continue_draw(st: BataviaState, seat: int) -> None:
    if st.draw_left > 0 and stock_ready(st):
        st.phase = "draw"
        return
    st.draw_left = 0
    end_action(st)


# -------------------------------------------------------------------- play
def play_card(st: BataviaState, seat: int, company: str) -> None:
    c = COMPANY_INDEX[company]
    st.private[seat]["hand"][company] -= 1
    st.hand_size[seat] -= 1
    st.front[seat][c] += 1
    st.turn_played[c] += 1
    st.events.append({"type": "played", "seat": seat, "company": company})
    st.phase = "play"


def finish_playing(st: BataviaState, seat: int) -> None:
    """Seals follow the new majorities; then the merchant moves (or takes the final hex)."""
    st.played_this_round = True
    update_seals(st)
    options = destinations(st, seat)
    if len(options) == 1:
        move_merchant(st, seat, options[0])
    elif options:
        st.phase = "move"
    else:
        st.merchants[seat] = FINAL_HEX
        st.final_hex = seat
        st.events.append({"type": "final_hex", "seat": seat})
        end_play(st, seat)


def choose_destination(st: BataviaState, seat: int, company: str) -> None:
    move_merchant(st, seat, COMPANY_INDEX[company])


def move_merchant(st: BataviaState, seat: int, company: int) -> None:
    """Move to the next face-up post of ``company``, revealing a block first if none is up."""
    space = next_post(st, seat, company)
    if space < 0:
        st.move_company = company
        st.events.append({"type": "reveal_for_move", "seat": seat, "company": COMPANIES[company]})
        start_reveal(st, "move")
        return
    st.move_company = -1
    code = st.track[space]
    good = code % NUM_GOODS
    st.taken_by[space] = seat
    st.merchants[seat] = space
    posts = st.posts[seat]
    first_of_company = posts[company] == 0
    posts[company] += 1
    crate = st.crates_left[seat] > 0
    if crate:
        st.crates_left[seat] -= 1
        st.crates[seat][good] += 1
    st.new_post = company if first_of_company else -1
    st.events.append(
        {
            "type": "moved",
            "seat": seat,
            "space": space,
            "company": COMPANIES[company],
            "good": GOODS[good],
            "crate": crate,
        }
    )
    if space == st.revealed - 1 and st.revealed < TRACK_LENGTH:
        start_reveal(st, "taken")
    else:
        after_taking(st, seat)


def after_taking(st: BataviaState, seat: int) -> None:
    """Offer a conversion if the new post is of a company new to the player."""
    if st.new_post >= 0 and convertible(st, seat):
        st.convert_chosen = []
        st.phase = "convert"
    else:
        end_play(st, seat)


def choose_conversion(st: BataviaState, seat: int, company: str) -> None:
    st.convert_chosen.append(company)
    st.phase = "convert"


def finish_conversion(st: BataviaState, seat: int) -> None:
    chosen = st.convert_chosen
    if chosen:
        posts = st.posts[seat]
        for name in chosen:
            posts[COMPANY_INDEX[name]] -= 1
        gold = CONVERSION_GOLD[len(chosen)]
        st.gold[seat] += gold
        st.events.append(
            {"type": "converted", "seat": seat, "companies": list(chosen), "gold": gold}
        )
        st.convert_chosen = []
    end_play(st, seat)


# ----------------------------------------------------------------- pirates
def end_play(st: BataviaState, seat: int) -> None:
    st.new_post = -1
    pirates(st)
    end_action(st)


def pirates(st: BataviaState) -> None:
    """At 21 (3 players) / 25 (4-5) cards in play, the biggest company (all tied) sinks."""
    front = st.front
    t0 = t1 = t2 = t3 = t4 = 0  # cards in play per company (five: see seals.py)
    for r0, r1, r2, r3, r4 in front:
        t0 += r0
        t1 += r1
        t2 += r2
        t3 += r3
        t4 += r4
    totals = [t0, t1, t2, t3, t4]
    if sum(totals) < pirate_threshold(st.num_players):
        return
    most = max(totals)
    sunk = [c for c in range(NUM_COMPANIES) if totals[c] == most]
    for c in sunk:
        for row in front:
            row[c] = 0
        discard(st, c, most)
    st.events.append(
        {"type": "pirates", "companies": [COMPANIES[c] for c in sunk], "cards": most * len(sunk)}
    )
    update_seals(st)
