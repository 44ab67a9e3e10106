"""Which addresses the SSRF guard calls public, range by range (botapi.ssrf).

The ranges come from IANA's IPv4 and IPv6 Special-Purpose Address Registries
and the IPv6 address space registry. Python's ``ipaddress`` flags cover many of
them, but not all (``fec0::/10`` is "global" to it), and they change between
Python releases (3.13 and late 3.11 patch releases call ``2001:1::1``, the PCP
anycast address that reaches the nearest local PCP server, global; 3.11.7 does
not). So every range is tested here by a sample address, independently of the
Python release running the tests.
"""

from __future__ import annotations

import ipaddress

import pytest

from botapi.ssrf import AddressPolicy, EndpointRefused, check_endpoint, forbidden_reason

REFUSED = [
    # IPv4
    ("0.0.0.0", "unspecified"),
    ("0.1.2.3", "this-network"),
    ("10.9.8.7", "private"),
    ("100.64.0.1", "shared (carrier-grade NAT)"),
    ("100.127.255.254", "shared (carrier-grade NAT)"),
    ("127.0.0.1", "loopback"),
    ("169.254.169.254", "link-local"),
    ("172.31.255.255", "private"),
    ("192.0.0.1", "IETF protocol assignment"),
    ("192.0.0.9", "IETF protocol assignment"),  # PCP anycast: the nearest (local) PCP server
    ("192.0.0.10", "IETF protocol assignment"),  # TURN anycast
    ("192.0.0.170", "IETF protocol assignment"),
    ("192.0.2.1", "documentation"),
    ("192.31.196.1", "AS112 anycast"),
    ("192.52.193.1", "AMT anycast"),
    ("192.88.99.1", "6to4 relay anycast"),
    ("192.168.0.1", "private"),
    ("192.175.48.1", "AS112 anycast"),
    ("198.18.0.1", "benchmarking"),
    ("198.19.255.1", "benchmarking"),
    ("198.51.100.1", "documentation"),
    ("203.0.113.1", "documentation"),
    ("224.0.0.1", "multicast"),
    ("239.255.255.250", "multicast"),
    ("240.0.0.1", "reserved"),
    ("255.255.255.255", "reserved"),
    # IPv6
    ("::", "unspecified"),
    ("::1", "loopback"),
    ("::a00:1", "reserved"),  # IPv4-compatible (deprecated)
    ("::ffff:0:808:808", "reserved"),  # IPv4-translated (SIIT)
    ("64:ff9b:1::808:808", "local-use NAT64"),
    ("100::1", "discard-only"),
    ("100:0:0:1::1", "dummy"),
    ("2001::1", "Teredo"),
    ("2001:0:808:808:0:ffff:f5ff:fffe", "Teredo"),  # even with public addresses inside
    ("2001:1::1", "IETF protocol assignment"),  # PCP anycast
    ("2001:1::2", "IETF protocol assignment"),  # TURN anycast
    ("2001:2::1", "IETF protocol assignment"),  # benchmarking
    ("2001:3::1", "IETF protocol assignment"),  # AMT
    ("2001:4:112::1", "IETF protocol assignment"),  # AS112-v6
    ("2001:10::1", "IETF protocol assignment"),  # ORCHID
    ("2001:20::1", "IETF protocol assignment"),  # ORCHIDv2
    ("2001:30::1", "IETF protocol assignment"),  # drone remote ID
    ("2001:db8::1", "documentation"),
    ("2620:4f:8000::1", "AS112 anycast"),
    ("3fff::1", "documentation"),
    ("3fff:fff::1", "documentation"),
    ("5f00::1", "SRv6 segment identifier"),
    ("fc00::1", "unique local"),
    ("fd12:3456::1", "unique local"),
    ("fe80::1", "link-local"),
    ("fec0::1", "site-local"),
    ("feff:ffff::1", "site-local"),
    ("ff02::1", "multicast"),
    ("4000::1", "reserved"),  # outside 2000::/3, the only global unicast space
    ("e000::1", "reserved"),
    # IPv6 addresses that stand for an IPv4 address are judged by it
    ("::ffff:127.0.0.1", "IPv4-mapped loopback"),
    ("::ffff:100.64.0.1", "IPv4-mapped shared (carrier-grade NAT)"),
    ("::ffff:0.0.0.0", "IPv4-mapped unspecified"),
    ("64:ff9b::a00:1", "NAT64 private"),
    ("64:ff9b::a9fe:a9fe", "NAT64 link-local"),
    ("64:ff9b::c000:9", "NAT64 IETF protocol assignment"),
    ("2002:a00:1::1", "6to4 private"),
    ("2002:7f00:1::1", "6to4 loopback"),
    ("2002:c612:1::1", "6to4 benchmarking"),
]

PUBLIC = [
    "1.1.1.1",
    "8.8.8.8",
    "93.184.216.34",
    "100.63.255.255",  # just below the shared range
    "100.128.0.0",  # just above it
    "192.0.1.1",
    "198.17.255.255",
    "198.20.0.1",
    "223.255.255.254",
    "2606:4700:4700::1111",
    "2a00:1450:4001::1",
    "2001:200::1",  # just past 2001::/23
    "3fff:1000::1",  # just past 3fff::/20
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",  # NAT64 of a public address (DNS64 on an IPv6-only network)
    "2002:808:808::1",  # 6to4 of a public address
]


@pytest.mark.parametrize(("address", "name"), REFUSED)
def test_each_non_public_range_is_refused_by_name(address: str, name: str) -> None:
    reason = forbidden_reason(ipaddress.ip_address(address))
    assert reason is not None, f"{address} was taken for a public address"
    assert reason.startswith(f"{name} address "), reason


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_pass(address: str) -> None:
    assert forbidden_reason(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize("address", ["fec0::1", "2001:1::1", "192.0.0.9", "3fff::1"])
def test_registration_refuses_a_name_resolving_into_a_special_range(address: str) -> None:
    """Ranges Python calls global on some release are refused when a host resolves there."""

    def resolver(host: str, port: int) -> list[str]:
        return [address]

    with pytest.raises(EndpointRefused) as caught:
        check_endpoint("https://bot.example.com/act", resolver=resolver)
    assert caught.value.reason == "forbidden_address"
    assert f"address {ipaddress.ip_address(address)}" in str(caught.value)


def test_a_literal_site_local_endpoint_is_refused() -> None:
    with pytest.raises(EndpointRefused) as caught:
        check_endpoint("http://[fec0::1]:8000/bot")
    assert "site-local address fec0::1" in str(caught.value)


def test_an_allowlist_still_opens_a_special_range() -> None:
    """A local deployment may name a range it trusts, site-local included."""
    check_endpoint("http://[fec0::1]/", allow=AddressPolicy.coerce(["fec0::/10"]))
