"""``bench.mix``'s database: ``bench.pages``' 100,000 games and what the mix visits besides.

Made once, as ``hm_bench_mix_base`` (a run works on a fresh copy of it):
``bench.pages.generate`` fills it (1,000 competitors, 100,000 finished games
with ratings and tallies), then :func:`furnish` adds

* a bot page for every competitor but the bench person (2..1,000), each bot its
  own owner's, so a visitor's long tail has a thousand competitor pages;
* the signed-in visitors: the bench person and ``VISITORS - 1`` more people,
  each with a profile and no game;
* the event page of the mix: a Swiss Manila event of 64 entrants in tables of
  4, three rounds finished and the fourth running (``make_event``, the page
  tests' builder: real Swiss pairings, results without a referee); and one of
  256 entrants, five rounds finished and the sixth running, whose pages'
  first views are measured beside it (an event page must not grow with it);
* the bots the background player plays (``PLAYERS``, each its own owner's, so
  their games are rated), their endpoints set by the player when it serves them.
"""

from __future__ import annotations

import time

from bench.pages import BOT_OWNER, PERSON, _setup, _use, bench_bot, generate

GAMES = 100_000
COMPETITORS = 1000
VISITORS = 10
VISITOR = "bench-visitor"
PLAYERS = 12
PLAYER = "bench-player"
PLAYER_SECRET = "bench-mix-not-a-secret"
EVENT_NAME = "Bench open (64 entrants)"
EVENT_ENTRANTS = 64
BIG_EVENT_NAME = "Bench open (256 entrants)"
BIG_EVENT_ENTRANTS = 256


def bot_path(competitor_id: int) -> str:
    """The public page of competitor ``competitor_id``'s bot (2..1,000)."""
    if competitor_id == 2:
        return f"/bots/{BOT_OWNER}/bench-bot/"
    return f"/bots/{BOT_OWNER}-{competitor_id}/bench-bot-{competitor_id}/"


def build(server: str, database: str, regenerate: bool) -> None:
    """Point Django at ``database`` and make sure it holds everything above.

    Made anew (dropped, created, migrated, generated, furnished) when asked or
    when not furnished: ``bench.pages.generate`` empties the game tables, not
    the users, bots and events furnished here.
    """
    _setup(server, database)
    _use(server, database)
    if regenerate or not furnished():
        began = time.perf_counter()
        _recreate(server, database)
        generate(GAMES)
        furnish()
        print(f"  made {database} in {time.perf_counter() - began:.0f} s")


def _recreate(server: str, database: str) -> None:
    import psycopg
    from django.db import connections

    connections["default"].close()
    connections["default"].close_pool()
    with psycopg.connect(server.rstrip("/") + "/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    _use(server, database)  # created and migrated


def furnished() -> bool:
    """Its last steps are there (the big event, the player bots; furnish is one transaction)."""
    from botapi.models import Bot
    from tournaments.models import Tournament

    players = Bot.objects.filter(owner__username__startswith=f"{PLAYER}-").count()
    return players == PLAYERS and Tournament.objects.filter(name=BIG_EVENT_NAME).exists()


def furnish() -> None:
    """Add the bot pages, visitors, event and players (module docstring) in one transaction."""
    from django.db import connection, transaction

    with transaction.atomic():
        _bot_pages()
        _visitors()
        _event()
        _players()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def _owned_bots(prefix: str, competitors: dict[int, str], secret: str) -> None:
    """A bot for each competitor id (name given), each owned by ``<prefix>-<id>``."""
    from django.contrib.auth import get_user_model

    import engines
    from botapi.models import Bot

    user = get_user_model()
    user.objects.bulk_create(user(username=f"{prefix}-{pk}") for pk in competitors)
    owners = {u.username: u for u in user.objects.filter(username__startswith=f"{prefix}-")}
    slugs = [engine.slug for engine in engines.all_engines()]
    Bot.objects.bulk_create(
        Bot(
            owner=owners[f"{prefix}-{pk}"],
            competitor_id=pk,
            name=name,
            engines=slugs,
            endpoint_url="http://127.0.0.1:9/",
            signing_secret=secret,
            max_concurrent_games=100,
        )
        for pk, name in competitors.items()
    )


def _bot_pages() -> None:
    bench_bot()  # competitor 2's, owned by BOT_OWNER
    others = {pk: f"bench-bot-{pk}" for pk in range(3, COMPETITORS + 1)}
    _owned_bots(BOT_OWNER, others, "bench-not-a-secret")


def _visitors() -> None:
    from django.contrib.auth import get_user_model

    from people.services import ensure_person

    for n in range(1, VISITORS):
        ensure_person(get_user_model().objects.create_user(f"{VISITOR}-{n}"))


def visitor_names() -> list[str]:
    return [PERSON] + [f"{VISITOR}-{n}" for n in range(1, VISITORS)]


def _event() -> None:
    from tests.tournaments.pages.builders import make_event

    make_event(
        name=EVENT_NAME,
        entrants=EVENT_ENTRANTS,
        table_size=4,
        rounds=6,
        played=3,
        under_way=True,
        bot_names=[f"open-{n:02d}" for n in range(1, EVENT_ENTRANTS + 1)],
    )
    make_event(
        name=BIG_EVENT_NAME,
        entrants=BIG_EVENT_ENTRANTS,
        table_size=4,
        rounds=8,
        played=5,
        under_way=True,
        bot_names=[f"big-open-{n:03d}" for n in range(1, BIG_EVENT_ENTRANTS + 1)],
    )


def _players() -> None:
    from games.models import Competitor

    competitors = Competitor.objects.bulk_create(
        Competitor(kind=Competitor.Kind.BOT, name=f"{PLAYER}-{n}") for n in range(1, PLAYERS + 1)
    )
    _owned_bots(PLAYER, {c.pk: c.name for c in competitors}, PLAYER_SECRET)


def event_id(name: str = EVENT_NAME) -> int:
    from tournaments.models import Tournament

    return Tournament.objects.get(name=name).pk
