"""The signed-in user read through the cache (web.cache.auth_user): one row read, then none,
and still signed out at once by a password change, a deactivation or a deletion."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import DEFAULT_PASSWORD, UserFactory
from web.cache import auth_user as auth_cache
from web.cache import versioned

pytestmark = pytest.mark.django_db

SIGNED_IN = "Sign out"
NEW = "n3w-long-pass-phrase"


def user_reads(client: Client, path: str = "/healthz") -> tuple[int, str]:
    """Reads of the user table by one request, and its page."""
    with CaptureQueriesContext(connection) as queries:
        page = client.get(path).content.decode()
    return sum('FROM "auth_user"' in q["sql"] for q in queries.captured_queries), page


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_user_row_is_read_at_sign_in_and_after_a_save_then_from_the_cache() -> None:
    user = UserFactory(password=None)
    client = signed_in(user)  # signing in reads it into the cache
    reads, page = user_reads(client, "/")
    assert reads == 0 and SIGNED_IN in page
    user.first_name = "Changed"
    user.save()
    assert user_reads(client, "/")[0] == 1
    assert user_reads(client, "/")[0] == 0


def test_a_password_change_signs_out_the_other_sessions_at_once(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast
    UserFactory(username="pat")
    elsewhere, here = Client(), Client()
    for client in (elsewhere, here):
        assert client.login(username="pat", password=DEFAULT_PASSWORD)
        assert SIGNED_IN in client.get("/").content.decode()
    assert user_reads(elsewhere, "/")[0] == 0  # cached: the change must get past this
    changed = here.post(
        reverse("account_change_password"),
        {"oldpassword": DEFAULT_PASSWORD, "password1": NEW, "password2": NEW},
    )
    assert changed.status_code == 302
    assert SIGNED_IN in here.get("/").content.decode()  # the session that changed it stays
    assert SIGNED_IN not in elsewhere.get("/").content.decode()
    assert elsewhere.get(reverse("people:me")).status_code == 302  # to sign in


def test_a_deactivated_user_is_signed_out_at_once() -> None:
    user = UserFactory(password=None)
    client = signed_in(user)
    client.get("/")
    assert user_reads(client, "/")[0] == 0
    user.is_active = False
    user.save()
    assert SIGNED_IN not in client.get("/").content.decode()
    assert client.get("/me/waiting.json").status_code == 403


def test_a_deleted_user_is_signed_out_at_once() -> None:
    user = UserFactory(password=None)
    client = signed_in(user)
    client.get("/")
    user.delete()
    assert SIGNED_IN not in client.get("/").content.decode()


def test_a_rename_shows_on_the_next_page() -> None:
    user = UserFactory(username="before", password=None)
    client = signed_in(user)
    assert ">before</a>" in client.get("/").content.decode()
    user.username = "after"
    user.save()
    assert ">after</a>" in client.get("/").content.decode()


def test_the_old_row_read_across_a_commit_is_not_served(django_capture_on_commit_callbacks):
    """A request that read the user just before a save committed stores it under the token
    the save replaces once committed, so the row is read again after the commit."""
    user = UserFactory(username="racer", password=None)
    with django_capture_on_commit_callbacks(execute=True):
        user.first_name = "New"
        user.save()  # the token is replaced now, and again on commit
        stale = get_user_model()(pk=user.pk, username="racer", first_name="Old")
        versioned.read(auth_cache.NAME, user.pk, lambda: stale, 60)  # another request's read
        assert auth_cache.cached_user(user.pk).first_name == "Old"  # before the commit
    assert auth_cache.cached_user(user.pk).first_name == "New"


def test_zero_seconds_reads_the_row_every_time(settings) -> None:
    settings.AUTH_USER_CACHE_SECONDS = 0
    client = signed_in(UserFactory(password=None))
    client.get("/")
    assert user_reads(client, "/")[0] == 1
