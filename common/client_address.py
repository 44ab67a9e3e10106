"""Where a request came from: the one answer every throttle uses.

``REMOTE_ADDR`` is the peer of the TCP connection (uvicorn runs with
``--no-proxy-headers``, so it never rewrites it from a header). A client can
write anything into ``X-Forwarded-For``, so the header is believed only as far
as proxies named in ``settings.TRUSTED_PROXIES`` (the ``TRUSTED_PROXIES``
variable) wrote it: each proxy appends the address it received the request
from, so the header is read from the right, every hop that is a trusted proxy
is passed over, and the first address that is not one is the client. Entries
to its left were written by the client or by proxies nobody vouches for and
change nothing. With no trusted proxy (the default) the header is ignored.

Throttles count per :func:`throttle_ident`: the IPv4 address, or the /64
network of an IPv6 address (the smallest block one subscriber is usually
given, so rotating through it gains nothing).
"""

from __future__ import annotations

import functools
import ipaddress
from typing import Any

from django.conf import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

UNKNOWN = "unknown"
"""The address of a request whose peer has none (a Unix socket): all such share one count."""

IPV6_GROUP_PREFIX = 64


def parse_address(text: str) -> IPAddress | None:
    """An address as a header or the server writes it, or None when it is not one.

    Accepts ``1.2.3.4``, ``1.2.3.4:5678``, ``::1``, ``[::1]`` and ``[::1]:5678``
    (some proxies add the port); an IPv4 address mapped into IPv6 counts as IPv4.
    """
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


@functools.lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[IPNetwork, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def trusted_networks() -> tuple[IPNetwork, ...]:
    """``settings.TRUSTED_PROXIES`` as networks (validated at start-up by ``env``)."""
    return _networks(tuple(settings.TRUSTED_PROXIES))


def _is_trusted(address: IPAddress, networks: tuple[IPNetwork, ...]) -> bool:
    return any(address in network for network in networks)


def client_ip(request: Any) -> IPAddress | None:
    """The client's address (see the module docstring), or None if the peer has none.

    ``request`` is a Django ``HttpRequest`` or anything with its ``META``
    (a DRF ``Request`` passes it through).
    """
    meta = request.META
    address = parse_address(meta.get("REMOTE_ADDR") or "")
    networks = trusted_networks()
    if address is None or not networks or not _is_trusted(address, networks):
        return address
    hops = (meta.get("HTTP_X_FORWARDED_FOR") or "").split(",")
    for hop in reversed(hops):
        written = parse_address(hop)
        if written is None:
            # A trusted proxy would not write garbage: the hop before it is the client.
            break
        address = written
        if not _is_trusted(address, networks):
            break
    return address


def client_address(request: Any) -> str:
    """:func:`client_ip` as text (``unknown`` when the peer has no address)."""
    address = client_ip(request)
    return UNKNOWN if address is None else str(address)


def throttle_ident(request: Any) -> str:
    """What throttles count per: the IPv4 address, or the IPv6 address's /64 network."""
    address = client_ip(request)
    if address is None:
        return UNKNOWN
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, IPV6_GROUP_PREFIX), strict=False))
    return str(address)
