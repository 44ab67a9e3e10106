"""One BotClient called from many threads, as a referee worker calls bots.

    .venv/bin/python -m bench.bot_client [--threads 24] [--bots 80] [--calls 5000] \\
        [--late-every 5] [--close-delay-ms 0]

Serves a loopback bot (``tests/botapi/servers.py``) under ``--bots`` host
names (each its own origin, as many bots are), and calls it ``--calls`` times
from ``--threads`` threads through one :class:`botapi.client.BotClient`;
every ``--late-every``-th call goes to a bot that answers 300 ms after its
100 ms deadline, the others get 5,000 ms. ``--close-delay-ms`` pauses every
close of a pooled connection first (through httpcore's debug log), as a busy
worker's preempted threads do, which makes a pool shared between threads lose
its race more often (``tests/botapi/test_client_threads.py``).

Prints calls/s, the faults of calls whose bot answered in time (there should
be none), and how many connections the bot accepted per 100 calls (what
keep-alive saves). Not a test.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import os
import threading
import time
from collections import Counter

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harbormaster.settings")
django.setup()

from botapi import protocol  # noqa: E402
from botapi.client import BotClient, CallResult  # noqa: E402
from tests.botapi.servers import MisbehavingServer  # noqa: E402

GAME = protocol.game_info(
    game_id=1, engine="toy_highcard", engine_version="1", num_players=2, options={}, seat=0
)
LEGAL = [{"type": "hold"}, {"type": "raise", "by": 2}]


class CountingServer(MisbehavingServer):
    """The test bot, counting the connections it accepts."""

    def __init__(self) -> None:
        super().__init__()
        self.accepted = 0

    def verify_request(self, request: object, client_address: object) -> bool:
        self.accepted += 1  # the accepting thread only
        return True


class DelayedCloses(logging.Filter):
    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage() == "close.started":
            time.sleep(self.seconds)
        return False


def run(threads: int, bots: int, calls: int, late_every: int) -> None:
    server = CountingServer().start()
    client = BotClient(allow="loopback", resolver=lambda host, port: ["127.0.0.1"])
    port = server.server_address[1]
    numbers = itertools.count()
    results: list[tuple[bool, CallResult]] = []
    lock = threading.Lock()

    def work() -> None:
        while (n := next(numbers)) < calls:
            late = late_every > 0 and n % late_every == 0
            url = f"http://bot-{n % bots}.test:{port}/{'late' if late else 'index'}"
            request = protocol.act_request(
                game=GAME,
                ply=1,
                deadline_ms=100 if late else 5000,
                view={},
                legal_actions=LEGAL,
                events=[],
            )
            result = client.act(url, "bench-secret", request)
            with lock:
                results.append((late, result))

    workers = [threading.Thread(target=work) for _ in range(threads)]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - started
    client.close()
    server.stop()

    in_time = [result for late, result in results if not late]
    faults = Counter(f"{r.fault}: {r.detail}" for r in in_time if not r.ok)
    late_faults = Counter(str(result.fault) for late, result in results if late)
    rate = calls / elapsed
    print(f"{threads} threads, {bots} bots, {calls} calls in {elapsed:.1f} s: {rate:.0f}/s")
    print(f"  calls answered in time: {len(in_time)}, faulted: {sum(faults.values())}")
    for detail, count in faults.most_common(5):
        print(f"    {count} x {detail[:120]}")
    print(f"  late calls: {dict(late_faults)}")
    print(f"  connections accepted per 100 calls: {100 * server.accepted / calls:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=24)
    parser.add_argument("--bots", type=int, default=80)
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--late-every", type=int, default=5)
    parser.add_argument("--close-delay-ms", type=float, default=0.0)
    args = parser.parse_args()
    if args.close_delay_ms > 0:
        logger = logging.getLogger("httpcore.connection")
        logger.setLevel(logging.DEBUG)
        logger.addFilter(DelayedCloses(args.close_delay_ms / 1000))
    run(args.threads, args.bots, args.calls, args.late_every)


if __name__ == "__main__":
    main()
