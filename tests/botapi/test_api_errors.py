"""Every answer under /api/ is JSON in the error shape {detail, code}, whatever went wrong."""

from __future__ import annotations

import json
import logging

import pytest
from django.test import RequestFactory
from rest_framework.test import APIClient

from web.api.bots import views
from web.api.toolkit import errors

pytestmark = pytest.mark.django_db


def assert_error_shape(response, status: int, code: str) -> None:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json", response.content[:300]
    body = json.loads(response.content)
    assert set(body) == {"detail", "code"} and body["code"] == code, body


@pytest.mark.parametrize("debug", [False, True])
def test_unknown_paths_and_non_numeric_ids_are_json_404s(api, user, settings, debug: bool) -> None:
    settings.DEBUG = debug  # Django's HTML 404 page is a different one with DEBUG on
    for path in (
        "/api/v1/bots/abc/",
        "/api/v1/bots/1/games/x/moves/",
        "/api/v1/games/abc/",
        "/api/v1/games/abc/verify/",
        "/api/v1/games/abc/moves",
        "/api/v1/nothing-here/",
        "/api/v2/",
    ):
        assert_error_shape(api.get(path), 404, "not_found")
    # without the slash: Django would redirect (or, for a POST with DEBUG on, fail with a 500)
    assert_error_shape(api.post("/api/v1/bots", {}), 404, "not_found")
    # and not a CSRF 403 (the API's views do not use CSRF tokens), even for a session
    session = APIClient(enforce_csrf_checks=True)
    session.force_login(user)
    assert_error_shape(session.post("/api/v1/games/x/moves", {}), 404, "not_found")


def test_a_body_over_the_limit_is_a_json_413_and_no_error_log(api, settings, caplog) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    with caplog.at_level(logging.INFO):
        response = api.post("/api/v1/bots/", "x" * 5000, content_type="application/json")
    assert_error_shape(response, 413, "request_too_large")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def test_a_server_error_is_a_json_500_and_is_logged_with_its_traceback(
    user, monkeypatch, caplog
) -> None:
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(views.BotViewSet, "list", broken)
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(user)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get("/api/v1/bots/")
    assert_error_shape(response, 500, "server_error")
    assert "a bug" not in response.content.decode(), "no internals in the answer"
    logged = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert logged and logged[0].exc_info and "a bug" in str(logged[0].exc_info[1])


def test_the_test_client_still_raises_a_views_exception(user, monkeypatch) -> None:
    """Reporting hooks still hear of it (Django's got_request_exception signal)."""
    monkeypatch.setattr(views.BotViewSet, "list", lambda *a, **k: 1 / 0)
    client = APIClient()
    client.force_authenticate(user)
    with pytest.raises(ZeroDivisionError):
        client.get("/api/v1/bots/")


def test_django_level_handlers_answer_json_under_api_and_pages_elsewhere() -> None:
    factory = RequestFactory()
    api_request, page_request = factory.get("/api/v1/bots/"), factory.get("/games/1/")
    cases = [
        (errors.bad_request, (Exception(),), 400, "bad_request"),
        (errors.permission_denied, (Exception(),), 403, "permission_denied"),
        (errors.page_not_found, (Exception(),), 404, "not_found"),
        (errors.server_error, (), 500, "server_error"),
    ]
    for handler, args, status, code in cases:
        assert_error_shape(handler(api_request, *args), status, code)
        page = handler(page_request, *args)
        assert page.status_code == status and page["Content-Type"].startswith("text/html")
