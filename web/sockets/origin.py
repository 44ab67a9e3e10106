"""The websocket Origin check: scheme, host and port, as Django's CSRF check compares them.

A browser sends every websocket handshake with the ``Origin`` of the page that
opened it, and sends the site's cookies along whatever that page is, so the
origin is the only thing that keeps another site (or another port of this
host: a different origin to the browser) from opening a signed-in socket.
Channels' ``AllowedHostsOriginValidator`` compares only the host with
``ALLOWED_HOSTS``, so any port and scheme of an allowed host passed.

:class:`SameOriginValidator` accepts the handshake when its ``Origin`` is

* the origin the socket was opened on: ``http://`` or ``https://`` (from the
  socket's scheme, or ``SECURE_PROXY_SSL_HEADER`` behind a proxy, as Django
  decides ``request.is_secure()``) followed by the ``Host`` header, itself one
  of ``ALLOWED_HOSTS`` (what ``CsrfViewMiddleware`` calls the good origin); or
* one of ``CSRF_TRUSTED_ORIGINS`` (exact, or ``scheme://*.domain`` for its
  subdomains), the setting Django users already keep for pages of another
  origin allowed to post forms here.

Anything else, a missing ``Origin`` included, is refused before any route or
session is looked at (the handshake gets HTTP 403).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

Scope = dict[str, Any]

DEBUG_HOSTS = [".localhost", "127.0.0.1", "[::1]"]
"""The hosts Django accepts when DEBUG is on and ``ALLOWED_HOSTS`` is empty."""


def header(scope: Scope, name: bytes) -> str | None:
    """The first value of header ``name`` (lower case) as text, or None."""
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def is_secure(scope: Scope) -> bool:
    """Whether the socket was opened over TLS, as ``HttpRequest.is_secure`` decides."""
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        name, secure_value = proxy_header
        meta_name = name.removeprefix("HTTP_").lower().replace("_", "-").encode()
        value = header(scope, meta_name)
        if value is not None:
            return value.split(",", 1)[0].strip() == secure_value
    return scope.get("scheme") == "wss"


def own_origin(scope: Scope) -> str | None:
    """``scheme://host[:port]`` the socket was opened on, or None if its host is not allowed."""
    host = header(scope, b"host")
    if not host:
        return None
    domain, _port = split_domain_port(host)
    allowed = settings.ALLOWED_HOSTS or (DEBUG_HOSTS if settings.DEBUG else [])
    if not domain or not validate_host(domain, allowed):
        return None
    return f"{'https' if is_secure(scope) else 'http'}://{host}"


def trusted(origin: str) -> bool:
    """Whether ``origin`` is in ``CSRF_TRUSTED_ORIGINS``, read as ``CsrfViewMiddleware`` does."""
    entries = settings.CSRF_TRUSTED_ORIGINS
    if origin in entries:
        return True
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    subdomains = (urlsplit(entry) for entry in entries if "*" in entry)
    return any(
        entry.scheme == parsed.scheme and is_same_domain(parsed.netloc, entry.netloc.lstrip("*"))
        for entry in subdomains
    )


def origin_allowed(scope: Scope) -> bool:
    """Whether the handshake's ``Origin`` is the site's own or a trusted one (module docstring)."""
    origin = header(scope, b"origin")
    if not origin:
        return False
    return origin == own_origin(scope) or trusted(origin)


class SameOriginValidator:
    """Wrap the websocket application: handshakes from any other origin are denied."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
