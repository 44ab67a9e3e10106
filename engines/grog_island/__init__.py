"""Grog Island: a dice-auction game of buildings, goods and secret objectives.

Rules, formats and every assumed number:
``docs/engines/grog_island.md``; all numbers live in :mod:`.data`.
"""

from .engine import ENGINE, GrogIslandEngine

__all__ = ["ENGINE", "GrogIslandEngine"]
