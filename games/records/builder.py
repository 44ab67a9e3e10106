"""Replaying a move log once into its public record and its board checkpoints. No database.

One pass over the log gives, per ply, who moved, the action, its ``describe``
text and the public events the ply produced (``state.events`` after the move
minus before), and a copy of the state every :data:`CHECKPOINT_EVERY` plies.
Both the stored record of a finished game (``games.records.stored``) and the
in-process record of a running game (``games.records.live``) are built
here, so they cannot disagree with each other or with a fresh replay.

A log written under older rules than this server's (``strict=False``) is
replayed as far as the current rules accept it; from the first refused move on
its plies have no events and there are no more checkpoints, which is what the
game page always showed for such games ("Game page for older records").
"""

from __future__ import annotations

from typing import Any

import engines
from games.selectors.boards import RECENT_EVENTS

CHECKPOINT_EVERY = 100
"""Plies between stored states: the board replay's pages (``replay.MAX_PAGE``) start at
multiples of 100, so a page starts exactly at a checkpoint and replays at most its own plies."""

Row = list[Any]
"""``[seat, action, description, events]`` for one ply (the stored JSON's shape)."""


class RecordBuilder:
    """Feed it a game's moves in ply order; it keeps the rows, the checkpoints and the state.

    ``describe``: write each action's ``describe`` text (the stored record does;
    a running game's, which never shows actions, does not).
    """

    def __init__(self, state: engines.State, *, strict: bool, describe: bool = True) -> None:
        self.rules = state.engine
        self.state: engines.State | None = state
        self.strict = strict
        self.describe = describe
        self.rows: list[Row] = []
        self.checkpoints: dict[int, engines.State] = {0: state.clone()}
        self.replayable: int | None = None
        """Moves that replay, once one was refused (older rules); None while all do."""

    def copy(self) -> RecordBuilder:
        """An independent builder at the same ply (rows and checkpoints are never changed)."""
        other = RecordBuilder.__new__(RecordBuilder)
        other.rules, other.strict, other.describe = self.rules, self.strict, self.describe
        other.state = self.state.clone() if self.state is not None else None
        other.rows = list(self.rows)
        other.checkpoints = dict(self.checkpoints)
        other.replayable = self.replayable
        return other

    @property
    def ply(self) -> int:
        return len(self.rows)

    def add(self, seat: int, action: dict[str, Any]) -> None:
        """Apply the next logged move and record what a spectator sees of it."""
        state = self.state
        events: list[dict[str, Any]] = []
        if state is not None:
            seen = len(state.events)
            try:
                state.apply(seat, action)
            except engines.IllegalAction:
                if self.strict:
                    raise  # a log this server's rules wrote must replay: a real fault
                self.state, state = None, None  # older rules allowed it; no events from here on
                self.replayable = self.ply
            else:
                events = list(state.events[seen:])
        description = self.rules.describe(action) if self.describe else None
        self.rows.append([seat, action, description, events])
        if state is not None and self.ply % CHECKPOINT_EVERY == 0:
            self.checkpoints[self.ply] = state.clone()

    def replayed(self) -> int:
        """How many of the moves added so far replay under these rules."""
        return self.ply if self.replayable is None else self.replayable


def checkpoint_json(state: engines.State) -> dict[str, Any]:
    """A checkpoint as stored: ``to_json`` with only the events a board shows.

    A state carries every public event since ply 0 (tens of KiB late in a long
    game), but nothing reads them but ``board_model``, which shows the last
    :data:`~games.selectors.boards.RECENT_EVENTS`; the record holds them all.
    """
    data = state.to_json()
    data["events"] = data["events"][-RECENT_EVENTS:]
    return data
