"""What events do when one of their games finishes: the ``games.signals.game_finished`` receiver.

Connected in ``TournamentsConfig.ready``; runs inside the transaction that
saved the outcome, so a round ends (and its next one is queued) and an arena's
entrants wait again exactly when the finish commits.
"""

from __future__ import annotations

from typing import Any

from games.models import Game
from tournaments import arena, events


def on_game_finished(sender: Any, game: Game, **kwargs: Any) -> None:
    """A tournament's round may end (its next one is queued); an arena game's entrants wait."""
    events.on_game_finished(game)
    arena.on_game_finished(game)
