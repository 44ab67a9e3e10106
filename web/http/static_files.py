"""Static files served by ServeStatic's ASGI app, in front of Django, on the event loop.

Why not Django middleware: :mod:`web.http.asgi_handler` runs the whole
middleware chain synchronously in one thread per request. WhiteNoise's
middleware there answered with a synchronous file iterator, which Django's
ASGI handler must hop to a thread for, chunk by chunk, warning on every
response; ServeStatic's Django middleware is async-only, so a synchronous
chain would wrap it in ``async_to_sync`` for every page. ``ServeStaticASGI``
in front of the handler answers a static URL without entering Django at all
and passes anything else through untouched.

What it keeps from the middleware it replaces:

- *Collected files* (DEBUG off): the files of ``STATIC_ROOT``, read once at
  start-up, with the ``.gz``/``.br`` siblings that
  ``CompressedManifestStaticFilesStorage`` wrote chosen by ``Accept-Encoding``;
  names carrying the manifest's 12-hex hash are cached for ten years
  (``immutable``), others for :data:`MAX_AGE` seconds.
- *Source files* (DEBUG on, the demo and the tests): looked up at each request
  (``autorefresh``) in the staticfiles finders' folders, first finder first as
  ``findstatic`` does, then ``STATIC_ROOT``; never cached by the browser.
- *The security headers* Django's ``SecurityMiddleware`` gave every response
  (``nosniff``, referrer and opener policies), since these answers no longer
  pass through it.
"""

from __future__ import annotations

from typing import Any
from wsgiref.headers import Headers

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable, Scope
from django.conf import settings
from django.contrib.staticfiles import finders
from servestatic import ServeStaticASGI

MAX_AGE = 60
"""Seconds a browser may keep a static file whose name carries no hash (as WhiteNoise's default)."""

CHUNK = 256 * 1024
"""Bytes read and sent at a time when a file is sent by path (the site's files fit in one)."""


class StaticFiles:
    """ASGI: paths under ``STATIC_URL`` to ServeStatic (``static``), others to ``application``.

    Paths outside the prefix skip ServeStatic entirely (with ``autorefresh`` it
    would look each one up in a thread). Static answers get ASGI's
    ``http.response.pathsend`` extension, carried out here: uvicorn does not
    offer it, and without it ServeStatic reads each file through an
    ``AsyncFile``, a thread pool of its own per response with a thread hop for
    the open, every chunk and the close, which cost more than Django's whole
    trivial view. With it, ServeStatic hands over the path and the file is read
    here on the event loop: the site's static files are a few kilobytes to a
    few hundred, read from the page cache in microseconds, and each chunk is
    sent before the next is read, so a slow client never makes it buffer more.
    """

    def __init__(self, application: Any, static: ServeStaticASGI, prefix: str) -> None:
        self.application = application
        self.static = static
        self.prefix = prefix

    async def __call__(
        self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.prefix):
            await self.application(scope, receive, send)
            return
        extensions = {**(scope.get("extensions") or {}), "http.response.pathsend": {}}

        async def send_path(message: Any) -> None:
            if message["type"] == "http.response.pathsend":
                await send_file(message["path"], send)
            else:
                await send(message)

        await self.static({**scope, "extensions": extensions}, receive, send_path)


async def send_file(path: str, send: ASGISendCallable) -> None:
    """The body of a ``pathsend`` answer: the file at ``path``, :data:`CHUNK` bytes a message."""
    with open(path, "rb") as file:
        chunk = file.read(CHUNK)
        while True:
            following = file.read(CHUNK) if len(chunk) == CHUNK else b""
            await send({"type": "http.response.body", "body": chunk, "more_body": bool(following)})
            if not following:
                return
            chunk = following


def security_headers() -> dict[str, str]:
    """The headers ``SecurityMiddleware`` would add to a static file's answer, from the settings."""
    headers = {}
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers["X-Content-Type-Options"] = "nosniff"
    if settings.SECURE_REFERRER_POLICY:
        headers["Referrer-Policy"] = settings.SECURE_REFERRER_POLICY
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        headers["Cross-Origin-Opener-Policy"] = settings.SECURE_CROSS_ORIGIN_OPENER_POLICY
    return headers


def with_static_files(application: Any) -> StaticFiles:
    """``application`` behind ServeStatic: static URLs answered first, the rest passed on."""
    extra = security_headers()

    def add_headers(headers: Headers, path: str, url: str) -> None:
        for name, value in extra.items():
            headers[name] = value

    debug = settings.DEBUG
    served = ServeStaticASGI(
        application,
        autorefresh=debug,
        max_age=0 if debug else MAX_AGE,
        add_headers_function=add_headers,
    )
    prefix = settings.STATIC_URL
    # With autorefresh the folders added last are searched first.
    served.add_files(settings.STATIC_ROOT, prefix=prefix)
    if debug:
        for finder in reversed(list(finders.get_finders())):
            for storage in reversed(list(getattr(finder, "storages", {}).values())):
                sub = getattr(storage, "prefix", None)
                served.add_files(storage.location, prefix=f"{prefix}{sub}/" if sub else prefix)
    return StaticFiles(application, served, prefix)
