"""Tournament formats: pure functions from (entrants, history) to the next round.

Nothing here imports Django or touches a database (Tabbycat's draw generators
are the model): ``tournaments.events`` is the one adapter that reads rows into
these types and writes the tables they return as games. Every format module
exposes ``check``, ``total_rounds`` and ``next_round`` with the signatures of
:class:`base.Format`; :func:`get` finds one by name.
"""

from __future__ import annotations

from tournaments.formats.base import (
    Bye,
    Entrant,
    Format,
    FormatError,
    History,
    Result,
    Round,
    Settings,
    Table,
)
from tournaments.formats.registry import FORMAT_NAMES, get

__all__ = [
    "FORMAT_NAMES",
    "Bye",
    "Entrant",
    "Format",
    "FormatError",
    "History",
    "Result",
    "Round",
    "Settings",
    "Table",
    "get",
]
