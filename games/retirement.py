"""Deleting a competitor that never played: the apps above say why it must stay, or let it go.

A bot that never sat at a game may be deleted by its owner (``botapi.services``).
Rows of the apps above games -- an event's entrants, an arena's entries -- are
theirs to judge: each registers a check here at start-up, so the bot side never
imports them. A check answers why the competitor must stay (a code and a
sentence), or clears what only the competitor held and answers None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Kept:
    """Why a competitor may not be deleted: a code for the API and a sentence for people."""

    code: str
    reason: str


Check = Callable[[int], Kept | None]
_checks: dict[str, Check] = {}


def register(name: str, check: Check) -> None:
    """Add (or replace, by name) a check run before a competitor is deleted."""
    _checks[name] = check


def refusal(competitor_id: int) -> Kept | None:
    """The first registered check's reason to keep the competitor, or None when it may go.

    Called inside the deleting transaction, so what the checks clear goes with it.
    """
    for check in _checks.values():
        kept = check(competitor_id)
        if kept is not None:
            return kept
    return None
