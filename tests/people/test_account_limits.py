"""The sign-in limit answers 429 at the project's numbers, and sign-up does not tell who has
an account."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.models import Competitor
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "tidal-harbour-47-lanterns"


def sign_in(client: Client, password: str, login: str = "pieter", address: str = "192.0.2.1"):
    return client.post(
        reverse("account_login"), {"login": login, "password": password}, REMOTE_ADDR=address
    )


def test_after_ten_failures_for_an_account_sign_in_answers_429_with_retry_after(
    client: Client,
) -> None:
    """The project's settings: an account is locked after 10 failures in 15 minutes,
    from any addresses; the lock is a 429 as the docs say, not a 200 form."""
    UserFactory(username="pieter")
    for i in range(10):
        response = sign_in(client, "wrong-guess", address=f"192.0.2.{i + 1}")
        assert response.status_code == 200
        assert "not correct" in response.content.decode()
    response = sign_in(client, DEFAULT_PASSWORD, address="192.0.2.99")
    assert response.status_code == 429
    assert response["Retry-After"] == "900"
    assert "Too many failed login attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_after_thirty_failures_from_an_address_sign_in_answers_429(client: Client) -> None:
    """The project's settings: an address is locked after 30 failures in 15 minutes,
    whichever accounts it names; another address is not held up."""
    UserFactory(username="pieter")
    for i in range(30):
        assert sign_in(client, "wrong-guess", login=f"nobody-{i}").status_code == 200
    response = sign_in(client, DEFAULT_PASSWORD)
    assert response.status_code == 429
    assert "Too many failed login attempts" in response.content.decode()
    assert sign_in(client, DEFAULT_PASSWORD, address="192.0.2.2").status_code == 302


def test_a_wrong_password_alone_is_still_a_200_form(client: Client) -> None:
    UserFactory(username="pieter")
    response = sign_in(client, "wrong-guess")
    assert response.status_code == 200 and not response.has_header("Retry-After")


def sign_up(client: Client, username: str, email: str) -> object:
    data = {
        "username": username,
        "email": email,
        "password1": GOOD_PASSWORD,
        "password2": GOOD_PASSWORD,
    }
    return client.post(reverse("account_signup"), data)


def test_sign_up_with_a_taken_address_looks_like_any_other(client: Client) -> None:
    """No "already registered": the answer is the one a new address gets (signed in, the
    profile), so the form cannot be used to find out who has an account here."""
    marta = UserFactory(username="marta", email="marta@example.com")
    EmailAddress.objects.create(user=marta, email=marta.email, verified=True, primary=True)
    fresh = sign_up(client, "nobody", "nobody@example.com")
    client.logout()
    taken = sign_up(client, "intruder", "Marta@Example.com")
    assert (taken.status_code, taken["Location"]) == (fresh.status_code, fresh["Location"])
    assert taken.status_code == 302 and taken["Location"] == reverse("people:me")
    page = client.get(reverse("people:me")).content.decode()
    assert "intruder" in page and "already" not in page
    intruder = get_user_model().objects.get(username="intruder")
    assert Competitor.objects.filter(user=intruder, kind="person").count() == 1
    # The address stays unverified on the new account: it cannot take over the owner's
    # mail (password resets need the mailbox), and the owner's account is untouched.
    assert not intruder.emailaddress_set.filter(verified=True).exists()
    assert get_user_model().objects.get(username="marta").email == "marta@example.com"
    assert [message.to for message in mail.outbox] == [
        ["nobody@example.com"],
        ["marta@example.com"],
    ]
