"""One gate for seating a person (issue #31, point 2): every path asks ``people.seating``.

A person who never accepted bot opponents in rated games is tried on every
path that can seat them — the admin's arena rows (Leagues → change), the
admin's add-entrants page, the API's entry, the tournament page's button,
the arena's join, the events' own ``enter``, the lobby, and ``create_game``
itself (which the arena's passes and the events' pairing call) — and none
seats them in a rated game with bots: each refuses with a sentence naming
what to fix, and nothing changes.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Game, Seat
from games.selectors.rating_rules import DEFAULT_EXAMPLE_BOTS_USERNAME
from games.services import GameSetupError, create_game
from lobby import services as lobby
from people import services as person_services
from tests.factories import BotFactory, LeagueFactory, UserFactory
from tests.tournaments.admin_form_data import league_form
from tests.tournaments.pages.builders import make_event
from tournaments import events
from tournaments.events import arena
from tournaments.models import ArenaEntry, Entrant, League

pytestmark = pytest.mark.django_db

CONSENT = "not accepted bot opponents in rated games"


@pytest.fixture
def her():
    """A person who said no to bot opponents in rated games (the issue's "she")."""
    return UserFactory(password=None, username="her")


@pytest.fixture
def competitor(her):
    return person_services.set_consent(her, False).competitor


@pytest.fixture
def league():
    return LeagueFactory(engine="manila", pool=League.Pool.MIXED, arena_enabled=True)


@pytest.fixture
def event(league):
    return make_event(entrants=2, played=0, rounds=3, rated=True, league=league).tournament


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(UserFactory(admin=True, password=None))
    return client


def nothing_seated(competitor) -> None:
    assert not Seat.objects.filter(competitor=competitor).exists()


def test_the_admins_arena_rows(staff, league, competitor) -> None:
    url = reverse("admin:tournaments_league_change", args=[league.pk])
    form = league_form(name=league.name, slug=league.slug, pool="mixed", arena_enabled="on") | {
        "arena_entries-TOTAL_FORMS": "1",
        "arena_entries-INITIAL_FORMS": "0",
        "arena_entries-0-competitor": str(competitor.pk),
        "arena_entries-0-active": "on",
    }
    page = staff.post(url, form)
    assert page.status_code == 200
    [error] = page.context["inline_admin_formsets"][0].formset.errors[0]["competitor"]
    assert "only they can enter themselves" in error
    assert not ArenaEntry.objects.exists()
    arena.arena_pass(league, seed="s")
    nothing_seated(competitor)


def test_the_admins_add_entrants_page(staff, event, competitor) -> None:
    url = reverse("admin:tournaments_tournament_add_entrants", args=[event.pk])
    offered = staff.get(url).context["form"].fields["competitors"].queryset
    assert competitor not in offered
    page = staff.post(url, {"competitors": [competitor.pk]})
    assert page.context["form"].errors["competitors"]
    assert not Entrant.objects.filter(competitor=competitor).exists()


def test_the_api(her, event, competitor) -> None:
    api = APIClient()
    api.force_authenticate(her)
    response = api.post(
        f"/api/v1/tournaments/{event.pk}/entries/", {"person": "her"}, format="json"
    )
    assert response.status_code == 400 and CONSENT in response.json()["detail"]
    assert not Entrant.objects.filter(competitor=competitor).exists()


def test_the_tournament_page(her, event, competitor) -> None:
    client = Client()
    client.force_login(her)
    page = client.post(reverse("tournaments:enter", args=[event.pk]), follow=True)
    assert CONSENT in page.content.decode()
    assert not Entrant.objects.filter(competitor=competitor).exists()


def test_the_arena(her, league, competitor) -> None:
    with pytest.raises(arena.ArenaRefused, match=CONSENT):
        arena.join(league, competitor, by=her)
    assert not ArenaEntry.objects.exists()


def test_the_events_enter_even_for_the_service(event, her, competitor) -> None:
    for by in (her, None):  # None: the service itself (the demo, beat) is held to it too
        with pytest.raises(events.EventError, match=CONSENT):
            events.enter(event, competitor, by=by)
    assert not Entrant.objects.filter(competitor=competitor).exists()


def test_the_lobby(her, competitor) -> None:
    house = UserFactory(username=DEFAULT_EXAMPLE_BOTS_USERNAME, password=None)
    bot = BotFactory(owner=house, name="greedy", engines=["manila"])  # a house bot
    with pytest.raises(lobby.LobbyError) as caught:
        lobby.create_table(her, "manila", 3, "standard", True, seats=[bot.pk, None])
    assert caught.value.code == "consent_needed" and "/me/" in caught.value.message
    nothing_seated(competitor)


def test_create_game_the_last_word_for_the_arena_and_the_events(competitor) -> None:
    bots = [BotFactory().competitor for _ in range(2)]
    with pytest.raises(GameSetupError, match=CONSENT):
        create_game("manila", [competitor, *bots], purpose=Game.Purpose.EVENT)
    nothing_seated(competitor)
    unrated = create_game("manila", [competitor, *bots], rated=False)  # no consent needed
    assert not unrated.rated


def test_consent_given_opens_every_door(her, league, event, competitor) -> None:
    person_services.set_consent(her, True)
    assert arena.join(league, competitor, by=her).active
    assert events.enter(event, competitor, by=her).status == Entrant.Status.ACTIVE
    bots = [BotFactory().competitor for _ in range(2)]
    assert create_game("manila", [competitor, *bots]).rated
