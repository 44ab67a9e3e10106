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


def others_best_all(front: list[list[int]], seat: int) -> list[int]:
    """:func:`others_best` of every company, in one pass (columns compared in C)."""
    return list(map(max, _NONE_YET, *front[:seat], *front[seat + 1 :]))


_NONE_YET = (0,) * NUM_COMPANIES
"""``others_best`` starts from 0 (nobody else has a card): the first column of the max."""


def update_seals(st: BataviaState) -> None:
    """Give each seal to its majority holder; a tie (or nobody) returns it to the board."""
    seals = st.seals
    for c, column in enumerate(zip(*st.front, strict=True)):
        # majority_holder(front, c): the one seat with the most cards, if more than none
        most = max(column)
        holder = column.index(most) if most > 0 and column.count(most) == 1 else -1
        if holder != seals[c]:
            seals[c] = holder
            st.events.append(
                {"type": "seal", "company": COMPANIES[c], "seat": holder if holder >= 0 else None}
            )
