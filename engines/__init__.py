"""Pure-Python rules engines for Harbormaster's games. Never imports Django.

Use ``engines.get(slug)`` for an engine and the ``State`` protocol of
:mod:`engines.base`; see ``docs/architecture.md`` and ``docs/engines/``.
"""

from .base import (
    CHANCE,
    Action,
    Engine,
    EngineError,
    IllegalAction,
    InvalidGame,
    State,
    ranks_from_scores,
)
from .determinize import determinize
from .registry import all_engines, get, register
from .replay import replay
from .rng import Dealer, seed_commitment

__all__ = [
    "CHANCE",
    "Action",
    "Dealer",
    "Engine",
    "EngineError",
    "IllegalAction",
    "InvalidGame",
    "State",
    "all_engines",
    "determinize",
    "get",
    "ranks_from_scores",
    "register",
    "replay",
    "seed_commitment",
]
