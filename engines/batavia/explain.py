"""Specific reasons for refused actions, written for bot authors."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import COMPANIES
from .turn import reachable_companies

if TYPE_CHECKING:
    from engines.base import Action

    from .state import BataviaState


def explain(st: BataviaState, seat: int, action: Action, legal: list[Action]) -> str | None:
    """A reason naming the rule broken, or None to fall back to the generic message."""
    kind = action.get("type")
    extra = set(action) - {"type", "amount", "company", "good", "value"}
    if extra:
        return f"unexpected key(s) {', '.join(sorted(extra))} in {kind!r} action"
    if seat < 0:
        return None
    if kind == "bid" and st.phase == "bid":
        amount = action.get("amount")
        if isinstance(amount, bool) or not isinstance(amount, int):
            return f"a bid needs an integer 'amount', not {amount!r}"
        letters = st.private[seat]["letters"]
        if amount <= st.bid:
            return f"seat {seat} must bid more than the current bid of {st.bid}"
        if amount > letters:
            return f"seat {seat} may not bid {amount}: only {letters} letters held"
    company = action.get("company")
    if kind in ("play", "move", "convert") and company not in COMPANIES:
        return f"unknown company {company!r}; companies are {', '.join(COMPANIES)}"
    if kind == "play" and st.phase == "act" and not reachable_companies(st, seat):
        if st.final_hex >= 0:
            return (
                f"seat {seat} cannot play: after the final hex only plays that reach a"
                " trading post still on the track are allowed; draw instead"
            )
        return f"seat {seat} cannot reach a majority with its hand and must draw"
    if kind == "play" and st.phase in ("act", "play") and not st.private[seat]["hand"][company]:
        return f"seat {seat} holds no {company} card"
    if kind == "done" and st.phase == "play":
        return f"seat {seat} holds no majority that allows a move yet: play more cards"
    if kind == "move" and st.phase == "move":
        return f"seat {seat} cannot move with {company}: no seal of it or no post of it ahead"
    if kind == "convert" and st.phase == "convert":
        return (
            f"seat {seat} cannot convert a {company} post: only posts held before the new"
            " one count, one per company"
        )
    return None
