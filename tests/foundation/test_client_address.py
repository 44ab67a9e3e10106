"""What throttles count a client by: the address uvicorn reported, an IPv6 client by its /64.

Whom ``X-Forwarded-For`` names is uvicorn's business (``--forwarded-allow-ips``;
through a real server: ``test_proxy_headers_servers.py``); here, that the
application reads only the address it was given.
"""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from rest_framework.request import Request

from common.client_address import UNKNOWN, ident, scope_ident, throttle_ident
from web.http.throttling import ScopedRateThrottle
from web.people.adapter import AccountAdapter
from web.sockets.limits import address_of

PROXY = "10.0.0.5"


def request_from(peer: str | None, forwarded: str | None = None):
    request = RequestFactory().get("/")
    if peer is None:
        del request.META["REMOTE_ADDR"]
    else:
        request.META["REMOTE_ADDR"] = peer
    if forwarded is not None:
        request.META["HTTP_X_FORWARDED_FOR"] = forwarded
    return request


def test_ipv6_clients_are_counted_by_their_64_network() -> None:
    one = throttle_ident(request_from("2001:db8:1:2::1"))
    other = throttle_ident(request_from("2001:db8:1:2:ffff::9"))
    assert one == other == "2001:db8:1:2::/64"
    assert throttle_ident(request_from("2001:db8:1:3::1")) != one


def test_ipv4_clients_are_counted_by_their_address() -> None:
    assert throttle_ident(request_from("198.51.100.7")) == "198.51.100.7"
    assert throttle_ident(request_from("198.51.100.8")) == "198.51.100.8"
    # As a dual-stack socket reports an IPv4 peer.
    assert ident("::ffff:198.51.100.7") == "198.51.100.7"


@pytest.mark.parametrize("address", [None, "", "not-an-ip", "/run/harbormaster.sock"])
def test_anything_but_an_address_shares_one_count(address: str | None) -> None:
    assert ident(address) == UNKNOWN
    assert throttle_ident(request_from(address)) == UNKNOWN


def test_the_application_never_reads_the_header_itself(settings) -> None:
    """Even from a trusted proxy: uvicorn has already replaced the peer with the client."""
    settings.TRUSTED_PROXIES = [PROXY]
    request = request_from(PROXY, "203.0.113.1")
    assert throttle_ident(request) == PROXY
    assert ScopedRateThrottle().get_ident(Request(request)) == PROXY
    assert AccountAdapter(request).get_client_ip(request) == PROXY
    scope = {"client": (PROXY, 4711), "headers": [(b"x-forwarded-for", b"203.0.113.1")]}
    assert scope_ident(scope) == address_of(scope) == PROXY


def test_a_drf_request_and_a_socket_read_the_same() -> None:
    plain = request_from("2001:db8:1:2::1")
    assert throttle_ident(Request(plain)) == throttle_ident(plain) == "2001:db8:1:2::/64"
    assert scope_ident({"client": ("2001:db8:1:2::1", 4711)}) == "2001:db8:1:2::/64"
    assert scope_ident({"client": None}) == scope_ident({}) == UNKNOWN
