"""Waking a pull bot's waiting long polls when the referee says it is the bot's turn.

A waiting poll (:mod:`botapi.pullwait`) does not look at the database until
something may have changed for its bot: the referee calls
:func:`notify_turn` when it tells a pull bot that one of its seats is to
move (``botapi.referee.ask_bot``), and every :class:`Waiter` of that bot
wakes up and looks once.

* With ``REDIS_URL`` (servers: the referee runs in Celery workers, the polls
  wait in the ASGI servers) the bot's id is published on one Redis pub/sub
  channel; each server process keeps one subscriber thread
  (:class:`_Subscriber`) that wakes the waiters of its process. A message
  sent while a subscriber was away is lost, so when a subscriber
  (re)connects every waiter of its process wakes and looks; while it is
  disconnected, :func:`wakeups_are_reliable` is False and waiters look on
  their own every :data:`UNRELIABLE_RECHECK_S`.
* Without it (embedded mode: the referee runs on the Celery worker
  threads of the serving process itself) the waiters of this process are
  woken directly.

Waiters are registered before their poll first looks at the database, so a
turn that comes up between that look and the wait still wakes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Iterable

import redis
from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

UNRELIABLE_RECHECK_S = 1.0
"""How often a waiting poll looks by itself while wake-ups cannot be trusted (Redis away)."""
SUBSCRIBE_TIMEOUT_S = 2.0
"""How long the first poll of a process waits for the subscriber to listen (then it is
treated as unreliable until it does)."""
RECONNECT_DELAY_S = 1.0


class Waiter:
    """One waiting poll's alarm, set from any thread, awaited on its own event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.event = asyncio.Event()
        self.bot_id: int | None = None

    async def prepare(self) -> None:
        """Make sure this process listens to Redis (the first poll waits for it, briefly)."""
        if settings.REDIS_URL:
            subscriber, new = _subscriber(settings.REDIS_URL)
            if new:
                await asyncio.to_thread(subscriber.listening.wait, SUBSCRIBE_TIMEOUT_S)

    def listen(self, bot_id: int) -> None:
        """Start hearing ``bot_id``'s turns (call before looking at the database)."""
        self.bot_id = bot_id
        _registry.add(bot_id, self)

    def close(self) -> None:
        if self.bot_id is not None:
            _registry.discard(self.bot_id, self)

    def wake(self) -> None:
        with contextlib.suppress(RuntimeError):  # its loop is gone: nobody waits any more
            self.loop.call_soon_threadsafe(self.event.set)

    async def wait(self, timeout_s: float) -> bool:
        """True when woken within ``timeout_s`` (the alarm is then reset), else False."""
        try:
            await asyncio.wait_for(self.event.wait(), timeout_s)
        except TimeoutError:
            return False
        self.event.clear()
        return True


def wakeups_are_reliable() -> bool:
    """Whether every turn reaches the waiters (False while the Redis subscriber is away)."""
    if not settings.REDIS_URL:
        return True
    return _subscriber(settings.REDIS_URL)[0].listening.is_set()


def notify_turn(bot_id: int) -> None:
    """Wake every waiting poll of ``bot_id`` (call once the turn is committed)."""
    url = settings.REDIS_URL
    if not url:
        _registry.wake(bot_id)
        return
    try:
        _publisher(url).publish(channel_name(), str(bot_id))
    except Exception:  # the waiters' own checks (UNRELIABLE_RECHECK_S) are the fallback
        log.warning("could not publish the turn of pull bot %s", bot_id, exc_info=True)
        _registry.wake(bot_id)


def channel_name() -> str:
    # Pub/sub channels ignore Redis database numbers: the database's name keeps
    # apart the deployments (and test runs) that share one Redis.
    return f"harbormaster:{connections['default'].settings_dict['NAME']}:pull-turns"


# ------------------------------------------------------------ this process
class _Registry:
    """The waiters of this process, by bot (thread-safe)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.waiters: dict[int, set[Waiter]] = {}

    def add(self, bot_id: int, waiter: Waiter) -> None:
        with self.lock:
            self.waiters.setdefault(bot_id, set()).add(waiter)

    def discard(self, bot_id: int, waiter: Waiter) -> None:
        with self.lock:
            waiters = self.waiters.get(bot_id)
            if waiters is not None:
                waiters.discard(waiter)
                if not waiters:
                    del self.waiters[bot_id]

    def wake(self, bot_id: int) -> None:
        with self.lock:
            waiters = list(self.waiters.get(bot_id, ()))
        _wake(waiters)

    def wake_all(self) -> None:
        with self.lock:
            waiters = [w for group in self.waiters.values() for w in group]
        _wake(waiters)


def _wake(waiters: Iterable[Waiter]) -> None:
    for waiter in waiters:
        waiter.wake()


_registry = _Registry()


# ------------------------------------------------------------------- Redis
class _Subscriber:
    """A daemon thread listening to the turns channel for this process's waiters."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.channel = channel_name()
        self.listening = threading.Event()
        threading.Thread(target=self._run, name="pull-turn-subscriber", daemon=True).start()

    def _run(self) -> None:
        while True:
            try:
                self._listen()
            except Exception:
                log.warning("pull turn subscriber lost Redis; reconnecting", exc_info=True)
            finally:
                if self.listening.is_set():
                    self.listening.clear()
                    _registry.wake_all()  # they look by themselves until it is back
            time.sleep(RECONNECT_DELAY_S)

    def _listen(self) -> None:
        # health_check_interval: a PING now and then, so a silently dead
        # connection is noticed within seconds instead of never.
        client = redis.Redis.from_url(
            self.url, socket_connect_timeout=2, socket_timeout=5, health_check_interval=5
        )
        with client.pubsub() as pubsub:
            pubsub.subscribe(self.channel)
            while True:
                message = pubsub.get_message(timeout=1.0)
                if message is None:
                    continue
                if message["type"] == "subscribe":
                    self.listening.set()
                    _registry.wake_all()  # turns published while away were missed
                elif message["type"] == "message":
                    with contextlib.suppress(ValueError):
                        _registry.wake(int(message["data"]))


_subscribers: dict[str, _Subscriber] = {}
_publishers: dict[str, redis.Redis] = {}
_redis_lock = threading.Lock()


def _subscriber(url: str) -> tuple[_Subscriber, bool]:
    """This process's subscriber for ``url``, and whether it was started just now."""
    with _redis_lock:
        subscriber = _subscribers.get(url)
        if subscriber is not None and subscriber.channel == channel_name():
            return subscriber, False
        subscriber = _subscribers[url] = _Subscriber(url)
        return subscriber, True


def _publisher(url: str) -> redis.Redis:
    with _redis_lock:
        client = _publishers.get(url)
        if client is None:
            # Short timeouts: the referee's thread publishes, and must not hang on Redis.
            client = _publishers[url] = redis.Redis.from_url(
                url, socket_timeout=1, socket_connect_timeout=1
            )
        return client
