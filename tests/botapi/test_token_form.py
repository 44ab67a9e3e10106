"""The token exchange reads the form ``curl -d username=… -d password=…`` sends, as the docs show.

The rest of the API reads JSON only (``test_api_input_limits.py``); the token
endpoint reads a form too, exactly as it reads the same fields in JSON.
"""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/v1/auth/token/"
FORM = "application/x-www-form-urlencoded"


def post_form(body: str) -> object:
    return APIClient().post(TOKEN_URL, body, content_type=FORM)


def test_a_form_gets_the_same_token_as_json() -> None:
    user = UserFactory(username="alice")
    response = post_form(f"username=alice&password={DEFAULT_PASSWORD}")
    assert response.status_code == 200
    token = response.json()["token"]
    assert token == Token.objects.get(user=user).key
    as_json = APIClient().post(
        TOKEN_URL, {"username": "alice", "password": DEFAULT_PASSWORD}, format="json"
    )
    assert as_json.json() == {"token": token}


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ("username=alice&password=wrong", {"non_field_errors": ["wrong username or password"]}),
        ("username=alice", {"password": ["This field is required."]}),
        ("username=alice&password=x&extra=1", {"extra": ["unknown field"]}),
    ],
)
def test_a_bad_form_gets_the_json_answers_and_no_token(body: str, errors: dict) -> None:
    UserFactory(username="alice")
    response = post_form(body)
    assert response.status_code == 400
    assert response.json() == errors
    assert not Token.objects.exists()


def test_a_field_given_twice_is_refused_not_read_as_its_last_value() -> None:
    UserFactory(username="alice")
    response = post_form(f"username=mallory&username=alice&password={DEFAULT_PASSWORD}")
    assert response.status_code == 400
    assert response.json() == {
        "detail": "form parse error - give each field once: username",
        "code": "parse_error",
    }
    assert not Token.objects.exists()


def test_too_many_form_fields_are_a_parse_error_in_the_api_shape(settings) -> None:
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 3
    response = post_form("&".join(f"f{n}=1" for n in range(5)))
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


def test_multipart_is_still_refused() -> None:
    response = APIClient().post(TOKEN_URL, "a=1", content_type="multipart/form-data; boundary=b")
    assert response.status_code == 415


def test_the_schema_lists_both_bodies() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    body = schema["paths"][TOKEN_URL]["post"]["requestBody"]["content"]
    assert set(body) == {"application/json", FORM}
    assert body[FORM] == body["application/json"]
