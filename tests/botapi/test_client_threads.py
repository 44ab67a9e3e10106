"""Many threads calling bots through one client: no call is charged for another's socket.

A referee worker's 24 threads share one :class:`BotClient`. When they shared
one connection pool, httpcore's bookkeeping, run by whichever thread started
or finished a request, closed idle connections above its keep-alive limit,
including one just handed to another thread's call that had not started on it
yet: that call then sent and read on a closed socket and was charged a
``connection_error`` ("ReadError: [Errno 9] Bad file descriptor") or, blocked
in ``poll()``, a ``timeout`` (httpcore issue #1110). These tests hammer real
loopback bots from many threads, with deadlines expiring around them, the way
a busy worker does, and require that every bot that answered in time is
judged on its answer, and that no socket is ever used by two threads.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from botapi import protocol, ssrf
from botapi.client import BotClient, CallResult, Fault
from tests.botapi.servers import MisbehavingServer

SECRET = "threads-test-secret"
LEGAL = [{"type": "hold"}, {"type": "raise", "by": 2}]
GAME = protocol.game_info(
    game_id=5, engine="toy_highcard", engine_version="1", num_players=2, options={}, seat=0
)
THREADS = 32
BOTS = 80
"""Host names of bots, all on the loopback server: more than one pool keeps alive
(50 in the old shared pool), so the pool keeps closing idle connections."""
CALLS = 1000
IN_TIME_MS = 5000
LATE_MS = 100
"""The deadline of every fifth call, whose bot answers 300 ms late."""
CLOSE_DELAY_S = 0.005
"""How long each close by the pool waits first: a busy worker's threads are
preempted at such points, and the wait widens the race the old pool lost."""


def act_request(deadline_ms: int) -> dict:
    return protocol.act_request(
        game=GAME, ply=2, deadline_ms=deadline_ms, view={}, legal_actions=LEGAL, events=[]
    )


@pytest.fixture(scope="module")
def server() -> Iterator[MisbehavingServer]:
    running = MisbehavingServer().start()
    yield running
    running.stop()


@pytest.fixture
def client() -> Iterator[BotClient]:
    bot_client = BotClient(allow="loopback", resolver=lambda host, port: ["127.0.0.1"])
    yield bot_client
    bot_client.close()


class _SlowCloses(logging.Filter):
    """Pauses each close of a pooled connection (httpcore logs "close.started" first)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage() == "close.started":
            time.sleep(CLOSE_DELAY_S)
        return False


@pytest.fixture
def slow_closes() -> Iterator[None]:
    logger = logging.getLogger("httpcore.connection")
    level, closes = logger.level, _SlowCloses()
    logger.setLevel(logging.DEBUG)
    logger.addFilter(closes)
    yield
    logger.removeFilter(closes)
    logger.setLevel(level)


class _SocketUsers:
    """Which threads read, wrote or closed each connection's stream."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.threads: dict[int, set[int]] = {}
        self._streams: list[ssrf._DeadlineStream] = []  # alive, so no id() is reused
        self._lock = threading.Lock()
        for name in ("read", "write", "close"):
            monkeypatch.setattr(ssrf._DeadlineStream, name, self._tracked(name))

    def _tracked(self, name: str) -> Callable[..., object]:
        original = getattr(ssrf._DeadlineStream, name)
        users = self

        def method(stream: ssrf._DeadlineStream, *args: object, **kwargs: object) -> object:
            with users._lock:
                if id(stream) not in users.threads:
                    users._streams.append(stream)
                users.threads.setdefault(id(stream), set()).add(threading.get_ident())
            return original(stream, *args, **kwargs)

        return method

    def shared(self) -> int:
        with self._lock:
            return sum(len(threads) > 1 for threads in self.threads.values())


def _hammer(server: MisbehavingServer, client: BotClient) -> list[tuple[bool, CallResult]]:
    """CALLS calls from THREADS threads, round the BOTS names; every fifth is answered late."""
    numbers = itertools.count()
    results: list[tuple[bool, CallResult]] = []
    lock = threading.Lock()
    port = server.server_address[1]

    def work() -> None:
        while (n := next(numbers)) < CALLS:
            late = n % 5 == 0
            url = f"http://bot-{n % BOTS}.test:{port}/{'late' if late else 'index'}"
            result = client.act(url, SECRET, act_request(LATE_MS if late else IN_TIME_MS))
            with lock:
                results.append((late, result))

    threads = [threading.Thread(target=work) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.slow
@pytest.mark.usefixtures("slow_closes")
def test_no_call_is_charged_for_another_calls_connection(
    server: MisbehavingServer, client: BotClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sockets = _SocketUsers(monkeypatch)
    results = _hammer(server, client)
    assert len(results) == CALLS
    in_time = [result for late, result in results if not late]
    faults = [f"{r.fault}: {r.detail} ({r.latency_ms:.0f} ms)" for r in in_time if not r.ok]
    assert faults == [], f"{len(faults)} of {len(in_time)} bots that answered in time faulted"
    late = [result for is_late, result in results if is_late]
    assert {result.fault for result in late} == {Fault.TIMEOUT}
    assert sockets.threads, "the calls went through the guarded streams"
    assert sockets.shared() == 0, (
        f"{sockets.shared()} of {len(sockets.threads)} sockets were used by two threads"
    )
