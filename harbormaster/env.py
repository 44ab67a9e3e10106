"""Reading Harbormaster's configuration from environment variables.

Settings call the pure functions here, so the parsing can be tested without
reloading Django, and :data:`ENV_VARS` is the one list of every variable the
settings read (docker-compose.yml is checked against it).

An empty value counts as unset, so ``make test DATABASE_URL= REDIS_URL=`` runs
with the embedded defaults.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

ENV_VARS: tuple[str, ...] = (
    "DATABASE_URL",
    "REDIS_URL",
    "REDIS_CACHE_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "HTTPS",
    "HSTS_SECONDS",
    "TRUST_X_FORWARDED_PROTO",
    "LOG_LEVEL",
    "BOT_ENDPOINT_ALLOW",
    "TRUSTED_PROXIES",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
    "DEFAULT_FROM_EMAIL",
    "SITE_URL",
)
"""Every environment variable that ``harbormaster/settings.py`` reads."""

DEV_SECRET_KEY = "django-insecure-harbormaster-development-only-key-never-deploy-it"
"""Used only when DEBUG is on and SECRET_KEY is unset; `check --deploy` flags its prefix."""

DEFAULT_ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


def read(environ: Mapping[str, str], name: str) -> str | None:
    """The variable's value, or None when it is unset or empty."""
    if name not in ENV_VARS:
        raise KeyError(f"{name} is not in ENV_VARS; add it there so the list stays complete")
    value = environ.get(name, "").strip()
    return value or None


def as_bool(environ: Mapping[str, str], name: str, default: bool) -> bool:
    """A yes/no variable; anything but the usual words is an error, not a guess."""
    value = read(environ, name)
    if value is None:
        return default
    word = value.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a yes/no value (use 1 or 0)")


def as_int(environ: Mapping[str, str], name: str, default: int) -> int:
    """A whole-number variable."""
    value = read(environ, name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number") from None


def as_list(environ: Mapping[str, str], name: str, default: list[str]) -> list[str]:
    """A comma-separated variable, blanks dropped."""
    value = read(environ, name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def secret_key(environ: Mapping[str, str], debug: bool) -> str:
    """SECRET_KEY; the development default only while DEBUG is on."""
    value = read(environ, "SECRET_KEY")
    if value is not None:
        return value
    if debug:
        return DEV_SECRET_KEY
    raise ImproperlyConfigured(
        "SECRET_KEY must be set when DEBUG is off "
        "(e.g. python -c 'import secrets; print(secrets.token_urlsafe(50))')"
    )


DEFAULT_SITE_URL = "http://127.0.0.1:8000"


def site_url(environ: Mapping[str, str]) -> str:
    """Where people reach the site, for absolute links in mail (no trailing slash).

    A mail is read outside any request, so the link cannot be built from one.
    Unset: the loopback address ``make demo`` serves on. Only ``http``/``https``
    URLs with a host are accepted; anything else stops the process at start-up.
    """
    value = read(environ, "SITE_URL") or DEFAULT_SITE_URL
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
        raise ImproperlyConfigured(
            f"SITE_URL={value!r} must be an http:// or https:// URL such as "
            "https://harbormaster.example.org"
        )
    return value.rstrip("/")


def database(environ: Mapping[str, str], base_dir: Path) -> dict[str, Any]:
    """The default database: DATABASE_URL, else a SQLite file in ``base_dir``."""
    url = read(environ, "DATABASE_URL") or f"sqlite:///{base_dir / 'db.sqlite3'}"
    config = dj_database_url.parse(url)
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # Requests and the embedded worker's threads write to one file together.
        # Wait for a writer instead of failing at once. IMMEDIATE: a transaction
        # takes the write lock when it begins; a deferred one that read first and
        # then writes beside another writer fails at once whatever the timeout.
        # WAL: readers never hold up a writer's commit, nor a writer a reader (in
        # the default rollback journal a commit waits until no statement reads).
        # The mode is kept in the file; on an in-memory database it stays "memory".
        options = config.setdefault("OPTIONS", {})
        options["timeout"] = 20
        options["transaction_mode"] = "IMMEDIATE"
        options["init_command"] = "PRAGMA journal_mode=WAL"
    elif config["ENGINE"] == "django.db.backends.postgresql":
        # No JIT: every query here is short and indexed, and PostgreSQL's JIT
        # (on by default) compiled a misestimated rating-history plan for a whole
        # second before running it in milliseconds (issue #17's bench).
        options = config.setdefault("OPTIONS", {})
        options["options"] = f"{options.get('options', '')} -c jit=off".strip()
        options["pool"] = dict(DATABASE_POOL)
        # psycopg's default, which Django turns off for connection poolers (we
        # use none): statements that ask for it are prepared. Only the referee's
        # claim does (games/referee/claims.py); Django's own cursors bind on the
        # client and are never prepared.
        options["prepare_threshold"] = 5
        # Checked when taken from the pool (an empty query): after a database
        # restart a pooled connection is dead, and without the check each one
        # would fail one request instead of being replaced.
        config["CONN_HEALTH_CHECKS"] = True
    return config


DATABASE_POOL: dict[str, Any] = {"min_size": 2, "max_size": 8}
"""psycopg's connection pool for each PostgreSQL-using process that does not turn it off.

Django's default opens a PostgreSQL connection (a new server process) for
every request and closes it at the end; persistent connections
(``CONN_MAX_AGE``) are not safe under ASGI, the pool is (Django 5.1+). A
request takes a connection on its first query and gives it back when it
ends. Two stay open while the process idles; eight at most serve requests
at once, which is more than a 2-core web process keeps busy (its requests
hold a connection only between their first query and their end; waiting long
polls hold none); a ninth waits for one to come back (``timeout``, 30 s by
default). Celery workers turn the pool off and keep a connection per thread
instead (``harbormaster.celery.keep_database_connections``).
"""


CHANNEL_LAYER_SOCKET_TIMEOUT = 15
"""Seconds the channel layer's Redis client waits for a reply before giving the connection up.

channels-redis waits for a message with a blocking pop that Redis answers
within ``RedisChannelLayer.brpop_timeout`` (5 s) even when nothing came, and
then pops again. redis-py 8 gives every read a 5 s socket timeout by default,
the same length: a pop on an idle channel would raise ``TimeoutError`` and
close the websocket whose consumer waits on it. Three times the blocking
wait leaves a live server ample time on a loaded machine, while a connection
to a server that vanished without closing it still fails instead of hanging.
"""


def channel_layers(environ: Mapping[str, str]) -> dict[str, Any]:
    """Redis channel layer when REDIS_URL is set, else the in-process one.

    The Redis host is given as options for redis-py's connection pool, so the
    read timeout is longer than the layer's blocking wait
    (:data:`CHANNEL_LAYER_SOCKET_TIMEOUT`), and TCP keepalive notices a peer
    that disappeared while a socket idles.
    """
    url = read(environ, "REDIS_URL")
    if url is None:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    host = {
        "address": url,
        "socket_timeout": CHANNEL_LAYER_SOCKET_TIMEOUT,
        "socket_connect_timeout": 5,
        "socket_keepalive": True,
    }
    return {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [host], "prefix": "harbormaster"},
        }
    }


def caches(environ: Mapping[str, str]) -> dict[str, Any]:
    """Django's cache: Redis when REDIS_CACHE_URL or REDIS_URL is set, else this process's memory.

    The cache holds counters that must hold across every server process
    (login and API throttles), so with servers it lives in Redis, under a
    prefix of its own, through django-redis: one connection pool per process
    and server, shared by the backend object Django makes in every thread (each
    request's, under ASGI), and redis-py's hiredis parser. A lost connection
    raises redis-py's own error, as Django's backend did (django-redis's
    ``IGNORE_EXCEPTIONS`` stays off: the referee tells a Redis outage from a
    fault by it, ``games.referee.step_failures``). The embedded mode is one
    process, where memory is enough.

    REDIS_CACHE_URL puts it on a Redis of its own (docker-compose does): the
    cache may lose any key under memory pressure (``allkeys-lru``), the broker
    and the channel layer must lose none, and a Redis has one eviction policy
    for all its databases. Unset: beside Celery's and the layer's keys on
    REDIS_URL.
    """
    url = read(environ, "REDIS_CACHE_URL") or read(environ, "REDIS_URL")
    if url is None:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    return {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "harbormaster-cache",
        }
    }


def celery(environ: Mapping[str, str]) -> dict[str, Any]:
    """Broker, result backend and transport options of Celery (CELERY_* settings, prefix dropped).

    With REDIS_URL set, Redis is broker and result backend. Without it
    (the embedded mode) the broker is kombu's in-memory transport, whose
    queues live in the serving process, and that process runs Celery's worker
    and beat in threads beside the site (``harbormaster.embedded_celery``):
    tasks are queued and run as with servers, never inline, and no result is
    kept (the service never reads one). Its worker looks at the queues every
    ``MEMORY_POLLING_INTERVAL_S`` (kombu's default is a second, which every
    queued step of a game would wait).
    """
    url = read(environ, "REDIS_URL")
    if url is None:
        return {
            "BROKER_URL": "memory://localhost/",
            "RESULT_BACKEND": None,
            "TRANSPORT_OPTIONS": {"polling_interval": MEMORY_POLLING_INTERVAL_S},
            "TASK_EAGER_PROPAGATES": True,
        }
    return {
        "BROKER_URL": url,
        "RESULT_BACKEND": url,
        "TRANSPORT_OPTIONS": {"visibility_timeout": VISIBILITY_TIMEOUT_S, **BROKER_SOCKET_OPTIONS},
        "TASK_EAGER_PROPAGATES": False,
    }


VISIBILITY_TIMEOUT_S = 900
"""Redis: how long an unacknowledged task waits before kombu hands it out again (settings.py)."""

MEMORY_POLLING_INTERVAL_S = 0.02
"""How often the embedded worker looks for a task in its in-memory queues when they are empty."""


# Losing Redis. Celery's worker reconnects by itself after a restart (its consumer:
# harbormaster.celery.ReconnectingConsumer) and never gives up
# (CELERY_BROKER_CONNECTION_MAX_RETRIES None; Celery's default, 100 tries, ends the
# worker after some 50 minutes). A
# restart without persistence loses the queued tasks: beat's recover-stalled-games
# sends a lost game's task again.

BROKER_SOCKET_OPTIONS: dict[str, Any] = {
    "socket_timeout": 30,
    "socket_connect_timeout": 5,
    "socket_keepalive": True,
}
"""kombu's Redis connections: a command on a connection whose server vanished without
closing it fails after 30 s instead of hanging (kombu waits forever by default), and
TCP keepalive finds such a peer. The worker's own blocking pop is 1 s long, and kombu
checks it apart (``health_check_interval``, 25 s), so 30 s is only reached when broken.
"""

PUBLISH_RETRY_POLICY: dict[str, float] = {
    "max_retries": 10,
    "interval_start": 0.2,
    "interval_step": 0.5,
    "interval_max": 1.0,
}
"""How long sending a task waits for Redis: some 9 s (Celery's default gives up after 0.6 s).

A restart takes a few seconds; a referee task that sends the game's next step
meanwhile would otherwise fail, and the game would wait for beat's recovery
(15-30 s). A web request that sends a task while Redis is down waits as long
before it fails.
"""


def bot_endpoint_allow(environ: Mapping[str, str], debug: bool) -> list[str] | bool:
    """Which non-public addresses bot endpoints may use (``botapi.ssrf.AddressPolicy``).

    Unset: loopback while DEBUG is on (the demo and tests run bots on this
    machine), nothing while it is off, so production reaches public addresses
    only. Set: ``none``; ``any`` (every address, for a private network you
    trust); or a comma-separated list of ``loopback`` and networks
    (``loopback,10.1.0.0/16``). A bad network stops the process at start-up
    instead of being ignored.
    """
    value = read(environ, "BOT_ENDPOINT_ALLOW")
    if value is None:
        return ["loopback"] if debug else []
    word = value.strip().lower()
    if word == "none":
        return []
    if word == "any":
        return True
    items = as_list(environ, "BOT_ENDPOINT_ALLOW", default=[])
    for item in items:
        if item == "loopback":
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"BOT_ENDPOINT_ALLOW: {item!r} is neither 'loopback' nor a network "
                "such as 10.0.0.0/8 (or use 'none' / 'any' alone)"
            ) from None
    return items


def trusted_proxies(environ: Mapping[str, str]) -> list[str]:
    """The proxies whose ``X-Forwarded-For`` names the client.

    uvicorn reads the same variable (every command that starts it passes
    ``--forwarded-allow-ips "$TRUSTED_PROXIES"``) and applies it; this checks it
    when Django starts in that process. Unset: none, so a client's address is
    the address it connected from and a header it sends changes nothing. Set: a
    comma-separated list of addresses and networks (``10.0.0.5,172.16.0.0/12``).
    A bad entry stops the process at start-up, where uvicorn would silently
    never match it: that includes a network with host bits set (``10.0.0.5/8``),
    which uvicorn does not accept as a network.
    """
    items = as_list(environ, "TRUSTED_PROXIES", default=[])
    for item in items:
        try:
            ipaddress.ip_network(item)
        except ValueError:
            raise ImproperlyConfigured(
                f"TRUSTED_PROXIES: {item!r} is not an address or network such as 10.0.0.0/8"
            ) from None
    return items


DEFAULT_FROM_EMAIL = "Harbormaster <harbormaster@localhost>"


def email(environ: Mapping[str, str]) -> dict[str, Any]:
    """How mail leaves: SMTP when EMAIL_HOST is set, else printed on the console.

    The console is the default so that a demo or a laptop sends nothing
    anywhere and a password-reset link can be read from the server's output.
    EMAIL_USE_TLS (STARTTLS, port 587 by default) and EMAIL_USE_SSL (port 465)
    exclude each other; asking for both stops the process at start-up.
    """
    host = read(environ, "EMAIL_HOST")
    use_tls = as_bool(environ, "EMAIL_USE_TLS", default=False)
    use_ssl = as_bool(environ, "EMAIL_USE_SSL", default=False)
    if use_tls and use_ssl:
        raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL exclude each other; set one")
    default_port = 465 if use_ssl else 587 if use_tls else 25
    return {
        "BACKEND": (
            "django.core.mail.backends.smtp.EmailBackend"
            if host is not None
            else "django.core.mail.backends.console.EmailBackend"
        ),
        "HOST": host or "localhost",
        "PORT": as_int(environ, "EMAIL_PORT", default=default_port),
        "HOST_USER": read(environ, "EMAIL_HOST_USER") or "",
        "HOST_PASSWORD": read(environ, "EMAIL_HOST_PASSWORD") or "",
        "USE_TLS": use_tls,
        "USE_SSL": use_ssl,
        "FROM": read(environ, "DEFAULT_FROM_EMAIL") or DEFAULT_FROM_EMAIL,
    }
