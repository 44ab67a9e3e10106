"""Format modules by name; the names are what ``Tournament.format`` stores."""

from __future__ import annotations

import importlib
from typing import cast

from tournaments.formats.base import Format, FormatError

FORMAT_NAMES = {
    "round_robin": "round robin",
    "swiss": "Swiss",
    "knockout": "knockout",
}
"""Format name -> label. Arena play is a league's (``formats.matchmaking``), not a tournament's."""


def get(name: str) -> Format:
    """The format module called ``name`` (``tournaments.formats.<name>``)."""
    if name not in FORMAT_NAMES:
        raise FormatError(f"unknown format {name!r}; known: {', '.join(FORMAT_NAMES)}")
    return cast(Format, importlib.import_module(f"{__package__}.{name}"))
