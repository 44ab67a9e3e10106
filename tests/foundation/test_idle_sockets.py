"""Idle play sockets stay open, and the Redis channel layer waits on an empty channel for long.

channels-redis waits for a message with a blocking pop that Redis ends after
``brpop_timeout`` (5 s) when nothing came; redis-py 8 gives each read a 5 s
socket timeout by default, so a consumer waiting on a quiet game would get a
``TimeoutError`` and its socket would be closed. ``env.channel_layers`` gives
the layer a longer read timeout; these tests hold a layer and real sockets
idle for many of those periods.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels_redis.core import RedisChannelLayer
from channels_redis.utils import create_pool
from django.conf import settings
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games.services import create_game
from harbormaster import env
from tests.foundation.processes import clean_env
from tests.foundation.servers import Server, start_server
from tests.tournaments import workers
from tests.tournaments.play.conftest import people

pytestmark = [pytest.mark.redis, pytest.mark.slow]

SOCKETS = 20
IDLE_SECONDS = 45
"""Past two of uvicorn's 20 s websocket pings (and their 20 s timeout) and nine of the
layer's 5 s blocking pops: a socket the server meant to close would be closed by then."""
LAYER_IDLE_SECONDS = 21
"""Four of the layer's 5 s blocking pops come back empty; a 5 s read timeout fails at one."""


def redis_layer() -> RedisChannelLayer:
    """The project's Redis layer (as settings build it), on a prefix of this test's own."""
    config = env.channel_layers({"REDIS_URL": settings.REDIS_URL})["default"]["CONFIG"]
    return RedisChannelLayer(**{**config, "prefix": f"hm-idle-test-{id(config)}"})


def test_the_layers_redis_reads_wait_longer_than_its_blocking_pop() -> None:
    layer = redis_layer()
    pool = create_pool(layer.hosts[0])
    assert pool.connection_kwargs["socket_timeout"] > layer.brpop_timeout


def test_a_receive_on_a_quiet_channel_waits_through_empty_pops_without_error() -> None:
    """Several of the layer's blocking pops come back empty; none of them fails."""

    async def scenario() -> dict:
        layer = redis_layer()
        channel = await layer.new_channel()
        with pytest.raises(TimeoutError):  # asyncio's: nothing came, as nothing was sent
            await asyncio.wait_for(layer.receive(channel), LAYER_IDLE_SECONDS)
        await layer.send(channel, {"type": "after.quiet"})
        message = await asyncio.wait_for(layer.receive(channel), 5)
        await layer.flush()
        return message

    assert async_to_sync(scenario)() == {"type": "after.quiet"}


@pytest.fixture
def server(transactional_db, tmp_path: Path) -> Iterator[Server]:
    """uvicorn on this test's database and the run's Redis (its channel layer from settings)."""
    environ = clean_env(
        DJANGO_SETTINGS_MODULE="tests.foundation.server_settings",
        DATABASE_URL=workers.test_database_url(),
        REDIS_URL=settings.REDIS_URL,
        LOG_LEVEL="WARNING",
    )
    running = start_server(environ, tmp_path / "uvicorn.log")
    yield running
    running.stop()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_referee")
def test_twenty_idle_play_sockets_stay_open_through_pings_and_empty_pops(server: Server) -> None:
    """Spectators of a game waiting for a person: nothing happens, and every socket stays.

    The referee (eager, in this process) stops at the person's turn; the server
    has no worker and no clock of its own, so no frame is due for the whole
    idle time. Then each socket still answers a ``sync`` with a frame, and the
    server logged no traceback.
    """
    game = create_game("manila", people(3), seed="idle-sockets", move_time_ms=600_000)
    url = server.url.replace("http://", "ws://") + f"/ws/games/{game.pk}/"

    async def scenario() -> tuple[list[str], list[int]]:
        sockets = [
            await connect(url, additional_headers={"Origin": server.url}, open_timeout=20)
            for _ in range(SOCKETS)
        ]
        first = [json.loads(await asyncio.wait_for(s.recv(), 10)) for s in sockets]
        assert all(frame["type"] == "state" for frame in first), first
        closed: list[str] = []

        async def watch(socket) -> None:
            try:
                frame = await socket.recv()
                closed.append(f"unexpected frame {frame[:200]}")
            except ConnectionClosed as exc:
                closed.append(f"closed: {exc}")

        watchers = [asyncio.create_task(watch(s)) for s in sockets]
        await asyncio.sleep(IDLE_SECONDS)
        for task in watchers:
            task.cancel()
        answered = []
        for socket in sockets:
            if socket.close_code is None:
                await socket.send(json.dumps({"type": "sync"}))
                frame = json.loads(await asyncio.wait_for(socket.recv(), 10))
                answered.append(frame["ply"] if frame["type"] == "state" else -1)
            await socket.close()
        return closed, answered

    closed, answered = async_to_sync(scenario)()
    assert closed == [], f"{len(closed)} of {SOCKETS} sockets: {closed}\n{server.log()[-4000:]}"
    game.refresh_from_db()
    assert answered == [game.next_ply] * SOCKETS, answered
    assert "Traceback" not in server.log(), server.log()[-4000:]


def test_the_referees_group_count_keeps_its_short_timeouts_over_the_layers() -> None:
    """``broadcast`` asks Redis from the referee's thread: the layer's long read is not for it."""
    from web.sockets.broadcast import _sync_client

    host = redis_layer().hosts[0]
    kwargs = _sync_client(host).connection_pool.connection_kwargs
    assert (kwargs["socket_timeout"], kwargs["socket_connect_timeout"]) == (1.0, 1.0)
