"""Page-scale bench: what the public pages cost as the data grows (issue #17).

    .venv/bin/python -m bench.pages [--repeat 40] [--regenerate] [--suffix _mine]
        [--server postgres://postgres@127.0.0.1:5432/]

Generates, once, two PostgreSQL databases by bulk inserts — ``hm_bench_pages``
(100,000 finished games) and ``hm_bench_pages_small`` (10,000), each with 1,000
competitors, three seats, an outcome and four moves per game, a rating row per
competitor, engine ladder and system (elo, trueskill, openskill) and a rating
change per seat and system, the competitor pages' tallies (``stats.services.rebuild``),
plus five long Grog Island games (~1,000+ plies,
played with random legal moves) for the long game page. A database already
holding the asked size is reused; ``--regenerate`` rebuilds it.

Then, for each size, through Django's test client in this process (DEBUG off;
after each request the database connection is let go as a server's
``request_finished`` does, so a page that queries pays for taking one, from the
pool or anew): per page the query count, CPU ms (this process) and wall ms
(with the database server's time: it includes starting a PostgreSQL server
process for a new connection; printed for the cold column) at p50 and p95 over
``--repeat`` requests, and the ratio of each p95 to the trivial view's measured
in the same run, twice:
*cold*, every fragment retired (``web.cache.versions.clear``) before each
request, so every request renders (what a request costs right after a write),
and *warm*, its fragments from the cache (what a visitor gets until
the next write). The goal is every page within 3x the trivial view at p95 and
the same at both sizes; it is read off the warm column. Rows marked "signed
in" are requested by the bench person (the owner's log by the bench bot's
owner): their header is rendered on every request, so their floor is the
"empty page, signed in" row, printed beside the bare trivial view; a page
that must know who asks (the owner's log) has at least the floor of "trivial
view reading the user" (the session and the user read, no template). "Trivial
view, one query" is what a single query by primary key adds to the trivial
view: the floor of any page that reads the database at all. Not a test:
nothing asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from base64 import b64encode
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode, urlsplit

SIZES = (("hm_bench_pages", 100_000), ("hm_bench_pages_small", 10_000))
COMPETITORS = 1000
SEATS = 3
MOVES_PER_GAME = 4
LONG_GAMES = 5
SYSTEMS = ("elo", "trueskill", "openskill")
PERSON = "bench-person"
START = datetime(2026, 1, 1, tzinfo=UTC)


def _setup(server: str, database: str) -> None:
    os.environ.update(
        DATABASE_URL=server.rstrip("/") + "/" + database,
        DEBUG="false",
        SECRET_KEY="bench-pages-not-a-secret",
        ALLOWED_HOSTS="testserver",
        DJANGO_SETTINGS_MODULE="harbormaster.settings",
    )
    import django
    from django.conf import settings

    django.setup()
    # No collectstatic here: plain static storage (the manifest's is a dict lookup).
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.ROOT_URLCONF = "bench.pages_urls"
    from harbormaster.heap import warm_and_freeze

    warm_and_freeze()  # as the ASGI and WSGI applications do at start-up


def _use(server: str, database: str) -> None:
    """Point the default connection at ``database`` (created if missing) and migrate it."""
    import psycopg
    from django.core.management import call_command
    from django.db import connections

    with psycopg.connect(server.rstrip("/") + "/postgres", autocommit=True) as admin:
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database])
        if exists.fetchone() is None:
            admin.execute(f'CREATE DATABASE "{database}"')
    connections["default"].close()
    connections["default"].close_pool()  # a pool made earlier would still serve the old name
    connections["default"].settings_dict["NAME"] = database
    call_command("migrate", verbosity=0, interactive=False)


# ------------------------------------------------------------------ generating
def _long_game(seed: str) -> tuple[list[tuple[int, dict]], dict[str, list]]:
    """A whole 4-player Grog Island game with random legal moves: its log and outcome."""
    import engines
    from engines import CHANCE, Dealer

    state = engines.get("grog_island").new_game(4)
    dealer, rng = Dealer(seed), random.Random(seed)
    log = []
    while not state.is_over:
        seat = state.to_move[0]
        action = dealer.choose(state) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        log.append((seat, action))
    return log, state.outcome()


def _prefix(slug: str) -> list[tuple[int, dict]]:
    """The first moves of a real game of ``slug``: the few moves of every bench game."""
    import engines
    from engines import CHANCE, Dealer

    state = engines.get(slug).new_game(SEATS)
    dealer, rng = Dealer("bench"), random.Random(0)
    log = []
    while len(log) < MOVES_PER_GAME:
        seat = state.to_move[0]
        action = dealer.choose(state) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        log.append((seat, action))
    return log


def _ready(games: int) -> bool:
    from games.models import Competitor, Game

    return (
        Game.objects.count() == games + LONG_GAMES
        and Competitor.objects.count() == COMPETITORS
        and Game.objects.filter(num_players=4).count() == LONG_GAMES
    )


def _copy(cursor: Any, table: str, columns: list[str], rows: Any) -> None:
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def generate(games: int) -> None:
    """Empty the bench database and fill it by COPY (and INSERT ... SELECT for the big tails)."""
    import json

    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    import engines
    from engines import CHANCE
    from games.models import Competitor
    from people.models import Profile
    from ratings.services.scopes import global_scope

    slugs = [engine.slug for engine in engines.all_engines()]
    rng = random.Random(17)
    began = time.perf_counter()
    with transaction.atomic(), connection.cursor() as wrapper:
        cursor = wrapper.cursor  # psycopg's own, for COPY
        cursor.execute(
            "TRUNCATE ratings_ratingchange, ratings_rating, ratings_ratingscope, "
            "tournaments_move, tournaments_outcome, tournaments_seat, tournaments_game, "
            "people_profile, tournaments_competitor RESTART IDENTITY CASCADE"
        )
        get_user_model().objects.filter(username=PERSON).delete()
        _copy(
            cursor,
            "tournaments_competitor",
            ["id", "kind", "name", "created_at"],
            (
                (i, "person" if i == 1 else "bot", f"bench-{i}", START)
                for i in range(1, COMPETITORS + 1)
            ),
        )
        user = get_user_model().objects.create_user(PERSON)
        Profile.objects.create(user=user, competitor=Competitor.objects.get(pk=1))
        versions = {slug: engines.get(slug).version for slug in slugs}
        long_logs = [_long_game(f"long-{n}") for n in range(LONG_GAMES)]
        total = games + LONG_GAMES

        def game_rows():
            for i in range(1, total + 1):
                is_long = i > games
                slug = "grog_island" if is_long else slugs[i % len(slugs)]
                created = START + timedelta(seconds=30 * i)
                plies = len(long_logs[i - games - 1][0]) if is_long else MOVES_PER_GAME
                yield (
                    i, slug, versions[slug], 4 if is_long else SEATS, "{}", f"seed-{i}",
                    engines.seed_commitment(f"seed-{i}"), "finished", True, "", "casual",
                    True, 5000, 0, plies, created, created, created + timedelta(seconds=20),
                    created + timedelta(seconds=20),
                )  # fmt: skip

        _copy(
            cursor,
            "tournaments_game",
            ["id", "engine", "engine_version", "num_players", "options", "seed",
             "seed_commitment", "status", "rated", "unrated_reason", "purpose", "listed",
             "move_time_ms", "time_bank_ms", "next_ply", "created_at", "started_at",
             "last_progress_at", "finished_at"],
            game_rows(),
        )  # fmt: skip
        seats = {}

        def seat_rows():
            for i in range(1, total + 1):
                count = 4 if i > games else SEATS
                table = rng.sample(range(1, COMPETITORS + 1), count)
                if i % 300 == 0 and 1 not in table:  # the person plays now and then
                    table[0] = 1
                seats[i] = table
                for position, competitor in enumerate(table):
                    yield (i, position, competitor, False, False, False, 0, 0, 0)

        _copy(
            cursor,
            "tournaments_seat",
            ["game_id", "position", "competitor_id", "forfeited", "withdrawn", "substituted",
             "fault_count", "events_sent", "bank_left_ms"],
            seat_rows(),
        )  # fmt: skip

        def outcome_rows():
            for i in range(1, total + 1):
                if i > games:
                    result = long_logs[i - games - 1][1]
                    scores, ranks = result["scores"], result["ranks"]
                else:
                    scores = [rng.randint(0, 60) for _ in range(SEATS)]
                    ranks = [1 + sum(o > s for o in scores) for s in scores]
                yield (i, json.dumps(scores), json.dumps(ranks), START)

        _copy(
            cursor,
            "tournaments_outcome",
            ["game_id", "scores", "ranks", "recorded_at"],
            outcome_rows(),
        )

        def move_rows():
            prefixes = {slug: _prefix(slug) for slug in slugs}
            for i in range(1, total + 1):
                log = long_logs[i - games - 1][0] if i > games else prefixes[slugs[i % len(slugs)]]
                for ply, (seat, action) in enumerate(log):
                    source = "chance" if seat == CHANCE else "bot"
                    yield (i, ply, seat, json.dumps(action), source, "", "", "", "", START)

        _copy(
            cursor,
            "tournaments_move",
            ["game_id", "ply", "seat", "action", "source", "fault_kind", "fault_detail",
             "request_excerpt", "reply_excerpt", "created_at"],
            move_rows(),
        )  # fmt: skip
        scopes = {slug: global_scope(slug) for slug in slugs}

        def rating_rows():
            for scope in scopes.values():
                for c in range(1, COMPETITORS + 1):
                    played = rng.randint(1, 2 * total * SEATS // COMPETITORS // len(slugs))
                    elo = round(rng.gauss(1500, 150), 1)
                    mu, sigma = rng.gauss(25, 3), rng.uniform(1, 8)
                    for system in SYSTEMS:
                        value, sd = (elo, None) if system == "elo" else (mu, sigma)
                        score = value if sd is None else value - 3 * sd
                        yield (c, scope.pk, system, value, sd, score, played)

        _copy(
            cursor,
            "ratings_rating",
            ["competitor_id", "scope_id", "system", "value", "sigma", "score", "games"],
            rating_rows(),
        )
        cursor.execute(
            "INSERT INTO ratings_ratingchange (game_id, competitor_id, scope_id, system, rank, "
            "before_value, before_sigma, after_value, after_sigma) "
            "SELECT s.game_id, s.competitor_id, sc.id, sys.name, s.position + 1, "
            "sys.before, sys.sigma, sys.after, sys.sigma_after "
            "FROM tournaments_seat s JOIN tournaments_game g ON g.id = s.game_id "
            "JOIN ratings_ratingscope sc ON sc.kind = 'global' AND sc.engine = g.engine "
            "CROSS JOIN (VALUES ('elo', 1500.0, NULL::float, 1510.0, NULL::float), "
            "('trueskill', 25, 8, 25.5, 7.9), ('openskill', 25, 8, 25.5, 7.9)) "
            "AS sys(name, before, sigma, after, sigma_after)"  # Elo has no sigma
        )
        for table in ("tournaments_competitor", "tournaments_game"):
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT max(id) FROM {table}))"
            )
    from stats.services import rebuild

    rebuild()  # the competitor pages' tallies, as manage.py build_competitor_stats does
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    elapsed = time.perf_counter() - began
    print(f"  generated {games:,} games (+{LONG_GAMES} long) in {elapsed:.0f} s")


# ------------------------------------------------------------------ measuring
def _api_cursor(created_at: datetime) -> str:
    """A ``GET /api/v1/games/`` cursor at ``created_at``, as DRF writes one."""
    return b64encode(urlencode({"p": str(created_at)}).encode()).decode()


BOT_OWNER = "bench-owner"


def bench_bot() -> Any:
    """The bot of competitor 2 (a busy ladder entrant), owned by ``BOT_OWNER``; made once.

    Its public page and its owner's log page are measured (issue #16); the log
    lists the moves of the bot's seats, which the generated games hold.
    """
    from django.contrib.auth import get_user_model

    import engines
    from botapi.models import Bot

    owner, _ = get_user_model().objects.get_or_create(username=BOT_OWNER)
    bot = Bot.objects.filter(competitor_id=2).first()
    if bot is None:
        bot = Bot.objects.create(
            owner=owner,
            competitor_id=2,
            name="bench-bot",
            engines=[engine.slug for engine in engines.all_engines()],
            endpoint_url="http://127.0.0.1:9/",
            signing_secret="bench-not-a-secret",
        )
    return bot


SIGNED_IN = "signed in"
"""A page requested by the bench person signed in (``PERSON``); the owner's log by its owner."""


def pages() -> list[tuple[str, str, str]]:
    """(label, path, who) of every page measured, the deep pages found in the data.

    ``who`` is "" (anonymous), :data:`SIGNED_IN` (the bench person, signed in: their
    own header around the cached content) or "owner" (the bench bot's owner).
    """
    from games.models import Game
    from games.selectors.cursor import Cursor
    from ratings.models import Rating
    from web.leaderboards.ranking import PAGE_SIZE

    middle = Game.objects.filter(listed=True).order_by("-created_at", "-id")
    middle = middle[Game.objects.count() // 2]
    ladder = Rating.objects.filter(scope__engine="manila", scope__kind="global", system="trueskill")
    deep = max(1, (ladder.count() - 1) // PAGE_SIZE)
    long_game = Game.objects.order_by("-next_ply").first()
    long_page = f"/games/{long_game.pk}/"
    listed = [
        ("trivial view", "/__bench__/trivial/", ""),
        ("trivial view, signed in", "/__bench__/trivial/", SIGNED_IN),
        ("trivial view reading the user, s.i.", "/__bench__/user/", SIGNED_IN),
        ("trivial view, one query", "/__bench__/query/", ""),
        ("empty page (base.html)", "/__bench__/empty/", ""),
        ("empty page, signed in", "/__bench__/empty/", SIGNED_IN),
        ("leaderboards overview", "/leaderboards/", ""),
        ("manila leaderboard p1", "/leaderboards/manila/", ""),
        ("manila leaderboard p1, signed in", "/leaderboards/manila/", SIGNED_IN),
        (f"manila leaderboard p{deep + 1}", f"/leaderboards/manila/?by=elo&page={deep + 1}", ""),
        ("manila leaderboard, OpenSkill", "/leaderboards/manila/?system=openskill", ""),
        ("manila leaderboard, people", "/leaderboards/manila/?system=openskill&kind=person", ""),
        (f"manila bots, Elo p{deep}", f"/leaderboards/manila/?system=elo&kind=bot&page={deep}", ""),
        ("leaderboards overview, OpenSkill", "/leaderboards/?system=openskill", ""),
        ("leaderboard API, OpenSkill", "/api/v1/leaderboards/manila/?system=openskill", ""),
        ("leaderboard CSV (1,000 rows)", "/api/v1/leaderboards/manila/?format=csv", ""),
        ("a competitor's page (person)", f"/people/{PERSON}/", ""),
        ("a competitor's page, signed in", f"/people/{PERSON}/", SIGNED_IN),
        ("a bot's page (competitor)", f"/bots/{BOT_OWNER}/bench-bot/", ""),
        ("the bot owner's log (owner)", f"/bots/{bench_bot().pk}/log/", "owner"),
        ("home", "/", ""),
        ("games list, middle", f"/games/?before={Cursor.after(middle).encode()}", ""),
        ("games API p1", "/api/v1/games/", ""),
        ("games API, middle", f"/api/v1/games/?cursor={_api_cursor(middle.created_at)}", ""),
        (f"long game page ({long_game.next_ply} plies)", long_page, ""),
        ("long game page, signed in", long_page, SIGNED_IN),
    ]
    return listed


def measure(path: str, repeat: int, warm: bool, who: str = "") -> dict[str, Any]:
    """One page's figures; ``warm`` False retires every fragment before each request."""
    from django.contrib.auth import get_user_model
    from django.db import close_old_connections, connection
    from django.test import Client

    from web.cache import versions

    client = Client()
    if who == "owner":  # the owner's page: only its owner sees it
        client.force_login(bench_bot().owner)
    elif who == SIGNED_IN:
        client.force_login(get_user_model().objects.get(username=PERSON))
    split = urlsplit(path)

    def get() -> bytes:
        """The whole body: a streamed answer (a CSV export) is read to its end.

        Then the database connection is let go as a server does when a
        request ends (``request_finished`` runs ``close_old_connections``;
        the test client disconnects it, so without this call every request
        after the first would reuse one open connection, which no server does).
        """
        response = client.get(split.path, data=dict(_query(split.query)))
        assert response.status_code == 200, (path, response.status_code)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        close_old_connections()
        return body

    def cold() -> None:
        if not warm:
            versions.clear()

    queries: list[str] = []

    def counting(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        queries.append(sql)
        return execute(sql, params, many, context)

    get()  # once: whatever is built once per database (a long game's stored record)
    cold()
    if warm:
        get()  # stored: the counted request below reads its fragments from the cache
    with connection.execute_wrapper(counting):
        body = get()
    cpu, wall = [], []
    for _ in range(repeat):
        cold()
        began_cpu, began_wall = time.process_time(), time.perf_counter()
        get()
        cpu.append((time.process_time() - began_cpu) * 1000)
        wall.append((time.perf_counter() - began_wall) * 1000)
    return {
        "queries": len(queries),
        "bytes": len(body),
        "cpu": (statistics.median(cpu), _p95(cpu)),
        "wall": (statistics.median(wall), _p95(wall)),
    }


def _query(text: str) -> list[tuple[str, str]]:
    from urllib.parse import parse_qsl

    return parse_qsl(text)


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[18]


def report(label: str, repeat: int, print_: Callable[[str], None] = print) -> None:
    """Cold (rendered) and warm (fragments kept) columns of every page, beside the trivial view."""
    listed = pages()
    cold = [measure(path, repeat, False, who) for _, path, who in listed]
    warm = [measure(path, repeat, True, who) for _, path, who in listed]
    print_(f"\n{label}: {repeat} requests each; ratio = p95 / the trivial view's p95")
    print_(
        f"{'':<36} {'':>7} {'':>5} {'cold (rendered)':^42} {'warm (fragments)':^24}\n"
        f"{'page':<36} {'queries':>7} {'KB':>5} {'CPU p50':>8} {'CPU p95':>8} {'ratio':>6}"
        f" {'wall p50':>8} {'wall p95':>8} {'CPU p50':>8} {'CPU p95':>8} {'ratio':>6}"
        f" {'queries':>7}"
    )
    for (name, _, _), c, w in zip(listed, cold, warm, strict=True):
        print_(
            f"{name:<36} {c['queries']:>7} {c['bytes'] / 1024:>5.0f} {c['cpu'][0]:>8.2f}"
            f" {c['cpu'][1]:>8.2f} {c['cpu'][1] / cold[0]['cpu'][1]:>6.1f}"
            f" {c['wall'][0]:>8.2f} {c['wall'][1]:>8.2f}"
            f" {w['cpu'][0]:>8.2f} {w['cpu'][1]:>8.2f} {w['cpu'][1] / warm[0]['cpu'][1]:>6.1f}"
            f" {w['queries']:>7}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432/")
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--regenerate", action="store_true")
    parser.add_argument(
        "--suffix", default="", help="use the databases named with this suffix (copies of them)"
    )
    args = parser.parse_args(argv)
    _setup(args.server, SIZES[0][0] + args.suffix)
    for name, games in SIZES:
        database = name + args.suffix
        _use(args.server, database)
        if args.regenerate or not _ready(games):
            generate(games)
        report(f"{database}: {games:,} games, {COMPETITORS:,} competitors", args.repeat)


if __name__ == "__main__":
    main()
