"""The referee end to end: real Celery workers, PostgreSQL, Redis and HTTP bots on loopback.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/harbormaster \\
    REDIS_URL=redis://127.0.0.1:6379/1 \\
    .venv/bin/python -m bench.referee [--games 40] [--engine manila] [--workers 2] \\
        [--pool threads] [--concurrency 16] [--think-ms 0] [--debug]

Creates a throwaway database (``<name>_bench_<pid>``, dropped at the end),
serves random example bots over loopback HTTP in this process (each timing
its own ``act``), starts ``celery -A harbormaster worker`` subprocesses on
queues of their own (``tests/tournaments/workers.py``), then:

1. latency: games one after another, so each move has the referee to itself;
   per move, wall time (game start to finish / moves) minus the bots' think
   time is the referee's overhead: Celery hop, database, HTTP, engine;
2. throughput: ``--games`` games at once; games/s and bot moves/s;
3. the workers' CPU time per bot move in both, which a busy machine swings
   far less than the wall clock;
4. the bare loopback HTTP round trip: every ``act`` request of the sequential
   games, rebuilt from their move logs, sent again in the same order to the
   same bots through the same client the referee uses, minus think time; from
   a separate process (as the workers call the bots: the ratio the target is
   judged on) and from this process (which serves the bots). The overhead per
   move is a mean (wall / moves), so the ratio uses the bare mean; the median
   is printed beside it.

Prints the figures and the two targets (overhead <= 3x the bare round trip,
>= 200 bot moves/s with 2 workers). Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harbormaster.settings")
django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from harbormaster_bot import serve_in_background  # noqa: E402
from harbormaster_bot.examples.random_bot import RandomBot  # noqa: E402

import engines  # noqa: E402
from botapi import protocol  # noqa: E402
from botapi.client import default_client  # noqa: E402

SECRET = "hms_bench-referee-secret"


class TimedBot:
    """A random bot that adds up the time its ``act`` takes, per game."""

    def __init__(self, seed: int, think_ms: float) -> None:
        self.inner = RandomBot(seed)
        self.think_s = think_ms / 1000
        self.spent: dict[int, float] = defaultdict(float)
        self.calls = 0
        self._lock = threading.Lock()

    def act(self, turn) -> int:
        started = time.perf_counter()
        if self.think_s:
            time.sleep(self.think_s)
        choice = self.inner.act(turn)
        with self._lock:
            self.spent[turn.game["id"]] += time.perf_counter() - started
            self.calls += 1
        return choice


def make_bots(slug: str, count: int, think_ms: float):
    from tests.factories import BotFactory

    servers, bots, handlers = [], [], []
    for i in range(count):
        handler = TimedBot(i, think_ms)
        server = serve_in_background(handler, secret=SECRET, name=f"bench{i}")
        bot = BotFactory(endpoint_url=server.url, signing_secret=SECRET, engines=[slug])
        servers.append(server)
        bots.append(bot)
        handlers.append(handler)
    return servers, bots, handlers


def wait_finished(game_ids: list[int], limit_s: float) -> None:
    from games.models import Game

    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        running = Game.objects.filter(pk__in=game_ids, status=Game.Status.RUNNING).count()
        if not running:
            return
        time.sleep(0.02)
    raise SystemExit(f"games still running after {limit_s} s; see the worker logs")


Exchange = tuple[str, dict]
"""One ``act`` request as a game sent it: the bot's URL and the request."""


def game_exchanges(game_ids: list[int]) -> list[Exchange]:
    """The ``act`` requests of the games' bot moves, rebuilt from their logs, in order.

    Each is what the referee sent (view, legal actions, the events since the
    seat's last request), with ``game`` id -1 so the bots time it apart.
    """
    from games.models import Game, Move

    exchanges = []
    for game in Game.objects.filter(pk__in=game_ids).order_by("pk"):
        urls = {
            seat.position: seat.competitor.bot.endpoint_url
            for seat in game.seats.select_related("competitor__bot")
        }
        state = engines.get(game.engine).new_game(game.num_players, game.options)
        events_sent: dict[int, int] = defaultdict(int)
        for move in game.moves.order_by("ply"):
            if move.source == Move.Source.BOT:
                request = protocol.act_request_for_state(
                    state, game_id=-1, seat=move.seat, ply=move.ply, deadline_ms=5000,
                    events=state.events[events_sent[move.seat]:],
                )  # fmt: skip
                events_sent[move.seat] = len(state.events)
                exchanges.append((urls[move.seat], request))
            state.apply(move.seat, move.action)
    return exchanges


def replay_exchanges(exchanges: list[Exchange]) -> list[float]:
    """Send each request bare, through the referee's own client; the round trips in ms."""
    client = default_client(["loopback"])
    samples = []
    for url, request in exchanges:
        result = client.act(url, SECRET, request)
        assert result.ok, result.detail
        samples.append(result.latency_ms)
    return samples


def think_ms_since(handlers: list[TimedBot], before: list[float]) -> float:
    """The bots' think time on bare requests (game id -1) since ``before``, in ms."""
    return sum(h.spent[-1] - b for h, b in zip(handlers, before, strict=True)) * 1000


def bare_round_trips(exchanges: list[Exchange], handlers: list[TimedBot]) -> tuple[float, float]:
    """Mean and median bare round trip from this process (the bots'), minus think time."""
    before = [h.spent[-1] for h in handlers]
    samples = replay_exchanges(exchanges)
    think = think_ms_since(handlers, before) / len(samples)
    return statistics.fmean(samples) - think, statistics.median(samples) - think


def bare_round_trips_from_another_process(
    exchanges: list[Exchange], handlers: list[TimedBot]
) -> tuple[float, float]:
    """The same, measured by a child process (``--bare-from FILE``), as the workers call."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(exchanges, file)
    before = [h.spent[-1] for h in handlers]
    command = [sys.executable, "-m", "bench.referee", "--bare-from", file.name]
    try:
        output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(file.name)
    mean, median = (float(x) for x in output.split()[-2:])
    think = think_ms_since(handlers, before) / len(exchanges)
    return mean - think, median - think


def cpu_seconds(pids: list[int]) -> float:
    """CPU seconds (user and system, all threads) the processes have used so far (Linux)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime, in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


def play(slug: str, players: int, bots, count: int, limit_s: float, *, one_by_one=False):
    """Create ``count`` games (all at once, or each after the previous finished); their ids."""
    from games.services import create_game

    ids = []
    for i in range(count):
        seats = [bots[(i + k) % len(bots)].competitor for k in range(players)]
        game = create_game(slug, seats, rated=True, move_time_ms=5000, enforce_capacity=False)
        ids.append(game.pk)
        if one_by_one:
            wait_finished(ids[-1:], limit_s)
    wait_finished(ids, limit_s)
    return ids


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="manila")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=40, help="games played at once (throughput)")
    parser.add_argument("--sequential", type=int, default=15, help="games one by one (latency)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pool", default="threads", help="threads, gevent, prefork, solo")
    parser.add_argument("--concurrency", type=int, default=16, help="per worker")
    parser.add_argument("--think-ms", type=float, default=0.0, help="each bot's think time")
    parser.add_argument(
        "--debug",
        action="store_true",
        help="run the workers with DEBUG on (Django then logs every query); off by default, "
        "as in production",
    )
    parser.add_argument("--bare-from", help=argparse.SUPPRESS)  # the child process's job
    args = parser.parse_args(argv)
    if args.bare_from:
        settings.BOT_ENDPOINT_ALLOW = ["loopback"]
        with open(args.bare_from) as file:
            samples = replay_exchanges([(url, request) for url, request in json.load(file)])
        print(statistics.fmean(samples), statistics.median(samples))
        return
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        raise SystemExit("needs DATABASE_URL=postgres://... and REDIS_URL (see the docstring)")
    settings.BOT_ENDPOINT_ALLOW = ["loopback"]

    test_name = f"{connection.settings_dict['NAME']}_bench_{os.getpid()}"
    connection.settings_dict.setdefault("TEST", {})["NAME"] = test_name
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        run(args)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(args: argparse.Namespace) -> None:
    from games.models import Game, Move
    from tests.tournaments.workers import worker_farm

    slug, players = args.engine, args.players
    if not args.debug:  # the workers' settings, read from the environment they inherit
        os.environ["DEBUG"] = "false"
        os.environ.setdefault("SECRET_KEY", "bench-referee-" + os.urandom(16).hex())
    servers, bots, handlers = make_bots(slug, players, args.think_ms)
    logs = Path(tempfile.mkdtemp(prefix="bench-referee-"))
    try:
        with worker_farm(logs) as farm:
            for _ in range(args.workers):
                farm.start(pool=args.pool, concurrency=args.concurrency)
            play(slug, players, bots, 1, 120)  # warm-up: workers started, caches filled
            pids = [worker.process.pid for worker in farm.workers]

            cpu_started = cpu_seconds(pids)
            sequential = play(slug, players, bots, args.sequential, 300, one_by_one=True)
            sequential_cpu = cpu_seconds(pids) - cpu_started
            wall = plies = think = bot_moves = http = 0.0
            for game in Game.objects.filter(pk__in=sequential):
                wall += (game.finished_at - game.started_at).total_seconds()
                plies += game.next_ply
                bot_moves += game.moves.filter(source=Move.Source.BOT).count()
                timed = game.moves.exclude(latency_ms=None).values_list("latency_ms", flat=True)
                http += sum(timed)
                think += sum(h.spent[game.pk] for h in handlers)
            per_ply_ms = (wall - think) / plies * 1000
            per_bot_move_ms = (wall - think) / bot_moves * 1000

            started, cpu_started = time.perf_counter(), cpu_seconds(pids)
            batch = play(slug, players, bots, args.games, 600)
            elapsed = time.perf_counter() - started
            batch_cpu = cpu_seconds(pids) - cpu_started
            batch_moves = Move.objects.filter(game_id__in=batch, source=Move.Source.BOT).count()
            batch_plies = Move.objects.filter(game_id__in=batch).count()
        exchanges = game_exchanges(sequential)
        bare, bare_median = bare_round_trips(exchanges, handlers)
        bare_apart, bare_apart_median = bare_round_trips_from_another_process(exchanges, handlers)
    finally:
        for server in servers:
            server.stop()

    print(f"referee bench: {slug}, {players} players, {args.workers} workers "
          f"x {args.concurrency} ({args.pool}), bots think {args.think_ms} ms, "
          f"workers' DEBUG {'on' if args.debug else 'off'}")  # fmt: skip
    print(f"  throughput: {args.games} games at once in {elapsed:.2f} s: "
          f"{args.games / elapsed:.2f} games/s, {batch_moves / elapsed:.0f} bot moves/s, "
          f"{batch_plies / elapsed:.0f} plies/s (chance included)")  # fmt: skip
    print(f"  latency: {args.sequential} games one by one, {plies:.0f} plies "
          f"({bot_moves:.0f} bot moves): overhead per ply {per_ply_ms:.2f} ms, "
          f"per bot move {per_bot_move_ms:.2f} ms (wall minus think)")  # fmt: skip
    print(f"           of which the HTTP call as the worker timed it: {http / bot_moves:.2f} ms")
    print(f"  bare loopback round trip, the same {len(exchanges)} requests to the same bots "
          f"through the same client, minus think, mean (median): {bare_apart:.2f} "
          f"({bare_apart_median:.2f}) ms from another process, as the workers call; "
          f"{bare:.2f} ({bare_median:.2f}) ms from the bots' own process")  # fmt: skip
    print(
        f"  overhead per bot move / bare round trip (means): {per_bot_move_ms / bare_apart:.1f}x "
        f"against another process's (target <= 3x); {per_bot_move_ms / bare:.1f}x against "
        "the bots' process's"
    )
    print(f"  workers' CPU per bot move: {sequential_cpu / bot_moves * 1000:.2f} ms one by one, "
          f"{batch_cpu / batch_moves * 1000:.2f} ms at once (all their threads; not the "
          "database's, nor prefork's children)")  # fmt: skip
    print(f"  bot moves/s: {batch_moves / elapsed:.0f} (target >= 200 with 2 workers)")
    print(f"  worker logs: {logs}")


if __name__ == "__main__":
    main()
