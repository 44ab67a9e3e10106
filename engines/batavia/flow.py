"""The round structure: the deal -> rounds (auction, actions) -> final scoring.

The phases' own modules (``auction``, ``turn``) call down into this one when
their part of a round ends; nothing here calls up into them, so the round
structure sits below the phases it strings together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import take_card
from .rules import COMPANIES, HAND_SIZE, NUM_COMPANIES
from .scoring import score
from .seals import update_seals

if TYPE_CHECKING:
    from .state import BataviaState


def deal_card(st: BataviaState, company: str) -> None:
    """Deal a card of ``company`` to the next seat; the first round starts once all are dealt."""
    take_card(st, company)
    n = st.num_players
    seat = st.deal_index % n
    st.private[seat]["hand"][company] += 1
    st.hand_size[seat] += 1
    st.events.append({"type": "dealt", "seat": seat})
    st.deal_index += 1
    if st.deal_index == HAND_SIZE * n:
        start_round(st)


def start_round(st: BataviaState) -> None:
    """The auctioneer (seat 0, then the last first player) rolls the die."""
    st.round += 1
    st.events.append({"type": "round", "round": st.round, "auctioneer": st.auctioneer})
    st.phase = "roll"


def start_actions(st: BataviaState, first_player: int) -> None:
    st.first_player = first_player
    st.acted = 0
    st.stock_empty_at_actions = st.deck_size + st.discard_size == 0
    st.played_this_round = False
    begin_turn(st, first_player)


def begin_turn(st: BataviaState, seat: int) -> None:
    st.turn = seat
    st.turn_played = [0] * NUM_COMPANIES
    st.phase = "act"


def end_action(st: BataviaState) -> None:
    """The acting player is done; the next one acts, or the round ends."""
    st.acted += 1
    n = st.num_players
    if st.acted < n:
        begin_turn(st, (st.first_player + st.acted) % n)
        return
    if st.final_hex >= 0:
        finish_game(st, "final_hex")
    elif (
        st.stock_empty_at_actions
        and not st.played_this_round
        and st.deck_size + st.discard_size == 0
    ):
        finish_game(st, "stalemate")
    else:
        st.auctioneer = st.first_player
        start_round(st)


def finish_game(st: BataviaState, reason: str) -> None:
    """Everyone plays the rest of their hand, seals are reassigned, gold is counted."""
    for seat in range(st.num_players):
        hand = st.private[seat]["hand"]
        front = st.front[seat]
        shown = {}
        for c, name in enumerate(COMPANIES):
            if hand[name]:
                front[c] += hand[name]
                shown[name] = hand[name]
                hand[name] = 0
        st.hand_size[seat] = 0
        st.events.append({"type": "hand_played", "seat": seat, "cards": shown})
    update_seals(st)
    st.final = score(st)
    st.final["reason"] = reason
    st.phase = "over"
    st.turn = -1
    st.events.append({"type": "game_over", "reason": reason, "scores": list(st.final["scores"])})
