"""The demo: what ``make demo`` sets up before it serves the site.

Kept apart from the management command so that tests can call the steps
directly. Three steps:

* the demo superuser, reset to a published password, and the demo person
  (an ordinary player account a visitor signs in with), likewise;
* a few games of every engine between the example bots, played for real:
  a greedy bot and five random bots are served over HTTP on 127.0.0.1 from
  this process (``harbormaster_bot.serve_in_background``), registered as bots of the
  example-bot account (``botapi.selectors.seating``: anyone may seat them), and
  seated in games made with ``create_game``; Celery's workers play them (on
  the embedded defaults the worker threads of this process, which
  ``demo_setup`` runs while it plays) and this waits for each;
* a club event (:func:`run_club_event`): the league "Harbour club" (Manila,
  bots only) and a Swiss tournament of the six example bots in tables of 3,
  opened, entered and started by the demo admin through the same services
  the admin uses (``tournaments.events``). The round scheduler then plays it
  to its end by itself (the workers pair each round and play its games) and
  this waits. Manila because its games are the shortest
  between the example bots (about 130 decisions for three players, against
  200 to 600 for the other engines);
* the house anchors (:func:`play_anchor_arenas`): created or kept
  (``manage.py ensure_anchors --arenas``: random, greedy and the search bot
  at 8 and 32 iterations, played in-process by the referee), entered in an
  arena of every engine, and one arena game per engine played to its end, so
  the leaderboards show them; beat's arena passes go on seating them after.

The bots' endpoints live only as long as the process that serves them, so
:func:`example_bots` suspends them when its block ends, with a reason that
says so (a game created later with them would only collect defaults); the
next block updates their endpoints and reactivates them. ``demo_setup`` serves
them while it plays; ``demo_serve`` (:mod:`harbormaster.demo_serving`) serves
them again, beside the site, for as long as the demo is served, so people can
seat them in new games. Re-running keeps the same bots (their ratings grow)
and adds new games.
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
from harbormaster_bot import RunningBot, serve_in_background
from harbormaster_bot.examples.greedy import GreedyBot
from harbormaster_bot.examples.random_bot import RandomBot

import engines
from botapi.models import Bot
from botapi.selectors.seating import example_bots_username
from botapi.services import bots as services
from botapi.services.anchors import ensure_anchors
from games.models import Game
from games.services import create_game
from people import services as people
from tournaments import events
from tournaments.events import arena
from tournaments.models import Entrant, League, Tournament

DEMO_ADMIN_USERNAME = "admin"
DEMO_ADMIN_PASSWORD = "harbormaster-demo"
DEMO_ADMIN_EMAIL = "admin@example.com"

DEMO_PERSON_USERNAME = "visitor"
DEMO_PERSON_PASSWORD = "harbormaster-visitor"
DEMO_PERSON_EMAIL = "visitor@example.com"

DEMO_GAMES_PER_ENGINE = 2
DEMO_MOVE_TIME_MS = 3000
DEMO_GAME_TIMEOUT_S = 120.0
"""How long to wait for one game while the workers play it."""

SUSPENDED_REASON = (
    "example bot of the demo: it answers only while `make demo` runs "
    "(`manage.py demo_setup` or `manage.py demo_serve`); run it again to play it"
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


@dataclass(frozen=True)
class DemoPerson:
    username: str
    password: str
    created: bool


def ensure_demo_person() -> DemoPerson:
    """Create the demo person (an ordinary account, no staff rights), or reset its password.

    It gets its person competitor like any sign-up (``people.services``) and
    accepts bot opponents in rated games: the demo is about playing the
    example bots.
    """
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=DEMO_PERSON_USERNAME, defaults={"email": DEMO_PERSON_EMAIL}
    )
    user.is_staff = False
    user.is_superuser = False
    user.is_active = True
    user.set_password(DEMO_PERSON_PASSWORD)
    user.save()
    people.set_consent(user, True)
    return DemoPerson(DEMO_PERSON_USERNAME, DEMO_PERSON_PASSWORD, created)


# ------------------------------------------------------------ example bots
EXAMPLE_BOTS: dict[str, Callable[[], Any]] = {
    "greedy": lambda: GreedyBot(),
    "random-1": lambda: RandomBot(seed=1),
    "random-2": lambda: RandomBot(seed=2),
    "random-3": lambda: RandomBot(seed=3),
    "random-4": lambda: RandomBot(seed=4),
    "random-5": lambda: RandomBot(seed=5),
}
"""Bot name -> a new handler. The greedy bot plays every engine with its game's heuristic.

Six, so that the club event has two tables of three."""


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
            description="Example bot served by the demo (harbormaster_bot.examples).",
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


# ------------------------------------------------------------- club event
CLUB_LEAGUE_NAME = "Harbour club"
CLUB_LEAGUE_SLUG = "harbour-club"
CLUB_ENGINE = "manila"
CLUB_TABLE_SIZE = 3
CLUB_ROUNDS = 3
CLUB_EVENT_TIMEOUT_S = 600.0
"""How long to wait for the club event while the workers play it."""

CLUB_STOPPED_REASON = "the demo's example bots stopped answering before the event ended"


def club_league() -> League:
    """The demo's league: Manila, bots only (created once, reused by every run)."""
    league, _ = League.objects.get_or_create(
        slug=CLUB_LEAGUE_SLUG,
        defaults={
            "name": CLUB_LEAGUE_NAME,
            "engine": CLUB_ENGINE,
            "pool": League.Pool.BOTS,
            "description": "The demo's club: a Swiss evening of the example bots at every run "
            "of make demo, rated in the club's own ladder.",
        },
    )
    return league


def wait_until_event_over(tournament: Tournament, timeout_s: float) -> Tournament:
    """The event once finished or cancelled (at once in eager mode), or as it is at timeout."""
    deadline = time.monotonic() + timeout_s
    over = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    tournament.refresh_from_db()
    while tournament.status not in over and time.monotonic() < deadline:
        time.sleep(0.5)
        tournament.refresh_from_db()
    return tournament


def run_club_event(
    organiser: Any,
    rounds: int = CLUB_ROUNDS,
    *,
    on_start: Callable[[Tournament], None] | None = None,
    timeout_s: float = CLUB_EVENT_TIMEOUT_S,
) -> Tournament:
    """Create, open, fill and start a Swiss tournament of the example bots; play it to the end.

    ``organiser`` (the demo admin) runs it through ``tournaments.events``, as
    in the admin. ``on_start`` is called with the open event just before the
    start. An event the workers did not finish in ``timeout_s`` is cancelled
    (its bots stop answering when this returns), saying so.
    """
    with sqlite_without_fsync(), example_bots() as bots:
        league = club_league()
        number = league.tournaments.count() + 1
        tournament = Tournament.objects.create(
            name=f"{CLUB_LEAGUE_NAME} Swiss #{number}",
            league=league,
            engine=CLUB_ENGINE,
            format=Tournament.Format.SWISS,
            table_size=CLUB_TABLE_SIZE,
            min_table_size=CLUB_TABLE_SIZE,
            rounds=rounds,
            move_time_ms=DEMO_MOVE_TIME_MS,
            rated=True,
            organiser=organiser,
        )
        events.open_entries(tournament, by=organiser)
        for bot in bots:
            events.enter(tournament, bot.competitor, by=organiser)
        if on_start is not None:
            on_start(tournament)
        events.start(tournament, by=organiser)
        tournament = wait_until_event_over(tournament, timeout_s)
        if tournament.status != Tournament.Status.FINISHED:
            events.cancel(tournament, reason=CLUB_STOPPED_REASON, by=organiser)
    return tournament


# ------------------------------------------------------------ the mixed club night
CLUB_NIGHT_LEAGUE_NAME = "Harbour club night"
CLUB_NIGHT_LEAGUE_SLUG = "harbour-club-night"
CLUB_NIGHT_ROUNDS = 2
CLUB_NIGHT_BOTS = 5
"""Example bots beside the demo person: six entrants, two tables of three."""
CLUB_NIGHT_MOVE_TIME_MS = 300_000
CLUB_NIGHT_TIME_BANK_MS = 900_000
"""A person's time: five minutes a move and a quarter of an hour in the bank, so a newcomer
finds their game waiting when they sign in; a missed move is played for them, and after
too many the house bot plays their seat (the existing rule)."""


def club_night_league() -> League:
    """The demo's mixed league: Manila, bots and people (created once, reused)."""
    league, _ = League.objects.get_or_create(
        slug=CLUB_NIGHT_LEAGUE_SLUG,
        defaults={
            "name": CLUB_NIGHT_LEAGUE_NAME,
            "engine": CLUB_ENGINE,
            "pool": League.Pool.MIXED,
            "description": "The demo's mixed club night: the demo person against the example "
            "bots, rated in the club night's own ladder.",
        },
    )
    return league


def open_club_night(organiser: Any) -> Tournament:
    """A Swiss of the demo person and the example bots, entries open, ``visitor`` entered.

    The demo person enters themselves (``by`` is their account, with their
    consent to bot opponents in rated games, as :func:`ensure_demo_person`
    gives it), through the same ``events.enter`` as the tournament page. The
    example bots are entered and the event started by :func:`start_club_night`
    once they answer (``demo_serve``). An open club night is reused.
    """
    league = club_night_league()
    tournament = league.tournaments.filter(
        status__in=(Tournament.Status.DRAFT, Tournament.Status.ENTRIES_OPEN)
    ).first()
    if tournament is None:
        number = league.tournaments.count() + 1
        tournament = Tournament.objects.create(
            name=f"{CLUB_NIGHT_LEAGUE_NAME} #{number}",
            league=league,
            engine=CLUB_ENGINE,
            format=Tournament.Format.SWISS,
            table_size=CLUB_TABLE_SIZE,
            min_table_size=CLUB_TABLE_SIZE,
            rounds=CLUB_NIGHT_ROUNDS,
            move_time_ms=CLUB_NIGHT_MOVE_TIME_MS,
            time_bank_ms=CLUB_NIGHT_TIME_BANK_MS,
            rated=True,
            organiser=organiser,
        )
    if tournament.status == Tournament.Status.DRAFT:
        events.open_entries(tournament, by=organiser)
    visitor = get_user_model().objects.get(username=DEMO_PERSON_USERNAME)
    me = people.ensure_person(visitor).competitor
    if not tournament.entrants.filter(competitor=me, status=Entrant.Status.ACTIVE).exists():
        events.enter(tournament, me, by=visitor)
    return tournament


def start_club_night(bots: list[Bot]) -> Tournament | None:
    """Enter the example bots in the open club night and start it; None if none is open.

    Called while the bots answer (``demo_serve``'s ``on_bots_ready``): its
    round 1 seats the demo person with two bots, and their game waits in the
    person's badge. A refusal (say, the person took their consent back) is
    raised as ``events.EventError``, with its sentence.
    """
    tournament = (
        Tournament.objects.filter(
            league__slug=CLUB_NIGHT_LEAGUE_SLUG, status=Tournament.Status.ENTRIES_OPEN
        )
        .order_by("pk")
        .first()
    )
    if tournament is None:
        return None
    organiser = tournament.organiser
    entered = set(tournament.entrants.values_list("competitor_id", flat=True))
    for bot in bots[:CLUB_NIGHT_BOTS]:
        if bot.competitor_id not in entered:
            events.enter(tournament, bot.competitor, by=organiser)
    events.start(tournament, by=organiser)
    tournament.refresh_from_db()
    return tournament


# ------------------------------------------------------------- the anchors
def play_anchor_arenas(timeout_s: float = DEMO_GAME_TIMEOUT_S, *, play: bool = True) -> list[Game]:
    """The anchors in every engine's arena and, if ``play``, the arenas' games played out.

    One pass per arena seats the free anchors (beat's passes may have seated
    them already); this waits for every arena game of those leagues that is
    still running. The games, as they ended (or stood at the timeout); none
    without ``play`` (``--games-per-engine 0``: the anchors are only made
    ready, and beat's passes seat them once a worker runs).
    """
    with sqlite_without_fsync():
        anchors = [item.bot for item in ensure_anchors()]
        leagues = arena.engine_arenas()
        arena.join_anchors(anchors)
        if not play:
            return []
        started = [game for league in leagues for game in arena.arena_pass(league)]
        running = Game.objects.filter(league__in=leagues, status=Game.Status.RUNNING)
        games = {game.pk: game for game in [*started, *running]}  # eager: already over
        return [wait_until_over(games[pk], timeout_s) for pk in sorted(games)]
