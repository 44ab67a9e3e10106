"""The badge's cached "no game can wait" (web.cache.seated): no query for people not playing,
and never a missing badge when one of their games waits, through the real referee."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.creation import create_game
from games.models import Competitor
from games.referee import steps as referee
from games.referee.decisions import Decision
from games.referee.statecache import load_state
from people import services
from tests.factories import CompetitorFactory, UserFactory
from tests.tournaments.played import played_game
from web.cache import seated
from web.people.waiting import games_waiting_for

from .waiting_games import running_game

pytestmark = pytest.mark.django_db

BADGE = 'class="waiting-badge"'


@pytest.fixture
def person():
    return services.ensure_person(UserFactory(username="ana", password=None))


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def seat_queries(run) -> int:
    with CaptureQueriesContext(connection) as queries:
        run()
    return sum("tournaments_seat" in q["sql"] for q in queries.captured_queries)


def others(n: int) -> list[Competitor]:
    return [CompetitorFactory(kind="person", name=f"rival{i}") for i in range(n)]


def test_a_person_with_no_game_not_over_costs_no_seat_query_once_cached(person) -> None:
    played_game("manila", [person.competitor, *others(2)], seed="over")  # finished: not waiting
    client = Client()
    assert seat_queries(lambda: client.force_login(person.user)) == 1  # the answer is cached
    assert seat_queries(lambda: client.get("/tournaments/")) == 0
    assert seat_queries(lambda: client.get("/me/waiting.json")) == 0
    assert games_waiting_for(person.user) == []


def test_a_person_in_a_running_game_still_gets_the_query_every_time(person) -> None:
    game = running_game([person.competitor, *others(2)], mover=0, seed="asks")
    client = signed_in(person.user)
    for _ in range(2):
        assert f"Your move in Manila #{game.pk}" in client.get("/tournaments/").content.decode()
    assert seat_queries(lambda: games_waiting_for(person.user)) == 1


def test_a_seat_saved_for_a_cached_person_shows_at_once(person) -> None:
    client = signed_in(person.user)
    assert BADGE not in client.get("/").content.decode()  # "no game" is cached now
    game = running_game([person.competitor, *others(2)], mover=0, seed="new-seat")
    assert f"Your move in Manila #{game.pk}" in client.get("/").content.decode()


def test_a_competitor_given_to_the_user_bumps(person) -> None:
    stranger = CompetitorFactory(kind="person", name="unclaimed")
    running_game([stranger, *others(2)], mover=0, seed="claimed-later")
    client = signed_in(person.user)
    assert BADGE not in client.get("/").content.decode()
    stranger.user = person.user
    stranger.save()
    assert BADGE in client.get("/").content.decode()


def test_the_timeout_zero_turns_the_cache_off(person, settings) -> None:
    settings.WAITING_SEATED_CACHE_SECONDS = 0
    client = signed_in(person.user)
    client.get("/")
    assert seat_queries(lambda: client.get("/")) == 1


def test_a_stale_answer_stored_across_a_commit_is_never_served(person) -> None:
    """A reader that read the seats before a commit stores under the token the bump replaces."""
    key_user = person.user.pk

    def racing_load() -> bool:
        seated.bump(key_user)  # a game with their seat commits while we read
        return False  # what the reader saw before it

    assert seated.versioned.read(seated.NAME, key_user, racing_load, 60) is False
    calls = []
    seated.versioned.read(seated.NAME, key_user, lambda: calls.append(1) or True, 60)
    assert calls == [1], "the value stored under the replaced token was served"


@pytest.mark.usefixtures("eager_referee")
def test_through_the_referee_the_badge_is_right_on_the_next_page_after_each_move(
    person, django_capture_on_commit_callbacks
) -> None:
    """A person with "no game" cached is seated by ``create_game`` (bulk seats, no signal
    per seat), and the badge follows the moves the referee records."""
    client = signed_in(person.user)
    assert BADGE not in client.get("/").content.decode()  # cached: no game
    rivals = others(2)
    with django_capture_on_commit_callbacks(execute=True):
        game = create_game("manila", [person.competitor, *rivals], seed="referee-path")
    rng = random.Random(3)
    seen = {True: 0, False: 0}
    while min(seen.values()) < 3:  # the person's turn and the others', a few times each
        game.refresh_from_db()
        seat = load_state(game).to_move[0]
        page = client.get("/").content.decode()
        mine = seat == 0
        assert (f"Your move in Manila #{game.pk}" in page) is mine, (game.next_ply, seat)
        seen[mine] += 1
        action = rng.choice(load_state(game).legal_actions(seat))
        with django_capture_on_commit_callbacks(execute=True):  # the referee's advance too
            referee.submit(game.pk, game.next_ply, seat, Decision(action))
