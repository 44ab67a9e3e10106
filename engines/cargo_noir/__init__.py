"""Cargo Noir (Days of Wonder, 2011) for 2-5 players; rules in ``docs/engines/cargo_noir.md``.

Registered as ``cargo_noir``; the rules live in :mod:`.play` and
:mod:`.legal`, every number in :mod:`.data`.
"""

from .engine import ENGINE, CargoNoir
from .state import CargoNoirState

__all__ = ["ENGINE", "CargoNoir", "CargoNoirState"]
