"""A bot's visibility (private, challenge, tournament) and the public listing of open bots."""

from __future__ import annotations

import pytest
import yaml
from rest_framework.test import APIClient

from botapi.models import Bot
from games.selectors.rating_rules import DEFAULT_EXAMPLE_BOTS_USERNAME
from tests.factories import BotFactory, UserFactory

pytestmark = pytest.mark.django_db

BOTS = "/api/v1/bots/"
OPEN = "/api/v1/bots/open/"
PUBLIC_FIELDS = {
    "id",
    "name",
    "owner",
    "competitor",
    "engines",
    "visibility",
    "status",
    "house",
    "anchor",
    "challengeable",
}
BAD_VISIBILITY = '"public" is not a visibility; choose one of: private, challenge, tournament.'


def register(api: APIClient, **fields):
    body = {"name": "alpha", "engines": ["manila"], "mode": "pull", **fields}
    return api.post(BOTS, body, format="json")


# ------------------------------------------------------------ the field
def test_a_new_bot_is_private_unless_its_owner_says_otherwise(api) -> None:
    default = register(api, name="quiet")
    assert default.status_code == 201, default.json()
    assert default.json()["visibility"] == "private"
    opened = register(api, name="open", visibility="challenge")
    assert opened.status_code == 201, opened.json()
    assert opened.json()["visibility"] == "challenge"
    assert Bot.objects.get(pk=opened.json()["id"]).visibility == "challenge"


def test_patch_changes_the_visibility(api, user) -> None:
    bot = BotFactory(owner=user)
    for value in ("tournament", "challenge", "private"):
        answer = api.patch(f"{BOTS}{bot.pk}/", {"visibility": value}, format="json")
        assert answer.status_code == 200, answer.json()
        assert answer.json()["visibility"] == value
        bot.refresh_from_db()
        assert bot.visibility == value


def test_a_bad_visibility_is_a_400_naming_the_choices_and_changes_nothing(api, user) -> None:
    refused = register(api, visibility="public")
    assert refused.status_code == 400
    assert refused.json() == {"visibility": [BAD_VISIBILITY]}
    assert not Bot.objects.exists()
    bot = BotFactory(owner=user, visibility="tournament")
    patched = api.patch(f"{BOTS}{bot.pk}/", {"visibility": "public"}, format="json")
    assert patched.status_code == 400
    assert patched.json() == {"visibility": [BAD_VISIBILITY]}
    bot.refresh_from_db()
    assert bot.visibility == "tournament"


def test_nobody_else_can_change_a_bots_visibility(api) -> None:
    theirs = BotFactory(visibility="private")
    answer = api.patch(f"{BOTS}{theirs.pk}/", {"visibility": "challenge"}, format="json")
    assert answer.status_code == 404
    theirs.refresh_from_db()
    assert theirs.visibility == "private"


# ------------------------------------------------------- the open listing
@pytest.fixture
def bots():
    """Alice's bots of every visibility, with everything private filled in, and a house bot."""
    alice = UserFactory(username="alice", password=None)
    house = UserFactory(username=DEFAULT_EXAMPLE_BOTS_USERNAME, password=None)
    private_fields = {
        "mode": "pull",
        "description": "alice-description-text",
        "endpoint_url": "http://127.0.0.1:9/alice-endpoint-path",
        "signing_secret": "hms_alice-signing-secret",
        "pull_token_hint": "hmp_alicehnt",
        "status_reason": "alice-status-reason",
        "last_ping_detail": "alice-ping-detail",
        "last_ping_latency_ms": 4321,
        "max_concurrent_games": 7,
    }
    return {
        "private": BotFactory(
            owner=alice,
            name="hidden",
            visibility="private",
            pull_token_hash="e" * 64,
            **private_fields,
        ),
        "challenge": BotFactory(
            owner=alice,
            name="duelist",
            visibility="challenge",
            pull_token_hash="f" * 64,
            **private_fields,
        ),
        "tournament": BotFactory(
            owner=alice, name="arena", visibility="tournament", engines=["batavia", "manila"]
        ),
        "resting": BotFactory(
            owner=alice, name="resting", visibility="challenge", status="suspended"
        ),
        "house": BotFactory(owner=house, name="greedy", visibility="private"),
    }


@pytest.mark.parametrize("signed_in", [True, False], ids=["another-user", "anonymous"])
def test_the_open_listing_shows_open_bots_and_only_public_fields(bots, signed_in) -> None:
    client = APIClient()
    if signed_in:
        client.force_authenticate(UserFactory(username="bob", password=None))
    answer = client.get(OPEN)
    assert answer.status_code == 200
    entries = {entry["name"]: entry for entry in answer.json()["results"]}
    assert set(entries) == {"arena", "duelist", "greedy", "resting"}
    assert all(set(entry) == PUBLIC_FIELDS for entry in entries.values())
    assert entries["duelist"] == {
        "id": bots["challenge"].pk,
        "name": "duelist",
        "owner": "alice",
        "competitor": "alice/duelist",
        "engines": ["manila"],
        "visibility": "challenge",
        "status": "active",
        "house": False,
        "anchor": None,
        "challengeable": True,
    }
    assert (entries["arena"]["visibility"], entries["arena"]["challengeable"]) == (
        "tournament",
        False,
    )
    assert (entries["resting"]["status"], entries["resting"]["challengeable"]) == (
        "suspended",
        False,
    )
    assert entries["greedy"]["house"] and entries["greedy"]["challengeable"]
    text = answer.content.decode()
    for private in (
        "hidden",
        "alice-description-text",
        "alice-endpoint-path",
        "hms_alice-signing-secret",
        "e" * 64,
        "f" * 64,
        "hmp_alicehnt",
        "alice-status-reason",
        "alice-ping-detail",
        "4321",
    ):
        assert private not in text


def test_one_open_bot_by_id_and_a_private_one_is_404_like_a_missing_one(bots) -> None:
    client = APIClient()
    client.force_authenticate(UserFactory(username="bob", password=None))
    shown = client.get(f"{OPEN}{bots['challenge'].pk}/")
    assert shown.status_code == 200 and set(shown.json()) == PUBLIC_FIELDS
    hidden = client.get(f"{OPEN}{bots['private'].pk}/")
    missing = client.get(f"{OPEN}{Bot.objects.order_by('-pk').first().pk + 1000}/")
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json() == missing.json()


def test_the_owner_too_sees_only_open_bots_in_the_listing(bots) -> None:
    """The listing is the public view; an owner's private bots are under /bots/ only."""
    client = APIClient()
    client.force_authenticate(bots["private"].owner)
    names = {entry["name"] for entry in client.get(OPEN).json()["results"]}
    assert "hidden" not in names and "duelist" in names


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("engine=batavia", {"arena"}),
        ("challengeable=true", {"duelist", "greedy"}),
        ("challengeable=false", {"arena", "resting"}),
        ("status=suspended", {"resting"}),
        ("owner=alice", {"arena", "duelist", "resting"}),
        ("search=duel", {"duelist"}),
        ("search=hidden", set()),
    ],
)
def test_the_open_listing_filters(bots, query, names) -> None:
    answer = APIClient().get(f"{OPEN}?{query}")
    assert answer.status_code == 200, answer.json()
    assert {entry["name"] for entry in answer.json()["results"]} == names


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("engine=chess", "engine"),
        ("status=asleep", "status"),
        ("challengeable=maybe", "challengeable"),
    ],
)
def test_a_bad_filter_of_the_open_listing_is_a_400_naming_it(query, field) -> None:
    answer = APIClient().get(f"{OPEN}?{query}")
    assert answer.status_code == 400
    assert field in answer.json()


def test_the_schema_documents_visibility_and_the_open_listing() -> None:
    schema = yaml.safe_load(APIClient().get("/api/v1/schema/").content)
    assert set(schema["paths"]["/api/v1/bots/open/"]) == {"get"}
    assert set(schema["paths"]["/api/v1/bots/open/{id}/"]) == {"get"}
    components = schema["components"]["schemas"]
    assert components["VisibilityEnum"]["enum"] == ["private", "challenge", "tournament"]
    assert set(components["OpenBot"]["properties"]) == PUBLIC_FIELDS
    assert "visibility" in components["Bot"]["properties"]
    assert "visibility" in components["PatchedBotUpdateRequest"]["properties"]


def test_the_open_listing_costs_the_same_queries_for_any_number_of_bots(
    bots, django_assert_max_num_queries
) -> None:
    """Owners and competitors come with the bots (no query per entry)."""
    BotFactory.create_batch(10, visibility="challenge")
    with django_assert_max_num_queries(2):  # the count and the page
        answer = APIClient().get(OPEN)
    assert answer.json()["count"] == 14
