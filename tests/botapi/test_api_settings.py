"""BOT_ENDPOINT_ALLOW: which non-public addresses bot endpoints may use."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from botapi.ssrf import AddressPolicy, EndpointRefused, check_endpoint
from harbormaster import env


def test_unset_allows_loopback_in_development_and_nothing_in_production() -> None:
    assert env.bot_endpoint_allow({}, debug=True) == ["loopback"]
    assert env.bot_endpoint_allow({}, debug=False) == []
    assert env.bot_endpoint_allow({"BOT_ENDPOINT_ALLOW": ""}, debug=False) == []


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("none", []),
        ("NONE", []),
        ("any", True),
        ("loopback", ["loopback"]),
        ("loopback, 10.1.0.0/16 ,fd00::/8", ["loopback", "10.1.0.0/16", "fd00::/8"]),
    ],
)
def test_values(value, expected) -> None:
    assert env.bot_endpoint_allow({"BOT_ENDPOINT_ALLOW": value}, debug=False) == expected


@pytest.mark.parametrize("value", ["intranet", "10.0.0.0/33", "none,loopback"])
def test_a_bad_value_stops_the_process(value) -> None:
    with pytest.raises(ImproperlyConfigured, match="BOT_ENDPOINT_ALLOW"):
        env.bot_endpoint_allow({"BOT_ENDPOINT_ALLOW": value}, debug=True)


def test_each_value_means_what_the_guard_does() -> None:
    def allowed(value: str, url: str) -> bool:
        policy = AddressPolicy.coerce(env.bot_endpoint_allow({"BOT_ENDPOINT_ALLOW": value}, False))
        try:
            check_endpoint(url, policy)
        except EndpointRefused:
            return False
        return True

    assert not allowed("none", "http://127.0.0.1/")
    assert allowed("loopback", "http://127.0.0.1/")
    assert not allowed("loopback", "http://10.1.2.3/")
    assert allowed("loopback,10.1.0.0/16", "http://10.1.2.3/")
    assert not allowed("loopback,10.1.0.0/16", "http://10.2.0.1/")
    assert allowed("any", "http://192.168.0.1/")
    assert allowed("none", "http://8.8.8.8/")
