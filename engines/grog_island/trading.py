"""Paying goods at a ship: one good of the ship's colour, or three others instead.

Each ship exchange and each building is paid one *unit* at a time. A unit is
one good of the ship's colour or, by the 3-for-1 rule, three goods of other
colours. (Three goods that include the ship's own colour are never offered:
that good alone would pay the same unit, so such a payment is never better.)
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

from .data import COLOURS, SUBSTITUTE

_TRIPLES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        combo
        for combo in combinations_with_replacement(range(len(COLOURS)), SUBSTITUTE)
        if colour not in combo
    )
    for colour in range(len(COLOURS))
)
"""For each ship colour, every multiset of three goods of the other colours."""


def capacity(goods: list[int], colour: int) -> int:
    """How many units a player can pay towards a ship of ``colour``."""
    own = goods[colour]
    g0, g1, g2, g3, g4 = goods  # five colours: a sum without a call
    return own + (g0 + g1 + g2 + g3 + g4 - own) // SUBSTITUTE


def payments(goods: list[int], colour: int) -> list[tuple[int, ...]]:
    """Every way to pay one unit: ``(colour,)`` and the affordable triples."""
    options: list[tuple[int, ...]] = []
    if goods[colour]:
        options.append((colour,))
    if sum(goods) - goods[colour] >= SUBSTITUTE:
        for combo in _TRIPLES[colour]:
            a, b, c = combo
            if a == b == c:
                if goods[a] >= 3:
                    options.append(combo)
            elif a == b or b == c:
                twice = b
                once = c if a == b else a
                if goods[twice] >= 2 and goods[once] >= 1:
                    options.append(combo)
            elif goods[a] and goods[b] and goods[c]:
                options.append(combo)
    return options


def names(combo: tuple[int, ...] | list[int]) -> list[str]:
    return [COLOURS[c] for c in combo]


_UNIT_ACTIONS: dict[str, dict[tuple[int, ...], dict[str, Any]]] = {
    kind: {
        combo: {"type": kind, "goods": names(combo)}
        for colour in range(len(COLOURS))
        for combo in ((colour,), *_TRIPLES[colour])
    }
    for kind in ("exchange", "build_pay")
}
"""Each unit payment's action of each kind, built once and shared (listed actions are read-only)."""


@lru_cache(maxsize=4096)
def unit_actions(
    goods: tuple[int, ...], colour: int
) -> tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]:
    """The ``exchange`` and the ``build_pay`` actions of :func:`payments`, in its order.

    A pure function of a few small counts, asked on every trading decision:
    remembered (bounded) rather than recomputed. :func:`payments` only ever
    asks whether a count reaches 1, 2 or 3, so callers pass counts capped at
    3 (at most 4**5 keys per colour).
    """
    options = payments(list(goods), colour)
    exchange, build = _UNIT_ACTIONS["exchange"], _UNIT_ACTIONS["build_pay"]
    return tuple(exchange[p] for p in options), tuple(build[p] for p in options)
