"""The tournament page's enter and withdraw buttons (issue #31, point 1).

A signed-in person enters and withdraws only themselves, through the same
``events.enter`` as the API; the page offers the button only where the
service would take the entry and otherwise says why, naming what to fix.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from people import services as person_services
from tests.factories import LeagueFactory, UserFactory
from tests.tournaments.pages.builders import make_event
from tournaments.models import Entrant, League

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    league = LeagueFactory(engine="manila", pool=League.Pool.MIXED)
    return make_event(entrants=2, played=0, rounds=3, rated=True, league=league).tournament


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(client: Client, event) -> str:
    return client.get(reverse("tournaments:tournament", args=[event.pk])).content.decode()


def test_a_person_with_consent_enters_and_withdraws_from_the_page(event) -> None:
    user = UserFactory(password=None)
    me = person_services.set_consent(user, True).competitor
    client = signed_in(user)
    assert f'action="{reverse("tournaments:enter", args=[event.pk])}"' in page(client, event)
    response = client.post(reverse("tournaments:enter", args=[event.pk]), follow=True)
    assert "You are entered in" in response.content.decode()
    assert Entrant.objects.get(tournament=event, competitor=me).status == Entrant.Status.ACTIVE
    html = page(client, event)
    assert f'action="{reverse("tournaments:withdraw", args=[event.pk])}"' in html
    response = client.post(reverse("tournaments:withdraw", args=[event.pk]), follow=True)
    assert "You withdrew from" in response.content.decode()
    assert Entrant.objects.get(tournament=event, competitor=me).status == Entrant.Status.WITHDRAWN


def test_without_consent_the_page_says_what_to_fix_and_a_post_changes_nothing(event) -> None:
    user = UserFactory(password=None)
    person_services.ensure_person(user)
    client = signed_in(user)
    html = page(client, event)
    assert "You cannot enter" in html and "/me/" in html
    assert reverse("tournaments:enter", args=[event.pk]) not in html
    before = list(Entrant.objects.values_list("pk", "status"))
    response = client.post(reverse("tournaments:enter", args=[event.pk]), follow=True)
    assert "not accepted bot opponents in rated games" in response.content.decode()
    assert list(Entrant.objects.values_list("pk", "status")) == before


def test_a_visitor_is_asked_to_sign_in_and_a_bots_only_event_offers_no_button() -> None:
    bots_only = make_event(
        entrants=2, played=0, rounds=3,
        league=LeagueFactory(engine="manila", pool=League.Pool.BOTS),
    ).tournament  # fmt: skip
    assert "to enter" in page(Client(), bots_only)
    response = Client().post(reverse("tournaments:enter", args=[bots_only.pk]))
    assert response.status_code == 302 and "login" in response["Location"]
    user = UserFactory(password=None)
    person_services.set_consent(user, True)
    html = page(signed_in(user), bots_only)
    assert "You cannot enter" in html and "bots only" in html


def test_nothing_to_enter_once_the_event_runs() -> None:
    running = make_event(entrants=3, played=1, rounds=3).tournament
    user = UserFactory(password=None)
    person_services.set_consent(user, True)
    client = signed_in(user)
    assert reverse("tournaments:enter", args=[running.pk]) not in page(client, running)
    before = Entrant.objects.filter(tournament=running).count()
    response = client.post(reverse("tournaments:enter", args=[running.pk]), follow=True)
    assert "Entries to" in response.content.decode() and "are closed" in response.content.decode()
    assert Entrant.objects.filter(tournament=running).count() == before
