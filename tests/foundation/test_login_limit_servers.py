"""The login limit holds across two real server processes, whatever X-Forwarded-For says.

Two uvicorn processes share this test's PostgreSQL database and the run's
Redis, as deployed servers do. Guesses alternate between them, each with a new
``X-Forwarded-For``. Each scenario uses addresses and accounts of its own
(random loopback addresses: the test binds its connections to them), so
counts left in Redis by an earlier run cannot meet it.

- Per address: a client that is not a trusted proxy gets the address limit
  of failures, then refusals, however it rotates the header and whichever
  account it names; its header never makes it a new client.
- Per account: through a trusted proxy every guess really comes from a new
  address, and the account still gets its limit of failures, on the API and
  the admin's login form together, then refusals, even for the right password.
"""

from __future__ import annotations

import itertools
import random
import re
import uuid
from collections.abc import Iterator

import httpx
import pytest
from allauth.core.internal.ratelimit import get_rates
from django.conf import settings

from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.foundation.processes import clean_env
from tests.foundation.servers import Server, start_server
from tests.tournaments import workers

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

TOKEN_PATH = "/api/v1/auth/token/"
ADMIN_LOGIN_PATH = "/admin/login/"
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def random_loopback() -> str:
    """An address of 127.0.0.0/8 other than 127.0.0.1 (all of them reach this machine)."""
    return f"127.{random.randint(1, 254)}.{random.randint(0, 255)}.{random.randint(1, 254)}"


def random_public() -> str:
    return f"198.{random.randint(18, 19)}.{random.randint(0, 255)}.{random.randint(1, 254)}"


PROXY = random_loopback()


def limit_of(per: str) -> int:
    """The project's ``login_failed`` limit per ``ip`` or per ``key`` (account)."""
    rates = get_rates(app="allauth.account", action="login_failed")
    return next(rate.amount for rate in rates if rate.per == per)


@pytest.fixture(scope="module")
def module_servers(
    django_db_setup, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Server]]:
    """Two servers trusting one proxy address, for the module's tests (each guesses from
    addresses and at accounts of its own)."""
    environ = clean_env(
        DJANGO_SETTINGS_MODULE="tests.foundation.server_settings",
        DATABASE_URL=workers.test_database_url(),
        REDIS_URL=settings.REDIS_URL,
        TRUSTED_PROXIES=PROXY,
        LOG_LEVEL="WARNING",
    )
    logs = tmp_path_factory.mktemp("login-limit-servers")
    running: list[Server] = []
    try:
        for i in range(2):
            running.append(start_server(environ, logs / f"server{i}.log"))
        yield running
    finally:
        for server in running:
            server.stop()


@pytest.fixture
def servers(transactional_db, module_servers: list[Server]) -> list[Server]:
    return module_servers


def connect_from(address: str) -> httpx.Client:
    """A client whose connections leave from ``address``."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=60)


def token_attempt(
    client: httpx.Client, server: Server, username: str, password: str, forwarded: str
) -> httpx.Response:
    return client.post(
        server.url + TOKEN_PATH,
        json={"username": username, "password": password},
        headers={"X-Forwarded-For": forwarded},
    )


def admin_attempt(
    client: httpx.Client, server: Server, username: str, password: str, forwarded: str
) -> httpx.Response:
    form = client.get(server.url + ADMIN_LOGIN_PATH, headers={"X-Forwarded-For": forwarded})
    match = CSRF_INPUT.search(form.text)
    assert match, form.text[:500]
    return client.post(
        server.url + ADMIN_LOGIN_PATH,
        data={
            "username": username,
            "password": password,
            "csrfmiddlewaretoken": match.group(1),
            "next": "/admin/",
        },
        headers={"X-Forwarded-For": forwarded, "Referer": server.url + ADMIN_LOGIN_PATH},
    )


def assert_refused_by_login_limit(response: httpx.Response, logs: str) -> None:
    assert response.status_code == 429, f"{response.status_code} {response.text[:300]}\n{logs}"
    assert 0 < int(response.headers["Retry-After"]) <= 900
    assert "Too many failed login attempts" in response.text


def logs_of(servers: list[Server]) -> str:
    return "\n".join(f"===== {s.url}\n{s.log()[-3000:]}" for s in servers)


def test_address_limit_holds_with_a_rotating_forwarded_header(servers: list[Server]) -> None:
    user = UserFactory(username=f"user-{uuid.uuid4().hex}")
    limit = limit_of("ip")
    alternate = itertools.cycle(servers)
    with connect_from(random_loopback()) as attacker:
        for i in range(limit):
            guess = token_attempt(
                attacker, next(alternate), f"nobody-{uuid.uuid4().hex}", "guess", random_public()
            )
            assert guess.status_code == 400, f"guess {i + 1}: {guess.text}\n{logs_of(servers)}"
        for _ in range(2):
            refused = token_attempt(
                attacker, next(alternate), f"nobody-{uuid.uuid4().hex}", "guess", random_public()
            )
            assert_refused_by_login_limit(refused, logs_of(servers))
        # Refused whatever the password: the refusal tells nothing about it.
        right = token_attempt(attacker, next(alternate), user.username, DEFAULT_PASSWORD, PROXY)
        assert_refused_by_login_limit(right, logs_of(servers))
    with connect_from(random_loopback()) as someone_else:
        answer = token_attempt(
            someone_else, servers[0], user.username, DEFAULT_PASSWORD, random_public()
        )
        assert answer.status_code == 200, answer.text


def test_account_limit_holds_across_addresses_and_login_paths(servers: list[Server]) -> None:
    """Through the trusted proxy each guess comes from a new client; the account still holds."""
    victim = UserFactory(username=f"victim-{uuid.uuid4().hex}", admin=True)
    limit = limit_of("key")
    alternate = itertools.cycle(servers)
    with connect_from(PROXY) as proxy:
        for i in range(limit):
            server = next(alternate)
            if i % 2:
                page = admin_attempt(proxy, server, victim.username, "guess", random_public())
                assert page.status_code == 200, page.text[:300]
                assert "correct username and password" in page.text
            else:
                guess = token_attempt(proxy, server, victim.username, "guess", random_public())
                assert guess.status_code == 400, f"guess {i + 1}: {guess.text}"
        right = token_attempt(
            proxy, next(alternate), victim.username.upper(), DEFAULT_PASSWORD, random_public()
        )
        assert_refused_by_login_limit(right, logs_of(servers))
        page = admin_attempt(proxy, next(alternate), victim.username, DEFAULT_PASSWORD, "1.2.3.4")
        assert_refused_by_login_limit(page, logs_of(servers))
        assert 'name="password"' in page.text
        assert proxy.get(servers[0].url + "/admin/").status_code == 302, "not logged in"
