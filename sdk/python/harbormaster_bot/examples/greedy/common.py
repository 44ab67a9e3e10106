"""What every greedy example bot shares: score the legal actions, play the best.

A greedy bot here is a function ``choose(view, legal, rng) -> index`` per
game. It reads only what the act request gives every bot (its seat's view
and the legal actions) and returns the index of one of the listed actions,
so it can never invent an action. Ties are broken by a random generator
seeded from the request (game id, seat and ply), so the same request always
gets the same answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

Action = dict[str, Any]
View = dict[str, Any]
Chooser = Callable[[View, list[Action], random.Random], int]


def request_rng(request: dict[str, Any]) -> random.Random:
    """A generator fixed by the request, for deterministic tie-breaking."""
    game = request.get("game", {})
    return random.Random(f"{game.get('id')}/{game.get('seat')}/{request.get('ply')}")


def best_index(
    legal: Sequence[Action], score: Callable[[Action], float], rng: random.Random
) -> int:
    """Index of the highest-scoring action; equal scores are broken by ``rng``."""
    best: list[int] = []
    best_score = float("-inf")
    for index, action in enumerate(legal):
        value = score(action)
        if value > best_score + 1e-9:
            best, best_score = [index], value
        elif value >= best_score - 1e-9:
            best.append(index)
    return best[0] if len(best) == 1 else rng.choice(best)


def first_index(legal: Sequence[Action], **fields: Any) -> int | None:
    """Index of the first legal action whose fields equal ``fields``, or None."""
    for index, action in enumerate(legal):
        if all(action.get(key) == value for key, value in fields.items()):
            return index
    return None
