"""What the events do when a game ends: receivers of ``games.signals``.

``game_finished`` and ``game_aborted`` are connected in
``TournamentsConfig.ready``; each runs inside the sending transaction: at a
game's end a round ends (and its next one is queued) and an arena's entrants
wait again exactly when that end commits.
"""

from __future__ import annotations

from typing import Any

from games.models import Game
from tournaments import arena, events


def on_game_finished(sender: Any, game: Game, **kwargs: Any) -> None:
    """A tournament's round may end (its next one is queued); an arena game's entrants wait."""
    events.on_game_finished(game)
    arena.on_game_finished(game)


def on_game_aborted(sender: Any, game: Game, **kwargs: Any) -> None:
    """The referee gave a game up: its tournament round treats it as over and goes on."""
    events.on_game_finished(game)
