"""The page goal as visitors feel it (issue #30): a realistic mix of pages, served as deployed.

    .venv/bin/python -m bench.mix [--connections 8 64] [--seconds 30] [--workers 2]
        [--live 6] [--think-ms 20] [--repeat 10] [--redis redis://127.0.0.1:6379/14]
        [--server postgres://postgres@127.0.0.1:5432/] [--regenerate]

The database: ``hm_bench_mix_base`` (``bench.mix_site``: ``bench.pages``' 100,000
games and 1,000 competitors, a bot page for each, ten signed-in visitors, an
event of 64 entrants in its fourth round, the background player's bots), made
once; every run works on a fresh copy, ``hm_bench_mix``.

The server: docker-compose's web command, ``uvicorn harbormaster.asgi:application
--workers N`` (its ``WEB_WORKERS``, default 2; its ``--forwarded-allow-ips`` and
the other options too) with DEBUG off, its cache in Redis, beside one
Celery worker started with docker-compose's worker command, while
``bench.mix_player`` keeps ``--live`` rated games between HTTP bots running
(the worker plays them: every finish applies ratings and changes the pages).
The application is ``bench.mix_asgi``: the site plus a trivial view.

The load: ``wrk`` (Debian's package) at each ``--connections``, for
``--seconds``: first the trivial view alone, then the mix, both on the same
server in the same run; a ``--warmup`` of the mix before the first. The mix
(:data:`MIX`; a fifth of the requests signed in as one of the visitors):

* popular pages, three quarters: home, the leaderboards overview, an
  engine's leaderboard (first page, deeper pages, other systems), the lobby,
  the event page of 64 entrants, a game being played now (one of the player's);
* the long tail, a quarter: a finished game's page, drawn from all 100,000
  (nearly always its first view), and a bot's page drawn from all 999.

Printed per connection count: requests/s and latency p50 / p95 of the trivial
view and of the mix, the mix's share of the trivial view's requests/s (goal at
least 1/3) and its p95 over the trivial view's (goal at most 5x), errors (non-2xx
answers, timeouts), and the load average of the machine beside them.

Then, the servers stopped, the first, uncached view of every page kind in
this process through Django's test client (``--repeat`` requests each, the
whole cache emptied before each, a different game or bot each time where the
kind has many): CPU ms p50 and max and the queries (goal: at most 50 ms),
the 256-entrant event's pages among them.

Not a test: nothing asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

PROJECT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
BASE, RUN = "hm_bench_mix_base", "hm_bench_mix"
SIGNED_IN_SHARE = 0.2
ENGINE_SLUGS = ("manila", "batavia", "cargo_noir", "grog_island")

MIX: list[tuple[str, float, str]] = [
    ("home", 14, "/"),
    ("leaderboards overview", 8, "/leaderboards/"),
    ("an engine's leaderboard, first page", 12, "engine boards"),
    ("a deeper or other leaderboard page", 6, "deeper boards"),
    ("the lobby", 8, "/lobby/"),
    ("the event page (64 entrants)", 10, "event"),
    ("a game being played now", 17, "live"),
    ("a finished game, first view", 13, "games"),
    ("a bot's page", 12, "bots"),
]
"""(kind, weight in %, what) of the mix; weights 75 popular, 25 long tail."""


def load_average() -> str:
    """The machine's 1-minute load average (other work on the machine changes every figure)."""
    return f"{os.getloadavg()[0]:.1f}"


# ------------------------------------------------------------------- the load
LUA = r"""
local kinds = %(kinds)s
local sessions = %(sessions)s
local signed_share = %(signed_share)s
local ids_file = "%(ids_file)s"
local total = 0
for _, k in ipairs(kinds) do total = total + k.weight end
local live, live_read = %(live_fallback)s, -1

local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

function init(args)
  math.randomseed(os.time() * 1000 + (tid or 0))
end

local function refresh_live()
  local now = os.time()
  if now == live_read then return end
  live_read = now
  local file = io.open(ids_file, "r")
  if file == nil then return end
  local ids = {}
  for line in file:lines() do ids[#ids + 1] = line end
  file:close()
  if #ids > 0 then live = ids end
end

function request()
  local r = math.random() * total
  local pick = kinds[#kinds]
  for _, k in ipairs(kinds) do
    r = r - k.weight
    if r <= 0 then pick = k break end
  end
  local path
  if pick.live then
    refresh_live()
    path = "/games/" .. live[math.random(#live)] .. "/"
  elseif pick.games then
    path = "/games/" .. math.random(1, pick.games) .. "/"
  else
    path = pick.paths[math.random(#pick.paths)]
  end
  if #sessions > 0 and math.random() < signed_share then
    return wrk.format("GET", path, {["Cookie"] = "sessionid=" .. sessions[math.random(#sessions)]})
  end
  return wrk.format("GET", path)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("FIGURES %%d %%d %%d %%.3f %%.3f %%.3f\n", summary.requests,
    summary.duration, e.status + e.connect + e.read + e.write + e.timeout,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000))
end
"""


def _lua_list(values: list[str]) -> str:
    return "{" + ", ".join(f'"{value}"' for value in values) + "}"


def mix_script(paths: dict[str, list[str]], games: int, sessions: list[str], ids_file: Path) -> str:
    """The mix as wrk's Lua script: weighted kinds, live ids read from ``ids_file``."""
    kinds = []
    for _, weight, what in MIX:
        if what == "live":
            kinds.append(f"{{weight = {weight}, live = true}}")
        elif what == "games":
            kinds.append(f"{{weight = {weight}, games = {games}}}")
        else:
            kinds.append(f"{{weight = {weight}, paths = {_lua_list(paths.get(what, [what]))}}}")
    return LUA % {
        "kinds": "{\n  " + ",\n  ".join(kinds) + "\n}",
        "sessions": _lua_list(sessions),
        "signed_share": SIGNED_IN_SHARE,
        "ids_file": ids_file,
        "live_fallback": _lua_list(paths["live fallback"]),
    }


def trivial_script() -> str:
    return LUA % {
        "kinds": '{{weight = 1, paths = {"/__bench__/trivial/"}}}',
        "sessions": "{}",
        "signed_share": 0,
        "ids_file": "/nonexistent",
        "live_fallback": "{}",
    }


FIGURES = re.compile(r"^FIGURES (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+) ([\d.]+)$", re.M)


def wrk(port: int, connections: int, seconds: int, script: Path) -> dict[str, float]:
    """Requests/s, p50 / p95 / p99 in ms and errors, as ``script``'s ``done`` reports them."""
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "30s",
         "-s", str(script), f"http://127.0.0.1:{port}"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return figures_of(out)


def figures_of(out: str) -> dict[str, float]:
    """What the script's ``done`` printed: requests/s, p50 / p95 / p99 in ms, errors."""
    found = FIGURES.search(out)
    if found is None:
        raise SystemExit(f"wrk printed no figures:\n{out}")
    requests, duration_us, errors = (int(found.group(n)) for n in (1, 2, 3))
    return {
        "rps": requests / (duration_us / 1e6),
        "errors": errors,
        "p50": float(found.group(4)),
        "p95": float(found.group(5)),
        "p99": float(found.group(6)),
    }


# ---------------------------------------------------------------- the servers
def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_environment(database_url: str, redis: str, redis_cache: str | None) -> dict[str, str]:
    """docker-compose's variables for web and worker, pointed at the bench's servers."""
    from django.conf import settings

    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis,
        "DEBUG": "0",
        "SECRET_KEY": settings.SECRET_KEY,  # this process signs the visitors' sessions
        "ALLOWED_HOSTS": "localhost,127.0.0.1",
        "HTTPS": "0",
        "LOG_LEVEL": "WARNING",
        "BOT_ENDPOINT_ALLOW": "loopback",  # the player's bots answer on loopback
        "DJANGO_SETTINGS_MODULE": "harbormaster.settings",
        "PYTHONPATH": str(PROJECT),
    }
    env.pop("REDIS_CACHE_URL", None)
    if redis_cache:
        env["REDIS_CACHE_URL"] = redis_cache
    return env


def start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    with log.open("w") as out:
        return subprocess.Popen(command, cwd=PROJECT, env=env, stdout=out, stderr=subprocess.STDOUT)


def serve(workers: int, env: dict[str, str], log: Path) -> tuple[subprocess.Popen, int]:
    """docker-compose's web command (the bench's application) on a free port, once it answers."""
    port = _free_port()
    server = start(
        [str(BIN / "uvicorn"), "bench.mix_asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--forwarded-allow-ips", env.get("TRUSTED_PROXIES", ""),
         "--lifespan", "off",
         "--ws-max-size", "65536", "--workers", str(workers), "--log-level", "warning"],
        env, log,
    )  # fmt: skip
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=3).status_code == 200:
                return server, port
        except httpx.HTTPError:
            pass
        if server.poll() is not None:
            break
        time.sleep(0.3)
    stop(server)
    raise SystemExit(f"uvicorn did not answer on port {port}:\n{log.read_text()[-3000:]}")


def stop(process: subprocess.Popen, timeout: float = 30) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# ----------------------------------------------------------------- the pages
def page_paths(event: int) -> dict[str, list[str]]:
    """The paths of the mix's kinds that are lists (``MIX``'s third column)."""
    from bench.mix_site import COMPETITORS, bot_path
    from games.models import Game

    deeper = [f"/leaderboards/{slug}/?page={page}" for slug in ENGINE_SLUGS for page in (2, 3, 5)]
    deeper += [f"/leaderboards/{slug}/?system=elo" for slug in ENGINE_SLUGS]
    deeper += [f"/leaderboards/{slug}/?system=openskill" for slug in ENGINE_SLUGS]
    running = Game.objects.filter(status=Game.Status.RUNNING).values_list("pk", flat=True)
    return {
        "engine boards": [f"/leaderboards/{slug}/" for slug in ENGINE_SLUGS],
        "deeper boards": deeper,
        "event": [f"/tournaments/{event}/"],
        "bots": [bot_path(pk) for pk in range(2, COMPETITORS + 1)],
        "live fallback": [str(pk) for pk in running],  # the event's running round
    }


def sessions_of(usernames: list[str]) -> list[str]:
    """A signed-in session for each visitor, as ``login`` stores it; their keys."""
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.cached_db import SessionStore

    keys = []
    for user in get_user_model().objects.filter(username__in=usernames):
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        keys.append(session.session_key)
    return keys


# -------------------------------------------------------- first views' CPU
Kind = tuple[str, Callable[[int], str], str]
"""(label, the path of the i-th request, who: "" or a visitor's username)."""


def first_view_kinds(event: int, big: int) -> list[Kind]:
    """Every page kind of the mix, the many-of-a-kind ones a different one each request.

    Besides, the 256-entrant event's page and the pages its lists link to:
    they must cost what the 64-entrant one's do.
    """
    from bench.mix_site import COMPETITORS, VISITOR, bot_path
    from bench.pages import PERSON
    from games.models import Game

    running = list(Game.objects.filter(status=Game.Status.RUNNING).values_list("pk", flat=True))
    visitor = f"{VISITOR}-1"
    return [
        ("trivial view", lambda i: "/__bench__/trivial/", ""),
        ("home", lambda i: "/", ""),
        ("home, signed in", lambda i: "/", visitor),
        ("leaderboards overview", lambda i: "/leaderboards/", ""),
        ("manila leaderboard p1", lambda i: "/leaderboards/manila/", ""),
        ("manila leaderboard p5", lambda i: "/leaderboards/manila/?page=5", ""),
        ("the lobby", lambda i: "/lobby/", ""),
        ("the lobby, signed in", lambda i: "/lobby/", visitor),
        ("the tournaments list", lambda i: "/tournaments/", ""),
        ("event page, 64 entrants", lambda i: f"/tournaments/{event}/", ""),
        ("event page, 64 entrants, signed in", lambda i: f"/tournaments/{event}/", visitor),
        ("event page, 256 entrants", lambda i: f"/tournaments/{big}/", ""),
        ("its standings, page 2", lambda i: f"/tournaments/{big}/standings/?page=2", ""),
        ("its crosstable, page 2", lambda i: f"/tournaments/{big}/crosstable/?page=2", ""),
        ("its round 6, page 2", lambda i: f"/tournaments/{big}/rounds/6/?page=2", ""),
        ("a game being played", lambda i: f"/games/{running[i % len(running)]}/", ""),
        ("a finished game, first view", lambda i: f"/games/{1 + i * 997 % 100_000}/", ""),
        ("a bot's page, first view", lambda i: bot_path(2 + i * 37 % (COMPETITORS - 1)), ""),
        ("a person's page", lambda i: f"/people/{PERSON}/", ""),
    ]


def empty_cache() -> None:
    """Every key of Django's cache (the pages, fragments, sessions' copies), no other key."""
    from django.core.cache import cache

    delete_pattern = getattr(cache, "delete_pattern", None)
    if delete_pattern is not None:
        delete_pattern("*")  # under the cache's prefix only: the broker's keys stay
    else:
        cache.clear()


def first_views(kinds: list[Kind], repeat: int) -> list[tuple[str, dict[str, Any] | None]]:
    """Per kind: CPU ms of each request with the cache emptied before it; queries of one.

    None for a kind whose page answers 404 (an older version of the site, run
    with this bench, has no such page).
    """
    from django.contrib.auth import get_user_model
    from django.db import close_old_connections, connection
    from django.test import Client

    rows = []
    for label, path_of, who in kinds:
        client = Client()
        if who:
            client.force_login(get_user_model().objects.get(username=who))
        cpu, queries = [], 0
        for i in range(repeat + 1):
            empty_cache()
            seen: list[str] = []

            def counting(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
                seen.append(sql)  # noqa: B023 - used within this iteration only
                return execute(sql, params, many, context)

            began = time.process_time()
            with connection.execute_wrapper(counting):
                response = client.get(path_of(i))
                if response.streaming:
                    b"".join(response.streaming_content)
            close_old_connections()  # as a server's request_finished does
            spent = (time.process_time() - began) * 1000
            if response.status_code == 404 and not i:  # a page this version does not have
                break
            assert response.status_code == 200, (label, path_of(i), response.status_code)
            if i:  # the first request of a kind warms this process (imports, templates)
                cpu.append(spent)
                queries = len(seen)
        if not cpu:
            rows.append((label, None))
            continue
        rows.append((label, {"p50": statistics.median(cpu), "max": max(cpu), "queries": queries}))
    return rows


# ------------------------------------------------------------------- the run
def run_load(args: argparse.Namespace, folder: Path) -> None:
    """Serve the copy, play in the background, load it: the table of throughput and latency."""
    from django.db import connections

    from bench.mix_site import event_id, visitor_names
    from bench.steady import fresh_copy

    connections["default"].close()
    connections["default"].close_pool()  # its connections would hold the copy's source
    fresh_copy(args.server, BASE, args.run_database)
    from bench.pages import _use

    _use(args.server, args.run_database)
    event = event_id()
    sessions = sessions_of(visitor_names())
    empty_cache()
    ids = folder / "live.txt"
    mix = folder / "mix.lua"
    mix.write_text(mix_script(page_paths(event), 100_000, sessions, ids))
    trivial = folder / "trivial.lua"
    trivial.write_text(trivial_script())
    connections["default"].close()
    env = server_environment(
        args.server.rstrip("/") + "/" + args.run_database, args.redis, args.redis_cache
    )
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=PROJECT, env=env, check=True,
    )  # fmt: skip
    server, port = serve(args.workers, env, folder / "web.log")
    worker = start(
        [str(BIN / "celery"), "-A", "harbormaster", "worker", "--queues=referee,celery",
         "--pool=threads", "--concurrency=24", "--loglevel=WARNING"],
        env, folder / "worker.log",
    )  # fmt: skip
    player = start(
        [sys.executable, "-m", "bench.mix_player", "--ids", str(ids), "--live", str(args.live),
         "--think-ms", str(args.think_ms)],
        env, folder / "player.log",
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not ids.exists() and time.monotonic() < deadline:
            time.sleep(0.5)
        print(
            f"\n{args.run_database} (a fresh copy of {BASE}): "
            f"uvicorn --workers {args.workers}, one Celery worker, "
            f"{args.live} games played at once (bots think {args.think_ms:g} ms); "
            f"{args.seconds} s per row after a {args.warmup} s warm-up of the mix"
        )
        if args.warmup:
            wrk(port, min(args.connections), args.warmup, mix)
        print(
            f"{'conns':>5} {'':<8} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}"
            f" {'errors':>6} {'load':>5}"
        )
        for connections_ in args.connections:
            rows = {}
            for name, script in (("trivial", trivial), ("mix", mix)):
                f = rows[name] = wrk(port, connections_, args.seconds, script)
                print(
                    f"{connections_:>5} {name:<8} {f['rps']:>8.1f} {f['p50']:>8.1f}"
                    f" {f['p95']:>8.1f} {f['p99']:>8.1f} {f['errors']:>6} {load_average():>5}",
                    flush=True,
                )
            share = rows["mix"]["rps"] / rows["trivial"]["rps"]
            slower = rows["mix"]["p95"] / rows["trivial"]["p95"]
            print(
                f"{'':>5} the mix: {share:.2f} of the trivial view's requests/s (goal >= 0.33), "
                f"p95 {slower:.1f}x the trivial view's (goal <= 5x)"
            )
    finally:
        stop(player)
        stop(worker)
        stop(server)
    played = [line for line in (folder / "player.log").read_text().splitlines() if "play:" in line]
    print("  " + (played[-1] if played else "the background player printed nothing"))


def run_first_views(args: argparse.Namespace) -> None:
    from bench.mix_site import BIG_EVENT_NAME, event_id

    print(
        f"\nfirst, uncached views on {args.run_database}, "
        f"in this process (Django's test client, the cache emptied before each request), "
        f"{args.repeat} requests each; load {load_average()}"
    )
    print(f"{'page':<38} {'CPU p50':>8} {'CPU max':>8} {'queries':>7}")
    kinds = first_view_kinds(event_id(), event_id(BIG_EVENT_NAME))
    for label, f in first_views(kinds, args.repeat):
        if f is None:
            print(f"{label:<38} {'(no such page: 404)':>25}")
        else:
            print(f"{label:<38} {f['p50']:>8.1f} {f['max']:>8.1f} {f['queries']:>7}")
    print(f"goal: at most 50 ms of CPU for the first view of any page; load {load_average()}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, nargs="+", default=[8, 64])
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2, help="docker-compose's WEB_WORKERS")
    parser.add_argument("--live", type=int, default=6, help="games played at once meanwhile")
    parser.add_argument("--think-ms", type=float, default=20.0, help="the playing bots' think")
    parser.add_argument("--repeat", type=int, default=10, help="first views per page kind")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432/")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--redis-cache", default=None, help="REDIS_CACHE_URL (default: --redis)")
    parser.add_argument("--regenerate", action="store_true")
    parser.add_argument(
        "--run-database", default=RUN, help="the run's copy (give each concurrent run its own)"
    )
    parser.add_argument("--skip-load", action="store_true", help="only the first views")
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None and not args.skip_load:
        raise SystemExit("bench.mix needs wrk: apt-get install -y wrk")
    os.environ["REDIS_URL"] = args.redis  # this process's cache is the server's
    if args.redis_cache:
        os.environ["REDIS_CACHE_URL"] = args.redis_cache
    from bench.mix_site import build

    build(args.server, BASE, args.regenerate)
    with tempfile.TemporaryDirectory(prefix="bench-mix-") as folder:
        if args.skip_load:
            from bench.pages import _use

            _use(args.server, args.run_database)
        else:
            run_load(args, Path(folder))
        run_first_views(args)


if __name__ == "__main__":
    main()
