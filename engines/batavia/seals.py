"""Majorities and seals: a seal goes to the one player with strictly most cards of its company."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import COMPANIES, NUM_COMPANIES

if TYPE_CHECKING:
    from .state import BataviaState


def others_best_all(front: list[list[int]], seat: int) -> list[int]:
    """Per company, the most cards in front of any player other than ``seat`` (0 if none).

    One pass over the columns, compared in C.
    """
    return list(map(max, _NONE_YET, *front[:seat], *front[seat + 1 :]))


_NONE_YET = (0,) * NUM_COMPANIES
"""The first column of the max: 0 when nobody else has a card (or there is nobody else)."""


def update_seals(st: BataviaState) -> None:
    """Give each seal to its majority holder; a tie (or nobody) returns it to the board."""
    seals = st.seals
    for c, column in enumerate(zip(*st.front, strict=True)):
        # the one seat with strictly more cards than anyone else (and more than none)
        most = max(column)
        holder = column.index(most) if most > 0 and column.count(most) == 1 else -1
        if holder != seals[c]:
            seals[c] = holder
            st.events.append(
                {"type": "seal", "company": COMPANIES[c], "seat": holder if holder >= 0 else None}
            )
