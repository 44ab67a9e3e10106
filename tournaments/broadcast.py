"""Publishing game progress to the game's channel group, for live pages.

Only public information is ever sent: the spectator view and the public
events. A seat's own secrets reach it only through its own view, fetched with
its credentials. Publishing is best effort: a channel layer that is down
delays a live page, never a game.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def publish(game_id: int, message: dict[str, Any]) -> None:
    """Send ``message`` (with a "type" handler name) to everyone watching the game."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(game_id), message)
    except Exception:
        log.warning("could not publish to game %s", game_id, exc_info=True)


def publish_move(game_id: int, ply: int, seat: int, view: dict, events: list) -> None:
    publish(
        game_id,
        {"type": "game.move", "game": game_id, "ply": ply, "seat": seat, "view": view,
         "events": events},
    )  # fmt: skip


def publish_finish(game_id: int, outcome: dict, seed: str) -> None:
    publish(
        game_id,
        {"type": "game.finished", "game": game_id, "outcome": outcome, "seed": seed},
    )
