"""Phase A: the die, the lot of ship cards and the auction for it and the first-player ship.

Bids are whole letters. Starting left of the auctioneer and going clockwise,
a player still in bids more than the current bid (the first bid may be 0) or
passes out; the last one in with a bid wins. A player whose letters cannot
beat the current bid may only pass -- they are still asked, so that whose
turn it is never depends on a secret letter count. The winner pays by
handing letters one at a time to the others clockwise from their left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import stock_ready, take_card
from .flow import start_actions
from .rules import COMPANIES, COMPANY_INDEX, DIE_FACES, NUM_COMPANIES

if TYPE_CHECKING:
    from engines.base import Action

    from .state import BataviaState

_DIE = [({"type": "die", "value": v}, 1.0 / DIE_FACES) for v in range(1, DIE_FACES + 1)]
_PASS: Action = {"type": "pass"}
_BIDS: list[Action] = [{"type": "bid", "amount": a} for a in range(256)]
"""Actions built once and shared by every list (listed actions are read-only); a bid list
is a slice of ``_BIDS`` (larger amounts than it holds are built per list)."""


def die_outcomes() -> list[tuple[Action, float]]:
    return _DIE  # shared, read-only: the base hands out copies of the list, never it


def apply_die(st: BataviaState, value: int) -> None:
    st.die = value
    st.events.append({"type": "die", "seat": st.auctioneer, "value": value})
    st.lot_left = value
    st.lot_drawn = 0
    continue_lot(st)


def lot_card(st: BataviaState, company: str) -> None:
    """Add a card of ``company`` from the deck to the lot, then go on revealing it."""
    take_card(st, company)
    st.lot[COMPANY_INDEX[company]] += 1
    st.events.append({"type": "lot_card", "company": company})
    st.lot_drawn += 1
    st.lot_left -= 1
    continue_lot(st)


def continue_lot(st: BataviaState) -> None:
    """Reveal the next lot card, or open the bidding once the lot is complete."""
    if st.lot_left > 0 and stock_ready(st):
        st.phase = "lot"
        return
    st.lot_left = 0
    st.bid = -1
    st.high_bidder = -1
    st.in_auction = [True] * st.num_players
    st.turn = (st.auctioneer + 1) % st.num_players
    st.phase = "bid"


def bid_actions(st: BataviaState, seat: int) -> list[Action]:
    letters = st.private[seat]["letters"]
    actions: list[Action] = [_PASS]
    if letters < len(_BIDS):
        actions += _BIDS[st.bid + 1 : letters + 1]
    else:
        actions += [{"type": "bid", "amount": a} for a in range(st.bid + 1, letters + 1)]
    return actions


def place_bid(st: BataviaState, seat: int, amount: int) -> None:
    st.bid = amount
    st.high_bidder = seat
    st.events.append({"type": "bid", "seat": seat, "amount": amount})
    _next_bidder(st, seat)


def pass_bid(st: BataviaState, seat: int) -> None:
    st.in_auction[seat] = False
    st.events.append({"type": "pass", "seat": seat})
    _next_bidder(st, seat)


def _next_bidder(st: BataviaState, seat: int) -> None:
    n = st.num_players
    still_in = st.in_auction
    remaining = sum(still_in)
    if remaining == 0:
        _unsold(st)
    elif remaining == 1 and still_in[st.high_bidder] and st.high_bidder >= 0:
        _sold(st, st.high_bidder)
    else:
        nxt = (seat + 1) % n
        while not still_in[nxt]:
            nxt = (nxt + 1) % n
        st.turn = nxt


def payments(num_players: int, winner: int, amount: int) -> list[int]:
    """Letters each seat receives when ``winner`` pays ``amount`` around the table."""
    others = num_players - 1
    share, extra = divmod(amount, others)
    received = [0] * num_players
    for k in range(1, num_players):
        received[(winner + k) % num_players] = share + (1 if k <= extra else 0)
    return received


def _sold(st: BataviaState, winner: int) -> None:
    amount = st.bid
    received = payments(st.num_players, winner, amount)
    private = st.private
    private[winner]["letters"] -= amount
    for seat, got in enumerate(received):
        if got:
            private[seat]["letters"] += got
    hand = private[winner]["hand"]
    lot = st.lot
    won = {}
    for c in range(NUM_COMPANIES):
        if lot[c]:
            hand[COMPANIES[c]] += lot[c]
            won[COMPANIES[c]] = lot[c]
    st.hand_size[winner] += sum(lot)
    st.lot = [0] * NUM_COMPANIES
    st.events.append(
        {"type": "auction_won", "seat": winner, "amount": amount, "cards": won, "paid": received}
    )
    start_actions(st, winner)


def _unsold(st: BataviaState) -> None:
    """Everyone passed: the lot waits for the next auction; the auctioneer plays first.

    The spec: the first player is unchanged, and in the first round the
    auctioneer becomes first player. Every later auctioneer *is* the current
    first player, so both cases make the auctioneer first.
    """
    st.events.append({"type": "auction_unsold", "lot_size": sum(st.lot)})
    start_actions(st, st.auctioneer)
