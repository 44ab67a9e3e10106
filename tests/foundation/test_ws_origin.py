"""The websocket Origin check compares scheme, host and port (web.sockets.origin).

Channels' ``AllowedHostsOriginValidator`` compared the host alone, so a page on
another port of the same host (another origin to the browser) could open a
signed-in play socket.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from harbormaster.asgi import application
from web.sockets.origin import SameOriginValidator

pytestmark = pytest.mark.django_db


async def accept_all(scope, receive, send) -> None:
    """A websocket application that accepts any handshake it is given."""
    await receive()
    await send({"type": "websocket.accept"})


def opens(origin: str | None, host: str = "localhost:8000", scheme: str = "ws", **extra) -> bool:
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    headers += [(name.encode(), value.encode()) for name, value in extra.items()]

    async def connect() -> bool:
        communicator = WebsocketCommunicator(
            SameOriginValidator(accept_all), "/ws/games/1/", headers=headers
        )
        communicator.scope["scheme"] = scheme
        connected, _ = await communicator.connect(timeout=5)
        await communicator.disconnect()
        return connected

    return async_to_sync(connect)()


def test_the_same_origin_is_accepted() -> None:
    assert opens("http://localhost:8000")
    assert opens("http://127.0.0.1:8000", host="127.0.0.1:8000")
    assert opens("https://localhost", host="localhost", scheme="wss")


def test_another_port_of_the_same_host_is_refused() -> None:
    assert not opens("http://localhost:9999")
    assert not opens("http://localhost", host="localhost:8000")


def test_another_scheme_or_host_is_refused() -> None:
    assert not opens("https://localhost:8000"), "an https page, a plain ws socket"
    assert not opens("http://evil.example:8000")
    assert not opens(None), "no Origin at all"


def test_a_host_outside_allowed_hosts_is_not_its_own_origin(settings) -> None:
    settings.ALLOWED_HOSTS = ["harbormaster.example.org"]
    assert not opens("http://evil.example", host="evil.example")
    assert opens("http://harbormaster.example.org", host="harbormaster.example.org")


def test_behind_a_tls_proxy_the_origin_is_https(settings) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proxied = {"x-forwarded-proto": "https"}
    assert opens("https://localhost", host="localhost", **proxied)
    assert not opens("http://localhost", host="localhost", **proxied)


def test_csrf_trusted_origins_are_accepted_with_their_port(settings) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["http://localhost:3000", "https://*.example.org"]
    assert opens("http://localhost:3000")
    assert not opens("http://localhost:3001")
    assert opens("https://play.example.org")
    assert not opens("http://play.example.org"), "the scheme is part of a trusted origin"


def test_the_application_checks_the_port_before_any_route() -> None:
    """Through the whole stack: a game that does not exist is 4404 only past the check."""

    async def close_code(origin: str) -> int | None:
        communicator = WebsocketCommunicator(
            application,
            "/ws/games/999999/",
            headers=[(b"host", b"localhost:8000"), (b"origin", origin.encode())],
        )
        connected, code = await communicator.connect(timeout=5)
        assert not connected
        await communicator.disconnect()
        return code

    assert async_to_sync(close_code)("http://localhost:8000") == 4404
    assert async_to_sync(close_code)("http://localhost:8001") != 4404
