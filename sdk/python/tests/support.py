"""What the SDK's tests share: signed HTTP calls to a bot and the recorded requests.

Standard library only, like the SDK: these tests run in a virtualenv where
only the ``harbormaster-bot`` wheel is installed.
"""

from __future__ import annotations

import json
import logging
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from harbormaster_bot import sign_headers

SECRET = "sdk-test-secret"

# The SDK logs refused requests and failing handlers as warnings, which these
# tests provoke on purpose; keep them off the test output (assertLogs still sees them).
logging.getLogger("harbormaster.bot").addHandler(logging.NullHandler())
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def act_requests() -> dict[str, list[dict[str, Any]]]:
    """Real act requests of each game (engine slug -> requests), made by the referee's code."""
    return json.loads((FIXTURES / "act_requests.json").read_text(encoding="utf-8"))


def message(kind: str, **fields: Any) -> dict[str, Any]:
    """A protocol v1 message with a fresh request id."""
    return {"protocol": 1, "kind": kind, "request_id": uuid.uuid4().hex, **fields}


def post(
    url: str,
    body: bytes,
    headers: dict[str, str] | None = None,
    timeout: float = 10,
) -> tuple[int, Any]:
    """POST raw bytes; (status, parsed JSON reply)."""
    request = urllib.request.Request(
        url,
        data=body,
        headers={"Content-Type": "application/json", **(headers or {})},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":")).encode("utf-8")


def post_signed(
    url: str,
    payload: dict[str, Any],
    secret: str = SECRET,
    timestamp: int | None = None,
) -> tuple[int, Any]:
    """POST ``payload`` signed the way the referee signs it."""
    body = encode(payload)
    stamp = int(time.time()) if timestamp is None else timestamp
    return post(url, body, sign_headers(secret, body, stamp))
