"""The Redis servers of docker-compose.yml: a bounded memory each, and an eviction policy
that never drops a queued task or a socket's group, while the cache's keys may go.

Databases of one Redis share its memory and its one policy, so the cache that
may lose keys (``allkeys-lru``) has a server of its own (``REDIS_CACHE_URL``);
the broker and channel layer's server refuses writes when full (``noeviction``).
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from harbormaster import env
from tests.foundation.test_compose import APP_SERVICES, SERVICES


def redis_options(service: str) -> dict[str, str]:
    """The ``--name value`` options of a redis-server command."""
    command = SERVICES[service]["command"]
    assert command[0] == "redis-server"
    return dict(zip(command[1::2], command[2::2], strict=True))


def test_broker_redis_is_bounded_and_never_evicts() -> None:
    options = redis_options("redis")
    assert options["--maxmemory"].endswith("mb") and int(options["--maxmemory"][:-2]) > 0
    assert options["--maxmemory-policy"] == "noeviction"


def test_cache_redis_is_bounded_and_evicts_least_recently_used_keys() -> None:
    options = redis_options("redis-cache")
    assert options["--maxmemory"].endswith("mb") and int(options["--maxmemory"][:-2]) > 0
    assert options["--maxmemory-policy"] == "allkeys-lru"
    assert "redis-cli" in " ".join(SERVICES["redis-cache"]["healthcheck"]["test"])


@pytest.mark.parametrize("name", APP_SERVICES)
def test_the_app_caches_on_the_cache_redis_and_queues_on_the_other(name: str) -> None:
    service = SERVICES[name]
    environment = service["environment"]
    assert urlsplit(environment["REDIS_URL"]).hostname == "redis"
    assert urlsplit(environment["REDIS_CACHE_URL"]).hostname == "redis-cache"
    assert service["depends_on"]["redis-cache"]["condition"] == "service_healthy"
    cache = env.caches(environment)["default"]
    assert cache["LOCATION"] == environment["REDIS_CACHE_URL"]
    assert env.celery(environment)["BROKER_URL"] == environment["REDIS_URL"]
