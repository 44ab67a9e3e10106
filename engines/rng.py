"""Keyed random streams: the same (seed, key) always gives the same draw.

Every chance outcome of a game is drawn from a stream keyed by
``(seed, state.chance_key())`` rather than from one sequential generator. So
the same seed rolls the same dice and deals the same cards to the same seat
whatever the players chose before -- as far as the game allows -- which is
what duplicate tournaments need. SHA-256 (not ``hash()``) keeps the draws
identical across processes, machines and Python versions, and lets anyone
re-check a published seed against its commitment.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from .base import CHANCE, EngineError

if TYPE_CHECKING:
    from .base import Action, State

_SCALE = float(1 << 64)


def seed_bytes(seed: int | str | bytes) -> bytes:
    """Canonical bytes of a seed (ints and strings in their decimal/UTF-8 form)."""
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, bool):
        raise TypeError("a seed cannot be a bool")
    if isinstance(seed, int):
        return str(seed).encode()
    if isinstance(seed, str):
        return seed.encode()
    raise TypeError(f"a seed must be int, str or bytes, not {type(seed).__name__}")


def seed_commitment(seed: int | str | bytes) -> str:
    """``sha256(seed)`` in hex: published before a game, checked after it."""
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


class Dealer:
    """Chooses chance outcomes for a game from its seed."""

    __slots__ = ("_seed",)

    def __init__(self, seed: int | str | bytes) -> None:
        self._seed = seed_bytes(seed)

    def uniform(self, key: str) -> float:
        """A number in [0, 1) fixed by (seed, key)."""
        digest = hashlib.sha256(self._seed + b"\x00" + key.encode()).digest()
        return int.from_bytes(digest[:8], "big") / _SCALE

    def choose(self, state: State) -> Action:
        """The outcome of the pending chance event of ``state``."""
        if state.to_move != [CHANCE]:
            raise EngineError("chance is not to move")
        outcomes = state.chance_outcomes()
        if not outcomes:
            raise EngineError("chance is to move but lists no outcome")
        u = self.uniform(state.chance_key())
        total = 0.0
        for action, probability in outcomes:
            total += probability
            if u < total:
                return action
        return outcomes[-1][0]
