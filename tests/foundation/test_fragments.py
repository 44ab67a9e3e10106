"""The pages' ``{% cache %}`` fragments under generational versions (``web.cache``, decision 0032).

A fragment is reused (a second view reads none of its rows), every domain
change shows on the next view through the real services and their signals,
pages that show something else keep their fragments, and a signed-in
visitor's header, CSRF token and messages are their own while the fragments
are shared. The API's anonymous JSON pages vary by ``Accept`` and by who asks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.db import connection, transaction
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client
from django.test.utils import CaptureQueriesContext

from botapi.models import Bot
from games import services as creation
from games.models import Competitor, Game
from games.referee import steps as referee
from people.services import ensure_person, set_consent
from ratings.models import RatingChange
from ratings.services.apply import apply_game_result
from ratings.services.recompute import recompute_scope
from ratings.services.scopes import global_scope
from tests.factories import BotFactory, CompetitorFactory, UserFactory, finished_game
from tests.tournaments.events.test_duplicate_privacy import play_to_the_end
from tests.tournaments.played import played_game
from tournaments.events import rounds
from tournaments.models import Entrant, Tournament
from web.cache import invalidation, versions
from web.sockets import broadcast

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("page_cache")]


@dataclass
class World:
    ana: Competitor  # a person who plays
    cy: Competitor  # a person who plays
    crab1: Bot  # an older version of crab2
    crab2: Bot  # the bot that plays
    uli: Competitor  # a person with their own game, never in ours
    lobster: Bot  # another owner's bot, never in ours


@pytest.fixture
def world(monkeypatch) -> World:
    monkeypatch.setattr(broadcast, "publish", lambda game_id, message: None)
    owner = UserFactory(username="owner-fr", password=None)
    crab1 = BotFactory(owner=owner, name="crab-v1", mode="pull")
    crab2 = BotFactory(owner=owner, name="crab-v2", mode="pull", previous_version=crab1)
    ana = set_consent(UserFactory(username="ana-fr", password=None), True).competitor
    cy = set_consent(UserFactory(username="cy-fr", password=None), True).competitor
    uli = set_consent(UserFactory(username="uli-fr", password=None), True).competitor
    lobster = BotFactory(name="lobster", mode="pull")
    finished_game([uli, lobster.competitor, CompetitorFactory()], [1, 2, 3])
    # Rows made before the test: their bumps wait for a commit the test never makes.
    invalidation.discard_pending()
    return World(ana, cy, crab1, crab2, uli, lobster)


def bot_path(bot: Bot) -> str:
    return f"/bots/{bot.owner.username}/{bot.name}/"


def view(client: Client, path: str) -> tuple[int, str]:
    """(queries, content) of one GET."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(captured), response.content.decode()


def warm(client: Client, paths: list[str]) -> dict[str, tuple[int, str]]:
    """Each page viewed twice: the second view's queries (fragments read) and content."""
    seen = {}
    for page in paths:
        first_queries, first = view(client, page)
        again_queries, again = view(client, page)
        assert again == first, f"{page}: the fragment is not what was rendered"
        assert again_queries < first_queries, f"{page}: its fragment was not reused"
        seen[page] = (again_queries, again)
    return seen


def assert_kept(client: Client, seen: dict[str, tuple[int, str]], paths: list[str]) -> None:
    """These pages still read their fragments: no more queries than warm, the same content."""
    for page in paths:
        assert view(client, page) == seen[page], f"{page} lost its fragment"


def unrelated(world: World) -> list[str]:
    return ["/people/uli-fr/", bot_path(world.lobster), "/leaderboards/batavia/"]


def test_a_fragment_is_reused_and_a_first_view_renders_it(client: Client) -> None:
    finished_game([CompetitorFactory(name="first-fr"), CompetitorFactory()], [1, 2])
    cold, page = view(client, "/games/")
    warm_queries, again = view(client, "/games/")
    assert again == page and "first-fr" in page
    assert warm_queries < cold, "the list's rows are read only when the fragment is missing"
    versions.clear()
    assert view(client, "/games/")[0] == cold, "every fragment retired: rendered again"


def test_creating_a_game_shows_on_the_lists_and_its_competitors_pages(
    world: World, client: Client, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    monkeypatch.setattr(creation, "schedule_advance", lambda game_id: None)  # no referee here
    shown = ["/", "/games/", "/people/ana-fr/", bot_path(world.crab2), bot_path(world.crab1)]
    shown.append("/leaderboards/manila/")
    seen = warm(client, [*shown, *unrelated(world)])
    with django_capture_on_commit_callbacks(execute=True):
        game = creation.create_game("manila", [world.ana, world.crab2.competitor, world.cy])
    link = f'href="/games/{game.pk}/"'
    for page in ["/", "/games/", "/people/ana-fr/", bot_path(world.crab2), "/leaderboards/manila/"]:
        assert link in view(client, page)[1], page
    assert view(client, bot_path(world.crab1))[0] > seen[bot_path(world.crab1)][0], "a version"
    assert_kept(client, seen, unrelated(world))


def test_the_referee_finishing_a_game_shows_on_the_next_view(
    world: World, client: Client, django_capture_on_commit_callbacks
) -> None:
    seats = [world.ana, world.crab2.competitor, world.cy]
    game = played_game("manila", seats, seed="fragment-seed", plies=6, rated=True)
    shown = ["/", "/people/ana-fr/", bot_path(world.crab2), "/leaderboards/manila/"]
    seen = warm(client, [*shown, "/leaderboards/", *unrelated(world)])
    assert "No rated game yet" in seen["/people/ana-fr/"][1]
    play_to_the_end(game)
    with django_capture_on_commit_callbacks(execute=True):
        assert referee.finish(game.pk)
    ana = view(client, "/people/ana-fr/")[1]
    assert "No rated game yet" not in ana and "global ladder" in ana
    assert "ana-fr" in view(client, "/leaderboards/manila/")[1]
    assert "ana-fr" in view(client, "/leaderboards/")[1]
    for page in ["/", bot_path(world.crab2)]:
        assert view(client, page)[1] != seen[page][1], f"{page} shows the result"
    assert_kept(client, seen, unrelated(world))


def test_a_rating_recompute_shows_on_the_next_view(
    world: World, client: Client, django_capture_on_commit_callbacks
) -> None:
    game = finished_game([world.ana, world.cy, CompetitorFactory()], [1, 2, 3])
    with django_capture_on_commit_callbacks(execute=True):
        apply_game_result(game)
    pages = ["/leaderboards/manila/", "/people/ana-fr/", "/people/uli-fr/"]
    seen = warm(client, [*pages, "/leaderboards/batavia/"])
    RatingChange.objects.filter(game=game).delete()  # so the recompute changes what is shown
    with django_capture_on_commit_callbacks(execute=True):
        recompute_scope(global_scope("manila"))
    for page in pages:
        assert view(client, page)[0] > seen[page][0], f"{page} kept a fragment from before"
    assert_kept(client, seen, ["/leaderboards/batavia/"])


def test_an_event_changed_shows_on_its_page_and_the_list(
    world: World, client: Client, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        event = Tournament.objects.create(
            name="Harbour cup", engine="manila", status="entries_open"
        )
        other = Tournament.objects.create(name="Other cup", engine="manila", status="entries_open")
    pages = [f"/tournaments/{event.pk}/", "/tournaments/"]
    seen = warm(client, [*pages, f"/tournaments/{other.pk}/"])
    with django_capture_on_commit_callbacks(execute=True):
        Entrant.objects.create(tournament=event, competitor=world.crab2.competitor, seed_order=1)
    assert "crab-v2" in view(client, f"/tournaments/{event.pk}/")[1]
    assert_kept(client, seen, [f"/tournaments/{other.pk}/"])
    with django_capture_on_commit_callbacks(execute=True):
        event.status_reason = "Held up by the harbour master"
        event.save()
    assert "Held up by the harbour master" in view(client, f"/tournaments/{event.pk}/")[1]
    with django_capture_on_commit_callbacks(execute=True):
        event.name = "Renamed cup"
        event.save()
    assert "Renamed cup" in view(client, "/tournaments/")[1]


def test_an_event_state_written_by_update_shows_on_its_page(
    world: World, client: Client, django_capture_on_commit_callbacks
) -> None:
    """A pairing failure's reason is one guarded UPDATE (no post_save): event_changed retires."""
    with django_capture_on_commit_callbacks(execute=True):
        event = Tournament.objects.create(name="Quay cup", engine="manila", status="running")
    page = f"/tournaments/{event.pk}/"
    warm(client, [page])
    with django_capture_on_commit_callbacks(execute=True):
        rounds._record_failure(event.pk, 2, "no table could be formed.")
    assert "no table could be formed" in view(client, page)[1]


def test_a_rename_shows_on_every_page_that_names_them(
    world: World, client: Client, django_capture_on_commit_callbacks
) -> None:
    game = finished_game([world.ana, world.cy, CompetitorFactory()], [1, 2, 3])
    with django_capture_on_commit_callbacks(execute=True):
        apply_game_result(game)
    warm(client, ["/", "/leaderboards/manila/", "/people/cy-fr/"])
    with django_capture_on_commit_callbacks(execute=True):
        world.ana.name = "ana-renamed"
        world.ana.save()
    for page in ["/", "/leaderboards/manila/", "/people/cy-fr/"]:
        assert "ana-renamed" in view(client, page)[1], page


def _secret(token: str) -> str:
    return _unmask_cipher_token(token)


def test_a_signed_in_visitor_gets_the_shared_fragment_with_their_own_header(world: World) -> None:
    finished_game([world.ana, world.cy], [1, 2])
    visitor = Client()
    cold = view(visitor, "/games/")[0]
    assert view(visitor, "/games/")[0] < cold
    ann, bob = Client(), Client()
    ann.force_login(UserFactory(username="ann-fr", password=None))
    bob.force_login(UserFactory(username="bob-fr", password=None))
    for client, name in ((ann, "ann-fr"), (bob, "bob-fr")):
        warm_queries, page = view(client, "/games/")
        assert warm_queries < cold, "the visitor's fragment serves them too"
        assert name in page and ("bob-fr" if name == "ann-fr" else "ann-fr") not in page
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        assert _secret(token) == client.cookies["csrftoken"].value, "their own CSRF secret"
        listed = page[page.index('<table class="games-table">') :]
        visitor_page = view(visitor, "/games/")[1]
        assert listed == visitor_page[visitor_page.index('<table class="games-table">') :]
    assert "csrfmiddlewaretoken" not in view(visitor, "/games/")[1]


def test_a_message_is_shown_once_on_a_page_whose_fragment_is_cached(world: World) -> None:
    """The owner's log: its sections are a fragment, its messages Django's own, per request."""
    owner = Client()
    owner.force_login(world.crab2.owner)
    log = f"/bots/{world.crab2.pk}/log/"
    cold = view(owner, log)[0]
    assert view(owner, log)[0] < cold, "the sections' fragment is reused"
    owner.post(f"{log}reactivate/")  # an active bot: nothing to do, and a message says so
    said = "crab-v2 is active again"
    assert said in view(owner, log)[1]
    assert said not in view(owner, log)[1], "shown once, then gone"


def test_the_anonymous_json_export_varies_by_accept_and_by_who_asks(
    world: World, client: Client, user, django_capture_on_commit_callbacks
) -> None:
    game = finished_game([world.ana, world.cy, CompetitorFactory()], [1, 2, 3])
    with django_capture_on_commit_callbacks(execute=True):
        apply_game_result(game)
    url = "/api/v1/leaderboards/manila/"
    first = client.get(url)
    with CaptureQueriesContext(connection) as captured:
        again = client.get(url)
    assert again.content == first.content and len(captured) == 0, "kept by cache_page"
    assert "Accept" in again["Vary"]
    csv = client.get(url, HTTP_ACCEPT="text/csv")
    assert csv["Content-Type"].startswith("text/csv"), "Accept is part of the key"
    assert client.get(url + "?system=elo").content != first.content, "so is the query"
    signed_in = Client()
    signed_in.force_login(user)
    with CaptureQueriesContext(connection) as captured:
        assert signed_in.get(url).status_code == 200
    assert len(captured) > 0, "a signed-in caller is answered afresh"
    with django_capture_on_commit_callbacks(execute=True):
        world.ana.name = "ana-exported"
        world.ana.save()
    assert b"ana-exported" in client.get(url).content, "a rename retires the kept answer"


def test_bumps_of_one_transaction_go_out_together_and_a_rollback_misses_none(
    db, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    sent: list[set[str]] = []
    monkeypatch.setattr(versions, "bump", lambda *names: sent.append(set(names)))
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        versions.bump_on_commit("a")
        versions.bump_on_commit("b", later=lambda: ["c"])
    assert len(callbacks) == 2 and sent == [{"a", "b", "c"}]
    with django_capture_on_commit_callbacks(execute=False):  # rolled back: callbacks dropped
        versions.bump_on_commit("lost")
    with django_capture_on_commit_callbacks(execute=True):
        versions.bump_on_commit("d")
    assert sent[-1] == {"lost", "d"}, "a needless bump, never a missed one"


def test_a_lost_version_is_replaced_by_a_new_one(db) -> None:
    from django.core.cache import cache

    before = invalidation.fragments(invalidation.RESULTS).key
    assert invalidation.fragments(invalidation.RESULTS).key == before
    cache.delete(versions.PREFIX + invalidation.RESULTS)
    assert invalidation.fragments(invalidation.RESULTS).key != before


def test_a_bots_names_are_those_of_every_version_and_no_other_bot(db) -> None:
    owner = UserFactory(username="Versioned", password=None)
    v1 = BotFactory(owner=owner, name="v1")
    v2 = BotFactory(owner=owner, name="v2", previous_version=v1)
    v3 = BotFactory(owner=owner, name="v3", previous_version=v2)
    BotFactory(owner=owner, name="apart")
    person = ensure_person(UserFactory(username="Someone", password=None)).competitor
    names = invalidation.competitor_names([v2.competitor_id, person.pk])
    assert sorted(names) == sorted(
        [invalidation.bot("versioned", n) for n in ("v1", "v2", "v3")]
        + [invalidation.person("someone")]
    )
    assert invalidation.competitor_names([v3.competitor_id]) == invalidation.competitor_names(
        [v1.competitor_id]
    )
    assert Game.objects.count() == 0
