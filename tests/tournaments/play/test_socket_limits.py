"""Open play sockets are bounded per person or session, per address and per game.

Nothing limited them: one account held 200 sockets. A socket past a limit is
accepted and closed at once with 4429 and a reason (a refusal during the
handshake reaches a browser as a bare 1006). Each test runs with the places
in this process's memory (the embedded mode) and, when REDIS_URL is set, in
Redis (servers).
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.sessions.backends.cache import SessionStore

from games.creation import create_game
from web.sockets import limits as socket_limits

from .conftest import TIMEOUT_S, Socket, people

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


@pytest.fixture(params=["memory", "redis"])
def store(request, settings) -> str:
    """Which store counts the places: this process's memory, or Redis (needs REDIS_URL)."""
    if request.param == "memory":
        settings.REDIS_URL = None
    elif not settings.REDIS_URL:
        pytest.skip("needs Redis: REDIS_URL is unset")
    return request.param


def new_game() -> int:
    return create_game("manila", people(3, prefix=f"g{time.monotonic_ns()}-"), seed="limits").pk


def socket(game_id: int, user: Any = None, address: str = "10.1.1.1", session: Any = None):
    opened = Socket(game_id, user)
    opened.comm.scope["client"] = (address, 50000)
    if session is not None:
        opened.comm.scope["session"] = session
    return opened


async def attempt(opened: Socket) -> dict[str, Any]:
    """Open ``opened``: ``{"open": True}``, or how it was closed right after the handshake."""
    connected, _ = await opened.comm.connect(timeout=TIMEOUT_S)
    assert connected, "a socket over a limit is accepted, then closed with a reason"
    first = await opened.comm.receive_output(timeout=TIMEOUT_S)
    if first["type"] == "websocket.close":
        return {"open": False, "code": first.get("code"), "reason": first.get("reason")}
    return {"open": True}


def outcomes(sockets: list[Socket]) -> list[dict[str, Any]]:
    """Open ``sockets`` in order, then close them all."""

    async def scenario():
        seen = [await attempt(s) for s in sockets]
        for s in sockets:
            await s.comm.disconnect()
        return seen

    return async_to_sync(scenario)()


def test_a_game_holds_at_most_its_limit_of_sockets(store, settings) -> None:
    settings.PLAY_SOCKETS_PER_GAME = 2
    game = new_game()
    seen = outcomes([socket(game, address=f"10.2.0.{i}") for i in range(3)])
    assert [s["open"] for s in seen] == [True, True, False]
    assert seen[2]["code"] == socket_limits.REFUSED_CODE == 4429
    assert seen[2]["reason"] == "too many open sockets for this game (at most 2)"
    assert len(seen[2]["reason"].encode()) <= 123, "a close frame's reason is at most 123 bytes"


def test_a_closed_socket_gives_its_place_back(store, settings) -> None:
    settings.PLAY_SOCKETS_PER_GAME = 1
    game = new_game()

    async def scenario():
        first, second, third = (socket(game, address=f"10.3.0.{i}") for i in range(3))
        opened = await attempt(first)
        refused = await attempt(second)
        await first.comm.disconnect()
        await second.comm.disconnect()
        again = await attempt(third)
        await third.comm.disconnect()
        return opened, refused, again

    opened, refused, again = async_to_sync(scenario)()
    assert opened["open"] and not refused["open"] and again["open"]


def test_one_account_is_limited_across_games_and_addresses(store, settings) -> None:
    settings.PLAY_SOCKETS_PER_CLIENT = 2
    person = people(1, prefix=f"hoarder{time.monotonic_ns()}-")[0].user
    games = [new_game() for _ in range(3)]
    seen = outcomes([socket(g, person, address=f"10.4.0.{i}") for i, g in enumerate(games)])
    assert [s["open"] for s in seen] == [True, True, False]
    assert seen[2]["reason"] == "too many open sockets for your account (at most 2)"


def test_one_browser_session_is_limited(store, settings) -> None:
    settings.PLAY_SOCKETS_PER_CLIENT = 1
    session = SessionStore()
    session.create()
    game = new_game()
    seen = outcomes([socket(game, address=f"10.5.0.{i}", session=session) for i in range(2)])
    assert [s["open"] for s in seen] == [True, False]
    assert seen[1]["reason"] == "too many open sockets for this browser (at most 1)"


def test_one_address_is_limited_and_another_is_not(store, settings) -> None:
    settings.PLAY_SOCKETS_PER_ADDRESS = 2
    game = new_game()
    here = f"10.6.{time.monotonic_ns() % 250}.1"
    sockets = [socket(game, address=here) for _ in range(3)] + [socket(game, address="10.6.9.9")]
    seen = outcomes(sockets)
    assert [s["open"] for s in seen] == [True, True, False, True]
    assert seen[2]["reason"] == "too many open sockets for your address (at most 2)"


def test_a_refused_socket_is_not_sent_the_board_nor_read(settings) -> None:
    """Closed at once: no state frame, and a frame it sends before the close is not read."""
    settings.PLAY_SOCKETS_PER_GAME = 1
    game = new_game()

    async def scenario():
        opened = socket(game, address="10.7.0.1")
        await opened.open()
        refused = socket(game, address="10.7.0.2")
        await refused.comm.connect(timeout=TIMEOUT_S)
        await refused.send_json({"type": "sync"})
        first = await refused.comm.receive_output(timeout=TIMEOUT_S)
        nothing = await refused.comm.receive_nothing(timeout=0.2)
        await refused.comm.disconnect()
        await opened.close()
        return first, nothing

    first, nothing = async_to_sync(scenario)()
    assert first["type"] == "websocket.close" and first["code"] == 4429
    assert nothing


def test_places_of_a_server_that_died_lapse_and_renewed_ones_do_not(store, monkeypatch) -> None:
    """A place is kept LEASE_S after its last renewal: a crashed server's sockets stop counting."""
    monkeypatch.setattr(socket_limits, "LEASE_S", 0.6)
    key = f"game:lapse-{time.monotonic_ns()}"
    limit = [socket_limits.Limit(key, 1, "this game")]
    socket_limits.take(limit)  # never given back: its server died
    with pytest.raises(socket_limits.TooManySockets):
        socket_limits.take(limit)
    time.sleep(0.8)
    alive = socket_limits.take(limit)
    for _ in range(3):
        time.sleep(0.3)
        socket_limits.renew(alive)
    with pytest.raises(socket_limits.TooManySockets):
        socket_limits.take(limit)
    socket_limits.release(alive)
    socket_limits.release(socket_limits.take(limit))  # given back: the place is free at once


@pytest.mark.redis
def test_servers_share_the_count_through_redis(settings) -> None:
    """Two stores (two server processes) on one Redis see each other's places."""
    one, other = (socket_limits.RedisStore(settings.REDIS_URL) for _ in range(2))
    key = f"game:shared-{time.monotonic_ns()}"
    assert one.take("socket-a", [(key, 1)]) is None
    assert other.take("socket-b", [(key, 1)]) == 0
    one.release("socket-a", (key,))
    assert other.take("socket-b", [(key, 1)]) is None
    other.release("socket-b", (key,))


def test_a_renewal_racing_the_close_does_not_take_the_place_again(store) -> None:
    """The renewing task may run once more while the socket closes: its place stays free."""
    key = f"game:race-{time.monotonic_ns()}"
    limit = [socket_limits.Limit(key, 1, "this game")]
    closing = socket_limits.take(limit)
    socket_limits.release(closing)
    socket_limits.renew(closing)
    socket_limits.release(socket_limits.take(limit))
