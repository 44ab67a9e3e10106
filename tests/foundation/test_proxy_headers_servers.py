"""One client address for every part, through a real uvicorn started as the service is.

The server trusts one proxy address (``TRUSTED_PROXIES``, passed to uvicorn's
``--forwarded-allow-ips`` by ``tests.foundation.servers`` as by docker-compose).
The test's connections leave from chosen loopback addresses: the proxy's, or a
stranger's. Through the proxy, the client its ``X-Forwarded-For`` names is
what Django's ``REMOTE_ADDR``, uvicorn's access log, the DRF throttle, the
login limit and the play sockets' address limit all count; from the stranger,
the header changes nothing. Small limits: ``proxy_server_settings``. Client
addresses are random, so counts an earlier run left in Redis cannot meet them.
"""

from __future__ import annotations

import random
import re
import uuid
from collections.abc import Iterator

import httpx
import pytest
from django.conf import settings

from games.services import create_game
from tests.foundation import raw_ws
from tests.foundation.processes import clean_env
from tests.foundation.proxy_urls import CLIENT_PATH
from tests.foundation.servers import Server, start_server
from tests.tournaments import workers
from tests.tournaments.play.conftest import people

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_referee"),
]

TOKEN_PATH = "/api/v1/auth/token/"
SIGN_IN_PATH = "/accounts/login/"
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
PER_ADDRESS = 3
"""Failed sign-ins, and token requests a minute, allowed per address (proxy_server_settings)."""


def random_loopback() -> str:
    """An address of 127.0.0.0/8 other than 127.0.0.1 (all of them reach this machine)."""
    return f"127.{random.randint(1, 254)}.{random.randint(0, 255)}.{random.randint(1, 254)}"


def random_public() -> str:
    return f"198.{random.randint(18, 19)}.{random.randint(0, 255)}.{random.randint(1, 254)}"


PROXY = random_loopback()


@pytest.fixture(scope="module")
def module_server(django_db_setup, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One uvicorn for the module's tests: each counts addresses and games of its own."""
    if not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        pytest.skip("the server runs in another process: it needs PostgreSQL")
    environ = clean_env(
        DJANGO_SETTINGS_MODULE="tests.foundation.proxy_server_settings",
        DATABASE_URL=workers.test_database_url(),
        REDIS_URL=settings.REDIS_URL or "",
        TRUSTED_PROXIES=PROXY,
        LOG_LEVEL="WARNING",
    )
    running = start_server(environ, tmp_path_factory.mktemp("proxy-headers") / "uvicorn.log")
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def server(transactional_db, module_server: Server) -> Server:
    return module_server


def connect_from(address: str) -> httpx.Client:
    """A client whose connections leave from ``address``."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=60)


def seen(client: httpx.Client, server: Server, forwarded: str) -> dict[str, str]:
    """What Django took for the client of a request with this ``X-Forwarded-For``."""
    answer = client.get(server.url + CLIENT_PATH, headers={"X-Forwarded-For": forwarded})
    assert answer.status_code == 200, answer.text[:300]
    return answer.json()


def token_request(client: httpx.Client, server: Server, forwarded: str) -> int:
    """An empty token request (400 unless throttled): counted by DRF's ``auth-token`` scope."""
    return client.post(
        server.url + TOKEN_PATH, json={}, headers={"X-Forwarded-For": forwarded}
    ).status_code


def failed_sign_in(client: httpx.Client, server: Server, forwarded: str) -> httpx.Response:
    """allauth's sign-in form, then a wrong password for a made-up account."""
    headers = {"X-Forwarded-For": forwarded}
    form = client.get(server.url + SIGN_IN_PATH, headers=headers)
    match = CSRF_INPUT.search(form.text)
    assert match, form.text[:500]
    return client.post(
        server.url + SIGN_IN_PATH,
        data={
            "login": f"nobody-{uuid.uuid4().hex}",
            "password": "guess",
            "csrfmiddlewaretoken": match.group(1),
        },
        headers=headers,
    )


def sign_in_codes(client: httpx.Client, server: Server, forwarded: list[str]) -> list[int]:
    return [failed_sign_in(client, server, header).status_code for header in forwarded]


def test_through_a_trusted_proxy_every_part_sees_the_client(server: Server) -> None:
    first, second, third, fourth = (random_public() for _ in range(4))
    with connect_from(PROXY) as proxy:
        # Django: REMOTE_ADDR is the right-most address the proxy did not vouch for.
        assert seen(proxy, server, f"{random_public()}, {first}")["remote_addr"] == first
        v6 = f"2001:db8:{random.randint(1, 0xFFFF):x}:7::5"
        assert seen(proxy, server, v6) == {
            "remote_addr": v6,
            "ident": v6.removesuffix("::5") + "::/64",
        }
        # DRF's throttle counts the client, not the proxy: another client is not held up.
        assert [token_request(proxy, server, first) for _ in range(PER_ADDRESS + 1)] == [
            *[400] * PER_ADDRESS,
            429,
        ]
        assert token_request(proxy, server, second) == 400
        # The login limit too.
        assert sign_in_codes(proxy, server, [third] * (PER_ADDRESS + 1)) == [
            *[200] * PER_ADDRESS,
            429,
        ]
        assert sign_in_codes(proxy, server, [fourth]) == [200]
    # uvicorn's access log names the client as well.
    assert f"{first}:0 - " in server.log(), server.log()[-2000:]


def test_from_any_other_peer_the_header_changes_nothing(server: Server) -> None:
    peer = random_loopback()
    with connect_from(peer) as stranger:
        assert seen(stranger, server, random_public()) == {"remote_addr": peer, "ident": peer}
        # A new X-Forwarded-For on every request does not make a new client.
        codes = [token_request(stranger, server, random_public()) for _ in range(PER_ADDRESS + 1)]
        assert codes == [*[400] * PER_ADDRESS, 429]
        forwarded = [random_public() for _ in range(PER_ADDRESS + 1)]
        assert sign_in_codes(stranger, server, forwarded) == [*[200] * PER_ADDRESS, 429]
    assert f"{peer}:" in server.log()


def test_play_sockets_count_the_same_client(server: Server) -> None:
    """One play socket per address (proxy_server_settings): the client's, not the proxy's."""
    game = create_game("manila", people(3), seed="proxy-headers")
    port = int(server.url.rsplit(":", 1)[1])
    path = f"/ws/games/{game.pk}/"
    first, second = random_public(), random_public()
    stranger = random_loopback()
    attempts = [
        (PROXY, first),
        (PROXY, second),  # another client behind the same proxy
        (PROXY, first),  # the first client again: its place is taken
        (stranger, random_public()),
        (stranger, random_public()),  # the stranger again, whatever its header says
    ]
    opened: list = []
    frames = []
    try:
        for source, forwarded in attempts:
            conn = raw_ws.handshake(
                port, path, source=source, headers={"X-Forwarded-For": forwarded}
            )
            opened.append(conn)
            frames.append(raw_ws.read_frame(conn))
    finally:
        for conn in opened:
            conn.close()
    opcodes = [opcode for opcode, _ in frames]
    assert opcodes == [raw_ws.TEXT, raw_ws.TEXT, raw_ws.CLOSE, raw_ws.TEXT, raw_ws.CLOSE]
    for _, payload in (frames[2], frames[4]):
        assert raw_ws.close_code(payload) == 4429
        assert payload[2:].decode() == "too many open sockets for your address (at most 1)"
