"""Check-in through the API (#31 point 7): a bot's owner, or a person for themselves."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from people.services import set_consent
from tests.factories import BotFactory, UserFactory
from tournaments import events
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db


def client_of(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


@pytest.fixture
def event() -> Tournament:
    event = Tournament.objects.create(
        name="Club night", engine="manila", format="swiss", table_size=3, min_table_size=3,
        check_in=True,
    )  # fmt: skip
    events.open_entries(event)
    return event


def check_in(client: APIClient, event: Tournament, body: dict) -> tuple[int, dict]:
    response = client.post(f"/api/v1/tournaments/{event.pk}/check-in/", body, format="json")
    return response.status_code, response.json()


def checked(event: Tournament) -> list:
    return list(event.entrants.order_by("pk").values_list("pk", "checked_in_at"))


def test_an_owner_checks_their_bot_in(event) -> None:
    bot = BotFactory()
    events.enter(event, bot.competitor, by=bot.owner)
    status, body = check_in(client_of(bot.owner), event, {"bot": bot.pk})
    assert status == 200, body
    assert body["name"] == bot.competitor.name
    assert Entrant.objects.get(tournament=event).checked_in_at is not None


def test_a_person_checks_themselves_in(event) -> None:
    user = UserFactory(password=None)
    person = set_consent(user, True).competitor  # the event is rated, with bots
    events.enter(event, person, by=user)
    status, body = check_in(client_of(person.user), event, {})
    assert status == 200, body
    assert Entrant.objects.get(tournament=event).checked_in_at is not None


def test_another_owners_bot_is_not_found_and_nothing_changes(event) -> None:
    bot = BotFactory()
    events.enter(event, bot.competitor, by=bot.owner)
    before = checked(event)
    status, _ = check_in(client_of(UserFactory(password=None)), event, {"bot": bot.pk})
    assert status == 404
    assert checked(event) == before


def test_an_event_without_check_in_refuses_with_a_sentence(event) -> None:
    Tournament.objects.filter(pk=event.pk).update(check_in=False)
    bot = BotFactory()
    events.enter(event, bot.competitor, by=bot.owner)
    status, body = check_in(client_of(bot.owner), event, {"bot": bot.pk})
    assert status == 400
    assert body["code"] == "entry_refused" and "does not ask for check-in" in body["detail"]
    assert checked(event)[0][1] is None


def test_after_the_start_it_is_closed(event) -> None:
    bot = BotFactory()
    events.enter(event, bot.competitor, by=bot.owner)
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.RUNNING)
    status, body = check_in(client_of(bot.owner), event, {"bot": bot.pk})
    assert status == 409 and body["code"] == "entries_closed"
