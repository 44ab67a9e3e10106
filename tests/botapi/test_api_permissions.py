"""Owners touch only their own bots; nobody touches any without authenticating.

Every bot endpoint is tried on another user's bot (404, and the database and
the bot's endpoint prove nothing happened) and without credentials (401).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.forms.models import model_to_dict
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from botapi.models import Bot
from games.models import Competitor, Game, Move
from tests.botapi.servers import MisbehavingServer
from tests.factories import BotFactory, GameFactory, UserFactory, seat_bot

pytestmark = pytest.mark.django_db


# (method, path template, body); {bot} and {game} are filled in.
ENDPOINTS = [
    ("get", "/api/v1/bots/{bot}/", None),
    ("patch", "/api/v1/bots/{bot}/", {"name": "stolen", "endpoint_url": "http://127.0.0.1:1/"}),
    ("delete", "/api/v1/bots/{bot}/", None),
    ("post", "/api/v1/bots/{bot}/rotate-secret/", None),
    ("post", "/api/v1/bots/{bot}/rotate-pull-token/", None),
    ("post", "/api/v1/bots/{bot}/ping/", None),
    ("post", "/api/v1/bots/{bot}/suspend/", {"reason": "mine now"}),
    ("post", "/api/v1/bots/{bot}/reactivate/", None),
    ("get", "/api/v1/bots/{bot}/games/", None),
    ("get", "/api/v1/bots/{bot}/games/{game}/moves/", None),
]
ENDPOINT_IDS = [f"{method} {path}" for method, path, _ in ENDPOINTS]


@pytest.fixture
def recording_server() -> Iterator[MisbehavingServer]:
    server = MisbehavingServer().start()
    yield server
    server.stop()


@pytest.fixture
def victim(recording_server):
    """Another user's push bot (suspended, so reactivate would act) with a game and a move."""
    bot = BotFactory(
        endpoint_url=recording_server.url("/ping"), status="suspended", status_reason="paused"
    )
    game = GameFactory(status="running", num_players=2)
    seat_bot(game, bot, 0)
    Move.objects.create(
        game=game, ply=0, seat=0, action={"type": "pass"}, source="bot", request_excerpt="{...}"
    )
    return bot


def snapshot(bot: Bot) -> dict:
    """Everything about the bot that an endpoint could change."""
    fresh = Bot.objects.get(pk=bot.pk)
    return {
        "bot": {**model_to_dict(fresh), "updated_at": fresh.updated_at},
        "competitor": model_to_dict(Competitor.objects.get(pk=bot.competitor_id)),
        "games": list(Game.objects.values()),
        "moves": list(Move.objects.values()),
    }


def call(api: APIClient, method: str, path: str, body, bot: Bot):
    game = bot.competitor.seats.first().game_id
    return getattr(api, method)(path.format(bot=bot.pk, game=game), body, format="json")


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS, ids=ENDPOINT_IDS)
def test_another_users_bot_is_not_found_and_unchanged(method, path, body, victim, recording_server):
    intruder = UserFactory(password=None)
    BotFactory(owner=intruder)  # the intruder has bots of their own
    api = APIClient()
    api.force_authenticate(intruder)
    before = snapshot(victim)
    response = call(api, method, path, body, victim)
    assert response.status_code == 404, response.content
    assert response.json()["code"] == "not_found"
    assert snapshot(victim) == before
    assert recording_server.received == []  # not even pinged


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS, ids=ENDPOINT_IDS)
def test_staff_get_no_special_access_through_the_api(method, path, body, victim):
    api = APIClient()
    api.force_authenticate(UserFactory(password=None, admin=True))
    before = snapshot(victim)
    assert call(api, method, path, body, victim).status_code == 404
    assert snapshot(victim) == before


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS, ids=ENDPOINT_IDS)
def test_unauthenticated_calls_get_401_and_change_nothing(
    method, path, body, victim, recording_server
):
    before = snapshot(victim)
    response = call(APIClient(), method, path, body, victim)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["code"] == "not_authenticated"
    assert snapshot(victim) == before
    assert recording_server.received == []


@pytest.mark.parametrize(("method", "path"), [("get", "/api/v1/bots/"), ("post", "/api/v1/bots/")])
def test_unauthenticated_list_and_register_get_401(method, path):
    response = getattr(APIClient(), method)(
        path, {"name": "x", "engines": ["manila"], "mode": "pull"}, format="json"
    )
    assert response.status_code == 401
    assert not Bot.objects.exists()


def test_a_wrong_token_is_401_and_a_right_one_works(victim):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = api.get(f"/api/v1/bots/{victim.pk}/")
    assert response.status_code == 401
    assert response.json() == {"detail": "Invalid token.", "code": "authentication_failed"}
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=victim.owner).key}")
    assert api.get(f"/api/v1/bots/{victim.pk}/").json()["name"] == victim.name


def test_a_bots_pull_token_is_not_a_user_token(victim):
    """The pull token authenticates a bot on the pull API only, never as its owner here."""
    pull = BotFactory(owner=victim.owner, mode="pull", endpoint_url="")
    from botapi.services import bots as services

    token = services.rotate_pull_token(pull)
    for header in (f"Token {token}", f"Bot {token}"):
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=header)
        assert api.get("/api/v1/bots/").status_code == 401


def test_registration_ignores_no_owner_field(victim):
    """The owner is always the caller; naming someone else is refused, not obeyed."""
    api = APIClient()
    intruder = UserFactory(password=None)
    api.force_authenticate(intruder)
    response = api.post(
        "/api/v1/bots/",
        {"name": "planted", "engines": ["manila"], "mode": "pull", "owner": victim.owner.pk},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {"owner": ["unknown field"]}
    assert not victim.owner.bots.filter(name="planted").exists()
