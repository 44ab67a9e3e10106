"""allauth's own sign-in lock answers 429, and sign-up does not tell who has an account."""

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


def sign_in(client: Client, password: str) -> object:
    return client.post(reverse("account_login"), {"login": "pieter", "password": password})


def test_allauths_lock_after_five_failures_answers_429_with_retry_after(client: Client) -> None:
    """The project's settings: allauth locks a username after 5 failures in 300 s, before
    the project's own throttle (10); the lock is a 429 as the docs say, not a 200 form."""
    UserFactory(username="pieter")
    for _ in range(5):
        response = sign_in(client, "wrong-guess")
        assert response.status_code == 200
        assert "not correct" in response.content.decode()
    response = sign_in(client, DEFAULT_PASSWORD)
    assert response.status_code == 429
    assert response["Retry-After"] == "300"
    assert "Too many failed login attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


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
