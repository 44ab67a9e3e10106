"""Hostile bodies get a clean 4xx in the API's error shape, on every endpoint that reads one."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from botapi.services import bots as services
from tests.factories import BotFactory, UserFactory

pytestmark = pytest.mark.django_db

DEEP = "[" * 5000 + "]" * 5000  # 10 KB


def clients() -> tuple[APIClient, APIClient, APIClient, int]:
    """Anonymous, a user's token and a pull bot's token (all through real authentication)."""
    owner = UserFactory(password=None)
    user = APIClient()
    user.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=owner).key}")
    bot = BotFactory(owner=owner, mode="pull", endpoint_url="")
    pull = APIClient()
    pull.credentials(HTTP_AUTHORIZATION=f"Bot {services.rotate_pull_token(bot)}")
    return APIClient(), user, pull, bot.pk


def every_body_endpoint() -> list[tuple[str, str, str]]:
    anonymous, user, pull, bot_id = clients()
    return [
        (anonymous, "post", "/api/v1/auth/token/"),
        (user, "post", "/api/v1/bots/"),
        (user, "patch", f"/api/v1/bots/{bot_id}/"),
        (user, "post", f"/api/v1/bots/{bot_id}/suspend/"),
        (user, "post", "/api/v1/games/"),
        (pull, "post", "/api/v1/games/1/moves"),
        (pull, "post", "/api/v1/games/1/moves/"),
    ]


def test_deeply_nested_json_is_a_400_parse_error_everywhere() -> None:
    for client, method, path in every_body_endpoint():
        response = getattr(client, method)(path, DEEP, content_type="application/json")
        assert response.status_code == 400, (path, response.content[:200])
        body = response.json()
        assert body["code"] == "parse_error", path
        assert "5000 levels" in body["detail"], path


FORMS = ("application/x-www-form-urlencoded", "multipart/form-data; boundary=b")


def test_only_json_bodies_are_read() -> None:
    """JSON only, except the form ``curl -d`` sends to the token exchange (test_token_form.py)."""
    for client, method, path in every_body_endpoint():
        for content_type in FORMS:
            response = getattr(client, method)(path, "a=1", content_type=content_type)
            if path == "/api/v1/auth/token/" and content_type == FORMS[0]:
                assert response.status_code == 400 and response.json()["a"] == ["unknown field"]
                continue
            assert response.status_code == 415, (path, content_type)
            assert response.json()["code"] == "unsupported_media_type"


def test_a_lone_surrogate_is_refused_before_it_reaches_the_database() -> None:
    _, user, _, bot_id = clients()
    response = user.patch(
        f"/api/v1/bots/{bot_id}/", '{"description": "\\ud800"}', content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


def test_lists_and_objects_are_bounded_before_their_items_are_read() -> None:
    _, user, pull, _ = clients()
    engines = ["manila"] * 10_000
    response = user.post("/api/v1/bots/", {"name": "b", "engines": engines, "mode": "pull"})
    assert response.status_code == 400
    assert response.json()["engines"] == ["Ensure this field has no more than 4 elements."]
    action = {f"k{n}": n for n in range(1000)}
    response = pull.post("/api/v1/games/1/moves", {"ply": 0, "action": {"type": "x", **action}})
    assert response.status_code == 400
    assert response.json()["action"] == [
        "Ensure this object has no more than 32 keys (it has 1001)."
    ]
