"""Where a request of ``bench.mix`` spends its CPU, in-process, by page kind.

The load figures of ``bench.mix`` swing with whatever else the machine runs;
the CPU time of one request in this process swings far less. This runs the
mix's pages through Django's test client (the whole middleware stack, the
cache in Redis, the database of ``bench.mix``) with warm fragments and
prints, per kind, CPU ms per request anonymous and signed in, the cache round
trips and queries per request, then cProfile's top functions over all kinds::

    .venv/bin/python -m bench.mix_profile --database hm_bench_mix --redis redis://127.0.0.1:6379/14

The trivial view of ``bench.pages_urls`` (the one ``bench.mix`` compares with) is the yardstick.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import secrets
import time
from typing import Any


def _setup(server: str, database: str, redis: str) -> None:
    os.environ.update(
        DATABASE_URL=server.rstrip("/") + "/" + database,
        REDIS_URL=redis,
        DEBUG="0",
        ALLOWED_HOSTS="testserver,localhost",
        HTTPS="0",
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="harbormaster.settings",
        SECRET_KEY=os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
    )
    os.environ.pop("REDIS_CACHE_URL", None)
    import django

    django.setup()
    from django.conf import settings

    settings.ROOT_URLCONF = (
        "bench.pages_urls"  # the trivial view beside the site, as bench.mix_asgi
    )
    # No collectstatic here: plain static storage (the manifest's is a dict lookup), as bench.pages.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


class _Counter:
    """Counts the cache round trips of every cache (get, get_many, set...)."""

    def __init__(self) -> None:
        self.calls = 0

    def install(self) -> None:
        from django.conf import settings
        from django.core.cache import caches

        for alias in settings.CACHES:
            self._install(caches[alias])

    def _install(self, real: Any) -> None:
        for name in ("get", "get_many", "set", "set_many", "add", "incr", "delete", "has_key"):
            if hasattr(real, name):
                setattr(real, name, self._wrap(getattr(real, name)))

    def _wrap(self, fn: Any) -> Any:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return fn(*args, **kwargs)

        return counted


def kinds(event: int) -> list[tuple[str, list[str]]]:
    """The mix's kinds (``bench.mix.MIX``) with their paths."""
    from bench.mix import MIX, page_paths
    from games.models import Game

    paths = page_paths(event)
    finished = list(
        Game.objects.filter(status=Game.Status.FINISHED)
        .order_by("-pk")
        .values_list("pk", flat=True)[:40]
    )
    running = paths["live fallback"][:10]
    out: list[tuple[str, list[str]]] = [("trivial view", ["/__bench__/trivial/"])]
    for label, _weight, what in MIX:
        if what.startswith("/"):
            out.append((label, [what]))
        elif what == "live":
            out.append((label, [f"/games/{pk}/" for pk in running]))
        elif what == "games":
            out.append((label, [f"/games/{pk}/" for pk in finished]))
        else:
            out.append((label, paths[what][:20]))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432/")
    parser.add_argument("--database", default="hm_bench_mix")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--profile", default=None, help="write cProfile stats here")
    args = parser.parse_args(argv)
    _setup(args.server, args.database, args.redis)

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from bench.mix_site import VISITOR, event_id

    counter = _Counter()
    counter.install()
    anonymous = Client()
    signed = Client()
    signed.force_login(get_user_model().objects.get(username=f"{VISITOR}-1"))
    page_kinds = kinds(event_id())
    for _label, paths in page_kinds:  # warm every fragment, both ways
        for path in paths:
            for client in (anonymous, signed):
                assert client.get(path).status_code in (200, 301, 302), path
    profile = cProfile.Profile()
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'kind':40} {'anon ms':>8} {'signed ms':>9} {'cache/req':>9} {'sql/req':>8}")
    for label, paths in page_kinds:
        row = []
        for client in (anonymous, signed):
            counter.calls = 0
            with CaptureQueriesContext(connection) as queries:
                began = time.process_time()
                for _ in range(args.rounds):
                    for path in paths:
                        client.get(path)
                spent = time.process_time() - began
            n = args.rounds * len(paths)
            row.append((spent * 1000 / n, counter.calls / n, len(queries.captured_queries) / n))
            profile.enable()  # a separate pass: cProfile itself costs as much as the pages
            for path in paths:
                client.get(path)
            profile.disable()
        (a_ms, a_cache, a_sql), (s_ms, s_cache, s_sql) = row
        print(
            f"{label:40} {a_ms:8.2f} {s_ms:9.2f} "
            f"{a_cache:4.1f}/{s_cache:<4.1f} {a_sql:3.1f}/{s_sql:<3.1f}"
        )
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("cumulative").print_stats(args.top)
    stats.sort_stats("tottime").print_stats(args.top)
    print(out.getvalue())
    if args.profile:
        stats.dump_stats(args.profile)


if __name__ == "__main__":
    main()
