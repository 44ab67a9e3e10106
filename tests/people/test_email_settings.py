"""Mail goes to the console unless EMAIL_HOST names an SMTP server (harbormaster.env.email)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from harbormaster import env


def test_console_backend_by_default() -> None:
    config = env.email({})
    assert config["BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert config["FROM"] == env.DEFAULT_FROM_EMAIL


def test_smtp_when_a_host_is_set() -> None:
    config = env.email(
        {
            "EMAIL_HOST": "mail.example.org",
            "EMAIL_HOST_USER": "club",
            "EMAIL_HOST_PASSWORD": "secret",
            "EMAIL_USE_TLS": "1",
            "DEFAULT_FROM_EMAIL": "Club <club@example.org>",
        }
    )
    assert config["BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (config["HOST"], config["PORT"], config["USE_TLS"]) == ("mail.example.org", 587, True)
    assert (config["HOST_USER"], config["HOST_PASSWORD"]) == ("club", "secret")
    assert config["FROM"] == "Club <club@example.org>"
    assert env.email({"EMAIL_HOST": "h", "EMAIL_USE_SSL": "1"})["PORT"] == 465
    assert env.email({"EMAIL_HOST": "h", "EMAIL_PORT": "2525"})["PORT"] == 2525


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"EMAIL_USE_TLS": "1", "EMAIL_USE_SSL": "1"}, "exclude each other"),
        ({"EMAIL_PORT": "twenty-five"}, "not a whole number"),
        ({"EMAIL_USE_TLS": "maybe"}, "not a yes/no value"),
    ],
)
def test_bad_mail_settings_stop_start_up(environ: dict[str, str], message: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=message):
        env.email(environ)
