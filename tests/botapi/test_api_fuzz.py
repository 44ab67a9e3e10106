"""schemathesis over the whole API schema: the server answers what the schema says.

Every operation of ``/api/v1/schema/`` gets generated requests, valid and
invalid (schemathesis's examples, coverage and fuzzing phases), each sent
three times: anonymously, with a user's token and with a pull bot's token.
All of schemathesis's checks run on every answer: no 5xx, every status
documented, every body and content type as documented, invalid input
refused, valid input accepted.

The requests go straight into Django's WSGI application inside the test's
transaction (no server, nothing left behind). Hypothesis is derandomized
and keeps no example database, so every run sends the same requests.

Rules the schema cannot express are exempt from "valid input accepted"
only (every other check still applies), each with its reason in
``SEMANTIC_400``.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from rest_framework.throttling import ScopedRateThrottle
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import positive_data_acceptance

from botapi.services import bots as services
from botapi.services import pull
from harbormaster.wsgi import application
from tests.factories import BotFactory, UserFactory

pytestmark = pytest.mark.django_db

EXAMPLES_PER_OPERATION = 10

SEMANTIC_400 = {
    "POST /api/v1/auth/token/": "a well-formed username and password may still be wrong",
    "POST /api/v1/bots/": "names are unique per owner; an endpoint must resolve to an allowed "
    "address; a push bot needs an endpoint",
    "PATCH /api/v1/bots/{id}/": "the same rules as registration",
    "POST /api/v1/games/": "seats must name bots you may seat that play the engine; player "
    "count and options depend on the engine; a chosen seed cannot be rated",
    "POST /api/v1/games/{game_id}/moves": "the action must be legal and the request_id that "
    "of the ply",
    "POST /api/v1/tournaments/{id}/entries/": "the bot must be one of yours that plays the "
    "engine, and the tournament one whose entries are open",
}

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)


def loopback_only(host, port, *args, **kwargs):
    """Every generated host name resolves to loopback: no DNS, nothing leaves the machine."""
    return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port or 80))]


@pytest.fixture
def credentials(db, settings, monkeypatch) -> Iterator[dict[str, dict[str, str]]]:
    # The WSGI application runs in this thread, inside the test's transaction;
    # Django's test client keeps its connection open across requests the same way.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    # Registrations and pings are rate-limited per user; the fuzz run makes many.
    monkeypatch.setattr(
        ScopedRateThrottle,
        "THROTTLE_RATES",
        dict.fromkeys(ScopedRateThrottle.THROTTLE_RATES, "100000/minute"),
    )
    monkeypatch.setattr(socket, "getaddrinfo", loopback_only)
    settings.BOT_ENDPOINT_ALLOW = ["loopback"]
    settings.BOT_PING_TIMEOUT_MS = 200
    monkeypatch.setattr(pull, "MAX_WAIT_SECONDS", 0)  # long polls answer at once
    owner = UserFactory(password=None)
    token = Token.objects.create(user=owner)
    bot = BotFactory(owner=owner, mode="pull", endpoint_url="")
    try:
        yield {
            "anonymous": {},
            "user": {"Authorization": f"Token {token.key}"},
            "pull": {"Authorization": f"Bot {services.rotate_pull_token(bot)}"},
        }
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_answers_what_its_schema_says(case, credentials) -> None:
    label = f"{case.method.upper()} {case.path}"
    excluded = [positive_data_acceptance] if label in SEMANTIC_400 else []
    headers_info = case.meta.components.get(ParameterLocation.HEADER) if case.meta else None
    if headers_info is not None and not headers_info.mode.is_positive:
        # The case is about its headers (a missing or malformed Authorization...):
        # sent as generated, since adding credentials would undo what it tests.
        credentials = {"as generated": {}}
    for who, headers in credentials.items():
        try:
            case.call_and_validate(headers=headers, excluded_checks=excluded)
        except Exception as failure:
            failure.add_note(f"sent as: {who}")
            raise
