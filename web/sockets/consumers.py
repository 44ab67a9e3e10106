"""The play page's websocket: a thin relay between a browser and ``person_moves``.

On connect it learns who the socket is (the session's user and the seats of
their person competitor in the game), joins the game's channel group and
sends the current frame. Every message the referee publishes to the group
(``web/sockets/broadcast.py``: moves, turns, the finish, resignations) only
says that something changed: the consumer answers it with a frame rebuilt for
*this* socket by ``person_moves.frame`` (the seat's own view, never another
seat's; the spectator's for anyone else). The published spectator view itself
is never forwarded to a seat.

Incoming frames: ``{"type": "act", "ply", "index"}``, ``{"type": "resign"}``,
``{"type": "sync"}``, and table chat's (``web/sockets/chat.py``: ``chat``,
``chat_mute``, ``chat_setting``). Anything wrong gets ``{"type": "error",
"code", "detail"}`` and changes nothing.

What a socket is sent depends on its query string: by default the board's
state frames only; ``?chat=only`` the table chat only (the chat panel's own
socket, so the board's script reads no chat and a chat panel builds no board
frames); ``?chat=with`` both. Chat frames may be sent on any of them.

Before it is accepted a socket takes its places in the open-socket limits
(:mod:`web.sockets.limits`: per person or session, per address, per
game) and renews them while it stays open; past a limit it is accepted only
to be closed at once with code 4429 and a reason, which a browser can read
(a socket refused during the handshake shows the page nothing but 1006).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from common import jsonparse
from web.sockets import broadcast, person_moves
from web.sockets import chat as table_chat
from web.sockets import limits as socket_limits
from web.sockets.person_moves import PlayError, Viewer

MAX_FRAME_CHARS = 1024
"""Longer incoming frames are refused: a real one is a few dozen characters ..."""

MAX_CHAT_FRAME_CHARS = 3200
"""... except a chat frame, whose 500 characters may each be sent as a six-character
``\\uXXXX`` escape; anything longer is refused unread."""

RATE_PER_S = 5.0
"""Incoming frames a socket may send per second on average ..."""

RATE_BURST = 10
"""... and at most this many at once (a token bucket per socket)."""


class TokenBucket:
    """A per-socket allowance of frames: ``RATE_BURST`` at once, refilled at ``RATE_PER_S``."""

    def __init__(self, rate: float | None = None, burst: int | None = None) -> None:
        self.rate = RATE_PER_S if rate is None else rate
        self.burst = RATE_BURST if burst is None else burst
        self.tokens = float(self.burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class PlayConsumer(AsyncWebsocketConsumer):
    """``/ws/games/<id>/``: a seat's or a spectator's live board."""

    viewer: Viewer | None = None
    places: socket_limits.Places | None = None
    renewing: asyncio.Task | None = None

    async def connect(self) -> None:
        game_id = self.scope["url_route"]["kwargs"]["game_id"]
        try:
            viewer = await database_sync_to_async(person_moves.viewer_for)(
                game_id, self.scope.get("user")
            )
        except PlayError:
            await self.close(code=4404)
            return
        limits = socket_limits.limits_for(self.scope, game_id)
        try:
            # Redis, not the database: off the consumers' one database thread.
            self.places = await sync_to_async(socket_limits.take, thread_sensitive=False)(limits)
        except socket_limits.TooManySockets as full:
            await self.accept()  # a close before accepting reaches the browser as 1006
            await self.close(code=socket_limits.REFUSED_CODE, reason=full.reason)
            return
        self.renewing = asyncio.create_task(self.renew_places())
        self.viewer = viewer
        self.bucket = TokenBucket()
        self.last_sent: tuple | None = None
        self.wants_state, self.wants_chat = _wants(self.scope.get("query_string", b""))
        self.chat_reader = await database_sync_to_async(table_chat.reader_for)(
            game_id, self.scope.get("user")
        )
        self.log_sent = 0  # plies of the game log this socket was sent (the whole log first)
        self.group = broadcast.group_name(game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        if self.wants_state:
            await self.send_frame(force=True)
        if self.wants_chat:
            await self.send_chat_history()

    async def disconnect(self, code: int) -> None:
        if self.renewing is not None:
            self.renewing.cancel()
        if self.places is not None:
            places, self.places = self.places, None
            await sync_to_async(socket_limits.release, thread_sensitive=False)(places)
        if self.viewer is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def renew_places(self) -> None:
        """Renew this socket's places while it is open, so they lapse only if its server dies."""
        renew = sync_to_async(socket_limits.renew, thread_sensitive=False)
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                await asyncio.sleep(socket_limits.RENEW_S)
                await renew(self.places)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.viewer is None:  # refused, and closing: nothing it sends is read
            return
        if not self.bucket.take():
            await self.error("rate_limited", f"at most {RATE_PER_S:g} messages a second")
            return
        try:
            request = parse(text_data, bytes_data)
        except PlayError as exc:
            await self.error(exc.code, exc.detail)
            return
        kind = request["type"]
        try:
            if kind == "act":
                await database_sync_to_async(person_moves.act)(
                    self.viewer.game_id, self.viewer, request.get("ply"), request.get("index")
                )
            elif kind == "resign":
                await database_sync_to_async(person_moves.resign)(self.viewer.game_id, self.viewer)
            elif kind == "sync":  # the page lost track: the whole log again
                self.log_sent = 0
                if self.wants_state:
                    await self.send_frame(force=True)
                if self.wants_chat:
                    await self.send_chat_history()
                return
            elif kind in CHAT_TYPES:
                await self.chat(kind, request)
                return
        except table_chat.ChatError as exc:
            await self.error(exc.code, exc.detail)
            return
        except PlayError as exc:
            await self.error(exc.code, exc.detail)
            if self.wants_state:
                await self.send_frame(force=True)  # the page redraws what is true now
            return
        if self.wants_state:
            # Accepted: show it at once, without waiting for the group's cue (which then
            # finds nothing new), so the page is never left busy if the layer is slow.
            await self.send_frame()

    async def chat(self, kind: str, request: dict[str, Any]) -> None:
        """A chat frame: say, mute or choose the setting (ChatError when refused)."""
        user = self.scope.get("user")
        game_id = self.viewer.game_id
        if kind == "chat":
            await database_sync_to_async(table_chat.say)(game_id, user, request.get("text"))
        elif kind == "chat_mute":
            await database_sync_to_async(table_chat.mute)(
                game_id, user, request.get("author"), request.get("muted")
            )
            if self.wants_chat:
                await self.send_chat_history()  # what the reader sees changed
        else:
            await database_sync_to_async(table_chat.set_spectators_apart)(
                game_id, user, request.get("spectatorsApart")
            )

    async def send_chat_history(self) -> None:
        built = await database_sync_to_async(table_chat.history_frame)(
            self.viewer.game_id, self.scope.get("user")
        )
        await self.send(text_data=json.dumps(built))

    async def error(self, code: str, detail: str) -> None:
        await self.send(text_data=json.dumps({"type": "error", "code": code, "detail": detail}))

    async def send_frame(self, *, force: bool = False, shows_ply: int | None = None) -> None:
        """Send the socket's frame, unless it would show nothing new.

        ``shows_ply`` is the number of moves a cue needs shown: a frame that
        showed as many already makes the cue moot without a look at the
        database (a burst of chance moves claimed together gets one frame).
        """
        if not self.wants_state:
            return
        seen = self.last_sent
        if not force and shows_ply is not None and seen is not None and shows_ply <= seen[0]:
            return
        built = await database_sync_to_async(person_moves.frame)(self.viewer, self.log_sent)
        key = (
            built["ply"],
            built["status"],
            tuple(built["forfeited"]),
            tuple(built["substituted"]),
        )
        if not force and key == self.last_sent:
            return
        self.last_sent = key
        self.log_sent = built["log"]["to"]
        await self.send(text_data=json.dumps(built))

    # Messages published to the game's group (``broadcast``): each is only a cue.
    async def game_move(self, message: dict[str, Any]) -> None:
        await self.send_frame(shows_ply=_int(message.get("ply")) + 1)

    async def game_turn(self, message: dict[str, Any]) -> None:
        await self.send_frame(shows_ply=_int(message.get("ply")))

    async def game_resigned(self, message: dict[str, Any]) -> None:
        await self.send_frame(force=True)

    async def game_finished(self, message: dict[str, Any]) -> None:
        await self.send_frame(force=True)
        if self.wants_chat:
            await self.send_chat_history()  # the spectators' messages may now show to players

    # Table chat's cues (``web/sockets/chat.py``): each socket reads what its reader may see.
    async def chat_message(self, message: dict[str, Any]) -> None:
        if not self.wants_chat:
            return
        shown = await database_sync_to_async(table_chat.one)(self.chat_reader, message.get("id"))
        if shown is not None:
            await self.send(text_data=json.dumps({"type": "chat", "messages": [shown]}))

    async def chat_hidden(self, message: dict[str, Any]) -> None:
        if not self.wants_chat:
            return
        await self.send(
            text_data=json.dumps({"type": "chat_hidden", "id": _int(message.get("id"))})
        )

    async def chat_setting(self, message: dict[str, Any]) -> None:
        if self.wants_chat:
            await self.send_chat_history()


def _wants(query_string: bytes) -> tuple[bool, bool]:
    """(state frames, chat frames) the socket asked for with ``?chat=only|with``."""
    chat = parse_qs(query_string.decode("latin-1")).get("chat", [""])[-1]
    if chat == "only":
        return False, True
    return True, chat == "with"


def _int(value: Any) -> int:
    return value if type(value) is int else 0


CHAT_TYPES = frozenset({"chat", "chat_mute", "chat_setting"})
REQUEST_TYPES = frozenset({"act", "resign", "sync"}) | CHAT_TYPES


def parse(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
    """The request in a frame, or PlayError("bad_frame") saying what is wrong with it."""
    if text_data is None:
        raise PlayError("bad_frame", "frames must be JSON text, not binary")
    if len(text_data) > MAX_CHAT_FRAME_CHARS:
        raise PlayError("bad_frame", f"frames are at most {MAX_FRAME_CHARS} characters")
    try:
        request = jsonparse.loads(text_data)
    except jsonparse.JSONRefused as refused:  # never Python's RecursionError on "[[[[..."
        raise PlayError("bad_frame", f"the frame is not acceptable JSON: {refused}") from None
    if not isinstance(request, dict) or request.get("type") not in REQUEST_TYPES:
        raise PlayError("bad_frame", f"a frame is an object with a type in {sorted(REQUEST_TYPES)}")
    if len(text_data) > MAX_FRAME_CHARS and request["type"] not in CHAT_TYPES:
        raise PlayError("bad_frame", f"frames are at most {MAX_FRAME_CHARS} characters")
    return request
