"""``manage.py demo_setup`` prints a person account a visitor can sign in with."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from harbormaster.demo import DEMO_PERSON_PASSWORD, DEMO_PERSON_USERNAME

pytestmark = pytest.mark.django_db


def run_demo_setup() -> str:
    out = StringIO()
    call_command("demo_setup", games_per_engine=0, event_rounds=0, stdout=out)
    return out.getvalue()


def test_demo_person_is_printed_and_signs_in(settings, client: Client) -> None:
    settings.DEBUG = True
    output = run_demo_setup()
    assert f"username: {DEMO_PERSON_USERNAME}" in output
    assert f"password: {DEMO_PERSON_PASSWORD}" in output
    assert "http://127.0.0.1:8000/accounts/login/" in output
    response = client.post(
        reverse("account_login"),
        {"login": DEMO_PERSON_USERNAME, "password": DEMO_PERSON_PASSWORD},
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username=DEMO_PERSON_USERNAME)
    assert not user.is_staff and not user.is_superuser
    assert user.profile.competitor.kind == "person"
    assert user.profile.accepts_bot_opponents  # the demo is for playing the example bots
    assert client.get(reverse("people:me")).status_code == 200


def test_running_twice_keeps_one_person_and_restores_password(settings) -> None:
    settings.DEBUG = True
    run_demo_setup()
    user = get_user_model().objects.get(username=DEMO_PERSON_USERNAME)
    user.set_password("changed-by-the-visitor")
    user.save()
    output = run_demo_setup()
    assert "Reset the demo person account" in output
    user.refresh_from_db()
    assert user.check_password(DEMO_PERSON_PASSWORD)
    assert user.competitors.filter(kind="person").count() == 1
