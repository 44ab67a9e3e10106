"""The recompute measurement of ``bench.ratings``: the synthetic log through the database.

Inserts the log once as real finished games (seats, outcomes; not timed), then
times ``ratings.services.recompute.recompute_scope`` per system, wall-clock: loading the
games, rating them and bulk-writing every rating and change.

By default it runs on a throw-away SQLite file so it never touches your data.
To measure PostgreSQL (the bulk path there is COPY) give it a database of its
own, which is created if missing and emptied of games, ratings and
competitors first::

    .venv/bin/python -m bench.ratings --games 20000 \
        --database-url postgres://postgres@127.0.0.1:5432/hm_bench_ratings
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

_ready_for: int | None = None
_scope: Any = None
last_cpu_seconds = 0.0
"""This process's CPU seconds in the last recompute (the database server's are not in it)."""


def configure(database_url: str | None) -> None:
    """Point Django at the bench database and create the tables; call before measuring."""
    if database_url is None:
        folder = tempfile.mkdtemp(prefix="harbormaster-bench-")
        database_url = f"sqlite:///{os.path.join(folder, 'bench.sqlite3')}"
    elif database_url.startswith(("postgres://", "postgresql://")):
        _create_database(database_url)
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harbormaster.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


def _create_database(url: str) -> None:
    """CREATE DATABASE for a PostgreSQL URL whose database does not exist yet."""
    from urllib.parse import urlsplit, urlunsplit

    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    maintenance = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _insert(log: Sequence[Any]) -> Any:
    """Write the log as finished rated manila games; return the manila global scope."""
    from django.db import transaction

    from games.models import Competitor, Game, Outcome, Seat
    from ratings.models import Rating, RatingChange
    from ratings.services.scopes import global_scope

    with transaction.atomic():
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        Seat.objects.all().delete()
        Outcome.objects.all().delete()
        Game.objects.all().delete()
        Competitor.objects.all().delete()
        pool = max(seat for game in log for seat in game.seats) + 1
        people = Competitor.objects.bulk_create(
            [Competitor(kind="bot", name=f"bench{i}") for i in range(pool)]
        )
        start = datetime(2026, 1, 1, tzinfo=UTC)
        games = Game.objects.bulk_create(
            [
                Game(
                    engine="manila",
                    engine_version="1",
                    num_players=len(g.seats),
                    seed=str(i),
                    seed_commitment="-",
                    status="finished",
                    rated=True,
                    finished_at=start + timedelta(seconds=i),
                )
                for i, g in enumerate(log)
            ],
            batch_size=5000,
        )
        Seat.objects.bulk_create(
            [
                Seat(game=game, position=p, competitor=people[c])
                for game, g in zip(games, log, strict=True)
                for p, c in enumerate(g.seats)
            ],
            batch_size=5000,
        )
        Outcome.objects.bulk_create(
            [
                Outcome(game=game, scores=[0] * len(g.ranks), ranks=list(g.ranks))
                for game, g in zip(games, log, strict=True)
            ],
            batch_size=5000,
        )
    return global_scope("manila")


def _settle() -> None:
    """VACUUM ANALYZE what a recompute churns (PostgreSQL; untimed).

    A recompute deletes and rewrites every change row of the system, which
    can wake PostgreSQL's autovacuum during the next measurement (the pure
    math, then the package). Vacuuming here makes every measurement start
    from the same, settled database, as a production table is. (It did not
    explain pure reading 10-15% slower than package in the bench's fixed
    order: timed alternately they are equal, see docs/architecture.md.)
    """
    from django.db import connection

    from games.models import Game, Outcome, Seat
    from ratings.models import Rating, RatingChange

    if connection.vendor != "postgresql":
        return
    tables = (m._meta.db_table for m in (RatingChange, Rating, Game, Seat, Outcome))
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM ANALYZE {', '.join(map(connection.ops.quote_name, tables))}")


def measure_recompute(system: Any, log: Sequence[Any]) -> Any:
    """Wall-clock seconds of ``recompute_scope`` for one system over the whole log."""
    global _ready_for, _scope
    from bench.ratings import Measurement
    from ratings.models import Rating
    from ratings.services.recompute import recompute_scope

    if _ready_for != id(log):
        _scope = _insert(log)
        _ready_for = id(log)
        _settle()
    start, cpu = time.perf_counter(), time.process_time()
    recompute_scope(_scope, [system.name])
    seconds = time.perf_counter() - start
    global last_cpu_seconds
    last_cpu_seconds = time.process_time() - cpu
    _settle()
    final = {}
    for competitor, value, sigma in Rating.objects.filter(
        scope=_scope, system=system.name
    ).values_list("competitor__name", "value", "sigma"):
        seat = int(competitor.removeprefix("bench"))
        final[seat] = value if sigma is None else (value, sigma)
    return Measurement(seconds, final, seconds, last_cpu_seconds)
