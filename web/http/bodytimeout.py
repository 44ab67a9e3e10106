"""ASGI middleware: a request body that stops arriving is dropped after a time limit.

uvicorn has no limit on how long a body may take: its only timer,
``--timeout-keep-alive``, runs between requests, and once a request's
headers are in, Django's handler waits for the rest of the body for as long
as the client keeps the connection open, a task and a request held per
stalled client. :class:`BodyTimeout` gives every request body
:func:`body_timeout` seconds from the request's start (the setting
``REQUEST_BODY_TIMEOUT``, 30 s by default: the whole 2.5 MB a body may be at
about 100 KB/s). Past it the application is told the client went away
(Django then answers nothing) and the middleware answers 408 with
``Connection: close``, so uvicorn closes the connection. Under ``/api/`` the
answer is the API's ``{"detail", "code": "request_timeout"}``, elsewhere
plain text; each is one warning line.

Once the body is complete the time limit is over: a view may then wait on
``receive()`` for the client to leave (a long poll) for as long as it likes.
"""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings

from web.http.bodylimit import ASGIApp, Message, Receive, Scope, Send, error_answer

BODY_TIMEOUT_S = 30.0
"""Seconds a request body may take to arrive, unless ``settings.REQUEST_BODY_TIMEOUT`` says."""

logger = logging.getLogger(__name__)


def body_timeout() -> float:
    """Seconds from a request's start by which its whole body must have arrived."""
    return float(getattr(settings, "REQUEST_BODY_TIMEOUT", BODY_TIMEOUT_S))


def timeout_answer(path: str, seconds: float) -> tuple[bytes, bytes]:
    """(content type, body) of the 408 answer for ``path``."""
    detail = f"the request body did not arrive within {seconds:g} seconds"
    return error_answer(path, "request_timeout", detail)


class BodyTimeout:
    """Wrap an ASGI HTTP application: no request body may take longer than :func:`body_timeout`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        seconds = body_timeout()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        body_done = False
        timed_out = False
        answered = False

        async def timed_receive() -> Message:
            nonlocal body_done, timed_out
            if timed_out:
                return {"type": "http.disconnect"}
            if body_done:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                timed_out = True
                return {"type": "http.disconnect"}
            if message["type"] != "http.request" or not message.get("more_body", False):
                body_done = True
            return message

        async def watched_send(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.start":
                answered = True
            await send(message)

        await self.app(scope, timed_receive, watched_send)
        if timed_out and not answered:
            await self._refuse(scope, send, seconds)

    async def _refuse(self, scope: Scope, send: Send, seconds: float) -> None:
        path = scope.get("path", "")
        logger.warning("Request body timed out: %s %s (%gs)", scope.get("method"), path, seconds)
        content_type, body = timeout_answer(path, seconds)
        await send(
            {
                "type": "http.response.start",
                "status": 408,
                "headers": [
                    (b"content-type", content_type),
                    (b"content-length", str(len(body)).encode()),
                    # The rest of the body never came: the connection cannot be reused.
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
