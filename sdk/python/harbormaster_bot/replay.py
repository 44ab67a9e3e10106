"""The bot's memory of requests it has already taken, so none is taken twice.

A signature proves who sent a request and its timestamp bounds *when*, but
within the timestamp's window (5 minutes either way) an eavesdropper could
send a recorded request again: the bot would think once more, a ``start``
handler would run twice. So the SDK remembers each verified request's
signature until its timestamp is too old to pass, and refuses a second one.

The referee never sends the same bytes twice: every request, a question
asked again after a crash included, has a fresh ``request_id`` and so a
fresh signature. Only verified requests are remembered, so nobody without
the secret can add entries; the memory is still bounded (``capacity``), and
when it is full the oldest entry is forgotten (with a warning) rather than
a genuine request refused: filling it takes more genuine requests than
``capacity`` within the window, and a forgotten one could only be replayed
for the rest of its window.

Standard library only, like the rest of the SDK.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict

log = logging.getLogger("harbormaster.bot")

DEFAULT_CAPACITY = 100_000
"""Requests remembered at most: about 170 a second for the 10 minutes a timestamp
may be accepted (5 minutes late or early), far beyond what a bot is sent, in
under 20 MB."""


class ReplayMemory:
    """Keys (signatures) seen, each until its expiry; thread-safe and bounded."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError("the replay memory needs room for at least one request")
        self.capacity = capacity
        self._expiries: OrderedDict[bytes, float] = OrderedDict()
        self._lock = threading.Lock()
        self.forgotten_early = 0
        """How many entries were dropped before their expiry to make room."""

    def first_time(self, key: bytes, expires_at: float, now: float) -> bool:
        """Remember ``key`` until ``expires_at`` (inclusive); False if it is already remembered.

        Times are :func:`time.time` values, the clock the timestamp check uses.
        """
        with self._lock:
            self._forget_expired(now)
            if key in self._expiries:
                return False
            if len(self._expiries) >= self.capacity:
                self._expiries.popitem(last=False)
                self.forgotten_early += 1
                if self.forgotten_early == 1 or self.forgotten_early % self.capacity == 0:
                    log.warning(
                        "replay memory full (%d requests within the timestamp window): "
                        "forgot the oldest; %d forgotten early so far",
                        self.capacity,
                        self.forgotten_early,
                    )
            self._expiries[key] = expires_at
            return True

    def _forget_expired(self, now: float) -> None:
        """Drop expired entries from the oldest on.

        Entries are in arrival order, which follows their timestamps closely;
        one that expires before an older neighbour is dropped with it, never
        before its own expiry.
        """
        while self._expiries:
            key, expires_at = next(iter(self._expiries.items()))
            if expires_at >= now:  # the timestamp check still passes at expiry itself
                return
            del self._expiries[key]

    def __len__(self) -> int:
        with self._lock:
            return len(self._expiries)
