"""What every throttle counts a client by: its address, an IPv6 client by its /64.

The address itself is uvicorn's. Every command that starts the server passes
``--forwarded-allow-ips`` with the ``TRUSTED_PROXIES`` variable, so uvicorn's
proxy-headers middleware puts the client that those proxies name in
``X-Forwarded-For`` (read from the right, trusted hops passed over) into the
ASGI scope's ``client``, and from any other peer leaves the peer there. Django
(``REMOTE_ADDR``), DRF, allauth, the socket consumers and uvicorn's access log
all read that one value; nothing here reads a header.

What stays ours is the grouping: an IPv6 client counts by its /64 network, the
smallest block one subscriber is usually given, so rotating through it gains
nothing. An IPv4 address mapped into IPv6 (a dual-stack socket's view of an
IPv4 peer) counts as the IPv4 address.
"""

from __future__ import annotations

import ipaddress
from typing import Any

UNKNOWN = "unknown"
"""The ident of a client without an address (a Unix socket's peer): all such share one count."""

IPV6_GROUP_PREFIX = 64


def ident(address: str | None) -> str:
    """What throttles count ``address`` (as the server reports it) by.

    Anything that is not an address (none, a Unix socket's path, garbage a
    trusted proxy passed on) counts as :data:`UNKNOWN`, one shared count, so
    it cannot be used to make up a new client per request.
    """
    try:
        parsed = ipaddress.ip_address(address or "")
    except ValueError:
        return UNKNOWN
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, IPV6_GROUP_PREFIX), strict=False))
    return str(parsed)


def throttle_ident(request: Any) -> str:
    """:func:`ident` of a request's ``REMOTE_ADDR`` (a Django request, or a DRF one)."""
    return ident(request.META.get("REMOTE_ADDR"))


def scope_ident(scope: dict[str, Any]) -> str:
    """:func:`ident` of an ASGI scope's ``client`` (a websocket's, before Django sees it)."""
    client = scope.get("client")
    return ident(client[0] if client else None)
