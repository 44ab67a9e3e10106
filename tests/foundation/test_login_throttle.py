"""Failed logins are throttled per account and per address, on the API and the admin alike.

In-process (Django's test client); the counters live in whatever cache this
run has (memory embedded, Redis with servers). The same guarantees across two
real server processes: ``test_login_throttle_servers.py``.
"""

from __future__ import annotations

import itertools
import time

import pytest
from django.contrib.auth import authenticate
from django.test import Client

from tests.factories import DEFAULT_PASSWORD, UserFactory
from web.http import login_throttle
from web.http.throttling import ScopedRateThrottle

pytestmark = pytest.mark.django_db

ACCOUNT_LIMIT = 3
ADDRESS_LIMIT = 5
TOKEN_URL = "/api/v1/auth/token/"
ADMIN_LOGIN_URL = "/admin/login/"
_forwarded = (f"203.0.113.{i % 250}" for i in itertools.count(1))


@pytest.fixture(autouse=True)
def small_limits(settings) -> None:
    settings.LOGIN_FAILURES_PER_ACCOUNT = ACCOUNT_LIMIT
    settings.LOGIN_FAILURES_PER_ADDRESS = ADDRESS_LIMIT
    settings.TRUSTED_PROXIES = []
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def token_attempt(client: Client, username: str, password: str, peer: str = "198.51.100.7"):
    """A token request with a fresh X-Forwarded-For each time, as the attacker sent them."""
    return client.post(
        TOKEN_URL,
        {"username": username, "password": password},
        content_type="application/json",
        REMOTE_ADDR=peer,
        HTTP_X_FORWARDED_FOR=next(_forwarded),
    )


def admin_attempt(client: Client, username: str, password: str, peer: str = "198.51.100.7"):
    return client.post(
        ADMIN_LOGIN_URL,
        {"username": username, "password": password, "next": "/admin/"},
        REMOTE_ADDR=peer,
        HTTP_X_FORWARDED_FOR=next(_forwarded),
    )


def assert_api_refusal(response) -> None:
    assert response.status_code == 429, response.content
    body = response.json()
    assert body["code"] == "throttled"
    assert "Too many failed logins" in body["detail"]
    assert 0 < int(response["Retry-After"]) <= 900


def test_account_limit_holds_with_a_rotating_forwarded_header(client: Client) -> None:
    user = UserFactory()
    for _ in range(ACCOUNT_LIMIT):
        assert token_attempt(client, user.username, "wrong").status_code == 400
    assert_api_refusal(token_attempt(client, user.username, "wrong"))
    # The right password is refused the same way: a refusal says nothing about it.
    assert_api_refusal(token_attempt(client, user.username, DEFAULT_PASSWORD))
    # From another address too, and whatever the username's case.
    assert_api_refusal(token_attempt(client, user.username.upper(), "wrong", "192.0.2.9"))


def test_address_limit_holds_across_accounts_with_a_rotating_forwarded_header(
    client: Client,
) -> None:
    user = UserFactory()
    for i in range(ADDRESS_LIMIT):
        assert token_attempt(client, f"nobody{i}", "guess").status_code == 400
    assert_api_refusal(token_attempt(client, "nobody-else", "guess"))
    assert_api_refusal(token_attempt(client, user.username, DEFAULT_PASSWORD))
    # Another address is not held up.
    answer = token_attempt(client, user.username, DEFAULT_PASSWORD, peer="192.0.2.9")
    assert answer.status_code == 200


def test_behind_a_trusted_proxy_each_client_has_its_own_count(client: Client, settings) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.5"]
    user = UserFactory()

    def via_proxy(real_client: str, forged: str = "") -> int:
        return client.post(
            TOKEN_URL,
            {"username": f"nobody-{next(_forwarded)}", "password": "guess"},
            content_type="application/json",
            REMOTE_ADDR="10.0.0.5",
            HTTP_X_FORWARDED_FOR=f"{forged}{real_client}",
        ).status_code

    # One client, forging a new left-hand entry each time, is still one address.
    codes = [via_proxy("198.51.100.7", forged=f"{next(_forwarded)}, ") for _ in range(6)]
    assert codes[:ADDRESS_LIMIT] == [400] * ADDRESS_LIMIT and codes[ADDRESS_LIMIT] == 429
    # Another client behind the same proxy is not held up.
    ok = client.post(
        TOKEN_URL,
        {"username": user.username, "password": DEFAULT_PASSWORD},
        content_type="application/json",
        REMOTE_ADDR="10.0.0.5",
        HTTP_X_FORWARDED_FOR="192.0.2.9",
    )
    assert ok.status_code == 200


def test_success_clears_the_account_count_but_not_the_address_count(client: Client) -> None:
    user = UserFactory()
    for _ in range(ACCOUNT_LIMIT - 1):
        assert token_attempt(client, user.username, "wrong").status_code == 400
    assert token_attempt(client, user.username, DEFAULT_PASSWORD).status_code == 200
    # The account starts afresh...
    for _ in range(ACCOUNT_LIMIT - 1):
        assert token_attempt(client, user.username, "wrong").status_code == 400
    # ...but the address has 4 failures against it: one more is allowed, then refusal.
    assert token_attempt(client, "someone", "guess").status_code == 400
    assert_api_refusal(token_attempt(client, "someone", "guess"))


def test_successful_logins_do_not_count_against_an_address(client: Client) -> None:
    users = UserFactory.create_batch(ADDRESS_LIMIT + 2)
    for user in users:
        assert token_attempt(client, user.username, DEFAULT_PASSWORD).status_code == 200


def test_the_window_ends(client: Client, settings) -> None:
    settings.LOGIN_THROTTLE_WINDOW_SECONDS = 1
    user = UserFactory()
    for _ in range(ACCOUNT_LIMIT):
        token_attempt(client, user.username, "wrong")
    assert token_attempt(client, user.username, DEFAULT_PASSWORD).status_code == 429
    time.sleep(1.2)
    assert token_attempt(client, user.username, DEFAULT_PASSWORD).status_code == 200


def test_admin_login_is_throttled_with_a_clear_answer(client: Client) -> None:
    user = UserFactory(admin=True)
    for _ in range(ACCOUNT_LIMIT):
        page = admin_attempt(client, user.username, "wrong")
        assert page.status_code == 200
        assert b"correct username and password" in page.content
    refused = admin_attempt(client, user.username, DEFAULT_PASSWORD)
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 900
    page = refused.content.decode()
    assert "Too many failed logins" in page
    assert "correct username and password" not in page
    assert 'name="password"' in page  # the form, not a bare error page
    assert client.get("/admin/").status_code == 302  # not logged in


def test_every_login_path_shares_the_counts(client: Client) -> None:
    user = UserFactory(admin=True)
    for _ in range(ACCOUNT_LIMIT):
        admin_attempt(client, user.username, "wrong")
    assert_api_refusal(token_attempt(client, user.username, DEFAULT_PASSWORD))


def test_refused_attempts_do_not_count(client: Client) -> None:
    """An address over its limit cannot go on to lock out the accounts it names."""
    victim = UserFactory()
    for i in range(ADDRESS_LIMIT):
        token_attempt(client, f"nobody{i}", "guess")
    for _ in range(ACCOUNT_LIMIT + 2):
        assert_api_refusal(token_attempt(client, victim.username, "guess"))
    answer = token_attempt(client, victim.username, DEFAULT_PASSWORD, peer="192.0.2.9")
    assert answer.status_code == 200


def test_authenticate_without_a_request_counts_the_account() -> None:
    """A shell's authenticate() has no address; the account is still counted."""
    user = UserFactory()
    for _ in range(ACCOUNT_LIMIT):
        assert authenticate(username=user.username, password="wrong") is None
    assert authenticate(username=user.username, password=DEFAULT_PASSWORD) is None
    assert login_throttle.account_key(user.username) == login_throttle.account_key(
        user.username.upper()
    )


def test_forwarded_header_does_not_dodge_the_api_rate_scope(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DRF's per-address request rate (scope auth-token) counts the same client address."""
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"auth-token": "2/minute"})
    codes = [token_attempt(client, "", "x").status_code for _ in range(3)]
    assert codes == [400, 400, 429]
