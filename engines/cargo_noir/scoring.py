"""Smuggling values and the final ranking: pure functions of small inputs."""

from __future__ import annotations

from collections.abc import Sequence

from .data import CARDS, DIFFERENT_VALUES, MAX_COMBINATION, SAME_VALUES


def combination_value(kind: str, size: int) -> int:
    """Smuggling value of ``size`` goods that are all ``"same"`` or all ``"different"``.

    Wilds count as goods of the combination's kind, so an all-wild combination
    is worth as much as real goods of the kind the player declared.
    """
    if not 1 <= size <= MAX_COMBINATION:
        raise ValueError(f"a combination holds 1-{MAX_COMBINATION} goods, not {size}")
    return (SAME_VALUES if kind == "same" else DIFFERENT_VALUES)[size - 1]


def victory_points(card_counts: Sequence[int]) -> int:
    """Sum of the victory points of the cards held (``card_counts`` by card number)."""
    return sum(count * card.vp for count, card in zip(card_counts, CARDS, strict=True))


def best_card_vp(card_counts: Sequence[int]) -> int:
    """VP of the single most valuable card held (0 with no card): the tie-breaker."""
    held = (card.vp for count, card in zip(card_counts, CARDS, strict=True) if count)
    return max(held, default=0)


def final_ranks(scores: Sequence[int], tie_breaks: Sequence[int]) -> list[int]:
    """Competition ranks by VP, ties broken by the most valuable card; still tied: shared."""
    keys = list(zip(scores, tie_breaks, strict=True))
    return [1 + sum(1 for other in keys if other > key) for key in keys]
