"""Publishing game progress to the game's channel group, for live pages.

Only public information is ever sent: the spectator view and the public
events. A seat's own secrets reach it only through its own view, fetched with
its credentials. Publishing is best effort: a channel layer that is down
delays a live page, never a game.

Most games have nobody watching, and a message to an empty group reaches
no one, so a game's messages are sent only while its group has members. With
Redis, whether it has is asked (one ZCOUNT on the layer's own bookkeeping) at
most every ``WATCH_CHECK_S`` per game and process, and the answer kept that
long; the in-memory layer is looked at directly. A page that joins a game's
group may therefore get its first message up to ``WATCH_CHECK_S`` late; every
move message carries its ply and the whole spectator view after it, so the
page is then up to date again, and a jump in plies tells it that events went
by (the game's move log has them).

With the Redis channel layer (servers mode) the messages of watched games go
to one background sender per process, which keeps its own event loop and
sends them in the order given: the referee thread does not wait for Redis.
The in-memory layer (embedded mode) lives in this process: there messages are
sent at once.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Sequence
from typing import Any

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

Message = dict[str, Any]


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def publish(game_id: int, message: Message) -> None:
    """Send ``message`` (with a "type" handler name) to everyone watching the game."""
    publish_many(game_id, [message])


def publish_many(game_id: int, messages: Sequence[Message]) -> None:
    """Send ``messages`` in order, if anyone watches the game (call after they are committed)."""
    layer = get_channel_layer()
    if not messages or not _watched(layer, game_id):
        return
    group = group_name(game_id)
    if _is_redis_layer(layer):
        _sender(layer).send(group, list(messages))
        return
    try:
        for message in messages:
            async_to_sync(layer.group_send)(group, message)
    except Exception:
        log.warning("could not publish to game %s", game_id, exc_info=True)


def maybe_watched(game_id: int) -> bool:
    """Whether the game's messages are worth building now (see ``WATCH_CHECK_S``)."""
    return _watched(get_channel_layer(), game_id)


def _watched(layer: Any, game_id: int) -> bool:
    if layer is None:
        return False
    group = group_name(game_id)
    if _is_redis_layer(layer):
        return _watchers(layer).maybe_watched(group)
    return bool(getattr(layer, "groups", {}).get(group))  # the in-memory layer: look


def move_message(
    game_id: int, ply: int, seat: int, view: dict, events: list, default: str | None = None
) -> Message:
    """The message of one applied move: its ply and seat, the spectator view, public events,
    and ``default`` ("timeout" or "fault" when the referee played the seat's default)."""
    return {"type": "game.move", "game": game_id, "ply": ply, "seat": seat, "view": view,
            "events": events, "default": default}  # fmt: skip


def publish_finish(game_id: int, outcome: dict | None, seed: str | None) -> None:
    """The final message; ``outcome`` and ``seed`` None while the game's duplicate set still
    plays its deal (``spectator.shown``)."""
    publish(
        game_id,
        {"type": "game.finished", "game": game_id, "outcome": outcome, "seed": seed},
    )


def _is_redis_layer(layer: Any) -> bool:
    return type(layer).__module__.startswith("channels_redis")


class _BackgroundSender:
    """A daemon thread that sends queued messages of watched groups, one batch at a time."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.loop = asyncio.new_event_loop()
        self.queue: queue.SimpleQueue[tuple[str, list[Message]] | threading.Event] = (
            queue.SimpleQueue()
        )
        threading.Thread(target=self._run, name="channel-publisher", daemon=True).start()

    def send(self, group: str, messages: list[Message]) -> None:
        self.queue.put((group, messages))

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything queued so far was handled (tests, orderly shutdown)."""
        done = threading.Event()
        self.queue.put(done)
        return done.wait(timeout)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        while True:
            item = self.queue.get()
            if isinstance(item, threading.Event):
                item.set()
                continue
            group, messages = item
            try:
                for message in messages:
                    self.loop.run_until_complete(self.layer.group_send(group, message))
            except Exception:
                log.warning("could not publish to %s", group, exc_info=True)


WATCH_CHECK_S = 0.5
"""How long a process trusts its last look at whether a game's group has members."""


class _Watchers:
    """Whether groups of a Redis channel layer have members, looked up at most every
    ``WATCH_CHECK_S`` per group (thread-safe; one per layer and process)."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self._seen: dict[str, tuple[float, bool]] = {}
        self._clients: dict[int, redis.Redis] = {}
        self._lock = threading.Lock()

    def maybe_watched(self, group: str) -> bool:
        """The group's last known state; True when it cannot tell (sending is harmless)."""
        now = time.monotonic()
        seen = self._seen.get(group)
        if seen is not None and now - seen[0] < WATCH_CHECK_S:
            return seen[1]
        try:
            watched = self.count(group) > 0
        except Exception:  # sending anyway is harmless; asking again at once would not be
            log.warning("could not look at the members of %s", group, exc_info=True)
            watched = True
        with self._lock:
            if len(self._seen) > 10_000:  # games come and go: forget the stale answers
                self._seen = {g: s for g, s in self._seen.items() if now - s[0] < WATCH_CHECK_S}
            self._seen[group] = (now, watched)
        return watched

    def count(self, group: str) -> int:
        """Members of the group that have not expired (the layer's own bookkeeping)."""
        layer = self.layer
        index = layer.consistent_hash(group)
        with self._lock:
            client = self._clients.get(index)
            if client is None:
                client = self._clients[index] = _sync_client(layer.hosts[index])
        oldest = int(time.time()) - layer.group_expiry
        return client.zcount(layer._group_key(group), oldest, "+inf")


def _sync_client(host: dict[str, Any]) -> redis.Redis:
    """A plain Redis client for one of the layer's hosts (as channels_redis configures them).

    Short timeouts, over the layer's own: the referee's thread asks it, and must not hang
    on a Redis that is down.
    """
    options = {**host, "socket_timeout": 1.0, "socket_connect_timeout": 1.0}
    address = options.pop("address", None)
    if address is not None:
        return redis.Redis.from_url(address, **options)
    return redis.Redis(**options)


_senders: dict[int, _BackgroundSender] = {}
_watchers_of: dict[int, _Watchers] = {}
_senders_lock = threading.Lock()


def _sender(layer: Any) -> _BackgroundSender:
    return _one_per_layer(_senders, layer, _BackgroundSender)


def _watchers(layer: Any) -> _Watchers:
    return _one_per_layer(_watchers_of, layer, _Watchers)


def _one_per_layer(registry: dict[int, Any], layer: Any, make: Any) -> Any:
    """The registry's object for this layer, made on first use (a new layer gets a new one)."""
    with _senders_lock:
        kept = registry.get(id(layer))
        if kept is None or kept.layer is not layer:
            kept = registry[id(layer)] = make(layer)
        return kept


def flush(timeout: float = 5.0) -> bool:
    """Wait for every background sender to empty its queue; False if one did not in time."""
    with _senders_lock:
        senders = list(_senders.values())
    return all(sender.flush(timeout) for sender in senders)
