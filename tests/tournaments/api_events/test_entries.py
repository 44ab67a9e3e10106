"""An owner enters and withdraws their bot through the API while entries are open.

Every refusal is checked to change nothing: the tournament's entrants are
compared before and after.
"""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from botapi.models import Bot
from tests.factories import BotFactory, LeagueFactory, UserFactory
from tests.tournaments.pages.builders import make_event
from tournaments.models import Entrant, League, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_event():
    return make_event(entrants=2, played=0, rounds=3).tournament


@pytest.fixture
def owner_api(user) -> APIClient:
    """The bot owner's client, with a real token as a bot author would use."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def entries(t: Tournament) -> list[tuple]:
    return list(
        Entrant.objects.filter(tournament=t)
        .order_by("pk")
        .values_list("pk", "competitor_id", "status", "reason", "seed_order")
    )


def enter(client: APIClient, t: Tournament, body) -> tuple[int, dict]:
    response = client.post(f"/api/v1/tournaments/{t.pk}/entries/", body, format="json")
    return response.status_code, response.json()


def test_the_owner_enters_their_bot(owner_api, user, open_event) -> None:
    bot = BotFactory(owner=user)
    status, body = enter(owner_api, open_event, {"bot": bot.pk})
    assert status == 201, body
    entrant = Entrant.objects.get(tournament=open_event, competitor=bot.competitor)
    assert entrant.status == Entrant.Status.ACTIVE and entrant.entered_by == user
    assert body == {
        "id": entrant.pk,
        "competitor_id": bot.competitor_id,
        "name": bot.competitor.name,
        "kind": "bot",
        "seed_order": entrant.seed_order,
        "status": "active",
        "reason": "",
    }


def test_anonymous_callers_enter_nothing(open_event) -> None:
    bot = BotFactory()
    before = entries(open_event)
    status, body = enter(APIClient(), open_event, {"bot": bot.pk})
    assert status == 401 and body["code"] == "not_authenticated"
    response = APIClient().delete(f"/api/v1/tournaments/{open_event.pk}/entries/{bot.pk}/")
    assert response.status_code == 401
    assert entries(open_event) == before


def test_someone_elses_bot_is_refused_like_a_missing_one(api, open_event) -> None:
    theirs = BotFactory(owner=UserFactory(password=None))
    before = entries(open_event)
    status, body = enter(api, open_event, {"bot": theirs.pk})
    missing_status, missing = enter(api, open_event, {"bot": theirs.pk + 1000})
    assert status == missing_status == 400
    assert body == {"bot": [f"no bot {theirs.pk} among yours"]}
    assert missing == {"bot": [f"no bot {theirs.pk + 1000} among yours"]}
    assert entries(open_event) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "non_field_errors"),  # neither bot nor person
        ({"bot": "abc"}, "bot"),
        ({"bot": 0}, "bot"),
        ({"bot": 2**80}, "bot"),
        ({"bot": None}, "bot"),
        ({"bot": 1, "seed_order": 1}, "seed_order"),
        ([1], "non_field_errors"),
    ],
)
def test_bad_bodies_name_the_field(api, open_event, body, field: str) -> None:
    before = entries(open_event)
    status, answer = enter(api, open_event, body)
    assert status == 400 and field in answer, answer
    assert entries(open_event) == before


def test_a_body_that_is_not_json_is_refused_in_the_error_shape(api, open_event) -> None:
    response = api.post(
        f"/api/v1/tournaments/{open_event.pk}/entries/", "bot=1", content_type="text/plain"
    )
    assert response.status_code == 415 and response.json()["code"] == "unsupported_media_type"


@pytest.mark.parametrize("problem", ["engine", "suspended", "pool", "twice"])
def test_the_services_refusals_are_400_with_detail_and_code(
    api, user, open_event, problem: str
) -> None:
    bot = BotFactory(owner=user)
    if problem == "engine":
        bot.engines = ["batavia"]
        bot.save()
    elif problem == "suspended":
        bot.status = Bot.Status.SUSPENDED
        bot.save()
    elif problem == "pool":
        open_event.league = LeagueFactory(engine="manila", pool=League.Pool.PEOPLE)
        open_event.save()
    else:
        assert enter(api, open_event, {"bot": bot.pk})[0] == 201
    before = entries(open_event)
    status, body = enter(api, open_event, {"bot": bot.pk})
    assert status == 400, body
    assert set(body) == {"detail", "code"} and body["code"] == "entry_refused"
    assert bot.competitor.name in body["detail"]
    assert entries(open_event) == before


@pytest.mark.parametrize("state", ["running", "paused", "finished", "cancelled"])
def test_entries_closed_is_409(api, user, state: str) -> None:
    t = make_event(played=1, under_way=True, status=state).tournament
    bot = BotFactory(owner=user)
    mine = BotFactory(owner=user)
    Entrant.objects.create(tournament=t, competitor=mine.competitor, seed_order=10)
    before = entries(t)
    status, body = enter(api, t, {"bot": bot.pk})
    assert status == 409 and body["code"] == "entries_closed", body
    gone = api.delete(f"/api/v1/tournaments/{t.pk}/entries/{mine.pk}/")
    assert gone.status_code == 409 and gone.json()["code"] == "entries_closed"
    assert entries(t) == before


def test_drafts_and_unknown_tournaments_are_404(api, user) -> None:
    bot = BotFactory(owner=user)
    draft = make_event(entrants=0, played=0, status=Tournament.Status.DRAFT).tournament
    for tid in (draft.pk, 424242):
        response = api.post(f"/api/v1/tournaments/{tid}/entries/", {"bot": bot.pk}, format="json")
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert not Entrant.objects.filter(competitor=bot.competitor).exists()


def test_the_owner_withdraws_and_may_enter_again(owner_api, user, open_event) -> None:
    bot = BotFactory(owner=user)
    assert enter(owner_api, open_event, {"bot": bot.pk})[0] == 201
    url = f"/api/v1/tournaments/{open_event.pk}/entries/{bot.pk}/"
    response = owner_api.delete(url)
    assert response.status_code == 204 and not response.content
    entrant = Entrant.objects.get(tournament=open_event, competitor=bot.competitor)
    assert entrant.status == Entrant.Status.WITHDRAWN
    assert entrant.reason == "withdrawn by its owner"
    again = owner_api.delete(url)
    assert again.status_code == 404, "nothing left to withdraw"
    status, body = enter(owner_api, open_event, {"bot": bot.pk})
    assert status == 201 and body["id"] == entrant.pk and body["status"] == "active"


def test_only_the_owner_withdraws(api, open_event) -> None:
    theirs = BotFactory(owner=UserFactory(password=None))
    Entrant.objects.create(tournament=open_event, competitor=theirs.competitor, seed_order=5)
    before = entries(open_event)
    for bot_id in (theirs.pk, theirs.pk + 1000, "abc"):
        response = api.delete(f"/api/v1/tournaments/{open_event.pk}/entries/{bot_id}/")
        assert response.status_code == 404, bot_id
        assert response.json()["code"] == "not_found"
    assert entries(open_event) == before


def test_withdrawing_a_bot_that_is_not_entered_is_404(api, user, open_event) -> None:
    bot = BotFactory(owner=user)
    response = api.delete(f"/api/v1/tournaments/{open_event.pk}/entries/{bot.pk}/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
