"""Numbers beyond a double's range get a clean 400 ``parse_error`` on every JSON endpoint.

A 5,000-digit integer made Python's parser raise a bare ``ValueError`` (its
digit limit for integer conversion) that no parser caught: an anonymous 500
on ``/api/v1/auth/token/`` and on pull moves. ``1e400`` became ``inf``,
which nothing can store as JSON.
"""

from __future__ import annotations

import pytest

from tests.botapi.test_api_input_limits import clients, every_body_endpoint
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

HUGE_INT = "9" * 5000
BODIES = {
    "integer": ('{"ply": N, "username": "a", "name": "b"}'.replace("N", HUGE_INT), "5000 digits"),
    "negative": ('{"ply": -N}'.replace("N", HUGE_INT), "5000 digits"),
    "nested": ('{"action": {"type": "x", "n": [N]}}'.replace("N", HUGE_INT), "5000 digits"),
    "exponent": ('{"ply": 1e400}', "beyond a double's range"),
}


@pytest.mark.parametrize("kind", sorted(BODIES))
def test_a_number_beyond_a_double_is_a_400_parse_error_everywhere(kind: str) -> None:
    body, says = BODIES[kind]
    for client, method, path in every_body_endpoint():
        response = getattr(client, method)(path, body, content_type="application/json")
        assert response.status_code == 400, (path, response.content[:200])
        assert response.json()["code"] == "parse_error", path
        assert says in response.json()["detail"], path


def test_the_token_endpoint_refuses_it_and_still_works_after() -> None:
    anonymous, *_ = clients()
    UserFactory(username="ann", password="a long enough secret")
    refused = anonymous.post(
        "/api/v1/auth/token/",
        '{"username": N}'.replace("N", HUGE_INT),
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert refused.json()["code"] == "parse_error"
    granted = anonymous.post(
        "/api/v1/auth/token/", {"username": "ann", "password": "a long enough secret"}, "json"
    )
    assert granted.status_code == 200, granted.content
    assert granted.json()["token"]


def test_a_large_integer_within_range_is_a_validation_error_not_a_crash() -> None:
    """308 digits parse; what the fields then do with them is a 400, never a 500."""
    _, user, pull, bot_id = clients()
    big = "9" * 308
    cases = [
        (pull, "post", "/api/v1/games/1/moves", '{"ply": N, "action_index": N}'),
        (user, "patch", f"/api/v1/bots/{bot_id}/", '{"max_concurrent_games": N}'),
        (user, "post", "/api/v1/games/", '{"engine": "manila", "move_time_ms": N}'),
        (user, "post", "/api/v1/games/", '{"engine": "manila", "seats": [{"bot": N}]}'),
    ]
    for client, method, path, body in cases:
        body = body.replace("N", big)
        response = getattr(client, method)(path, body, content_type="application/json")
        assert 400 <= response.status_code < 500, (path, body[:60], response.content[:300])
