"""``manage.py demo_setup``: the account ``make demo`` prints, usable and idempotent."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from harbormaster.demo import DEMO_ADMIN_PASSWORD, DEMO_ADMIN_USERNAME

pytestmark = pytest.mark.django_db


def run_demo_setup() -> str:
    """The account step only; the demo games and club event are tested in tests/tournaments/."""
    out = StringIO()
    call_command("demo_setup", games_per_engine=0, event_rounds=0, stdout=out)
    return out.getvalue()


def test_creates_admin_and_prints_working_credentials(settings, client: Client) -> None:
    settings.DEBUG = True
    output = run_demo_setup()
    assert f"username: {DEMO_ADMIN_USERNAME}" in output
    assert f"password: {DEMO_ADMIN_PASSWORD}" in output
    assert "http://127.0.0.1:8000/admin/" in output
    assert client.login(username=DEMO_ADMIN_USERNAME, password=DEMO_ADMIN_PASSWORD)
    assert client.get("/admin/").status_code == 200


def test_running_twice_keeps_one_account_and_restores_password(settings) -> None:
    settings.DEBUG = True
    assert "Created" in run_demo_setup()
    user = get_user_model().objects.get(username=DEMO_ADMIN_USERNAME)
    user.set_password("changed-by-someone")
    user.save()
    assert "Reset" in run_demo_setup()
    assert get_user_model().objects.filter(username=DEMO_ADMIN_USERNAME).count() == 1
    user.refresh_from_db()
    assert user.check_password(DEMO_ADMIN_PASSWORD) and user.is_superuser


def test_refuses_when_debug_is_off(settings) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG"):
        run_demo_setup()
    assert not get_user_model().objects.filter(username=DEMO_ADMIN_USERNAME).exists()


@pytest.mark.parametrize(
    ("debug", "host", "refusal"),
    [(False, "127.0.0.1", "DEBUG"), (True, "0.0.0.0", "loopback")],
)
def test_demo_serve_refuses_without_debug_or_beyond_loopback(
    settings, debug: bool, host: str, refusal: str
) -> None:
    """Refused before any bot is served: the demo admin's password is published."""
    settings.DEBUG = debug
    with pytest.raises(CommandError, match=refusal):
        call_command("demo_serve", host=host, port=1, stdout=StringIO())
