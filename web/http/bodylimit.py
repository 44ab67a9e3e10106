"""ASGI middleware: request bodies over the limit are refused before anyone reads them.

Django's ASGI handler reads the whole body into a temporary file (spooled to
disk past ``FILE_UPLOAD_MAX_MEMORY_SIZE``) *before* any middleware or view
runs, and only then does ``DATA_UPLOAD_MAX_MEMORY_SIZE`` get checked: a
300 MB body took 76 s to refuse, and a chunked body (no ``Content-Length``)
was not limited at all. No Django middleware can act earlier, so the check
sits in front of Django in the ASGI stack (``harbormaster/asgi.py``):

* a ``Content-Length`` over the limit is answered 413 at once, without
  reading a byte of the body;
* a body without ``Content-Length`` is counted as it arrives; past the limit
  the middleware stops reading, tells Django the client went away (Django
  then answers nothing) and answers 413 itself.

The limit is Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``, read at each request.
Under ``/api/`` the answer is the API's error shape, ``{"detail", "code":
"request_too_large"}``; elsewhere plain text. Either way it is logged as one
warning line, not an error with a traceback: the client sent too much, the
server is fine.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

API_PREFIX = "/api/"
logger = logging.getLogger(__name__)


def body_limit() -> int | None:
    """The largest request body accepted, in bytes (None: no limit)."""
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def declared_length(scope: Scope) -> int | None:
    """The request's ``Content-Length`` as a number, or None when absent or malformed."""
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def error_answer(path: str, code: str, detail: str) -> tuple[bytes, bytes]:
    """(content type, body) of an answer given before Django: the API's error shape under
    the API, plain text elsewhere."""
    if path.startswith(API_PREFIX):
        return b"application/json", json.dumps({"detail": detail, "code": code}).encode()
    return b"text/plain; charset=utf-8", detail.encode()


def too_large_answer(path: str, limit: int) -> tuple[bytes, bytes]:
    """(content type, body) of the 413 answer for ``path``."""
    detail = f"the request body is larger than the {limit} bytes this server accepts"
    return error_answer(path, "request_too_large", detail)


class BodySizeLimit:
    """Wrap an ASGI HTTP application so no request body past :func:`body_limit` reaches it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = body_limit()
        if scope["type"] != "http" or limit is None:
            await self.app(scope, receive, send)
            return
        length = declared_length(scope)
        if length is not None and length > limit:
            await self._refuse(scope, send, limit, f"Content-Length {length}")
            return
        if length is not None:
            # The server delivers no more than the declared length.
            await self.app(scope, receive, send)
            return
        await self._counted(scope, receive, send, limit)

    async def _counted(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        """A body of unknown length: stop reading and refuse once it passes the limit."""
        received = 0
        cut_off = False
        answered = False

        async def limited_receive() -> Message:
            nonlocal received, cut_off
            if cut_off:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    cut_off = True
                    return {"type": "http.disconnect"}
            return message

        async def watched_send(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.start":
                answered = True
            await send(message)

        await self.app(scope, limited_receive, watched_send)
        if cut_off and not answered:
            await self._refuse(scope, send, limit, f"more than {limit} bytes without a length")

    async def _refuse(self, scope: Scope, send: Send, limit: int, what: str) -> None:
        path = scope.get("path", "")
        logger.warning("Request body too large: %s %s (%s)", scope.get("method"), path, what)
        content_type, body = too_large_answer(path, limit)
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", content_type),
                    (b"content-length", str(len(body)).encode()),
                    # The rest of the body is never read, so the connection cannot be reused.
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
