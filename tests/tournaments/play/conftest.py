"""Fixtures for the play socket: an in-memory channel layer, people with accounts, sockets.

The games run on the referee's eager trampoline (``eager_referee``), so a move
sent through a socket is followed, before the consumer answers anything else,
by everything the referee does until the next person is to move; the channel
layer is the in-memory one whatever REDIS_URL says (its messages stay in this
process, where the communicators are).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from games.models import Competitor
from web.sockets.routing import websocket_urlpatterns

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
TIMEOUT_S = 5


@pytest.fixture(autouse=True)
def in_memory_layer(settings) -> None:
    settings.CHANNEL_LAYERS = IN_MEMORY


def people(n: int, prefix: str = "player") -> list[Competitor]:
    """``n`` person competitors, each with an account of their own (no password hashing)."""
    users = get_user_model()
    return [
        Competitor.objects.create(
            kind=Competitor.Kind.PERSON,
            name=f"{prefix}{i}",
            user=users.objects.create(username=f"{prefix}{i}"),
        )
        for i in range(n)
    ]


class Socket:
    """A communicator on the play route as ``user`` (None: anonymous), with every frame kept."""

    def __init__(self, game_id: int, user: Any = None) -> None:
        from django.contrib.auth.models import AnonymousUser

        self.comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game_id}/")
        self.comm.scope["user"] = user if user is not None else AnonymousUser()
        self.frames: list[dict[str, Any]] = []
        self.latest: dict[str, Any] | None = None

    async def open(self) -> dict[str, Any]:
        connected, _ = await self.comm.connect(timeout=TIMEOUT_S)
        assert connected
        return await self.state()

    async def receive(self) -> dict[str, Any]:
        message = await self.comm.receive_json_from(timeout=TIMEOUT_S)
        self.frames.append(message)
        if message["type"] == "state":
            self.latest = message
        return message

    async def state(self) -> dict[str, Any]:
        """The next state frame (errors before it are kept in ``frames``)."""
        while True:
            message = await self.receive()
            if message["type"] == "state":
                return message

    async def until(self, ply: int) -> dict[str, Any]:
        """Frames until one shows at least ``ply`` moves."""
        while self.latest is None or self.latest["ply"] < ply:
            await self.state()
        return self.latest

    async def error(self) -> dict[str, Any]:
        """The next error frame (state frames before it are kept)."""
        while True:
            message = await self.receive()
            if message["type"] == "error":
                return message

    async def send_json(self, data: Any) -> None:
        await self.comm.send_to(text_data=json.dumps(data))

    async def quiet(self) -> bool:
        return await self.comm.receive_nothing(timeout=0.05)

    async def close(self) -> None:
        await self.comm.disconnect()
