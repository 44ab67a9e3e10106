"""How many play sockets one client, one address and one game may keep open at once.

An open websocket costs its server process memory and a consumer for as long
as it stays open, and every socket of a game gets each of its frames rebuilt;
nothing else bounds them, so without these limits one client could hoard
sockets until the server stopped serving anyone. A socket takes a place under
each of its keys before it is accepted, and is refused (close code
:data:`REFUSED_CODE`, with a reason the play page shows) if any key is full:

* ``user:<id>`` for a signed-in person, else ``session:<key>`` when the
  browser has a session: :data:`PER_CLIENT` (several tabs, a few games);
* ``address:<ip>`` (the IPv4 address or the IPv6 /64, as the throttles count,
  :func:`common.client_address.throttle_ident`): :data:`PER_ADDRESS`,
  so that clients without a session are bounded too, while people behind
  one NAT still fit;
* ``game:<id>``: :data:`PER_GAME`, spectators included.

Each is a Django setting of the same name prefixed ``PLAY_SOCKETS_``
(``PLAY_SOCKETS_PER_GAME``...), read at each connection.

With ``REDIS_URL`` the places are counted in Redis, across every server
process, as :mod:`botapi.poll_slots` counts polls: one sorted set per key,
whose members are the open sockets, each scored with the time its place
lapses. An open socket renews its places every :data:`RENEW_S`, and a place
lapses :data:`LEASE_S` after its last renewal, so a process that crashed with
sockets open leaves nothing counted for longer than that. In the embedded
mode (one process) the places are kept in memory with the same rules. If
Redis cannot be reached, sockets are let through uncounted rather than
refused for the server's trouble.
"""

from __future__ import annotations

import logging
import math
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any, Protocol

import redis
from django.conf import settings
from django.db import connections

from common.client_address import throttle_ident

log = logging.getLogger(__name__)

PER_CLIENT = 12
"""Sockets one signed-in person, or one browser session, may keep open."""
PER_ADDRESS = 60
"""Sockets one client address may keep open."""
PER_GAME = 500
"""Sockets one game may have open, its seats' and its spectators'."""

LEASE_S = 90.0
"""How long a place outlives its last renewal (a crashed server's sockets lapse after this)."""
RENEW_S = 30.0
"""How often an open socket renews its places."""

REFUSED_CODE = 4429
"""The websocket close code of a socket refused for a full limit (after HTTP's 429)."""

WS_MAX_SIZE = 64 * 1024
"""The largest websocket message uvicorn reads (``--ws-max-size``), in bytes.

uvicorn's default, 16 MiB, is buffered whole before the consumer sees it (and
refuses anything over ``MAX_FRAME_CHARS``, 1024 characters): twenty sockets
sending 15 MB frames held 375 MB of the server's memory. Past this size
uvicorn closes the socket with 1009 as soon as a frame's header announces it.
Every way the site is served passes it: ``demo_serve``, the Dockerfile,
docker-compose and the tests' servers.
"""


@dataclass(frozen=True, slots=True)
class Limit:
    """One key a socket counts under, and how many sockets it may hold."""

    key: str
    most: int
    what: str
    """Who is full, for the refusal's reason: "this game", "your address"..."""


@dataclass(frozen=True, slots=True)
class Places:
    """An accepted socket's places; renew with :func:`renew`, give back with :func:`release`."""

    socket_id: str
    keys: tuple[str, ...]


class TooManySockets(Exception):
    """A limit is full; ``reason`` says which, in a sentence short enough for a close frame."""

    def __init__(self, limit: Limit) -> None:
        self.reason = f"too many open sockets for {limit.what} (at most {limit.most})"
        super().__init__(self.reason)


def setting(name: str, default: int) -> int:
    return int(getattr(settings, f"PLAY_SOCKETS_{name}", default))


def limits_for(scope: dict[str, Any], game_id: int) -> list[Limit]:
    """The limits a socket with this ASGI ``scope`` to game ``game_id`` counts under."""
    limits = [Limit(f"game:{game_id}", setting("PER_GAME", PER_GAME), "this game")]
    limits.append(
        Limit(f"address:{address_of(scope)}", setting("PER_ADDRESS", PER_ADDRESS), "your address")
    )
    user = scope.get("user")
    session = scope.get("session")
    per_client = setting("PER_CLIENT", PER_CLIENT)
    if user is not None and user.is_authenticated:
        limits.append(Limit(f"user:{user.pk}", per_client, "your account"))
    elif session is not None and session.session_key:
        limits.append(Limit(f"session:{session.session_key}", per_client, "this browser"))
    return limits


class _Meta:
    """The part of a request :mod:`common.client_address` reads, from an ASGI scope."""

    def __init__(self, scope: dict[str, Any]) -> None:
        client = scope.get("client") or ("", 0)
        self.META = {"REMOTE_ADDR": client[0] or ""}
        forwarded = [v for k, v in scope.get("headers", []) if k.lower() == b"x-forwarded-for"]
        if forwarded:
            self.META["HTTP_X_FORWARDED_FOR"] = b",".join(forwarded).decode("latin-1")


def address_of(scope: dict[str, Any]) -> str:
    """What the address limit counts per: the throttles' identity of the socket's client."""
    return throttle_ident(_Meta(scope))


def take(limits: list[Limit]) -> Places:
    """A place under every one of ``limits`` for a new socket; raises TooManySockets."""
    socket_id = uuid.uuid4().hex
    keys = tuple(limit.key for limit in limits)
    try:
        full = _store().take(socket_id, [(limit.key, limit.most) for limit in limits])
    except redis.RedisError:
        log.warning("could not count the open sockets of %s", keys, exc_info=True)
        return Places(socket_id, keys)
    if full is not None:
        raise TooManySockets(limits[full])
    return Places(socket_id, keys)


def renew(places: Places) -> None:
    """Keep the places of a socket still open for another :data:`LEASE_S`."""
    try:
        _store().renew(places.socket_id, places.keys)
    except redis.RedisError:
        log.warning("could not renew the places of socket %s", places.socket_id, exc_info=True)


def release(places: Places) -> None:
    """Give the places back (best effort: they lapse by themselves otherwise)."""
    try:
        _store().release(places.socket_id, places.keys)
    except redis.RedisError:
        log.warning("could not give back socket %s", places.socket_id, exc_info=True)


# ------------------------------------------------------------------ stores
class _Store(Protocol):
    def take(self, socket_id: str, limits: list[tuple[str, int]]) -> int | None: ...

    def renew(self, socket_id: str, keys: tuple[str, ...]) -> None:
        """Extend the places the socket still holds (never take one given back)."""

    def release(self, socket_id: str, keys: tuple[str, ...]) -> None: ...


# KEYS: the sorted sets; ARGV: the socket, the lease (ms), then each key's limit.
# Returns the 0-based index of the first full key, or -1 once every place is taken.
_TAKE = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
for i, key in ipairs(KEYS) do
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now_ms)
    if redis.call('ZCARD', key) >= tonumber(ARGV[i + 2]) then
        return i - 1
    end
end
local until_ms = now_ms + tonumber(ARGV[2])
for _, key in ipairs(KEYS) do
    redis.call('ZADD', key, until_ms, ARGV[1])
    redis.call('PEXPIREAT', key, until_ms)
end
return -1
"""

# KEYS: the socket's sorted sets; ARGV: the socket, the lease (ms). XX: a place
# already given back (a renewal racing the socket's close) is not taken again.
_RENEW = """
local now = redis.call('TIME')
local until_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + tonumber(ARGV[2])
for _, key in ipairs(KEYS) do
    if redis.call('ZADD', key, 'XX', 'CH', until_ms, ARGV[1]) == 1 then
        redis.call('PEXPIREAT', key, until_ms)
    end
end
return 0
"""


class RedisStore:
    """The places in Redis, shared by every server process (one atomic script per step)."""

    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self.take_script = self.client.register_script(_TAKE)
        self.renew_script = self.client.register_script(_RENEW)

    def keys(self, keys: Any) -> list[str]:
        # Redis is shared by whatever databases use it (test runs side by side):
        # the database's name keeps their games and users apart.
        name = connections["default"].settings_dict["NAME"]
        return [f"harbormaster:{name}:play-sockets:{key}" for key in keys]

    def take(self, socket_id: str, limits: list[tuple[str, int]]) -> int | None:
        lease_ms = math.ceil(LEASE_S * 1000)
        args = [socket_id, lease_ms, *(most for _, most in limits)]
        full = int(self.take_script(keys=self.keys(key for key, _ in limits), args=args))
        return None if full < 0 else full

    def renew(self, socket_id: str, keys: tuple[str, ...]) -> None:
        self.renew_script(keys=self.keys(keys), args=[socket_id, math.ceil(LEASE_S * 1000)])

    def release(self, socket_id: str, keys: tuple[str, ...]) -> None:
        with self.client.pipeline(transaction=False) as pipe:
            for key in self.keys(keys):
                pipe.zrem(key, socket_id)
            pipe.execute()


class MemoryStore:
    """The places in this process (embedded mode: there is only one)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.held: dict[str, dict[str, float]] = {}

    def take(self, socket_id: str, limits: list[tuple[str, int]]) -> int | None:
        now = time.monotonic()
        with self.lock:
            for index, (key, most) in enumerate(limits):
                live = {s: until for s, until in self.held.get(key, {}).items() if until > now}
                self.held[key] = live
                if len(live) >= most:
                    return index
            for key, _ in limits:
                self.held[key][socket_id] = now + LEASE_S
            return None

    def renew(self, socket_id: str, keys: tuple[str, ...]) -> None:
        until = time.monotonic() + LEASE_S
        with self.lock:
            for key in keys:
                held = self.held.get(key, {})
                if socket_id in held:  # not a place given back meanwhile
                    held[socket_id] = until

    def release(self, socket_id: str, keys: tuple[str, ...]) -> None:
        with self.lock:
            for key in keys:
                held = self.held.get(key, {})
                held.pop(socket_id, None)
                if not held:
                    self.held.pop(key, None)


_stores: dict[str | None, _Store] = {}
_stores_lock = threading.Lock()


def _store() -> _Store:
    """Redis when REDIS_URL is set, else this process's memory (one store per setting)."""
    url = settings.REDIS_URL
    with _stores_lock:
        store = _stores.get(url)
        if store is None:
            store = _stores[url] = RedisStore(url) if url else MemoryStore()
        return store
