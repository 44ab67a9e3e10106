"""Where the referee tells live pages what happened: a registered implementation.

The pages that watch a game (websockets, Channels groups) live above
``games``; the web side registers the module that publishes to them in its
``AppConfig.ready()`` (``web.sockets.broadcast``), so the referee never imports
it. It is a registered implementation, not a signal, because the referee asks
it a question first (is anyone watching? else no message, nor its spectator
view, is built). With none registered (a management command that loads only
``games``) nobody watches and nothing is sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

Message = dict[str, Any]


class LivePages(Protocol):
    """What the referee asks of the side that publishes to a game's watchers."""

    def publish(self, game_id: int, message: Message) -> None:
        """Send ``message`` to everyone watching the game (after it is committed)."""

    def publish_many(self, game_id: int, messages: Sequence[Message]) -> None:
        """Send ``messages`` in order to everyone watching the game."""

    def maybe_watched(self, game_id: int) -> bool:
        """Whether the game's messages are worth building now."""

    def move_message(
        self,
        game_id: int,
        ply: int,
        seat: int,
        view: dict,
        events: list,
        default: str | None = None,
    ) -> Message:
        """The message of one applied move (``default``: ``spectator.default_mark``)."""

    def publish_finish(self, game_id: int, outcome: dict | None, seed: str | None) -> None:
        """The final message of a game."""


class _Nobody:
    """No live pages registered: nobody watches, nothing is sent."""

    def publish(self, game_id: int, message: Message) -> None:
        return None

    def publish_many(self, game_id: int, messages: Sequence[Message]) -> None:
        return None

    def maybe_watched(self, game_id: int) -> bool:
        return False

    def move_message(
        self,
        game_id: int,
        ply: int,
        seat: int,
        view: dict,
        events: list,
        default: str | None = None,
    ) -> Message:
        return {"type": "game.move", "game": game_id, "ply": ply, "seat": seat}

    def publish_finish(self, game_id: int, outcome: dict | None, seed: str | None) -> None:
        return None


_pages: LivePages = _Nobody()


def register(pages: LivePages) -> None:
    """Let ``pages`` publish the referee's messages (the web side, once, in ``ready()``)."""
    global _pages
    _pages = pages


def pages() -> LivePages:
    """The registered live pages (a silent stand-in when none is)."""
    return _pages
