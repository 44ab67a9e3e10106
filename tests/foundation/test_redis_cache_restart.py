"""The shared Redis cache client of a process outlives a Redis restart (its pool reconnects).

django-redis keeps one pool per process and server for good, so after a
restart every pooled connection is dead: the first operations must reconnect
(redis-py's retries) instead of failing a request each, and the keys the
restart lost are misses, not errors.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django_redis.cache import RedisCache

from harbormaster import env
from tests.foundation.redis_server import RedisServer, own_redis

pytestmark = pytest.mark.redis


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = own_redis(tmp_path)
    yield server
    server.stop()


def test_the_cache_answers_after_a_redis_restart(redis_server: RedisServer) -> None:
    config = env.caches({"REDIS_CACHE_URL": redis_server.url})["default"]
    cache = RedisCache(config["LOCATION"], config)
    cache.set("before", 1)
    assert cache.get("before") == 1
    redis_server.restart(down_seconds=0.5)
    assert cache.get("before") is None  # lost with the restart (no persistence): a miss
    cache.set("after", 2)
    assert cache.get_many(["before", "after"]) == {"after": 2}
