"""Final gold: conversions, good majorities, letters, final hex and seals."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .rules import (
    COMPANIES,
    FINAL_HEX_GOLD,
    GOOD_GOLD,
    GOODS,
    LETTERS_MOST,
    LETTERS_TIED,
    NUM_GOODS,
    SEAL_GOLD,
)

if TYPE_CHECKING:
    from .state import BataviaState


def majority_awards(counts: list[int], sole: int, tied: int) -> list[int]:
    """``sole`` to a single leader, ``tied`` to each of several; nothing if nobody has any."""
    best = max(counts)
    if best <= 0:
        return [0] * len(counts)
    leaders = [i for i, c in enumerate(counts) if c == best]
    award = sole if len(leaders) == 1 else tied
    return [award if c == best else 0 for c in counts]


def score(st: BataviaState) -> dict[str, Any]:
    """Each seat's gold by source and in total (seals as they stand now)."""
    n = st.num_players
    goods = [[0] * n for _ in range(NUM_GOODS)]
    for g in range(NUM_GOODS):
        sole, tied = GOOD_GOLD[g]
        goods[g] = majority_awards([st.crates[s][g] for s in range(n)], sole, tied)
    letters = [st.private[s]["letters"] for s in range(n)]
    letter_gold = majority_awards(letters, LETTERS_MOST, LETTERS_TIED)
    breakdown = []
    scores = []
    for s in range(n):
        seals = [COMPANIES[c] for c, holder in enumerate(st.seals) if holder == s]
        parts = {
            "conversions": st.gold[s],
            "goods": {GOODS[g]: goods[g][s] for g in range(NUM_GOODS) if goods[g][s]},
            "letters": letter_gold[s],
            "final_hex": FINAL_HEX_GOLD if st.final_hex == s else 0,
            "seals": SEAL_GOLD * len(seals),
        }
        total = (
            parts["conversions"]
            + sum(parts["goods"].values())
            + parts["letters"]
            + parts["final_hex"]
            + parts["seals"]
        )
        breakdown.append({"seat": s, **parts, "total": total, "letters_held": letters[s]})
        scores.append(total)
    return {"scores": scores, "breakdown": breakdown}
