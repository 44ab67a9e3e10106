"""The engines' sentences with their seats named as people read them.

Engines write seats as their 0-based positions ("Seat 0 bids 5 pesos"), the
numbers their state, actions and the API use. The live board's log
(``static/boards/log.js``) swaps each "seat N" of a sentence for that seat's
name; the game page's server-rendered list of plies does the same here, so
no page says "seat 0": a seat of the game reads as its player's name, and a
number past the players stays as written (it names no seat).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

SEAT = re.compile(r"\b[Ss]eat (\d+)\b")
"""A seat as the engines write it (the same pattern as log.js's)."""


def seat_label(position: int, names: Mapping[int, str]) -> str:
    """The player's name at ``position``, else "seat N" counted from 1."""
    return names.get(position) or f"seat {position + 1}"


def with_names(text: str, names: Mapping[int, str]) -> str:
    """``text`` with each "seat N" of a seat in ``names`` replaced by that seat's name."""

    def name(match: re.Match[str]) -> str:
        position = int(match.group(1))
        return names[position] if position in names else match.group(0)

    return SEAT.sub(name, text)
