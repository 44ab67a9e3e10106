"""The demo: what ``make demo`` sets up before it serves the site.

Kept apart from the management command so that tests can call the steps
directly. Two steps:

* the demo superuser, reset to a published password;
* a few games of every engine between the example bots, played for real:
  a greedy bot and three random bots are served over HTTP on 127.0.0.1 from
  this process (``botapi.sdk.serve_in_background``), registered as bots of the
  example-bot account (``tournaments.seating``: anyone may seat them), and
  seated in games made with ``create_game``. On the embedded defaults Celery
  is eager, so each game plays to its end inside ``create_game``; with a
  broker the workers play them and this waits.

The bots' endpoints live only as long as this process, so the demo suspends
them afterwards, with a reason that says so (a game created later with them
would only collect defaults); the next run updates their endpoints and
reactivates them. Re-running keeps the same bots (their ratings grow) and
adds new games.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.backends.signals import connection_created

import engines
from botapi import services
from botapi.models import Bot
from botapi.sdk import RunningBot, serve_in_background
from botapi.sdk.examples.greedy import GreedyBot
from botapi.sdk.examples.random_bot import RandomBot
from tournaments.creation import create_game
from tournaments.models import Game
from tournaments.seating import example_bots_username

DEMO_ADMIN_USERNAME = "admin"
DEMO_ADMIN_PASSWORD = "harbormaster-demo"
DEMO_ADMIN_EMAIL = "admin@example.com"

DEMO_GAMES_PER_ENGINE = 2
DEMO_MOVE_TIME_MS = 3000
DEMO_GAME_TIMEOUT_S = 120.0
"""How long to wait for one game when real workers (not eager Celery) play it."""

SUSPENDED_REASON = (
    "example bot of the demo: it answers only while `manage.py demo_setup` runs "
    "(run it again to play more games)"
)
PLACEHOLDER_ENDPOINT = "http://127.0.0.1:9/"
"""Where a new example bot points until its server is up (it needs its secret first)."""


@dataclass(frozen=True)
class DemoAdmin:
    username: str
    password: str
    created: bool


def ensure_demo_admin() -> DemoAdmin:
    """Create the demo superuser, or reset it to the known password.

    Running it again is harmless, and the printed credentials always work.
    """
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=DEMO_ADMIN_USERNAME, defaults={"email": DEMO_ADMIN_EMAIL}
    )
    user.is_staff = True
    user.is_superuser = True
    user.is_active = True
    user.set_password(DEMO_ADMIN_PASSWORD)
    user.save()
    return DemoAdmin(DEMO_ADMIN_USERNAME, DEMO_ADMIN_PASSWORD, created)


# ------------------------------------------------------------ example bots
EXAMPLE_BOTS: dict[str, Callable[[], Any]] = {
    "greedy": lambda: GreedyBot(),
    "random-1": lambda: RandomBot(seed=1),
    "random-2": lambda: RandomBot(seed=2),
    "random-3": lambda: RandomBot(seed=3),
}
"""Bot name -> a new handler. The greedy bot plays every engine with its game's heuristic."""


def example_bots_owner() -> Any:
    """The account that owns the example bots (no password: nobody logs in as it)."""
    user, created = get_user_model().objects.get_or_create(username=example_bots_username())
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def _ready_bot(owner: Any, name: str, handler: Any) -> tuple[Bot, RunningBot]:
    """The example bot ``name``, registered once, served now and pointed at its server."""
    slugs = sorted(engine.slug for engine in engines.all_engines())
    bot = Bot.objects.filter(owner=owner, name=name).first()
    if bot is None:
        bot, _ = services.register_bot(
            owner,
            name=name,
            engines=slugs,
            endpoint_url=PLACEHOLDER_ENDPOINT,
            description="Example bot served by the demo (botapi.sdk.examples).",
        )
    server = serve_in_background(handler, secret=bot.signing_secret, name=name)
    services.update_bot(
        bot, {"endpoint_url": services.check_endpoint_url(server.url), "engines": slugs}
    )
    if bot.status == Bot.Status.SUSPENDED:
        services.reactivate_bot(bot)  # pings the fresh server first
    return bot, server


@contextmanager
def example_bots() -> Iterator[list[Bot]]:
    """Serve the example bots for the duration of the block; suspend them after it."""
    owner = example_bots_owner()
    running: list[tuple[Bot, RunningBot]] = []
    try:
        for name, make_handler in EXAMPLE_BOTS.items():
            running.append(_ready_bot(owner, name, make_handler()))
        yield [bot for bot, _ in running]
    finally:
        for bot, server in running:
            server.stop()
            bot.refresh_from_db()
            if bot.status == Bot.Status.ACTIVE:
                services.suspend_bot(bot, SUSPENDED_REASON)


# ------------------------------------------------------------------ games
def _no_fsync(sender: Any, connection: Any, **kwargs: Any) -> None:
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous=OFF")


@contextmanager
def sqlite_without_fsync() -> Iterator[None]:
    """Let SQLite skip fsync on this process's connections while the demo games play.

    Every move is its own transaction, and on a busy disk the fsync of each
    commit made the demo games 3-6 times slower (measured: 38-90 s against
    14-15 s for one game per engine). The setting is per connection and ends
    with it; the worst a power cut could do is lose the demo's newest games.
    PostgreSQL is left alone.
    """
    if connection.vendor != "sqlite":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA synchronous")
        previous = int(cursor.fetchone()[0])
    _no_fsync(None, connection)
    connection_created.connect(_no_fsync)
    try:
        yield
    finally:
        connection_created.disconnect(_no_fsync)
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA synchronous={previous}")


@dataclass
class DemoProgress:
    """Games of one engine: how many were asked for and which have finished."""

    engine: str
    total: int
    finished: list[Game] = field(default_factory=list)
    unfinished: list[Game] = field(default_factory=list)


def seats_for(engine: engines.Engine, index: int, bots: list[Bot]) -> list[Bot]:
    """3 or 4 players (within the engine's range); the greedy bot's seat moves round."""
    count = max(engine.min_players, min(engine.max_players, 3 + index % 2))
    greedy, randoms = bots[0], bots[1:]
    table = [greedy, *randoms[: count - 1]]
    shift = index % count
    return table[shift:] + table[:shift]


def wait_until_over(game: Game, timeout_s: float) -> Game:
    """The game once it is no longer running (at once in eager mode), or as it is at timeout."""
    deadline = time.monotonic() + timeout_s
    game.refresh_from_db()
    while game.status == Game.Status.RUNNING and time.monotonic() < deadline:
        time.sleep(0.2)
        game.refresh_from_db()
    return game


def play_demo_games(
    per_engine: int = DEMO_GAMES_PER_ENGINE,
    on_progress: Callable[[DemoProgress], None] | None = None,
    *,
    on_start: Callable[[DemoProgress, list[Bot]], None] | None = None,
    timeout_s: float = DEMO_GAME_TIMEOUT_S,
) -> list[DemoProgress]:
    """Play ``per_engine`` rated games of every engine between the example bots.

    ``on_start`` is called before each game with the engine's progress and the
    players; ``on_progress`` after it.
    """
    results = []
    with sqlite_without_fsync(), example_bots() as bots:
        for engine in engines.all_engines():
            progress = DemoProgress(engine.slug, per_engine)
            results.append(progress)
            for index in range(per_engine):
                players = seats_for(engine, index, bots)
                if on_start is not None:
                    on_start(progress, players)
                game = create_game(
                    engine.slug,
                    [bot.competitor for bot in players],
                    move_time_ms=DEMO_MOVE_TIME_MS,
                )
                game = wait_until_over(game, timeout_s)
                if game.status == Game.Status.FINISHED:
                    progress.finished.append(game)
                else:
                    progress.unfinished.append(game)
                if on_progress is not None:
                    on_progress(progress)
    return results
