"""Registering, listing, changing and deleting bots through /api/v1/bots/."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import override_settings
from harbormaster_bot import serve_in_background
from rest_framework.test import APIClient

from botapi.models import Bot, hash_pull_token
from games.models import Competitor
from tests.botapi.servers import unused_port
from tests.factories import BotFactory, GameFactory, seat_bot

pytestmark = pytest.mark.django_db


BOTS = "/api/v1/bots/"


@pytest.fixture
def closed_url() -> str:
    """A loopback endpoint where nothing listens: registration works, its ping fails fast."""
    return f"http://127.0.0.1:{unused_port()}/"


@pytest.fixture
def live_bot() -> Iterator:
    """A real SDK bot on loopback whose secret is not the one the server will issue."""
    with serve_in_background(
        lambda turn: 0, secret="not-the-registered-one", name="sdkbot", version="3.1"
    ) as running:
        yield running


def register(api: APIClient, **fields):
    body = {"name": "alpha", "engines": ["manila"], "endpoint_url": "http://127.0.0.1:9/"}
    body.update(fields)
    return api.post(BOTS, body, format="json")


# ------------------------------------------------------------ register
def test_register_creates_bot_and_competitor_and_shows_the_secret_once(api, user, closed_url):
    response = register(api, name="alpha", engines=["manila", "batavia"], endpoint_url=closed_url)
    assert response.status_code == 201, response.json()
    body = response.json()
    bot = Bot.objects.get(pk=body["id"])
    assert bot.owner == user
    assert body["engines"] == ["batavia", "manila"]
    assert body["signing_secret"] == bot.signing_secret
    assert body["signing_secret"].startswith("hms_") and len(body["signing_secret"]) > 40
    assert body["pull_token"] is None and not bot.has_pull_token
    assert body["status"] == "active"
    competitor = Competitor.objects.get(pk=body["competitor"])
    assert (competitor.kind, competitor.user, competitor.name) == ("bot", user, f"{user}/alpha")
    assert bot.competitor == competitor
    # never again: neither the detail nor the list shows the secret
    detail = api.get(f"{BOTS}{bot.pk}/").json()
    listed = api.get(BOTS).json()["results"][0]
    for shown in (detail, listed):
        assert "signing_secret" not in shown
        assert bot.signing_secret not in str(shown)


def test_register_pings_a_push_bot_and_records_the_failure(api, closed_url):
    body = register(api, endpoint_url=closed_url).json()
    health = body["health"]
    assert health["last_ping_ok"] is False
    assert health["last_ping_at"] is not None
    assert "connection_error" in health["last_ping_detail"]


def test_register_pings_a_live_bot_which_refuses_an_unknown_secret(api, live_bot):
    body = register(api, endpoint_url=live_bot.url).json()
    # The bot does not know its secret yet, so it answers 401: an http_status fault.
    assert body["health"]["last_ping_ok"] is False
    assert "http_status" in body["health"]["last_ping_detail"]
    assert "401" in body["health"]["last_ping_detail"]


def test_register_pull_bot_gets_a_pull_token_and_needs_no_endpoint(api):
    response = api.post(BOTS, {"name": "puller", "engines": ["grog_island"], "mode": "pull"})
    assert response.status_code == 201, response.json()
    body = response.json()
    bot = Bot.objects.get(pk=body["id"])
    assert body["pull_token"].startswith("hmp_")
    assert bot.pull_token_hash == hash_pull_token(body["pull_token"])
    assert body["pull_token"] not in str(bot.__dict__)  # only the hash is stored
    assert body["has_pull_token"] is True
    assert body["pull_token_hint"] == body["pull_token"][:10]
    assert body["health"]["last_ping_at"] is None  # pull bots are never contacted


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"engines": []}, "engines", "empty"),
        ({"engines": ["chess"]}, "engines", "chess"),
        ({"engines": ["manila", "manila"]}, "engines", "more than once"),
        ({"name": "has spaces"}, "name", "letters"),
        ({"endpoint_url": ""}, "endpoint_url", "push bot needs an endpoint"),
        ({"endpoint_url": "ftp://127.0.0.1/"}, "endpoint_url", "http:// or https://"),
        ({"endpoint_url": "http://user:pw@127.0.0.1/"}, "endpoint_url", "user name or password"),
        ({"endpoint_url": "http://10.1.2.3/"}, "endpoint_url", "private address 10.1.2.3"),
        ({"endpoint_url": "http://169.254.169.254/"}, "endpoint_url", "link-local"),
        ({"max_concurrent_games": 0}, "max_concurrent_games", "greater than or equal to 1"),
        ({"max_concurrent_games": 65}, "max_concurrent_games", "less than or equal to 64"),
        ({"mode": "carrier-pigeon"}, "mode", "not a valid choice"),
        ({"status": "disabled"}, "status", "read-only"),
        ({"signing_secret": "mine"}, "signing_secret", "read-only"),
        ({"colour": "blue"}, "colour", "unknown field"),
    ],
)
def test_register_refuses_bad_input_naming_the_field(api, fields, field, words):
    response = register(api, **fields)
    assert response.status_code == 400
    errors = response.json()
    assert list(errors) == [field], errors
    assert words.lower() in str(errors[field]).lower()
    assert not Bot.objects.exists()
    assert not Competitor.objects.exists()


def test_an_unknown_engine_is_named_with_its_position(api):
    response = register(api, engines=["manila", "chess"])
    assert response.json() == {"engines": {"1": ['"chess" is not a valid choice.']}}


def test_a_body_that_is_not_an_object_or_not_json_is_a_clear_400(api):
    as_list = api.post(BOTS, [{"name": "x"}], format="json")
    assert as_list.status_code == 400
    assert "expected a dictionary" in as_list.json()["non_field_errors"][0].lower()
    broken = api.generic("POST", BOTS, '{"name": ', content_type="application/json")
    assert broken.status_code == 400
    assert broken.json()["code"] == "parse_error"
    assert "JSON parse error" in broken.json()["detail"]


def test_register_missing_fields_are_each_named(api):
    response = api.post(BOTS, {}, format="json")
    assert response.status_code == 400
    assert set(response.json()) == {"name", "engines"}


def test_register_refuses_a_name_the_owner_already_uses(api, user):
    BotFactory(owner=user, name="alpha")
    response = register(api, name="alpha")
    assert response.status_code == 400
    assert response.json() == {"name": ["you already have a bot named 'alpha'"]}
    assert Bot.objects.count() == 1


def test_two_owners_may_use_the_same_name(api):
    BotFactory(name="alpha")
    assert register(api, name="alpha").status_code == 201


@override_settings(BOT_ENDPOINT_ALLOW=[])
def test_production_policy_refuses_loopback_by_name_and_address(api):
    for url, words in (
        ("http://localhost:8080/", "resolves to loopback"),
        ("http://127.0.0.1:8080/", "loopback address 127.0.0.1"),
        ("http://[::1]:8080/", "loopback address ::1"),
    ):
        response = register(api, endpoint_url=url)
        assert response.status_code == 400
        assert words in response.json()["endpoint_url"][0]
    assert not Bot.objects.exists()


@override_settings(BOT_ENDPOINT_ALLOW=["10.0.0.0/8"])
def test_allowlisted_network_is_accepted(api):
    response = register(api, endpoint_url="http://10.9.8.7:8000/bot", mode="push")
    assert response.status_code == 201, response.json()
    assert response.json()["endpoint_url"] == "http://10.9.8.7:8000/bot"


# ---------------------------------------------------------------- list
def test_list_shows_only_own_bots_paginated(api, user):
    mine = [BotFactory(owner=user, name=f"b{i:02}") for i in range(3)]
    BotFactory(name="someone-elses")
    body = api.get(BOTS, {"page_size": 2}).json()
    assert body["count"] == 3
    assert [b["name"] for b in body["results"]] == ["b00", "b01"]
    assert body["next"] is not None
    second = api.get(BOTS, {"page_size": 2, "page": 2}).json()
    assert [b["id"] for b in second["results"]] == [mine[2].pk]


def test_list_filters_by_status_mode_engine_and_search(api, user):
    BotFactory(owner=user, name="manila-push", engines=["manila"])
    BotFactory(owner=user, name="batavia-pull", engines=["batavia"], mode="pull")
    BotFactory(owner=user, name="both-off", engines=["batavia", "manila"], status="suspended")

    def names(**params):
        return sorted(b["name"] for b in api.get(BOTS, params).json()["results"])

    assert names(engine="manila") == ["both-off", "manila-push"]
    assert names(mode="pull") == ["batavia-pull"]
    assert names(status="suspended") == ["both-off"]
    assert names(engine="batavia", status="active") == ["batavia-pull"]
    assert names(search="push") == ["manila-push"]
    assert [b["name"] for b in api.get(BOTS, {"ordering": "-name"}).json()["results"]] == [
        "manila-push",
        "both-off",
        "batavia-pull",
    ]


def test_list_refuses_a_bad_filter_naming_it(api):
    response = api.get(BOTS, {"engine": "chess"})
    assert response.status_code == 400
    assert "chess" in response.json()["engine"][0]


# -------------------------------------------------------------- update
def test_patch_changes_fields_and_renames_the_competitor(api, user):
    bot = BotFactory(owner=user, name="old")
    response = api.patch(
        f"{BOTS}{bot.pk}/",
        {"name": "new", "engines": ["cargo_noir"], "max_concurrent_games": 9},
        format="json",
    )
    assert response.status_code == 200, response.json()
    bot.refresh_from_db()
    assert (bot.name, bot.engines, bot.max_concurrent_games) == ("new", ["cargo_noir"], 9)
    assert bot.competitor.name == f"{user}/new"


def test_patch_checks_the_endpoint_with_the_ssrf_guard(api, user):
    bot = BotFactory(owner=user)
    response = api.patch(f"{BOTS}{bot.pk}/", {"endpoint_url": "http://192.168.1.1/"})
    assert response.status_code == 400
    assert "private address 192.168.1.1" in response.json()["endpoint_url"][0]
    bot.refresh_from_db()
    assert bot.endpoint_url == "http://127.0.0.1:9/bot"


def test_patch_refuses_status_by_name(api, user):
    bot = BotFactory(owner=user, status="suspended", status_reason="faults")
    response = api.patch(f"{BOTS}{bot.pk}/", {"status": "active"}, format="json")
    assert response.status_code == 400
    assert "reactivate" in response.json()["status"][0]
    bot.refresh_from_db()
    assert bot.status == "suspended"


def test_put_is_not_offered(api, user):
    bot = BotFactory(owner=user)
    response = api.put(f"{BOTS}{bot.pk}/", {"name": "x", "engines": ["manila"]}, format="json")
    assert response.status_code == 405


def test_switching_to_push_needs_an_endpoint_and_revokes_the_pull_token(api, user):
    bot = BotFactory(owner=user, mode="pull", endpoint_url="", pull_token_hash="ab" * 32)
    response = api.patch(f"{BOTS}{bot.pk}/", {"mode": "push"}, format="json")
    assert response.status_code == 400
    assert "endpoint" in response.json()["endpoint_url"][0]
    response = api.patch(
        f"{BOTS}{bot.pk}/", {"mode": "push", "endpoint_url": "http://127.0.0.1:9/"}, format="json"
    )
    assert response.status_code == 200
    bot.refresh_from_db()
    assert (bot.mode, bot.pull_token_hash) == ("push", "")


def test_switching_to_pull_leaves_the_token_to_rotate_pull_token(api, user):
    bot = BotFactory(owner=user)
    body = api.patch(f"{BOTS}{bot.pk}/", {"mode": "pull"}, format="json").json()
    assert (body["mode"], body["has_pull_token"]) == ("pull", False)
    token = api.post(f"{BOTS}{bot.pk}/rotate-pull-token/").json()["pull_token"]
    bot.refresh_from_db()
    assert bot.pull_token_matches(token)


# -------------------------------------------------------------- delete
def test_delete_a_bot_that_never_played_removes_it_and_its_competitor(api, user):
    bot = BotFactory(owner=user)
    response = api.delete(f"{BOTS}{bot.pk}/")
    assert response.status_code == 204
    assert not Bot.objects.filter(pk=bot.pk).exists()
    assert not Competitor.objects.filter(pk=bot.competitor_id).exists()


def test_delete_a_bot_with_games_is_a_clear_409_and_keeps_everything(api, user):
    bot = BotFactory(owner=user)
    seat_bot(GameFactory(), bot, 0)
    response = api.delete(f"{BOTS}{bot.pk}/")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "has_games"
    assert "played 1 game" in body["detail"] and "suspend" in body["detail"].lower()
    assert Bot.objects.filter(pk=bot.pk).exists()
    assert Competitor.objects.filter(pk=bot.competitor_id).exists()
