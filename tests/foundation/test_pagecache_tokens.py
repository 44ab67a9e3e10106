"""The page cache's narrow tokens (``web.cache.tokens``,
``web.cache.bumps``): through the real services, a write empties
every page that shows it and leaves the others served from the cache.

Each test warms a set of pages (second request a hit), writes, then asks each
again: the pages the write shows on must be rendered afresh, with the new
content; an unrelated competitor's page (a person's, another owner's bot's),
another engine's leaderboard and an unrelated finished game's page must still
be hits.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.db import transaction
from django.test import Client

from botapi.models import Bot
from games import services as creation
from games.models import Game
from games.referee import steps as referee
from people.services import ensure_person, set_consent
from ratings.models import RatingChange
from ratings.services.apply import apply_game_result
from ratings.services.recompute import recompute_scope
from ratings.services.scopes import global_scope
from tests.factories import BotFactory, CompetitorFactory, UserFactory, finished_game
from tests.tournaments.events.test_duplicate_privacy import play_to_the_end
from tests.tournaments.played import played_game
from tournaments.events.lifecycle import abort_unfinished_games
from tournaments.models import League, Round, Table, Tournament
from web.cache import bumps as pagecache_bumps
from web.cache import pagecache, tokens
from web.sockets import broadcast

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("page_cache")]

HIT = "X-Page-Cache"


@dataclass
class World:
    ana: object  # a person who plays
    cy: object  # a person who plays
    crab1: Bot  # an older version of crab2
    crab2: Bot  # the bot that plays
    uli: object  # a person with their own game, never in ours
    lobster: Bot  # another owner's bot, never in ours
    theirs: Game  # Uli's and Lobster's finished game


@pytest.fixture
def world(monkeypatch) -> World:
    monkeypatch.setattr(broadcast, "publish", lambda game_id, message: None)
    owner = UserFactory(username="owner-pc", password=None)
    crab1 = BotFactory(owner=owner, name="crab-v1", mode="pull")
    crab2 = BotFactory(owner=owner, name="crab-v2", mode="pull", previous_version=crab1)
    BotFactory(owner=owner, name="unrelated-shrimp", mode="pull")
    # Consenting people: the test's game seats them with a bot, rated (people.seating).
    ana = set_consent(UserFactory(username="ana-pc", password=None), True).competitor
    cy = set_consent(UserFactory(username="cy-pc", password=None), True).competitor
    uli = ensure_person(UserFactory(username="uli-pc", password=None)).competitor
    lobster = BotFactory(name="lobster", mode="pull")
    theirs = finished_game([uli, lobster.competitor, CompetitorFactory()], [1, 2, 3])
    # These rows are there before the test begins: their bumps, waiting for a commit the
    # test's transaction never makes, would go out with the test's first one.
    pagecache.discard_pending()
    pagecache_bumps.discard_pending()
    return World(ana, cy, crab1, crab2, uli, lobster, theirs)


def bot_path(bot: Bot) -> str:
    return f"/bots/{bot.owner.username}/{bot.name}/"


def unrelated(world: World) -> list[str]:
    """Pages no write of these tests shows on (but recompute: see there)."""
    return [
        "/people/uli-pc/",
        bot_path(world.lobster),
        "/leaderboards/batavia/",
        "/api/v1/leaderboards/batavia/",
        f"/games/{world.theirs.pk}/",
    ]


def warm(client: Client, paths: list[str]) -> dict[str, bytes]:
    """Each page rendered and stored: its second request is a hit. Their content."""
    pages = {}
    for path in paths:
        first = client.get(path)
        assert first.status_code == 200, path
        assert client.get(path).get(HIT) == "hit", path
        pages[path] = first.content
    return pages


def assert_hits(client: Client, paths: list[str]) -> None:
    for path in paths:
        assert client.get(path).get(HIT) == "hit", f"{path} was emptied"


def fresh(client: Client, path: str) -> str:
    """The page, which must be rendered afresh (not served from the cache)."""
    page = client.get(path)
    assert page.status_code == 200 and page.get(HIT) == "miss", f"{path} was served stale"
    return page.content.decode()


def test_creating_a_game_empties_the_lists_and_its_competitors_pages_only(
    world: World, client: Client, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    monkeypatch.setattr(creation, "schedule_advance", lambda game_id: None)  # no referee here
    shown = ["/", "/games/", "/people/ana-pc/", bot_path(world.crab1), bot_path(world.crab2)]
    shown.append("/leaderboards/manila/")  # its newest games
    warm(client, shown + unrelated(world) + ["/leaderboards/", "/api/v1/leaderboards/manila/"])
    with django_capture_on_commit_callbacks(execute=True):
        game = creation.create_game("manila", [world.ana, world.crab2.competitor, world.cy])
    link = f'href="/games/{game.pk}/"'
    for path in ["/", "/games/", "/people/ana-pc/", bot_path(world.crab2), "/leaderboards/manila/"]:
        assert link in fresh(client, path), path
    fresh(client, bot_path(world.crab1))  # another version of the bot that plays
    # Nothing rated yet: the ratings pages keep their stored copy.
    assert_hits(client, [*unrelated(world), "/leaderboards/", "/api/v1/leaderboards/manila/"])


def test_the_referee_finishing_a_game_empties_what_it_shows_with_one_set_many(
    world: World, client: Client, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    seats = [world.ana, world.crab2.competitor, world.cy]
    game = played_game("manila", seats, seed="narrow", plies=6, rated=True)
    shown = ["/", "/games/", "/people/ana-pc/", "/people/cy-pc/"]
    shown += [bot_path(world.crab1), bot_path(world.crab2), "/leaderboards/manila/"]
    shown += ["/leaderboards/", "/api/v1/leaderboards/manila/?format=csv"]
    before = warm(client, shown + unrelated(world))
    assert "No rated game yet" in before["/people/ana-pc/"].decode()
    bumps: list[tuple[str, ...]] = []
    real_bump = pagecache.bump
    monkeypatch.setattr(pagecache, "bump", lambda *names: (bumps.append(names), real_bump(*names)))
    play_to_the_end(game)
    with django_capture_on_commit_callbacks(execute=True):
        assert referee.finish(game.pk)
    assert len(bumps) == 1, "every bump of the finish in one set_many"
    ana = fresh(client, "/people/ana-pc/")
    assert "No rated game yet" not in ana and "global ladder" in ana
    board = fresh(client, "/leaderboards/manila/")
    assert "No rated" not in board and "ana-pc" in board
    assert "ana-pc" in fresh(client, "/leaderboards/")
    assert "ana-pc" in fresh(client, "/api/v1/leaderboards/manila/?format=csv")
    for path in ["/", "/games/", "/people/cy-pc/", bot_path(world.crab2)]:
        assert fresh(client, path) != before[path].decode(), f"{path} shows the result"
    fresh(client, bot_path(world.crab1))  # another version: its owner compares them
    page = fresh(client, f"/games/{game.pk}/")  # public now: stored from here on
    assert "narrow" in page and client.get(f"/games/{game.pk}/").get(HIT) == "hit"
    assert_hits(client, unrelated(world))


def test_applying_a_result_empties_its_ladder_game_and_competitors(
    world: World, client: Client, django_capture_on_commit_callbacks
) -> None:
    game = finished_game([world.ana, world.crab1.competitor, world.cy], [2, 1, 3])
    shown = [f"/games/{game.pk}/", "/people/ana-pc/", bot_path(world.crab1), bot_path(world.crab2)]
    shown += ["/leaderboards/manila/", "/api/v1/leaderboards/manila/", "/leaderboards/"]
    before = warm(client, shown + unrelated(world))
    with django_capture_on_commit_callbacks(execute=True):
        assert apply_game_result(game) > 0
    assert RatingChange.objects.filter(game=game).exists()
    assert "crab-v1" in fresh(client, "/api/v1/leaderboards/manila/")
    assert "crab-v1" in fresh(client, "/leaderboards/manila/")
    assert "crab-v1" in fresh(client, "/leaderboards/")
    assert fresh(client, f"/games/{game.pk}/") != before[f"/games/{game.pk}/"].decode()
    assert "No rated game yet" not in fresh(client, "/people/ana-pc/")
    fresh(client, bot_path(world.crab2))  # the owner compares the versions' ratings
    fresh(client, bot_path(world.crab1))
    assert_hits(client, unrelated(world))


def test_a_recompute_empties_its_ladder_and_every_competitor_and_game_page(
    world: World, client: Client, django_capture_on_commit_callbacks
) -> None:
    game = finished_game([world.ana, world.cy, CompetitorFactory()], [1, 2, 3])
    with django_capture_on_commit_callbacks(execute=True):
        apply_game_result(game)
    pages = ["/leaderboards/manila/", "/people/ana-pc/", "/people/uli-pc/", f"/games/{game.pk}/"]
    pages += [f"/games/{world.theirs.pk}/", bot_path(world.lobster)]
    warm(client, [*pages, "/leaderboards/batavia/"])
    RatingChange.objects.filter(game=game).delete()  # so the recompute changes what is shown
    with django_capture_on_commit_callbacks(execute=True):
        recompute_scope(global_scope("manila"))
    for path in pages:
        fresh(client, path)
    assert_hits(client, ["/leaderboards/batavia/"])


@pytest.mark.parametrize("last_game_ends_by", ["finish", "abort"])
def test_a_duplicate_set_becoming_public_empties_every_game_of_the_set(
    world: World,
    client: Client,
    django_capture_on_commit_callbacks,
    last_game_ends_by: str,
) -> None:
    deal = "the-shared-deal"
    event = Tournament.objects.create(name="Duplicate night", engine="manila", duplicate=True)
    table = Table.objects.create(
        round=Round.objects.create(tournament=event, number=1), number=1, seats=[1, 2, 3]
    )
    done = played_game("manila", [world.ana, world.crab2.competitor, world.cy], seed=deal, plies=6)
    others = CompetitorFactory.create_batch(3)
    running = played_game("manila", others, seed=deal, plies=6)
    Game.objects.filter(pk__in=[done.pk, running.pk]).update(tournament=event, table=table)
    play_to_the_end(done)
    with django_capture_on_commit_callbacks(execute=True):
        assert referee.finish(done.pk)  # while its set still plays: not counted, not public
    path = f"/games/{done.pk}/"
    assert deal not in client.get(path).content.decode()  # private until the set is over
    before = warm(client, ["/people/ana-pc/", bot_path(world.crab1), "/", *unrelated(world)])
    assert "No finished game yet" in before["/people/ana-pc/"].decode()
    with django_capture_on_commit_callbacks(execute=True):
        if last_game_ends_by == "finish":
            play_to_the_end(running)
            assert referee.finish(running.pk)
        else:
            assert abort_unfinished_games(event) == [running.pk]
    # Ana sat only in the finished game, not in the one that ended now.
    assert "No finished game yet" not in fresh(client, "/people/ana-pc/")
    fresh(client, bot_path(world.crab1))
    fresh(client, "/")
    assert deal in fresh(client, path)
    assert client.get(path).get(HIT) == "hit"
    assert_hits(client, unrelated(world))


def test_renaming_a_league_empties_the_pages_that_name_it(
    world: World, client: Client, django_capture_on_commit_callbacks
) -> None:
    league = League.objects.create(name="Old name", slug="old", engine="manila")
    pagecache.discard_pending()  # made before the test, as the world's rows
    warm(client, ["/people/ana-pc/", f"/games/{world.theirs.pk}/", "/api/v1/leaderboards/manila/"])
    with django_capture_on_commit_callbacks(execute=True):
        league.name = "New name"
        league.save()
    fresh(client, "/people/ana-pc/")
    fresh(client, f"/games/{world.theirs.pk}/")
    assert_hits(client, ["/api/v1/leaderboards/manila/"])


def test_a_bots_tokens_are_those_of_every_version_and_no_other_bot(db) -> None:
    owner = UserFactory(username="Versioned", password=None)
    v1 = BotFactory(owner=owner, name="v1")
    v2 = BotFactory(owner=owner, name="v2", previous_version=v1)
    v3 = BotFactory(owner=owner, name="v3", previous_version=v2)
    BotFactory(owner=owner, name="apart")
    person = ensure_person(UserFactory(username="Someone", password=None)).competitor
    names = pagecache_bumps.competitor_names([v2.competitor_id, person.pk])
    assert sorted(names) == sorted(
        [tokens.bot("versioned", n) for n in ("v1", "v2", "v3")] + [tokens.person("someone")]
    )
    assert tokens.bot("Versioned", "v3") in tokens.bot_page(None, "versioned", "V3")
    assert pagecache_bumps.competitor_names([v3.competitor_id]) == pagecache_bumps.competitor_names(
        [v1.competitor_id]
    )


def test_bumps_of_one_transaction_go_out_together_and_a_rollback_misses_none(
    db, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    sent: list[set[str]] = []
    monkeypatch.setattr(pagecache, "bump", lambda *names: sent.append(set(names)))
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        pagecache.bump_on_commit("a")
        pagecache.bump_on_commit("b", later=lambda: ["c"])
    assert len(callbacks) == 2 and sent == [{"a", "b", "c"}]
    with django_capture_on_commit_callbacks(execute=False):  # rolled back: callbacks dropped
        pagecache.bump_on_commit("lost")
    with django_capture_on_commit_callbacks(execute=True):
        pagecache.bump_on_commit("d")
    assert sent[-1] == {"lost", "d"}, "a needless bump, never a missed one"


def test_tokens_that_cannot_be_found_empty_every_page(
    db, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    sent: list[set[str]] = []
    monkeypatch.setattr(pagecache, "bump", lambda *names: sent.append(set(names)))

    def broken() -> list[str]:
        raise RuntimeError("the database went away after the commit")

    with django_capture_on_commit_callbacks(execute=True):
        pagecache.bump_on_commit("results", later=broken)
    assert sent == [{"results", pagecache.EVERYTHING}]


def test_the_owners_log_fragment_follows_its_bots_versions_and_no_other_bot(
    world: World, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    from web.bots import views as owner_views

    rendered: list[int] = []
    real_sections = owner_views._sections
    monkeypatch.setattr(
        owner_views,
        "_sections",
        lambda request, bot: (rendered.append(bot.pk), real_sections(request, bot))[1],
    )
    owner = Client()
    owner.force_login(world.crab2.owner)
    log = f"/bots/{world.crab2.pk}/log/"

    def sections_rendered() -> int:
        before = len(rendered)
        assert owner.get(log).status_code == 200
        return len(rendered) - before

    assert sections_rendered() == 1 and sections_rendered() == 0  # stored, then read
    with django_capture_on_commit_callbacks(execute=True):
        assert apply_game_result(world.theirs) > 0  # Uli's and Lobster's: not this bot's
    assert sections_rendered() == 0
    ours = finished_game([world.ana, world.crab1.competitor, world.cy], [1, 2, 3])
    with django_capture_on_commit_callbacks(execute=True):
        assert apply_game_result(ours) > 0  # an older version's result: the page compares them
    assert sections_rendered() == 1
