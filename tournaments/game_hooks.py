"""What the web and events side does when a game begins or ends: receivers of ``games.signals``.

``game_created``, ``game_finished`` and ``game_aborted`` are connected in
``TournamentsConfig.ready``; each runs inside the sending transaction: a new
game's pages are bumped once it commits, and at a game's end a round ends (and
its next one is queued) and an arena's entrants wait again exactly when that
end commits.
"""

from __future__ import annotations

from typing import Any

from games.models import Game
from tournaments import arena, events, pagecache_bumps


def on_game_finished(sender: Any, game: Game, **kwargs: Any) -> None:
    """A tournament's round may end (its next one is queued); an arena game's entrants wait."""
    events.on_game_finished(game)
    arena.on_game_finished(game)


def on_game_aborted(sender: Any, game: Game, **kwargs: Any) -> None:
    """The referee gave a game up: its tournament round treats it as over and goes on."""
    events.on_game_finished(game)


def on_game_created(sender: Any, game: Game, competitor_ids: list[int], **kwargs: Any) -> None:
    """A new game: the lists and its competitors' pages show it once it commits."""
    pagecache_bumps.game_created(game, competitor_ids)
