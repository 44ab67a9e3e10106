"""Parsing of the environment variables that configure the service (harbormaster/env.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from harbormaster import env

BASE = Path("/srv/harbormaster")
SETTINGS_FILE = Path(__file__).resolve().parents[2] / "harbormaster" / "settings.py"


def test_database_defaults_to_sqlite_file_in_project_folder() -> None:
    config = env.database({}, BASE)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(config["NAME"]) == BASE / "db.sqlite3"


def test_empty_database_url_counts_as_unset() -> None:
    assert env.database({"DATABASE_URL": "  "}, BASE)["NAME"] == str(BASE / "db.sqlite3")


@pytest.mark.parametrize("scheme", ["postgres", "postgresql"])
def test_database_url_postgres(scheme: str) -> None:
    url = f"{scheme}://hm:s3cret@db.example:5433/harbor"
    config = env.database({"DATABASE_URL": url}, BASE)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["USER"], config["PASSWORD"]) == ("harbor", "hm", "s3cret")
    assert (config["HOST"], config["PORT"]) == ("db.example", 5433)
    assert config["OPTIONS"]["options"] == "-c jit=off"


def test_postgres_options_from_the_url_are_kept_beside_jit_off() -> None:
    url = "postgres://hm@db.example/harbor?options=-c%20statement_timeout%3D5000"
    config = env.database({"DATABASE_URL": url}, BASE)
    assert config["OPTIONS"]["options"] == "-c statement_timeout=5000 -c jit=off"
    assert config["OPTIONS"]["pool"] == env.DATABASE_POOL


def test_postgres_connections_come_from_a_checked_pool_not_kept_per_thread() -> None:
    config = env.database({"DATABASE_URL": "postgres://hm@db.example/harbor"}, BASE)
    pool = config["OPTIONS"]["pool"]
    assert 1 <= pool["min_size"] < pool["max_size"] <= 16
    assert config["CONN_MAX_AGE"] == 0, "Django refuses a pool beside persistent connections"
    assert config["CONN_HEALTH_CHECKS"] is True
    pool["max_size"] = 99  # each parse gets its own dict: no process-wide sizes changed
    assert env.DATABASE_POOL["max_size"] != 99


@pytest.mark.parametrize("url", ["", "sqlite:////tmp/other.db"])
def test_sqlite_has_no_pool(url: str) -> None:
    config = env.database({"DATABASE_URL": url}, BASE)
    assert "pool" not in config.get("OPTIONS", {})


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_live_postgres_connection_runs_without_jit() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone() == ("off",)


def test_database_url_sqlite_elsewhere() -> None:
    config = env.database({"DATABASE_URL": "sqlite:////tmp/other.db"}, BASE)
    assert (config["ENGINE"], config["NAME"]) == ("django.db.backends.sqlite3", "/tmp/other.db")


def test_without_redis_layer_and_broker_are_in_memory() -> None:
    assert env.channel_layers({})["default"]["BACKEND"].endswith("InMemoryChannelLayer")
    celery = env.celery({"REDIS_URL": ""})
    assert celery["BROKER_URL"].startswith("memory://")
    assert celery["RESULT_BACKEND"] is None
    # the serving process's worker looks at its queues often (kombu's default: every second)
    assert celery["TRANSPORT_OPTIONS"] == {"polling_interval": env.MEMORY_POLLING_INTERVAL_S}
    assert env.MEMORY_POLLING_INTERVAL_S <= 0.05


def test_with_redis_layer_broker_and_results_use_it() -> None:
    url = "redis://cache.example:6380/3"
    layer = env.channel_layers({"REDIS_URL": url})["default"]
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert [host["address"] for host in layer["CONFIG"]["hosts"]] == [url]
    celery = env.celery({"REDIS_URL": url})
    assert (celery["BROKER_URL"], celery["RESULT_BACKEND"]) == (url, url)
    assert celery["TRANSPORT_OPTIONS"]["visibility_timeout"] == env.VISIBILITY_TIMEOUT_S


@pytest.mark.parametrize(
    ("value", "expected"), [("1", True), ("yes", True), ("ON", True), ("0", False), ("off", False)]
)
def test_bool_words(value: str, expected: bool) -> None:
    assert env.as_bool({"DEBUG": value}, "DEBUG", default=not expected) is expected


def test_bool_refuses_unknown_word() -> None:
    with pytest.raises(ImproperlyConfigured, match="DEBUG='maybe'"):
        env.as_bool({"DEBUG": "maybe"}, "DEBUG", default=False)


def test_int_and_list_parsing() -> None:
    assert env.as_int({"HSTS_SECONDS": "60"}, "HSTS_SECONDS", default=0) == 60
    with pytest.raises(ImproperlyConfigured):
        env.as_int({"HSTS_SECONDS": "a minute"}, "HSTS_SECONDS", default=0)
    hosts = env.as_list({"ALLOWED_HOSTS": "a.example, b.example,,"}, "ALLOWED_HOSTS", default=[])
    assert hosts == ["a.example", "b.example"]
    assert env.as_list({}, "ALLOWED_HOSTS", default=["x"]) == ["x"]


def test_secret_key_default_only_in_debug() -> None:
    assert env.secret_key({}, debug=True) == env.DEV_SECRET_KEY
    assert env.secret_key({"SECRET_KEY": "given"}, debug=False) == "given"
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set"):
        env.secret_key({}, debug=False)


def test_reading_an_unlisted_variable_is_a_programming_error() -> None:
    with pytest.raises(KeyError, match="ENV_VARS"):
        env.read({}, "NOT_A_SETTING")


def test_env_vars_is_exactly_what_settings_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Load settings.py afresh, recording every variable it asks for."""
    asked: set[str] = set()
    original = env.read

    def recording_read(environ, name):
        asked.add(name)
        return original(environ, name)

    monkeypatch.setattr(env, "read", recording_read)
    spec = importlib.util.spec_from_file_location("settings_probe", SETTINGS_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert asked == set(env.ENV_VARS)


def test_cache_is_redis_with_servers_and_memory_embedded() -> None:
    assert env.caches({})["default"]["BACKEND"].endswith("LocMemCache")
    url = "redis://cache.example:6380/3"
    cache = env.caches({"REDIS_URL": url})["default"]
    assert cache["BACKEND"] == "django_redis.cache.RedisCache"
    assert cache["LOCATION"] == url


def test_cache_has_a_redis_of_its_own_when_redis_cache_url_is_set() -> None:
    urls = {"REDIS_URL": "redis://queues:6379/0", "REDIS_CACHE_URL": "redis://cache:6379/0"}
    assert env.caches(urls)["default"]["LOCATION"] == "redis://cache:6379/0"
    layer_host = env.channel_layers(urls)["default"]["CONFIG"]["hosts"][0]
    assert layer_host["address"] == env.celery(urls)["BROKER_URL"] == "redis://queues:6379/0"


def test_trusted_proxies_default_to_none_and_refuse_a_bad_entry() -> None:
    assert env.trusted_proxies({}) == []
    assert env.trusted_proxies({"TRUSTED_PROXIES": "10.0.0.5, 172.16.0.0/12,::1"}) == [
        "10.0.0.5",
        "172.16.0.0/12",
        "::1",
    ]
    with pytest.raises(ImproperlyConfigured, match="TRUSTED_PROXIES"):
        env.trusted_proxies({"TRUSTED_PROXIES": "10.0.0.5,proxy.example"})


def test_trusted_proxies_refuse_a_network_uvicorn_would_never_match() -> None:
    """uvicorn takes ``10.0.0.5/8`` for a name, not a network, and never trusts it: stop instead."""
    with pytest.raises(ImproperlyConfigured, match=r"10\.0\.0\.5/8"):
        env.trusted_proxies({"TRUSTED_PROXIES": "10.0.0.5/8"})
