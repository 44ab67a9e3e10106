"""Request bodies over the limit are refused before they are read (web.http.bodylimit).

Django's ASGI handler reads a whole body into a temporary file before any
check (300 MB took 76 s to refuse; a chunked body had no limit at all). The
in-process tests drive the middleware message by message; the last ones
send real byte streams to a real uvicorn serving ``harbormaster.asgi``.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from collections.abc import Iterator

import pytest
from asgiref.sync import async_to_sync

from tests.foundation.servers import Server, start_server
from web.http.bodylimit import BodySizeLimit

LIMIT = 1000


class Recorder:
    """A stand-in for Django: reads the whole body, answers 200, records what it saw."""

    def __init__(self) -> None:
        self.called = False
        self.body = b""

    async def __call__(self, scope, receive, send) -> None:
        self.called = True
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # what Django does: no answer to a client that left
            self.body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def run(path: str, chunks: list[bytes], content_length: int | None, settings) -> tuple:
    """Drive the middleware over ``chunks``; return (app, sent messages, chunks read)."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = LIMIT
    app = Recorder()
    sent: list[dict] = []
    read = 0
    headers = [] if content_length is None else [(b"content-length", str(content_length).encode())]
    scope = {"type": "http", "method": "POST", "path": path, "headers": headers}

    async def receive() -> dict:
        nonlocal read
        read += 1
        more = read < len(chunks)
        return {"type": "http.request", "body": chunks[read - 1], "more_body": more}

    async def send(message: dict) -> None:
        sent.append(message)

    async_to_sync(BodySizeLimit(app))(scope, receive, send)
    return app, sent, read


def status_and_body(sent: list[dict]) -> tuple[int, dict[bytes, bytes], bytes]:
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), body


def test_a_declared_length_over_the_limit_is_refused_without_reading(settings) -> None:
    app, sent, read = run("/api/v1/bots/", [b"x" * 10] * 500, LIMIT + 1, settings)
    assert not app.called and read == 0
    status, headers, body = status_and_body(sent)
    assert status == 413
    assert headers[b"content-type"] == b"application/json"
    assert json.loads(body)["code"] == "request_too_large"


def test_a_body_without_length_is_cut_off_at_the_limit(settings) -> None:
    app, sent, read = run("/api/v1/bots/", [b"x" * 100] * 1000, None, settings)
    assert read == 11, "reading stops with the chunk that passes the limit"
    status, _, body = status_and_body(sent)
    assert status == 413 and json.loads(body)["code"] == "request_too_large"
    assert app.body == b"x" * 1000, (
        "the application saw the body up to the limit, then a disconnect"
    )


def test_bodies_within_the_limit_pass_untouched(settings) -> None:
    for length in (LIMIT, None):
        app, sent, _ = run("/api/v1/bots/", [b"y" * 500, b"y" * 500], length, settings)
        assert app.body == b"y" * LIMIT
        assert status_and_body(sent)[0] == 200


def test_outside_the_api_the_refusal_is_plain_text(settings) -> None:
    _, sent, _ = run("/admin/login/", [b""], LIMIT + 1, settings)
    status, headers, body = status_and_body(sent)
    assert status == 413 and headers[b"content-type"].startswith(b"text/plain")
    assert b"larger than the 1000 bytes" in body


# ------------------------------------------------------------ a real server
@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[tuple[int, Server]]:
    """uvicorn serving the project's ASGI application on a free loopback port."""
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "harbormaster.settings"}
    running = start_server(environ, tmp_path_factory.mktemp("body-limit") / "uvicorn.log")
    yield int(running.url.rsplit(":", 1)[1]), running
    running.stop()


def stream(port: int, head: bytes, chunk: bytes, most: int) -> tuple[bytes, int, float]:
    """Send ``head``, then ``chunk`` repeatedly (up to ``most`` bytes) until an answer comes.

    Returns (the answer, body bytes sent, seconds until the answer).
    """
    started = time.monotonic()
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(head)
        conn.setblocking(False)
        answer = b""
        while sent < most and time.monotonic() - started < 30:
            with contextlib.suppress(BlockingIOError):
                answer += conn.recv(65536)
            if answer:
                break
            try:
                sent += conn.send(chunk)
            except BlockingIOError:
                time.sleep(0.01)
            except OSError:  # the server closed its side after answering
                break
        conn.settimeout(10)
        try:
            while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                more = conn.recv(65536)
                if not more:
                    break
                answer += more
        except OSError:
            pass
    return answer, sent, time.monotonic() - started


def test_a_300_mb_upload_is_refused_at_once_on_its_length(server) -> None:
    port, _ = server
    head = (
        b"POST /api/v1/bots/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 300000000\r\n\r\n"
    )
    answer, sent, seconds = stream(port, head, b"x" * 65536, 300_000_000)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b'"code": "request_too_large"' in answer
    assert seconds < 5, seconds
    assert sent < 50_000_000, f"{sent} bytes were sent before the answer"


def test_a_chunked_upload_is_cut_off_past_the_limit(server) -> None:
    port, _ = server
    head = (
        b"POST /api/v1/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    piece = b"x" * 65536
    chunk = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    answer, sent, seconds = stream(port, head, chunk, 300_000_000)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b'"code": "request_too_large"' in answer
    assert seconds < 10, seconds
    assert sent < 50_000_000, f"{sent} bytes were sent before the answer"


def test_the_refusals_are_warnings_not_errors_with_tracebacks(tmp_path) -> None:
    """On a server of its own: the shared one may be on another test process, or still needed."""
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "harbormaster.settings"}
    running = start_server(environ, tmp_path / "uvicorn.log")
    try:
        port = int(running.url.rsplit(":", 1)[1])
        declared = (
            b"POST /api/v1/bots/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 300000000\r\n\r\n"
        )
        chunked = (
            b"POST /api/v1/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        piece = b"x" * 65536
        for head, chunk in (
            (declared, piece),
            (chunked, f"{len(piece):x}\r\n".encode() + piece + b"\r\n"),
        ):
            answer, _, _ = stream(port, head, chunk, 300_000_000)
            assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    finally:
        running.stop()
    output = running.log()
    assert output.count("Request body too large") >= 2, output
    assert "Traceback" not in output and " ERROR " not in output, output
