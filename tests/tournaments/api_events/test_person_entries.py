"""A person enters and withdraws only themselves through the API (issue #31, point 1).

``{"person": "<own username>"}`` goes through the same ``events.enter`` as a
bot's entry: the league's pool, the consent a rated event with bots needs,
approval and the event's state. Every refusal changes nothing.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from people import services as person_services
from tests.factories import LeagueFactory, UserFactory
from tests.tournaments.pages.builders import make_event
from tournaments.models import Entrant, League, Tournament

pytestmark = pytest.mark.django_db


def entries(t: Tournament) -> list[tuple]:
    return list(
        Entrant.objects.filter(tournament=t)
        .order_by("pk")
        .values_list("pk", "competitor_id", "status", "reason")
    )


def enter(client: APIClient, t: Tournament, body) -> tuple[int, dict]:
    response = client.post(f"/api/v1/tournaments/{t.pk}/entries/", body, format="json")
    return response.status_code, response.json()


def rated_mixed_event() -> Tournament:
    league = LeagueFactory(engine="manila", pool=League.Pool.MIXED)
    return make_event(entrants=2, played=0, rounds=3, rated=True, league=league).tournament


def test_a_person_with_consent_enters_and_withdraws_themselves(api, user) -> None:
    person_services.set_consent(user, True)
    event = rated_mixed_event()
    status, body = enter(api, event, {"person": user.username})
    assert status == 201, body
    me = person_services.ensure_person(user).competitor
    assert body["kind"] == "person" and body["competitor_id"] == me.pk
    assert body["status"] == "active"
    response = api.delete(f"/api/v1/tournaments/{event.pk}/entries/me/")
    assert response.status_code == 204
    entrant = Entrant.objects.get(tournament=event, competitor=me)
    assert entrant.status == Entrant.Status.WITHDRAWN
    assert api.delete(f"/api/v1/tournaments/{event.pk}/entries/me/").status_code == 404


def test_without_consent_a_rated_event_with_bots_refuses_with_a_sentence(api, user) -> None:
    event = rated_mixed_event()
    before = entries(event)
    status, body = enter(api, event, {"person": user.username})
    assert status == 400 and body["code"] == "entry_refused"
    assert "not accepted bot opponents in rated games" in body["detail"]
    assert "/me/" in body["detail"], "the sentence says where to fix it"
    assert entries(event) == before


def test_no_consent_is_needed_where_no_bot_plays_or_nothing_is_rated(api, user) -> None:
    people_only = make_event(
        entrants=0, played=0, rounds=3, rated=True,
        league=LeagueFactory(engine="manila", pool=League.Pool.PEOPLE),
    ).tournament  # fmt: skip
    assert enter(api, people_only, {"person": user.username})[0] == 201
    unrated = make_event(entrants=2, played=0, rounds=3, rated=False, name="Friendly").tournament
    assert enter(api, unrated, {"person": user.username})[0] == 201


def test_a_person_enters_only_themselves(api, user) -> None:
    other = UserFactory(password=None)
    person_services.set_consent(other, True)
    event = rated_mixed_event()
    before = entries(event)
    status, body = enter(api, event, {"person": other.username})
    assert status == 400
    assert body == {"person": ["a person enters only themselves: send your own username"]}
    for wrong in ({}, {"bot": 1, "person": user.username}):
        status, body = enter(api, event, wrong)
        assert status == 400 and "send one of bot" in str(body), body
    assert entries(event) == before


def test_the_pool_is_checked_the_same_way_for_a_person(api, user) -> None:
    person_services.set_consent(user, True)
    bots_only = make_event(
        entrants=2, played=0, rounds=3,
        league=LeagueFactory(engine="manila", pool=League.Pool.BOTS),
    ).tournament  # fmt: skip
    before = entries(bots_only)
    status, body = enter(api, bots_only, {"person": user.username})
    assert status == 400 and "bots only" in body["detail"]
    assert entries(bots_only) == before


def test_entries_closed_refuse_a_person_too(api, user) -> None:
    person_services.set_consent(user, True)
    running = make_event(entrants=3, played=1, rounds=3).tournament
    before = entries(running)
    status, body = enter(api, running, {"person": user.username})
    assert status == 409 and body["code"] == "entries_closed"
    assert api.delete(f"/api/v1/tournaments/{running.pk}/entries/me/").status_code == 409
    assert entries(running) == before
