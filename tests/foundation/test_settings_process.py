"""Settings as a fresh process sees them, for a few environments (no reload tricks)."""

from __future__ import annotations

import json

from tests.foundation.processes import PROJECT_DIR, clean_env, run_python

PRINT_SETTINGS = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps({
    "debug": settings.DEBUG,
    "db_engine": settings.DATABASES["default"]["ENGINE"],
    "db_name": str(settings.DATABASES["default"]["NAME"]),
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "cache": settings.CACHES["default"]["BACKEND"],
    "broker": settings.CELERY_BROKER_URL,
    "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "embedded_celery": settings.EMBEDDED_CELERY,
    "hosts": settings.ALLOWED_HOSTS,
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
}))
"""


def settings_with(**environ: str) -> dict:
    result = run_python(["-c", PRINT_SETTINGS], clean_env(**environ))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_embedded_defaults_need_no_server() -> None:
    seen = settings_with(DJANGO_SETTINGS_MODULE="harbormaster.settings")
    assert seen["debug"] is True
    assert seen["db_engine"] == "django.db.backends.sqlite3"
    assert seen["db_name"] == str(PROJECT_DIR / "db.sqlite3")
    assert seen["layer"] == "channels.layers.InMemoryChannelLayer"
    assert seen["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert seen["broker"] == "memory://localhost/"
    assert seen["eager"] is False  # queued, for the worker threads beside the site
    assert seen["embedded_celery"] is True  # Celery's worker and beat run in the serving process
    assert seen["ssl_redirect"] is False


def test_server_mode_from_urls() -> None:
    seen = settings_with(
        DJANGO_SETTINGS_MODULE="harbormaster.settings",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/hm",
        REDIS_URL="redis://127.0.0.1:6379/4",
        ALLOWED_HOSTS="a.example,b.example",
    )
    assert seen["db_engine"] == "django.db.backends.postgresql"
    assert seen["db_name"] == "hm"
    assert seen["layer"] == "channels_redis.core.RedisChannelLayer"
    # Throttle counters are shared by every server process.
    assert seen["cache"] == "django_redis.cache.RedisCache"
    assert (seen["broker"], seen["eager"]) == ("redis://127.0.0.1:6379/4", False)
    assert seen["embedded_celery"] is False  # worker and beat processes do it
    assert seen["hosts"] == ["a.example", "b.example"]


def test_refuses_to_start_without_secret_key_when_debug_off() -> None:
    result = run_python(
        ["-c", PRINT_SETTINGS], clean_env(DJANGO_SETTINGS_MODULE="harbormaster.settings", DEBUG="0")
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
