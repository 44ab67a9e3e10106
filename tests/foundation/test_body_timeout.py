"""A body that stops arriving is dropped (web.http.bodytimeout), driven message by message.

The real server's 408 to a stalled client is in ``test_socket_server.py``.
"""

from __future__ import annotations

import asyncio
import json

from asgiref.sync import async_to_sync

from web.http.bodytimeout import BodyTimeout


def drive(chunks: list[tuple[float, dict]], app, settings, path: str = "/api/v1/bots/") -> list:
    """Run BodyTimeout(app) with a 0.3 s limit over ``chunks`` (delay, message); sent messages."""
    settings.REQUEST_BODY_TIMEOUT = 0.3
    sent: list[dict] = []
    queue = list(chunks)

    async def receive() -> dict:
        if not queue:
            await asyncio.sleep(3600)
        delay, message = queue.pop(0)
        await asyncio.sleep(delay)
        return message

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": path, "headers": []}
    async_to_sync(BodyTimeout(app))(scope, receive, send)
    return sent


def body(data: bytes, more: bool) -> dict:
    return {"type": "http.request", "body": data, "more_body": more}


def test_a_stalled_body_is_answered_408_and_the_app_told_the_client_left(settings) -> None:
    seen: list[str] = []

    async def app(scope, receive, send) -> None:
        while True:
            message = await receive()
            seen.append(message["type"])
            if message["type"] == "http.disconnect":
                return  # as Django does: no answer to a client that left

    sent = drive([(0, body(b"{", True)), (5, body(b"}", False))], app, settings)
    assert seen == ["http.request", "http.disconnect"]
    start = sent[0]
    assert start["status"] == 408 and (b"connection", b"close") in start["headers"]
    assert json.loads(sent[1]["body"])["code"] == "request_timeout"


def test_after_the_body_a_view_may_wait_for_the_client_as_long_as_it_likes(settings) -> None:
    """A long poll awaits ``receive()`` after its body; that wait is not the body's."""

    async def app(scope, receive, send) -> None:
        assert (await receive())["type"] == "http.request"
        left = await receive()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": left["type"].encode()})

    sent = drive([(0, body(b"{}", False)), (0.6, {"type": "http.disconnect"})], app, settings)
    assert sent[0]["status"] == 200 and sent[1]["body"] == b"http.disconnect"
