"""The lobby's receivers of the games' signals: a bot's game ended, so a table waiting
for it may start now (``lobby.tasks.start_waiting_tables``, once the finish commits)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.models import Competitor, Game
from lobby import tasks


def on_game_over(sender: Any = None, game: Game | None = None, **_: Any) -> None:
    """``game_finished`` / ``game_aborted``: queue the start of the tables waiting for its bots.

    Inside the finishing transaction: the task is queued on its commit, when
    the bots' capacity counts the game as over.
    """
    if game is None:
        return
    bots = list(
        game.seats.filter(competitor__kind=Competitor.Kind.BOT).values_list(
            "competitor_id", flat=True
        )
    )
    if not bots:
        return
    transaction.on_commit(lambda: tasks.start_waiting_tables.delay(bots))
