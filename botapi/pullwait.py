"""The long poll of pull mode: waiting for a bot's turn without holding a database connection.

``GET /api/v1/bots/me/turns?wait=…`` may wait up to 30 s. It used to wait in
a request thread that looked at the database every 150 ms, and so held a
PostgreSQL connection the whole time: 20 polls took a server from 5 to 22
connections, about 90 would have exhausted ``max_connections``. Now:

* the request is an async view (``web.api.bots.pull_views.turns_long_poll``);
  its database work runs in short **sections**
  (:func:`db_section`): at most :data:`DB_SECTIONS` at a time per server
  process (waiting for a turn to answer is cheaper than one more
  connection), and each closes its connection when it ends, so a waiting
  poll holds none;
* between sections the poll waits for a wake-up
  (:class:`botapi.turn_signals.Waiter`): the referee signals the bot's turn,
  and the poll looks again (one section) — no periodic queries while
  wake-ups are reliable;
* a bot keeps at most ``poll_slots.MAX_POLLS_PER_BOT`` polls waiting at once
  (:mod:`botapi.poll_slots`); the next one is refused (429 ``too_many_polls``).

What a waiting poll does hold: a socket, a coroutine, and the idle thread
Django's ASGI handler keeps for each request's synchronous sections.
"""

from __future__ import annotations

import asyncio
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.db import connections

from . import poll_slots, pull, turn_signals
from .models import Bot

T = TypeVar("T")

DB_SECTIONS = 3
"""Long-poll database sections running at once per server process (one connection each)."""


# ------------------------------------------------------------ DB sections
_semaphores: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)
_semaphores_lock = threading.Lock()


def _sections_of(loop: asyncio.AbstractEventLoop) -> asyncio.Semaphore:
    with _semaphores_lock:
        semaphore = _semaphores.get(loop)
        if semaphore is None:
            semaphore = _semaphores[loop] = asyncio.Semaphore(DB_SECTIONS)
        return semaphore


async def db_section(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``function(*args, **kwargs)`` in the request's thread, its connection closed after.

    At most :data:`DB_SECTIONS` of these run at once on one event loop (one
    server process). A connection inside a transaction (a test's) is left open.
    """
    async with _sections_of(asyncio.get_running_loop()):
        return await sync_to_async(_closing_connections(function), thread_sensitive=True)(
            *args, **kwargs
        )


def _closing_connections(function: Callable[..., T]) -> Callable[..., T]:
    def run(*args: Any, **kwargs: Any) -> T:
        try:
            return function(*args, **kwargs)
        finally:
            for conn in connections.all(initialized_only=True):
                if not conn.in_atomic_block:
                    conn.close()

    return run


# ---------------------------------------------------------------- the poll
class LongPoll:
    """One ``turns`` request: its wait, its place among the bot's polls, its alarm.

    Made on the event loop by the async view; :meth:`begin` runs in its first
    database section (inside the DRF view), :meth:`wait` on the loop after
    it, :meth:`close` in any case.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.waiter = turn_signals.Waiter(loop)
        self.slot: poll_slots.Slot | None = None
        self.bot: Bot | None = None
        self.give_up_at = 0.0
        self.looked_at: set[tuple[int, int]] = set()

    @property
    def waiting(self) -> bool:
        """Whether :meth:`begin` found nothing and the poll is to wait."""
        return self.slot is not None

    def begin(self, bot: Bot, wait_s: float) -> list[dict[str, Any]]:
        """The bot's turns now. Finding none with time to wait, the poll is set to wait.

        Raises ``pull.PullError``: 409 for a bot that may not pull, 429
        ``too_many_polls`` when the bot has its most polls waiting already.
        """
        pull.check_can_pull(bot)
        wait_s = min(max(0.0, wait_s), pull.MAX_WAIT_SECONDS)
        if wait_s <= 0:
            return pull.pending_turns(bot)
        try:
            slot = poll_slots.take(bot.pk, wait_s)
        except poll_slots.TooManyPolls as refused:
            raise pull.PullError(
                429, "too_many_polls", str(refused), retry_after_s=refused.retry_after_s
            ) from None
        self.slot, self.bot = slot, bot
        self.give_up_at = time.monotonic() + wait_s
        self.waiter.listen(bot.pk)  # before looking: a turn from now on wakes us
        turns = pull.pending_turns(bot, skip=self.looked_at)
        if turns:
            self._stop_waiting()
        return turns

    async def wait(self) -> list[dict[str, Any]]:
        """The turns that came up while waiting, or [] when the wait is over."""
        assert self.bot is not None
        while True:
            left = self.give_up_at - time.monotonic()
            if left <= 0:
                return []
            reliable = turn_signals.wakeups_are_reliable()
            timeout = left if reliable else min(left, turn_signals.UNRELIABLE_RECHECK_S)
            woken = await self.waiter.wait(timeout)
            if not woken and reliable:
                continue  # the wait is over (or wake-ups just became unreliable)
            turns = await db_section(pull.pending_turns, self.bot, skip=self.looked_at)
            if turns:
                return turns

    async def close(self) -> None:
        """Stop listening and give the poll's place back (also when the client left)."""
        self.waiter.close()
        if self.slot is not None:
            slot, self.slot = self.slot, None
            await asyncio.to_thread(poll_slots.release, slot)

    def _stop_waiting(self) -> None:
        self.waiter.close()
        if self.slot is not None:
            slot, self.slot = self.slot, None
            poll_slots.release(slot)
