"""Publishing game progress to the game's channel group, for live pages.

Only public information is ever sent: the spectator view and the public
events. A seat's own secrets reach it only through its own view, fetched with
its credentials. Publishing is best effort: a channel layer that is down
delays a live page, never a game.

With the Redis channel layer (servers mode) messages are handed to one
background sender per process, which keeps its own event loop and Redis
connections, and sends them in the order given: a referee worker does not
wait for Redis, nor build an event loop per message. The in-memory layer
(embedded mode) belongs to the web server's event loop, so there a message is
sent at once through ``async_to_sync``, as before.
"""

from __future__ import annotations

import asyncio
import logging
import threading
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
    if type(layer).__module__.startswith("channels_redis"):
        _sender(layer).send(group_name(game_id), message)
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


class _BackgroundSender:
    """A daemon thread running an event loop that sends queued group messages one by one."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.loop = asyncio.new_event_loop()
        self.queue: asyncio.Queue[tuple[str, dict[str, Any]]] | None = None
        ready = threading.Event()
        thread = threading.Thread(
            target=self._run, args=(ready,), name="channel-publisher", daemon=True
        )
        thread.start()
        ready.wait()

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.queue = asyncio.Queue()
        ready.set()
        self.loop.run_until_complete(self._drain())

    async def _drain(self) -> None:
        assert self.queue is not None
        while True:
            group, message = await self.queue.get()
            try:
                await self.layer.group_send(group, message)
            except Exception:
                log.warning("could not publish to %s", group, exc_info=True)
            finally:
                self.queue.task_done()

    def send(self, group: str, message: dict[str, Any]) -> None:
        assert self.queue is not None
        self.loop.call_soon_threadsafe(self.queue.put_nowait, (group, message))

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything queued so far was sent (tests, orderly shutdown)."""
        assert self.queue is not None
        future = asyncio.run_coroutine_threadsafe(self.queue.join(), self.loop)
        try:
            future.result(timeout)
        except TimeoutError:
            return False
        return True


_senders: dict[int, _BackgroundSender] = {}
_senders_lock = threading.Lock()


def _sender(layer: Any) -> _BackgroundSender:
    with _senders_lock:
        sender = _senders.get(id(layer))
        if sender is None or sender.layer is not layer:
            sender = _senders[id(layer)] = _BackgroundSender(layer)
        return sender


def flush(timeout: float = 5.0) -> bool:
    """Wait for every background sender to empty its queue; False if one did not in time."""
    with _senders_lock:
        senders = list(_senders.values())
    return all(sender.flush(timeout) for sender in senders)
