"""Throughput of the web server as deployed: uvicorn with 1 or more worker processes.

    .venv/bin/python -m bench.web [--workers 1 2] [--connections 8 32] [--seconds 20]

Serves ``bench.pages``' 100,000-game database (``hm_bench_pages``, generated
by ``bench.pages`` first) with the command docker-compose's web service runs,
``uvicorn harbormaster.asgi:application --workers N``, the page cache in Redis
(``--redis``, emptied first) as every server deployment has it, and loads it
with ``wrk`` (Debian's ``wrk`` package; the bench says so when it is missing)
from a mix of requests: 60% pages many people view (home, the leaderboards,
the games list: mostly page-cache hits) and 40% a random finished game's
page, nearly always a first view, so rendered. Prints requests/s, latency
p50 / p90 / p99 and errors per (workers, connections).

Why: one uvicorn process runs Python on one core at a time (the GIL), so the
web service's ``--workers`` (``WEB_WORKERS`` in docker-compose.yml) is what
lets a machine's other cores serve pages; and each process has its own
connection pool (``env.DATABASE_POOL``, at most 8), which the larger
connection counts make it wait for.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import redis

PROJECT = Path(__file__).resolve().parent.parent
MIX = """
math.randomseed(os.time())
local hot = {"/", "/leaderboards/", "/leaderboards/manila/", "/leaderboards/batavia/",
             "/leaderboards/manila/?page=2", "/games/"}
request = function()
  if math.random() < 0.6 then
    return wrk.format("GET", hot[math.random(#hot)])
  end
  return wrk.format("GET", "/games/" .. math.random(1, %(games)d) .. "/")
end
"""
FIGURES = {
    "rps": re.compile(r"Requests/sec:\s+([\d.]+)"),
    "p50": re.compile(r"^\s+50%\s+([\d.]+)(us|ms|s)", re.M),
    "p90": re.compile(r"^\s+90%\s+([\d.]+)(us|ms|s)", re.M),
    "p99": re.compile(r"^\s+99%\s+([\d.]+)(us|ms|s)", re.M),
}
SCALE = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _environment(database: str, redis: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database,
        "REDIS_URL": redis,
        "DEBUG": "false",
        "SECRET_KEY": "bench-web-not-a-secret",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "harbormaster.settings",
    }


def _serve(workers: int, port: int, env: dict[str, str]) -> subprocess.Popen:
    """docker-compose's web command, with ``workers`` processes, on ``port``."""
    command = [
        str(Path(sys.executable).parent / "uvicorn"), "harbormaster.asgi:application",
        "--host", "127.0.0.1", "--port", str(port),
        "--forwarded-allow-ips", env.get("TRUSTED_PROXIES", ""),
        "--lifespan", "off", "--workers", str(workers), "--log-level", "warning",
    ]  # fmt: skip
    server = subprocess.Popen(command, cwd=PROJECT, env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.3)
    server.kill()
    raise SystemExit(f"uvicorn did not answer on port {port}: {server.stderr.read()[-2000:]}")


def _load(port: int, connections: int, seconds: int, script: Path) -> dict[str, float]:
    """``wrk``'s figures for the mix at ``connections`` open connections."""
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", str(script),
         f"http://127.0.0.1:{port}"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return figures_of(out)


def figures_of(out: str) -> dict[str, float]:
    """Requests/s, latency percentiles in ms and error counts from ``wrk --latency``'s output."""
    figures: dict[str, float] = {}
    for name, pattern in FIGURES.items():
        found = pattern.search(out)
        if found is None:
            raise SystemExit(f"wrk printed no {name}:\n{out}")
        value = float(found.group(1))
        figures[name] = value if name == "rps" else value * SCALE[found.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    figures["errors"] = float(errors.group(1)) if errors else 0.0
    figures["socket_errors"] = 1.0 if "Socket errors:" in out else 0.0
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--connections", type=int, nargs="+", default=[8, 32])
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432/")
    parser.add_argument("--database", default="hm_bench_pages")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--games", type=int, default=100_000, help="game ids drawn from 1..N")
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        raise SystemExit("bench.web needs wrk: apt-get install -y wrk")
    env = _environment(args.server.rstrip("/") + "/" + args.database, args.redis)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=PROJECT, env=env, check=True,
    )  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "mix.lua"
        script.write_text(MIX % {"games": args.games})
        print(f"{args.database}, page cache in {args.redis}, {args.seconds} s per row")
        print(f"{'workers':>7} {'conns':>5} {'req/s':>8} {'p50 ms':>8} {'p90 ms':>8} "
              f"{'p99 ms':>8} {'errors':>6}")  # fmt: skip
        for workers in args.workers:
            port = _free_port()
            redis.Redis.from_url(args.redis).flushdb()  # every run starts from no stored page
            server = _serve(workers, port, env)
            try:
                for connections in args.connections:
                    f = _load(port, connections, args.seconds, script)
                    print(f"{workers:>7} {connections:>5} {f['rps']:>8.1f} {f['p50']:>8.1f} "
                          f"{f['p90']:>8.1f} {f['p99']:>8.1f} {int(f['errors']):>6}"
                          + (" (socket errors)" if f["socket_errors"] else ""))  # fmt: skip
            finally:
                server.terminate()
                server.wait(timeout=30)


if __name__ == "__main__":
    main()
