"""Sign up, sign in, sign out and password reset through allauth's pages, as a browser would."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.models import Competitor
from people.models import Profile
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "tidal-harbour-47-lanterns"


def sign_up(client: Client, **fields: str) -> object:
    data = {
        "username": "marta",
        "email": "marta@example.com",
        "password1": GOOD_PASSWORD,
        "password2": GOOD_PASSWORD,
        **fields,
    }
    return client.post(reverse("account_signup"), data)


def nothing_created() -> bool:
    return (
        not get_user_model().objects.filter(username="marta").exists()
        and not Competitor.objects.filter(kind="person").exists()
        and not Profile.objects.exists()
    )


def test_sign_up_creates_exactly_one_person_and_signs_in(client: Client) -> None:
    response = sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("people:me")
    user = get_user_model().objects.get(username="marta")
    people = Competitor.objects.filter(user=user, kind=Competitor.Kind.PERSON)
    assert [person.name for person in people] == ["marta"]
    assert user.profile.competitor == people.get()
    assert user.profile.accepts_bot_opponents is False  # consent is never assumed
    assert client.get(reverse("people:me")).status_code == 200  # signed in


def test_sign_up_may_give_consent_at_once(client: Client) -> None:
    sign_up(client, accepts_bot_opponents="on")
    assert get_user_model().objects.get(username="marta").profile.accepts_bot_opponents


def test_signup_page_asks_for_consent_unticked(client: Client) -> None:
    page = client.get(reverse("account_signup")).content.decode()
    assert 'name="accepts_bot_opponents"' in page
    tag = re.search(r"<input[^>]*name=\"accepts_bot_opponents\"[^>]*>", page).group(0)
    assert "checked" not in tag


def test_taken_username_is_refused_and_changes_nothing(client: Client) -> None:
    UserFactory(username="marta", password=None)
    response = sign_up(client, email="other@example.com")
    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert get_user_model().objects.filter(username__iexact="marta").count() == 1
    assert not Competitor.objects.filter(kind="person").exists()


def test_taken_username_differing_in_case_is_refused(client: Client) -> None:
    UserFactory(username="marta", password=None)
    response = sign_up(client, username="MARTA", email="other@example.com")
    assert response.status_code == 200
    assert get_user_model().objects.filter(username__iexact="marta").count() == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"password1": "123", "password2": "123"}, "This password is too short"),
        ({"password1": "password", "password2": "password"}, "This password is too common"),
        ({"password2": GOOD_PASSWORD + "x"}, "You must type the same password each time"),
        ({"email": "not-an-address"}, "Enter a valid email address"),
        ({"username": "two words"}, "Enter a valid username"),
    ],
)
def test_bad_sign_up_gets_a_clear_error_and_creates_nothing(
    client: Client, fields: dict[str, str], message: str
) -> None:
    response = sign_up(client, **fields)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert nothing_created()
    assert "_auth_user_id" not in client.session


def test_sign_in_and_out(client: Client) -> None:
    user = UserFactory(username="pieter")
    response = client.post(
        reverse("account_login"), {"login": "pieter", "password": DEFAULT_PASSWORD}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("people:me")
    assert client.session["_auth_user_id"] == str(user.pk)
    page = client.get(reverse("people:me")).content.decode()
    assert "pieter" in page and "Sign out" in page
    # An account made without sign-up (admin, demo) gets its person on first use.
    assert Competitor.objects.filter(user=user, kind="person").count() == 1
    response = client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("people:me"))["Location"].startswith(reverse("account_login"))


def test_wrong_password_is_refused(client: Client) -> None:
    UserFactory(username="pieter")
    response = client.post(reverse("account_login"), {"login": "pieter", "password": "nope-nope"})
    assert response.status_code == 200
    assert "not correct" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_admin_login_still_works(client: Client) -> None:
    UserFactory(username="boss", admin=True)
    response = client.post(
        "/admin/login/", {"username": "boss", "password": DEFAULT_PASSWORD, "next": "/admin/"}
    )
    assert response.status_code == 302
    assert client.get("/admin/").status_code == 200


def reset_link(message: mail.EmailMessage) -> str:
    found = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+/)", message.body)
    assert found, message.body
    return found.group(1)


def test_password_reset_mail_has_a_working_link(client: Client) -> None:
    user = UserFactory(username="pieter", email="pieter@example.com")
    response = client.post(reverse("account_reset_password"), {"email": "pieter@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["pieter@example.com"]
    link = reset_link(mail.outbox[0])
    page = client.get(link, follow=True)
    assert page.status_code == 200
    form_url = page.redirect_chain[-1][0] if page.redirect_chain else link
    new_password = "a-brand-new-harbour-password"
    response = client.post(form_url, {"password1": new_password, "password2": new_password})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new_password)
    # The link works once.
    again = client.get(link, follow=True).content.decode()
    assert "Bad Token" in again or "invalid" in again.lower()


def test_password_reset_for_an_unknown_address_looks_the_same(client: Client) -> None:
    """No account enumeration: the answer is the same; no reset link is mailed."""
    UserFactory(username="pieter", email="pieter@example.com")
    known = client.post(reverse("account_reset_password"), {"email": "pieter@example.com"})
    unknown = client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    to_nobody = [message for message in mail.outbox if message.to == ["nobody@example.com"]]
    assert all("/password/reset/key/" not in message.body for message in to_nobody)
    assert get_user_model().objects.count() == 1


def test_password_reset_with_mismatched_passwords_changes_nothing(client: Client) -> None:
    user = UserFactory(username="pieter", email="pieter@example.com")
    client.post(reverse("account_reset_password"), {"email": "pieter@example.com"})
    page = client.get(reset_link(mail.outbox[0]), follow=True)
    form_url = page.redirect_chain[-1][0]
    response = client.post(
        form_url, {"password1": "one-long-password-1", "password2": "another-long-password"}
    )
    assert response.status_code == 200
    assert "You must type the same password each time" in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(DEFAULT_PASSWORD)


def test_sign_ups_are_rate_limited_per_address(client: Client, settings) -> None:
    """allauth's sign-up limit: the third sign-up from one address within a minute is refused."""
    settings.ACCOUNT_RATE_LIMITS = {"signup": "2/m/ip"}
    for name in ("first", "second"):
        assert sign_up(client, username=name, email=f"{name}@example.com").status_code == 302
        client.logout()
    response = sign_up(client, username="third", email="third@example.com")
    assert response.status_code == 429
    assert "Too many requests" in response.content.decode()
    assert not get_user_model().objects.filter(username="third").exists()
    assert Competitor.objects.filter(kind="person").count() == 2


def test_signup_is_atomic_with_its_person(client: Client, monkeypatch) -> None:
    """If making the person fails, the account is not left behind without one."""
    from people import services

    def broken(user):
        raise RuntimeError("database went away")

    monkeypatch.setattr(services, "ensure_person", broken)
    client.raise_request_exception = False
    response = sign_up(client)
    assert response.status_code == 500
    assert nothing_created()
