"""Turning one game into rating changes: shared by live application and recompute.

Both paths call :func:`rate_game` with the same inputs in the same order, so a
recompute reproduces the incrementally applied ratings bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .systems import RatingSystem

Stored = tuple[float, float | None]
"""A rating as stored: (Elo rating or mu, sigma or None)."""


@dataclass(frozen=True)
class GameResult:
    """What ratings need of a finished game."""

    game_id: int
    finished_at: Any
    competitors: tuple[int, ...]
    ranks: tuple[int, ...]

    @property
    def ratable(self) -> bool:
        """A competitor in two seats (self-play) has no rating change to speak of."""
        return len(set(self.competitors)) == len(self.competitors) >= 2


def initial(system: RatingSystem, params: dict[str, Any]) -> Stored:
    """A newcomer's stored rating."""
    rating = system.initial_rating(params)
    if isinstance(rating, tuple):
        return (rating[0], rating[1])
    return (rating, None)


def rate_game(
    system: RatingSystem, params: dict[str, Any], before: Sequence[Stored], ranks: Sequence[int]
) -> list[Stored]:
    """The stored ratings after one game, in seat order."""
    with_sigma = before[0][1] is not None
    if with_sigma:
        native = [(value, sigma) for value, sigma in before]
    else:
        native = [value for value, _ in before]
    kwargs = {k: v for k, v in params.items()}
    after = system.rate(native, list(ranks), **kwargs)
    if with_sigma:
        return [(mu, sigma) for mu, sigma in after]
    return [(value, None) for value in after]


def score(system: RatingSystem, stored: Stored) -> float:
    """The leaderboard score of a stored rating."""
    value, sigma = stored
    return system.score(value if sigma is None else (value, sigma))
