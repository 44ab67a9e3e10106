"""The arena endpoints: only a bot's owner puts it in or takes it out."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import BotFactory, UserFactory
from tournaments.events import arena
from tournaments.models import ArenaEntry, League

pytestmark = pytest.mark.django_db


def client_of(user) -> APIClient:
    """A client with the user's API token, as a bot owner's script would call."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def entries() -> list[dict]:
    return list(ArenaEntry.objects.order_by("pk").values())


@pytest.fixture
def bot():
    return BotFactory()


@pytest.fixture
def owner(bot) -> APIClient:
    return client_of(bot.owner)


def url(league, bot_id=None) -> str:
    base = f"/api/v1/leagues/{league.slug}/arena/"
    return base if bot_id is None else f"{base}{bot_id}/"


def test_the_owner_puts_a_bot_in_and_takes_it_out(league, bot, owner) -> None:
    answer = owner.post(url(league), {"bot": bot.pk}, format="json")
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["bot"] == bot.pk and body["league"] == league.slug
    assert body["name"] == bot.competitor.name
    assert body["active"] and not body["share_tables_with_own_bots"]
    assert body["waiting_since"] and body["games_played"] == 0
    again = owner.post(url(league), {"bot": bot.pk, "share_tables_with_own_bots": True})
    assert again.status_code == 200 and again.json()["share_tables_with_own_bots"]
    assert [e["bot"] for e in owner.get(url(league)).json()] == [bot.pk]
    assert owner.delete(url(league, bot.pk)).status_code == 204
    assert not ArenaEntry.objects.get().active
    assert owner.delete(url(league, bot.pk)).status_code == 404, "not in the arena any more"
    assert owner.post(url(league), {"bot": bot.pk}).status_code == 201, "back in"


def test_nobody_else_enters_or_removes_a_bot(league, bot, owner) -> None:
    stranger = client_of(UserFactory(password=None))
    staff = client_of(UserFactory(password=None, is_staff=True))
    for other in (stranger, staff):
        answer = other.post(url(league), {"bot": bot.pk})
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert entries() == []
    owner.post(url(league), {"bot": bot.pk})
    before = entries()
    for other in (stranger, staff):
        assert other.delete(url(league, bot.pk)).status_code == 404
        assert other.get(url(league)).json() == [], "others do not see your entries"
    assert entries() == before


def test_anonymous_calls_are_refused(league, bot) -> None:
    anonymous = APIClient()
    assert anonymous.get(url(league)).status_code == 401
    assert anonymous.post(url(league), {"bot": bot.pk}).status_code == 401
    assert anonymous.delete(url(league, bot.pk)).status_code == 401
    assert entries() == []


def test_refusals_say_why_and_change_nothing(league, owner, bot) -> None:
    assert owner.post("/api/v1/leagues/nope/arena/", {"bot": bot.pk}).status_code == 404
    assert owner.post(url(league), {"bot": 10**9}).status_code == 404
    unknown = owner.post(url(league), {"bot": bot.pk, "colour": "red"})
    assert unknown.status_code == 400 and unknown.json() == {"colour": ["unknown field"]}
    bot.status = "suspended"
    bot.save()
    suspended = owner.post(url(league), {"bot": bot.pk})
    assert suspended.status_code == 409 and suspended.json()["code"] == "not_eligible"
    League.objects.filter(pk=league.pk).update(arena_enabled=False)
    closed = owner.post(url(league), {"bot": bot.pk})
    assert closed.status_code == 409 and closed.json()["code"] == "arena_closed"
    assert entries() == []


def test_the_owner_sees_entries_that_left_too(league, owner, bot) -> None:
    entry = arena.join(league, bot.competitor, by=bot.owner)
    arena.leave(entry)
    [listed] = owner.get(url(league)).json()
    assert listed["bot"] == bot.pk and listed["active"] is False


def test_the_schema_documents_the_arena_endpoints(client) -> None:
    schema = client.get("/api/v1/schema/?format=json").json()
    paths = schema["paths"]
    assert set(paths["/api/v1/leagues/{slug}/arena/"]) >= {"get", "post"}
    post = paths["/api/v1/leagues/{slug}/arena/"]["post"]
    assert {"200", "201", "400", "401", "404", "409"} <= set(post["responses"])
    delete = paths["/api/v1/leagues/{slug}/arena/{bot_id}/"]["delete"]
    assert {"204", "401", "404"} <= set(delete["responses"])
