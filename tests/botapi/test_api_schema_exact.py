"""The schema states what the server enforces, and the server enforces what the schema states."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from botapi.models import Bot
from tests.botapi.servers import unused_port
from tests.factories import BotFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def operation(schema: dict, method: str, path: str) -> dict:
    return schema["paths"][path][method]


def test_bodies_that_refuse_unknown_fields_say_so(schema) -> None:
    components = schema["components"]["schemas"]
    for name in (
        "BotRequest",
        "PatchedBotUpdateRequest",
        "SuspendRequest",
        "TokenRequestRequest",
        "GameCreateRequest",
        "SeatSpecRequest",
        "EntryRequestRequest",
    ):
        assert components[name]["additionalProperties"] is False, name
    move = components["MoveRequestRequest"]
    assert move["oneOf"] == [{"required": ["action"]}, {"required": ["action_index"]}]
    assert "additionalProperties" not in move, "unknown fields of a move are ignored, as documented"


def test_the_frameworks_own_answers_are_documented(schema) -> None:
    expected = {
        ("post", "/api/v1/auth/token/"): {"200", "400", "413", "415", "429"},
        ("post", "/api/v1/bots/"): {"201", "400", "401", "413", "415", "429"},
        ("get", "/api/v1/bots/"): {"200", "400", "401", "404"},
        ("post", "/api/v1/bots/{id}/ping/"): {"200", "401", "404", "409", "429"},
        ("get", "/api/v1/bots/me/turns"): {"200", "400", "401", "409", "429"},
        ("post", "/api/v1/games/{game_id}/moves"): {
            "201", "400", "401", "404", "409", "413", "415"
        },
        ("get", "/api/v1/games/{id}/"): {"200", "401", "404"},
        ("get", "/api/v1/games/{id}/record/"): {"200", "401", "404", "409"},
        ("get", "/api/v1/tournaments/"): {"200", "400", "401", "404"},
        ("get", "/api/v1/tournaments/{id}/standings/"): {"200", "401", "404"},
        ("post", "/api/v1/tournaments/{id}/entries/"): {
            "201", "400", "401", "404", "409", "413", "415"
        },
        ("delete", "/api/v1/tournaments/{id}/entries/{bot_id}/"): {
            "204", "400", "401", "404", "409"
        },
    }  # fmt: skip
    for (method, path), statuses in expected.items():
        responses = operation(schema, method, path)["responses"]
        assert set(responses) == statuses, (method, path, sorted(responses))
        for status in statuses - {"200", "201", "204"}:
            assert "application/json" in responses[status].get("content", {}), (path, status)
    assert operation(schema, "post", "/api/v1/games/")["requestBody"]["content"].keys() == {
        "application/json"
    }


def test_empty_query_values_are_refused_by_name(api) -> None:
    for path, name in (
        ("/api/v1/bots/?status=", "status"),
        ("/api/v1/bots/?engine=", "engine"),
        ("/api/v1/games/?engine=", "engine"),
        ("/api/v1/games/?status=", "status"),
    ):
        response = api.get(path)
        assert response.status_code == 400 and name in response.json(), path
    bot = BotFactory(mode="pull", endpoint_url="")
    from botapi.services import bots as services

    pull = type(api)()
    pull.credentials(HTTP_AUTHORIZATION=f"Bot {services.rotate_pull_token(bot)}")
    response = pull.get("/api/v1/bots/me/turns?wait=")
    assert response.status_code == 400 and "wait" in response.json()


@pytest.mark.parametrize("path", ["/api/v1/games/", "/api/v1/tournaments/"])
@pytest.mark.parametrize("query", ["page=", "page=0", "page=x", "page_size=", "page_size=0",
                                   "page_size=abc", "page_size=201"])  # fmt: skip
def test_pages_are_whole_numbers_in_range(api, path: str, query: str) -> None:
    response = api.get(f"{path}?{query}")
    assert response.status_code == 400, query
    assert query.split("=")[0] in response.json()
    assert api.get(f"{path}?page=1&page_size=200").status_code == 200


def test_a_page_past_the_end_is_404_and_the_game_list_pages_by_cursor(api) -> None:
    assert api.get("/api/v1/tournaments/?page=2").status_code == 404  # past the end
    response = api.get("/api/v1/games/?page=2")  # not the first page again: a loop would not end
    assert response.status_code == 400 and "cursor" in response.json()["page"][0]


def test_only_a_registration_that_pings_counts_against_the_ping_limit(api) -> None:
    """Invalid or pull-mode registrations never contact anyone, so they are not limited."""
    for _ in range(61):
        assert api.post("/api/v1/bots/", {"name": "?", "engines": ["manila"]}).status_code == 400
    for n in range(3):
        body = {"name": f"pull-{n}", "engines": ["manila"], "mode": "pull"}
        assert api.post("/api/v1/bots/", body).status_code == 201
    dead = f"http://127.0.0.1:{unused_port()}/"
    codes = [
        api.post(
            "/api/v1/bots/", {"name": f"push-{n}", "engines": ["manila"], "endpoint_url": dead}
        ).status_code
        for n in range(61)
    ]
    assert codes == [201] * 60 + [429]
    assert not Bot.objects.filter(name="push-60").exists(), (
        "a throttled registration writes nothing"
    )
