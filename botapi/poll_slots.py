"""How many long polls one pull bot may keep waiting at once (its token's cap).

A waiting poll costs the server little (no database connection, see
:mod:`botapi.pullwait`), but not nothing: a socket, a task, a thread. A bot
needs one poll at a time, two while a retry overlaps a poll its client gave
up on; :data:`MAX_POLLS_PER_BOT` allows that and refuses the next one (the
pull API answers 429 ``too_many_polls`` with ``Retry-After``).

With ``REDIS_URL`` the polls are counted in Redis, across every server
process: one sorted set per bot whose members are the waiting polls, each
scored with the time it will certainly be over (its wait plus
:data:`MARGIN_S`), so a server that crashed with polls open leaves nothing
locked for longer than that. In the embedded mode (one process) the count is
kept in memory with the same rules.
"""

from __future__ import annotations

import logging
import math
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Protocol

import redis
from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

MAX_POLLS_PER_BOT = 2
"""Long polls one bot may keep waiting at once."""
MARGIN_S = 15.0
"""How long after its wait a poll's place is kept if its server never gave it back."""


class TooManyPolls(Exception):
    """The bot already has :data:`MAX_POLLS_PER_BOT` polls waiting."""

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(
            f"this bot already has {MAX_POLLS_PER_BOT} long polls waiting, the most it may "
            "have at once; poll again when one of them has answered"
        )
        self.retry_after_s = retry_after_s


@dataclass(frozen=True, slots=True)
class Slot:
    """A waiting poll's place; give it back with :func:`release`."""

    bot_id: int
    poll_id: str


class _Store(Protocol):
    def take(self, bot_id: int, poll_id: str, hold_s: float) -> float | None: ...

    def give_back(self, bot_id: int, poll_id: str) -> None: ...


def take(bot_id: int, wait_s: float) -> Slot:
    """A place for a poll of ``bot_id`` that waits up to ``wait_s``; raises TooManyPolls."""
    poll_id = uuid.uuid4().hex
    hold_s = wait_s + MARGIN_S
    try:
        next_free_s = _store().take(bot_id, poll_id, hold_s)
    except redis.RedisError:
        # Redis away: the poll is let through uncounted (it holds no database
        # connection either way) rather than refused for the server's trouble.
        log.warning("could not count the polls of bot %s", bot_id, exc_info=True)
        return Slot(bot_id, poll_id)
    if next_free_s is not None:
        # The oldest poll will have answered by then at the latest.
        retry_after = math.ceil(max(0.0, next_free_s - MARGIN_S))
        raise TooManyPolls(max(1, retry_after))
    return Slot(bot_id, poll_id)


def release(slot: Slot) -> None:
    """Give the place back (best effort: it expires by itself otherwise)."""
    try:
        _store().give_back(slot.bot_id, slot.poll_id)
    except Exception:  # Redis unreachable: the entry expires after its wait + MARGIN_S
        log.warning("could not give back poll %s of bot %s", slot.poll_id, slot.bot_id,
                    exc_info=True)  # fmt: skip


# ------------------------------------------------------------------ stores
_TAKE = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
    local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    return tonumber(oldest[2]) - now_ms
end
local until_ms = now_ms + tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], until_ms, ARGV[3])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], math.max(until_ms, tonumber(last[2])))
return -1
"""


class RedisStore:
    """The count in Redis, shared by every server process (one atomic script per take)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self.script = self.client.register_script(_TAKE)

    def key(self, bot_id: int) -> str:
        # Redis is shared by whatever databases use it (test runs side by side):
        # the database's name keeps their bots apart.
        return f"harbormaster:{connections['default'].settings_dict['NAME']}:pull-polls:{bot_id}"

    def take(self, bot_id: int, poll_id: str, hold_s: float) -> float | None:
        hold_ms = math.ceil(hold_s * 1000)
        left_ms = int(self.script(keys=[self.key(bot_id)],
                                  args=[MAX_POLLS_PER_BOT, hold_ms, poll_id]))  # fmt: skip
        return None if left_ms < 0 else left_ms / 1000

    def give_back(self, bot_id: int, poll_id: str) -> None:
        self.client.zrem(self.key(bot_id), poll_id)


class MemoryStore:
    """The count in this process (embedded mode: there is only one)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.polls: dict[int, dict[str, float]] = {}

    def take(self, bot_id: int, poll_id: str, hold_s: float) -> float | None:
        now = time.monotonic()
        with self.lock:
            held = {p: until for p, until in self.polls.get(bot_id, {}).items() if until > now}
            if len(held) >= MAX_POLLS_PER_BOT:
                self.polls[bot_id] = held
                return min(held.values()) - now
            held[poll_id] = now + hold_s
            self.polls[bot_id] = held
            return None

    def give_back(self, bot_id: int, poll_id: str) -> None:
        with self.lock:
            held = self.polls.get(bot_id, {})
            held.pop(poll_id, None)
            if not held:
                self.polls.pop(bot_id, None)


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
