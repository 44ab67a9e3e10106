"""The "game waiting" badge: the service, the header on every page, and /me/waiting.json."""

from __future__ import annotations

import copy

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Game, Seat
from games.referee import statecache
from people import services
from tests.factories import BotFactory, CompetitorFactory, UserFactory
from tests.tournaments.played import played_game
from web.people.waiting import MAX_GAMES, games_waiting_for

from .waiting_games import running_game, seat_to_move

pytestmark = pytest.mark.django_db

PAGES = ["/", "/leaderboards/", "/leaderboards/manila/", "/tournaments/", "/me/"]
BADGE = 'class="waiting-badge"'


@pytest.fixture
def person():
    return services.ensure_person(UserFactory(username="ana", password=None))


def others(n: int) -> list:
    return [CompetitorFactory(kind="person", name=f"other{i}") for i in range(n)]


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_game_waiting_for_the_person_shows_on_every_page(person) -> None:
    game = running_game([person.competitor, *others(2)], mover=0, seed="every-page")
    client = signed_in(person.user)
    for path in [*PAGES, f"/games/{game.pk}/"]:
        page = client.get(path).content.decode()
        assert BADGE in page, path
        assert f'href="/games/{game.pk}/play/">Your move in Manila #{game.pk}</a>' in page, path
        assert "people/waiting.js" in page, path


def test_no_badge_when_another_seat_is_to_move(person) -> None:
    running_game([person.competitor, *others(2)], mover=1, seed="not-mine")
    page = signed_in(person.user).get("/").content.decode()
    assert BADGE not in page and "Your move" not in page
    assert 'id="waiting"' in page and 'data-count="0" hidden' in page  # the poller's empty box


def test_no_badge_once_the_game_is_finished(person) -> None:
    played_game("manila", [person.competitor, *others(2)], seed="finished")
    assert games_waiting_for(person.user) == []
    assert BADGE not in signed_in(person.user).get("/").content.decode()


def test_a_forfeited_seat_does_not_wait(person) -> None:
    game = running_game([person.competitor, *others(2)], mover=0, seed="forfeit")
    Seat.objects.filter(game=game, position=seat_to_move(game)).update(forfeited=True)
    assert games_waiting_for(person.user) == []


def test_a_bot_the_user_owns_does_not_make_a_game_wait_for_them(person) -> None:
    bot = BotFactory(owner=person.user)
    running_game([bot.competitor, *others(2)], mover=0, seed="bot-seat")
    assert games_waiting_for(person.user) == []


def test_several_games_are_listed_longest_waiting_first(person) -> None:
    first = running_game([person.competitor, *others(2)], mover=0, seed="several-1")
    second = running_game([*others(2), person.competitor], mover=2, seed="several-2")
    Game.objects.filter(pk=first.pk).update(last_progress_at=second.last_progress_at)
    Game.objects.filter(pk=second.pk).update(
        last_progress_at=second.last_progress_at.replace(year=2020)
    )
    assert [g.id for g in games_waiting_for(person.user)] == [second.pk, first.pk]
    page = signed_in(person.user).get("/leaderboards/").content.decode()
    assert "2 games waiting" in page
    assert f'href="/games/{first.pk}/play/"' in page and f'href="/games/{second.pk}/play/"' in page


def test_the_play_page_leaves_its_own_game_out_of_the_badge(person) -> None:
    here = running_game([person.competitor, *others(2)], mover=0, seed="here")
    elsewhere = running_game([person.competitor, *others(2)], mover=0, seed="elsewhere")
    page = signed_in(person.user).get(f"/games/{here.pk}/play/").content.decode()
    assert f"Your move in Manila #{elsewhere.pk}" in page
    assert f"Your move in Manila #{here.pk}" not in page


def test_another_persons_turn_is_not_mine(person) -> None:
    other = services.ensure_person(UserFactory(username="bea", password=None))
    running_game([person.competitor, other.competitor, *others(1)], mover=1, seed="bea")
    assert games_waiting_for(person.user) == []
    assert len(games_waiting_for(other.user)) == 1


def test_anonymous_pages_show_no_badge_and_make_no_extra_query(client, settings) -> None:
    running_game(others(3), mover=0, seed="anon")
    with_badge = []
    for path in PAGES[:-1]:
        with CaptureQueriesContext(connection) as queries:
            page = client.get(path).content.decode()
        assert 'id="waiting"' not in page and "waiting.js" not in page
        with_badge.append(len(queries))
    templates = copy.deepcopy(django_settings.TEMPLATES)
    processors = templates[0]["OPTIONS"]["context_processors"]
    processors.remove("web.people.context_processors.waiting")
    settings.TEMPLATES = templates
    without = []
    for path in PAGES[:-1]:
        with CaptureQueriesContext(connection) as queries:
            client.get(path)
        without.append(len(queries))
    assert with_badge == without


def queries_of_home(user) -> int:
    client = signed_in(user)
    statecache._entries.clear()  # cold: the moves must be read
    with CaptureQueriesContext(connection) as queries:
        assert BADGE in client.get("/tournaments/").content.decode()
    return len(queries)


def test_a_signed_in_page_costs_the_same_few_queries_for_one_game_or_many(person) -> None:
    game = running_game([person.competitor, *others(2)], mover=0, seed="one")
    one = queries_of_home(person.user)
    for i in range(5):
        running_game([person.competitor, *others(2)], mover=0, seed=f"many-{i}")
    many = queries_of_home(person.user)
    assert one == many, (one, many)
    statecache._entries.clear()
    with CaptureQueriesContext(connection) as queries:
        assert games_waiting_for(person.user)[0].id == game.pk
    assert len(queries) == 2  # the running seats, then every game's moves at once
    with CaptureQueriesContext(connection) as queries:
        assert len(games_waiting_for(person.user)) == 6
    assert len(queries) == 1  # the state cache is current now


def test_the_running_games_looked_at_are_capped(person) -> None:
    for i in range(MAX_GAMES + 2):
        running_game([person.competitor, *others(2)], mover=0, seed=f"cap-{i}", plies=4)
    assert len(games_waiting_for(person.user)) == MAX_GAMES


def test_waiting_json_needs_a_signed_in_user(client) -> None:
    response = client.get("/me/waiting.json")
    assert response.status_code == 403
    assert response.json() == {"error": "sign in to see the games waiting for you"}
    assert response["Cache-Control"] == "no-store"


def test_waiting_json_lists_the_games_waiting(person) -> None:
    game = running_game([person.competitor, *others(2)], mover=0, seed="json")
    running_game([person.competitor, *others(2)], mover=1, seed="json-not-mine")
    response = signed_in(person.user).get("/me/waiting.json")
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    [entry] = response.json()["games"]
    assert entry["id"] == game.pk and entry["engine"] == "manila"
    assert entry["url"] == f"/games/{game.pk}/play/"
    assert entry["since"] == game.last_progress_at.isoformat()
    assert entry["label"] == f"Manila #{game.pk}"


def test_waiting_json_is_empty_for_a_user_without_a_person(client) -> None:
    client.force_login(UserFactory(username="staffer", password=None))
    assert client.get("/me/waiting.json").json() == {"games": []}
    assert client.post("/me/waiting.json").status_code == 405
