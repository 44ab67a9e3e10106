"""Majorities and seals: a seal goes to the one player with strictly most cards of its company."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import COMPANIES, NUM_COMPANIES

if TYPE_CHECKING:
    from .state import BataviaState


def majority_holder(front: list[list[int]], company: int) -> int:
    """The seat with strictly more cards of ``company`` in front than anyone else, or -1."""
    best = 0
    holder = -1
    for seat, row in enumerate(front):
        count = row[company]
        if count > best:
            best = count
            holder = seat
        elif count == best:
            holder = -1
    return holder


def others_best(front: list[list[int]], seat: int, company: int) -> int:
    """The most cards of ``company`` in front of any player other than ``seat``."""
    best = 0
    for other, row in enumerate(front):
        if other != seat and row[company] > best:
            best = row[company]
    return best


def update_seals(st: BataviaState) -> None:
    """Give each seal to its majority holder; a tie (or nobody) returns it to the board."""
    seals = st.seals
    front = st.front
    for c in range(NUM_COMPANIES):
        holder = majority_holder(front, c)
        if holder != seals[c]:
            seals[c] = holder
            st.events.append(
                {"type": "seal", "company": COMPANIES[c], "seat": holder if holder >= 0 else None}
            )
