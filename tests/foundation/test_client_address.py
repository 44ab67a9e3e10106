"""The client's address: X-Forwarded-For believed only as far as trusted proxies wrote it."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from rest_framework.request import Request

from common.client_address import client_address, parse_address, throttle_ident

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


def test_without_trusted_proxies_the_header_changes_nothing(settings) -> None:
    settings.TRUSTED_PROXIES = []
    assert client_address(request_from("198.51.100.7", "203.0.113.1")) == "198.51.100.7"
    assert client_address(request_from("127.0.0.1", "203.0.113.1")) == "127.0.0.1"


def test_a_peer_that_is_not_a_trusted_proxy_is_the_client(settings) -> None:
    settings.TRUSTED_PROXIES = [PROXY]
    assert client_address(request_from("198.51.100.7", "203.0.113.1")) == "198.51.100.7"


def test_a_trusted_proxy_names_the_client(settings) -> None:
    settings.TRUSTED_PROXIES = [PROXY]
    assert client_address(request_from(PROXY, "203.0.113.1")) == "203.0.113.1"


def test_what_the_client_wrote_to_the_left_is_ignored(settings) -> None:
    """The proxy appends the address it saw; anything before it came from the client."""
    settings.TRUSTED_PROXIES = [PROXY]
    forged = "1.1.1.1, 2.2.2.2, 203.0.113.1"
    assert client_address(request_from(PROXY, forged)) == "203.0.113.1"


def test_a_chain_of_trusted_proxies_is_walked_from_the_right(settings) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    chain = "1.1.1.1, 203.0.113.1, 10.1.2.3, 10.4.5.6"
    assert client_address(request_from(PROXY, chain)) == "203.0.113.1"


def test_only_trusted_hops_left_means_the_left_most_one(settings) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert client_address(request_from(PROXY, "10.9.9.9")) == "10.9.9.9"
    assert client_address(request_from(PROXY)) == PROXY


def test_garbage_in_the_header_stops_the_walk(settings) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert client_address(request_from(PROXY, "203.0.113.1, not-an-ip, 10.1.1.1")) == "10.1.1.1"
    assert client_address(request_from(PROXY, "203.0.113.1, not-an-ip")) == PROXY


def test_ports_brackets_and_mapped_addresses(settings) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.0/8", "::1"]
    assert client_address(request_from(PROXY, "203.0.113.1:4711")) == "203.0.113.1"
    assert client_address(request_from("::1", "[2001:db8::1]:4711")) == "2001:db8::1"
    assert client_address(request_from("::ffff:10.0.0.5", "203.0.113.1")) == "203.0.113.1"
    assert parse_address("[::1]") is not None
    assert parse_address("") is None


def test_a_peer_without_address_is_unknown(settings) -> None:
    settings.TRUSTED_PROXIES = []
    assert client_address(request_from(None)) == "unknown"


def test_ipv6_clients_are_counted_by_their_64_network(settings) -> None:
    settings.TRUSTED_PROXIES = []
    one = throttle_ident(request_from("2001:db8:1:2::1"))
    other = throttle_ident(request_from("2001:db8:1:2:ffff::9"))
    assert one == other == "2001:db8:1:2::/64"
    assert throttle_ident(request_from("2001:db8:1:3::1")) != one
    assert throttle_ident(request_from("198.51.100.7")) == "198.51.100.7"


@pytest.mark.parametrize("peer", ["198.51.100.7", PROXY])
def test_a_drf_request_reads_the_same(settings, peer: str) -> None:
    settings.TRUSTED_PROXIES = [PROXY]
    plain = request_from(peer, "203.0.113.1")
    assert client_address(Request(plain)) == client_address(plain)
