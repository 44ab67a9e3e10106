"""Majorities and seals: a seal goes to the one player with strictly most cards of its company."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import COMPANIES, NUM_COMPANIES

if TYPE_CHECKING:
    from .state import BataviaState


# The hot loops below are unrolled over the five companies: on rows this short, plain
# comparisons of locals cost a fraction of max()/sum() calls or a loop per company.
assert NUM_COMPANIES == 5


def others_best_all(front: list[list[int]], seat: int) -> list[int]:
    """Per company, the most cards in front of any player other than ``seat`` (0 if none)."""
    b0 = b1 = b2 = b3 = b4 = 0
    for other, (r0, r1, r2, r3, r4) in enumerate(front):
        if other != seat:
            if r0 > b0:
                b0 = r0
            if r1 > b1:
                b1 = r1
            if r2 > b2:
                b2 = r2
            if r3 > b3:
                b3 = r3
            if r4 > b4:
                b4 = r4
    return [b0, b1, b2, b3, b4]


def majority_holders(front: list[list[int]]) -> list[int]:
    """Per company, the seat with strictly more cards in front than anyone else, or -1."""
    b0 = b1 = b2 = b3 = b4 = 0
    h0 = h1 = h2 = h3 = h4 = -1
    for seat, (r0, r1, r2, r3, r4) in enumerate(front):
        if r0 > b0:
            b0, h0 = r0, seat
        elif r0 == b0:
            h0 = -1
        if r1 > b1:
            b1, h1 = r1, seat
        elif r1 == b1:
            h1 = -1
        if r2 > b2:
            b2, h2 = r2, seat
        elif r2 == b2:
            h2 = -1
        if r3 > b3:
            b3, h3 = r3, seat
        elif r3 == b3:
            h3 = -1
        if r4 > b4:
            b4, h4 = r4, seat
        elif r4 == b4:
            h4 = -1
    return [h0, h1, h2, h3, h4]


def update_seals(st: BataviaState) -> None:
    """Give each seal to its majority holder; a tie (or nobody) returns it to the board."""
    seals = st.seals
    for c, holder in enumerate(majority_holders(st.front)):
        if holder != seals[c]:
            seals[c] = holder
            st.events.append(
                {"type": "seal", "company": COMPANIES[c], "seat": holder if holder >= 0 else None}
            )
