"""The OpenAPI schema validates without warnings, and the docs page is served without a CDN."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from rest_framework.test import APIClient

from tests.factories import DEFAULT_PASSWORD, UserFactory

ROOT = Path(__file__).resolve().parents[2]


def test_spectacular_validates_without_warnings(tmp_path) -> None:
    target = tmp_path / "schema.yaml"
    result = subprocess.run(
        [sys.executable, "manage.py", "spectacular", "--validate", "--fail-on-warn",
         "--file", str(target)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    schema = yaml.safe_load(target.read_text())
    assert schema["openapi"].startswith("3.")
    paths = schema["paths"]
    for path in (
        "/api/v1/bots/",
        "/api/v1/bots/{id}/",
        "/api/v1/bots/{id}/rotate-secret/",
        "/api/v1/bots/{id}/rotate-pull-token/",
        "/api/v1/bots/{id}/ping/",
        "/api/v1/bots/{id}/games/",
        "/api/v1/bots/{id}/games/{game_id}/moves/",
        "/api/v1/games/{id}/verify/",
        "/api/v1/games/{id}/record/",
        "/api/v1/tournaments/",
        "/api/v1/tournaments/{id}/",
        "/api/v1/tournaments/{id}/rounds/",
        "/api/v1/tournaments/{id}/standings/",
        "/api/v1/tournaments/{id}/crosstable/",
        "/api/v1/tournaments/{id}/entries/",
        "/api/v1/tournaments/{id}/entries/{bot_id}/",
    ):
        assert path in paths, path
    assert "put" not in paths["/api/v1/bots/{id}/"]
    assert set(paths["/api/v1/tournaments/{id}/entries/"]) == {"post"}
    assert set(paths["/api/v1/tournaments/{id}/entries/{bot_id}/"]) == {"delete"}
    # a game's record is published whole (seed included) once public, and says how to replay it
    record = schema["components"]["schemas"]["GameRecord"]
    assert {"seed", "moves", "outcome", "seats", "options"} <= set(record["required"])
    assert "engines.replay" in paths["/api/v1/games/{id}/record/"]["get"]["description"]
    # the event seed is null until the event has ended, and says so
    seed = schema["components"]["schemas"]["Tournament"]["properties"]["seed"]
    assert seed["nullable"] is True and "null while the event is on" in seed["description"]
    # the secret is only ever an answer, never readable from a bot
    assert "signing_secret" not in schema["components"]["schemas"]["Bot"]["properties"]
    assert "signing_secret" in schema["components"]["schemas"]["BotCreated"]["properties"]


@pytest.mark.django_db
def test_schema_and_docs_pages_are_served_from_our_own_static_files() -> None:
    client = APIClient()
    schema = client.get("/api/v1/schema/")
    assert schema.status_code == 200
    assert b"/api/v1/bots/" in schema.content
    docs = client.get("/api/v1/docs/")
    assert docs.status_code == 200
    page = docs.content.decode()
    assert "swagger-ui" in page
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources, page
    for source in sources:
        assert not source.startswith(("http://", "https://", "//")), source
    assert any(source.startswith("/static/drf_spectacular_sidecar/") for source in sources)


@pytest.mark.django_db
def test_token_endpoint_exchanges_a_password_for_a_working_token() -> None:
    user = UserFactory()
    client = APIClient()
    wrong = client.post("/api/v1/auth/token/", {"username": user.username, "password": "no"})
    assert wrong.status_code == 400
    assert wrong.json() == {"non_field_errors": ["wrong username or password"]}
    missing = client.post("/api/v1/auth/token/", {"username": user.username})
    assert missing.json() == {"password": ["This field is required."]}
    response = client.post(
        "/api/v1/auth/token/", {"username": user.username, "password": DEFAULT_PASSWORD}
    )
    assert response.status_code == 200
    token = response.json()["token"]
    again = client.post(
        "/api/v1/auth/token/", {"username": user.username, "password": DEFAULT_PASSWORD}
    )
    assert again.json()["token"] == token  # the same token, not a new one each time
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/v1/bots/").json()["count"] == 0


@pytest.mark.django_db
def test_session_login_reaches_the_browsable_api() -> None:
    client = APIClient()
    client.force_login(UserFactory(password=None))
    response = client.get("/api/v1/bots/", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert b"<html" in response.content.lower()
