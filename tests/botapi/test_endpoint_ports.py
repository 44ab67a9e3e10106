"""An endpoint's port must be a TCP port: refused at registration and never wrapped at connection.

The C resolver truncates a port to 16 bits, so before this check ``:73661``
was accepted at registration and contacted as port 8125.
"""

from __future__ import annotations

import pytest

from botapi.client import BotClient, Fault
from botapi.models import Bot
from botapi.ssrf import EndpointRefused, check_endpoint
from tests.botapi.servers import MisbehavingServer
from tests.botapi.test_client import SECRET, act_request

OUT_OF_RANGE = [0, 65536, 73661, 99999]


@pytest.mark.parametrize("port", OUT_OF_RANGE)
def test_check_endpoint_refuses_a_port_out_of_range(port: int) -> None:
    with pytest.raises(EndpointRefused) as refused:
        check_endpoint(f"http://127.0.0.1:{port}/", allow="loopback")
    assert refused.value.reason == "port"
    assert f"port {port} " in str(refused.value)


def test_ports_in_range_and_default_ports_pass() -> None:
    for url in ("http://127.0.0.1:1/", "http://127.0.0.1:65535/", "http://127.0.0.1/"):
        assert check_endpoint(url, allow="loopback") == url
    assert check_endpoint("https://127.0.0.1/", allow="loopback") == "https://127.0.0.1/"


@pytest.mark.django_db
@pytest.mark.parametrize("port", OUT_OF_RANGE)
def test_registration_answers_400_naming_the_port(api, port: int) -> None:
    body = {"name": "wrapped", "engines": ["manila"], "endpoint_url": f"http://127.0.0.1:{port}/"}
    response = api.post("/api/v1/bots/", body, format="json")
    assert response.status_code == 400
    assert any(f"port {port} " in message for message in response.json()["endpoint_url"])
    assert not Bot.objects.exists()


def test_the_connection_never_wraps_a_port() -> None:
    """A URL that skipped registration's check (stored earlier, or passed directly)."""
    server = MisbehavingServer().start()
    client = BotClient(allow="loopback")
    try:
        wrapped = server.server_address[1] + 65536  # would reach the server's own port
        result = client.act(f"http://127.0.0.1:{wrapped}/index", SECRET, act_request())
        assert result.fault == Fault.SSRF_REFUSED
        assert f"port {wrapped} " in result.detail
        assert server.received == []
    finally:
        client.close()
        server.stop()
