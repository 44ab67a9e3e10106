"""The server against the shared signing vectors (sdk/signing-vectors.json).

The server signs what it sends (the referee's act, start, finish and ping
requests and the alert webhooks all go through ``BotClient``, which calls
``harbormaster_bot.signing.sign_headers``) and verifies nothing that comes
in: bots verify. So this checks

* the functions it signs with, and ``verify_signature`` (the code the server
  and the Python SDK share), against every case;
* what actually goes over the wire: ``BotClient`` sends each vector's message
  to a loopback server with the clock at the vector's timestamp, and the
  bytes and headers that arrive must be the vector's, byte for byte;
* that the committed file is what ``sdk/tools/make_signing_vectors.py``
  generates, so nobody edits a value by hand.
"""

from __future__ import annotations

import importlib.util
import json
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harbormaster_bot import signing
from harbormaster_bot.signing import SignatureError, compute_signature, verify_signature

from botapi.client import BotClient
from tests.botapi.servers import MisbehavingServer

ROOT = Path(__file__).resolve().parents[2]
VECTORS_PATH = ROOT / "sdk" / "signing-vectors.json"
VECTORS = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))
SIGNING = VECTORS["signing"]
VERIFICATION = VECTORS["verification"]


def ids(cases: list[dict[str, Any]]) -> list[str]:
    return [case["name"] for case in cases]


def generator() -> types.ModuleType:
    path = ROOT / "sdk" / "tools" / "make_signing_vectors.py"
    spec = importlib.util.spec_from_file_location("make_signing_vectors", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_vectors_are_what_the_script_generates() -> None:
    assert VECTORS_PATH.read_text(encoding="utf-8") == generator().render(), (
        "sdk/signing-vectors.json is stale: run .venv/bin/python sdk/tools/make_signing_vectors.py"
    )


def test_the_vectors_cover_every_outcome() -> None:
    outcomes = {case["expected"] for case in VERIFICATION}
    assert outcomes == {"ok", *VECTORS["error_codes"]}
    assert all(case["description"] for case in SIGNING + VERIFICATION)


@pytest.mark.parametrize("case", SIGNING, ids=ids(SIGNING))
def test_signing(case: dict[str, Any]) -> None:
    body = case["body"].encode("utf-8")
    assert compute_signature(case["secret"], case["timestamp"], body) == case["signature"]
    headers = signing.sign_headers(case["secret"], body, timestamp=case["timestamp"])
    assert headers == case["headers"]
    found = verify_signature(case["secret"], body, headers, now=case["timestamp"])
    assert found == case["timestamp"]


@pytest.mark.parametrize("case", VERIFICATION, ids=ids(VERIFICATION))
def test_verification(case: dict[str, Any]) -> None:
    body = case["body"].encode("utf-8")
    if case["expected"] == "ok":
        found = verify_signature(case["secret"], body, case["headers"], now=case["now"])
        assert found == case["returns_timestamp"]
    else:
        with pytest.raises(SignatureError) as refused:
            verify_signature(case["secret"], body, case["headers"], now=case["now"])
        assert refused.value.code == case["expected"]


# ------------------------------------------------------------- on the wire
def sent_as_is(case: dict[str, Any]) -> bool:
    """A body the client produces itself from the message it holds.

    ``BotClient`` serialises a message compactly as UTF-8 (``ensure_ascii``
    off); the vectors whose body is exactly that are what the server sends.
    """
    try:
        message = json.loads(case["body"])
    except ValueError:
        return False
    canonical = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    return isinstance(message, dict) and canonical == case["body"]


WIRE = [case for case in SIGNING if sent_as_is(case)]


@pytest.fixture(scope="module")
def receiver() -> Iterator[MisbehavingServer]:
    running = MisbehavingServer().start()
    yield running
    running.stop()


def test_the_wire_cases_include_raw_utf8() -> None:
    assert {"docs_example", "ping", "act", "non_ascii_utf8"} <= set(ids(WIRE))


@pytest.mark.parametrize("case", WIRE, ids=ids(WIRE))
def test_what_the_referee_sends_is_the_vector(
    case: dict[str, Any], receiver: MisbehavingServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(signing, "time", types.SimpleNamespace(time=lambda: case["timestamp"]))
    client = BotClient(allow="loopback")
    try:
        result = client.notify(receiver.url("/ping"), case["secret"], json.loads(case["body"]))
    finally:
        client.close()
    assert result.ok, result.detail
    arrived = receiver.requests_to("/ping")[-1]
    assert arrived.body == case["body"].encode("utf-8")
    received = {name.lower(): value for name, value in arrived.headers.items()}
    for name, value in case["headers"].items():
        assert received[name.lower()] == value
