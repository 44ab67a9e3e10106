"""The lobby's time controls: a few named choices instead of free numbers.

A person at a table needs time to think, and a bot's owner needs to know
what their bot is in for; a handful of named controls keeps tables
comparable and the form short. The server accepts only these names.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TimeControl:
    """Per-move time and a bank for the whole game, as ``create_game`` takes them."""

    key: str
    name: str
    move_time_ms: int
    time_bank_ms: int

    @property
    def label(self) -> str:
        return f"{self.name}: {self.detail}"

    @property
    def detail(self) -> str:
        move, bank = _duration(self.move_time_ms), _duration(self.time_bank_ms)
        return f"{move} a move + {bank} bank"


def _duration(ms: int) -> str:
    seconds = ms // 1000
    if seconds < 60:
        return f"{seconds} s"
    minutes, rest = divmod(seconds, 60)
    return f"{minutes} min" if not rest else f"{minutes} min {rest} s"


TIME_CONTROLS: tuple[TimeControl, ...] = (
    TimeControl("quick", "Quick", 30_000, 120_000),
    TimeControl("standard", "Standard", 60_000, 300_000),
    TimeControl("relaxed", "Relaxed", 180_000, 900_000),
)
DEFAULT = "standard"
BY_KEY = {control.key: control for control in TIME_CONTROLS}


def choices() -> list[tuple[str, str]]:
    """(key, label) pairs for a form or a model field."""
    return [(control.key, control.label) for control in TIME_CONTROLS]


def get(key: str) -> TimeControl | None:
    """The control called ``key``, or None when there is no such control."""
    return BY_KEY.get(key)
