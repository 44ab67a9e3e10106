"""The tournament page's check-in buttons (issue #31, point 7, on the public side).

A signed-in person gets a button for their own entry and one per entered bot
of theirs while an event that asks for check-in has entries open; each goes
through ``events.check_in`` as the API does, and a refusal is a sentence on
the page that changed nothing.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from people.services import set_consent
from tests.factories import BotFactory, UserFactory
from tournaments import events
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Tournament:
    event = Tournament.objects.create(
        name="Club night", engine="manila", format="swiss", table_size=3, min_table_size=3,
        check_in=True,
    )  # fmt: skip
    events.open_entries(event)
    return event


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(client: Client, event: Tournament) -> str:
    return client.get(reverse("tournaments:tournament", args=[event.pk])).content.decode()


def post(client: Client, event: Tournament, entrant: object) -> str:
    url = reverse("tournaments:check-in", args=[event.pk])
    return client.post(url, {"entrant": entrant}, follow=True).content.decode()


def test_an_owner_checks_in_each_bot_and_a_person_themselves(event) -> None:
    user = UserFactory(password=None)
    person = set_consent(user, True).competitor
    bots = [BotFactory(owner=user), BotFactory(owner=user)]
    other = BotFactory()
    mine = [events.enter(event, person, by=user)]
    mine += [events.enter(event, bot.competitor, by=user) for bot in bots]
    theirs = events.enter(event, other.competitor, by=other.owner)
    client = signed_in(user)
    html = page(client, event)
    for entry in mine:
        assert f'name="entrant" value="{entry.pk}"' in html
        assert f"Check in {entry.competitor.name}" in html
    assert f'value="{theirs.pk}"' not in html, "no button for another owner's bot"
    html = post(client, event, mine[1].pk)
    assert f"{bots[0].competitor.name} is checked in." in html
    assert f"{bots[0].competitor.name}: checked in." in html
    done = Entrant.objects.get(pk=mine[1].pk).checked_in_at
    assert done is not None
    assert Entrant.objects.get(pk=mine[0].pk).checked_in_at is None
    post(client, event, mine[1].pk)
    assert Entrant.objects.get(pk=mine[1].pk).checked_in_at == done, "again changes nothing"


def test_another_owners_entry_is_refused_with_a_sentence(event) -> None:
    other = BotFactory()
    theirs = events.enter(event, other.competitor, by=other.owner)
    html = post(signed_in(UserFactory(password=None)), event, theirs.pk)
    assert "may check it in." in html
    assert Entrant.objects.get(pk=theirs.pk).checked_in_at is None
    html = post(signed_in(UserFactory(password=None)), event, "nonsense")
    assert "That entry is not in Club night: reload the page." in html


def test_no_button_without_check_in_or_once_entries_close(event) -> None:
    bot = BotFactory()
    entry = events.enter(event, bot.competitor, by=bot.owner)
    client = signed_in(bot.owner)
    Tournament.objects.filter(pk=event.pk).update(check_in=False)
    assert "Check in" not in page(client, event)
    html = post(client, event, entry.pk)
    assert "does not ask for check-in" in html
    assert Entrant.objects.get(pk=entry.pk).checked_in_at is None


def test_an_anonymous_visitor_is_sent_to_sign_in(event) -> None:
    response = Client().post(reverse("tournaments:check-in", args=[event.pk]), {"entrant": 1})
    assert response.status_code == 302 and "login" in response["Location"]
