"""One limit on failed logins, per account and per address, on every login path.

The site's sign-in, the admin's login form and the API's token exchange count
against the same limit (allauth's ``login_failed``, ``web.http.login_limit``):
past it, the next attempt answers 429 with ``Retry-After`` and the same
message, whatever its password. In-process (Django's test client), with small
limits; every request carries a new ``X-Forwarded-For``, which the application
must not believe (uvicorn decides who the client is). The project's own
numbers: ``tests/people/test_account_limits.py``; across two real server
processes: ``test_login_limit_servers.py``.
"""

from __future__ import annotations

import itertools
import time

import pytest
from django.test import Client

from tests.factories import DEFAULT_PASSWORD, UserFactory
from web.http.throttling import ScopedRateThrottle

pytestmark = pytest.mark.django_db

ACCOUNT_LIMIT = 3
ADDRESS_LIMIT = 5
TOKEN_URL = "/api/v1/auth/token/"
ADMIN_LOGIN_URL = "/admin/login/"
SIGN_IN_URL = "/accounts/login/"
MESSAGE = "Too many failed login attempts"
_forwarded = (f"203.0.113.{i % 250}" for i in itertools.count(1))


def rates(window: str = "15m") -> str:
    return f"{ADDRESS_LIMIT}/{window}/ip,{ACCOUNT_LIMIT}/{window}/key"


@pytest.fixture(autouse=True)
def small_limits(settings) -> None:
    settings.ACCOUNT_RATE_LIMITS = {"login_failed": rates()}
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


def sign_in_attempt(client: Client, username: str, password: str, peer: str = "198.51.100.7"):
    return client.post(
        SIGN_IN_URL,
        {"login": username, "password": password},
        REMOTE_ADDR=peer,
        HTTP_X_FORWARDED_FOR=next(_forwarded),
    )


def assert_api_refusal(response) -> None:
    assert response.status_code == 429, response.content
    body = response.json()
    assert body["code"] == "throttled"
    assert MESSAGE in body["detail"]
    assert 0 < int(response["Retry-After"]) <= 900


def assert_page_refusal(response) -> None:
    """A login form (not a bare error page) saying so, as 429 with Retry-After."""
    assert response.status_code == 429, response.content[:300]
    assert 0 < int(response["Retry-After"]) <= 900
    page = response.content.decode()
    assert MESSAGE in page
    assert 'name="password"' in page


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


def test_an_ipv6_client_is_one_address_across_its_64(client: Client) -> None:
    for i in range(ADDRESS_LIMIT):
        answer = token_attempt(client, f"nobody{i}", "guess", peer=f"2001:db8:1:2::{i + 1:x}")
        assert answer.status_code == 400
    assert_api_refusal(token_attempt(client, "nobody-else", "guess", peer="2001:db8:1:2:ff::1"))
    assert token_attempt(client, "nobody-else", "guess", peer="2001:db8:1:3::1").status_code == 400


def test_a_success_counts_nothing_and_clears_nothing(client: Client) -> None:
    """A success takes its own attempt back; the failures before it stay counted."""
    user = UserFactory()
    for _ in range(ACCOUNT_LIMIT - 1):
        assert token_attempt(client, user.username, "wrong").status_code == 400
    assert token_attempt(client, user.username, DEFAULT_PASSWORD).status_code == 200
    assert token_attempt(client, user.username, "wrong").status_code == 400
    assert_api_refusal(token_attempt(client, user.username, DEFAULT_PASSWORD))


def test_successful_logins_do_not_count_against_an_address(client: Client) -> None:
    users = UserFactory.create_batch(ADDRESS_LIMIT + 2)
    for user in users:
        assert token_attempt(client, user.username, DEFAULT_PASSWORD).status_code == 200


def test_the_window_ends(client: Client, settings) -> None:
    settings.ACCOUNT_RATE_LIMITS = {"login_failed": rates(window="2s")}
    user = UserFactory()
    for _ in range(ACCOUNT_LIMIT):
        token_attempt(client, user.username, "wrong")
    refused = token_attempt(client, user.username, DEFAULT_PASSWORD)
    assert refused.status_code == 429
    assert refused["Retry-After"] == "2"
    time.sleep(2.2)
    assert token_attempt(client, user.username, DEFAULT_PASSWORD).status_code == 200


def test_admin_login_is_limited_with_a_clear_answer(client: Client) -> None:
    user = UserFactory(admin=True)
    for _ in range(ACCOUNT_LIMIT):
        page = admin_attempt(client, user.username, "wrong")
        assert page.status_code == 200
        assert b"correct username and password" in page.content
    refused = admin_attempt(client, user.username, DEFAULT_PASSWORD)
    assert_page_refusal(refused)
    assert "correct username and password" not in refused.content.decode()
    assert client.get("/admin/").status_code == 302  # not logged in


def test_every_login_path_shares_the_counts(client: Client) -> None:
    user = UserFactory(admin=True)
    assert admin_attempt(client, user.username, "wrong").status_code == 200
    assert sign_in_attempt(client, user.username, "wrong").status_code == 200
    assert token_attempt(client, user.username, "wrong").status_code == 400
    assert_api_refusal(token_attempt(client, user.username, DEFAULT_PASSWORD))
    assert_page_refusal(admin_attempt(client, user.username, DEFAULT_PASSWORD))
    assert_page_refusal(sign_in_attempt(client, user.username, DEFAULT_PASSWORD))
    assert "_auth_user_id" not in client.session


def test_refused_attempts_do_not_count(client: Client) -> None:
    """An address over its limit cannot go on to lock out the accounts it names."""
    victim = UserFactory()
    for i in range(ADDRESS_LIMIT):
        token_attempt(client, f"nobody{i}", "guess")
    for _ in range(ACCOUNT_LIMIT + 2):
        assert_api_refusal(token_attempt(client, victim.username, "guess"))
    answer = token_attempt(client, victim.username, DEFAULT_PASSWORD, peer="192.0.2.9")
    assert answer.status_code == 200


def test_a_new_port_in_the_host_header_is_not_a_new_account(client: Client) -> None:
    """allauth would key an account by the Host header, port included; here by its name."""
    user = UserFactory()
    for port in range(8001, 8001 + ACCOUNT_LIMIT):
        answer = client.post(
            SIGN_IN_URL,
            {"login": user.username, "password": "wrong"},
            REMOTE_ADDR=f"192.0.2.{port - 8000}",
            HTTP_HOST=f"testserver:{port}",
        )
        assert answer.status_code == 200
    refused = client.post(
        SIGN_IN_URL,
        {"login": user.username, "password": DEFAULT_PASSWORD},
        REMOTE_ADDR="192.0.2.99",
        HTTP_HOST="testserver:9999",
    )
    assert_page_refusal(refused)


def test_forwarded_header_does_not_dodge_the_api_rate_scope(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DRF's per-address request rate (scope auth-token) counts the same client address."""
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"auth-token": "2/minute"})
    codes = [token_attempt(client, "", "x").status_code for _ in range(3)]
    assert codes == [400, 400, 429]
