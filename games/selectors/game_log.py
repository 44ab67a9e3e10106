"""The game log a board shows: every public event since the start, ply by ply.

Issue #32: a board kept the last few events only, so a person never saw most
of a game's story (a whole voyage with its dice arrived as one jump). The log
is built from the one source every page and socket shows plies from,
``spectator.public_plies_between`` -- which applies ``spectator.shown`` (a
finished game of an open duplicate set stays before its end) and never holds
an action before the record is public -- so the log can show nothing a
spectator may not see. The only addition is a seat holder's *own* moves, as
the engine describes them (``mine``): what that seat chose is no secret to
its holder, and it may be a choice the public events do not tell (a hidden
bid). Nobody else's frame ever carries them.

An entry per ply: ``{"ply", "seat", "events": [{"type", "text", ...}]}``,
plus ``"mine"`` (the holder's own action) and ``"default"`` (``"timeout"`` or
``"fault"``, when the record marks the move as one the referee played for the
seat) when present. Each event keeps its ``type`` and the public fields the
board groups by (``round``, ``voyage``); the text names seats "seat N", which
the board replaces with the players' names and colours.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import engines
from games.models import Game, Move
from games.selectors import spectator

GROUPING_FIELDS = ("round", "voyage")
"""Public event fields the board reads to group the log by round (never a secret field)."""


def log_entries(game: Game, start: int, seats: Iterable[int] = ()) -> dict[str, Any]:
    """``{"from", "to", "entries"}``: the entries of plies ``from`` up to ``to`` (excluded).

    ``to`` is what may be shown now; ``from`` is ``start``, or ``to`` when
    ``start`` is past it. ``seats`` are the seats the viewer holds: their own
    moves get a ``mine`` sentence.
    """
    rules = engines.get(game.engine)
    plies, span = spectator.public_plies_between(game, lambda total: range(max(start, 0), total))
    held = set(seats)
    own: dict[int, str] = {}
    if held and plies:
        moves = Move.objects.filter(
            game_id=game.pk, seat__in=held, ply__gte=span.start, ply__lt=span.stop
        ).values_list("ply", "action")
        own = {ply: rules.describe(action) for ply, action in moves}
    entries = []
    for ply in plies:
        entry: dict[str, Any] = {
            "ply": ply.ply,
            "seat": ply.seat,
            "events": [_event(rules, event) for event in ply.events],
        }
        default = getattr(ply, "default", None)  # PublicPly's mark, where the record has it
        if default:
            entry["default"] = default
        if ply.ply in own:
            entry["mine"] = own[ply.ply]
        entries.append(entry)
    return {"from": min(max(start, 0), span.stop), "to": span.stop, "entries": entries}


def _event(rules: engines.Engine, event: dict[str, Any]) -> dict[str, Any]:
    shown: dict[str, Any] = {"type": event.get("type"), "text": rules.describe_event(event)}
    for field in GROUPING_FIELDS:
        if isinstance(event.get(field), int):
            shown[field] = event[field]
    return shown
