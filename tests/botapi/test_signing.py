"""Request signing: the referee signs, bots verify (harbormaster_bot.signing)."""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path

import pytest
from harbormaster_bot import signing
from harbormaster_bot.signing import (
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    SignatureError,
    compute_signature,
    sign_headers,
    verify_signature,
)

SECRET = "s3cret-for-tests"
BODY = b'{"protocol":1,"kind":"ping","request_id":"abc"}'
NOW = 1_767_225_600


def test_signature_is_hmac_sha256_of_timestamp_dot_body() -> None:
    expected = hmac.new(SECRET.encode(), b"1767225600." + BODY, hashlib.sha256).hexdigest()
    assert compute_signature(SECRET, NOW, BODY) == f"v1={expected}"


def test_signed_headers_verify_and_return_the_timestamp() -> None:
    headers = sign_headers(SECRET, BODY, timestamp=NOW)
    assert headers[TIMESTAMP_HEADER] == str(NOW)
    assert verify_signature(SECRET, BODY, headers, now=NOW + 10) == NOW


def test_header_names_are_case_insensitive() -> None:
    headers = {k.lower(): v for k, v in sign_headers(SECRET, BODY, timestamp=NOW).items()}
    assert verify_signature(SECRET, BODY, headers, now=NOW) == NOW


@pytest.mark.parametrize(
    ("secret", "body"),
    [("another-secret", BODY), (SECRET, BODY + b" "), (SECRET, BODY.replace(b"ping", b"pong"))],
    ids=["wrong secret", "extra byte", "changed body"],
)
def test_tampering_is_detected(secret: str, body: bytes) -> None:
    headers = sign_headers(SECRET, BODY, timestamp=NOW)
    with pytest.raises(SignatureError) as caught:
        verify_signature(secret, body, headers, now=NOW)
    assert caught.value.code == "bad_signature"


def test_a_signature_for_another_timestamp_is_rejected() -> None:
    headers = sign_headers(SECRET, BODY, timestamp=NOW)
    headers[TIMESTAMP_HEADER] = str(NOW + 1)
    with pytest.raises(SignatureError, match="does not match"):
        verify_signature(SECRET, BODY, headers, now=NOW)


@pytest.mark.parametrize("offset", [301, -301, 86_400])
def test_timestamps_more_than_five_minutes_off_are_stale(offset: int) -> None:
    headers = sign_headers(SECRET, BODY, timestamp=NOW)
    with pytest.raises(SignatureError) as caught:
        verify_signature(SECRET, BODY, headers, now=NOW + offset)
    assert caught.value.code == "stale_timestamp"


@pytest.mark.parametrize("offset", [299, -299])
def test_timestamps_within_five_minutes_are_accepted(offset: int) -> None:
    headers = sign_headers(SECRET, BODY, timestamp=NOW)
    assert verify_signature(SECRET, BODY, headers, now=NOW + offset) == NOW


@pytest.mark.parametrize(
    ("headers", "code"),
    [
        ({}, "missing_signature"),
        ({TIMESTAMP_HEADER: str(NOW)}, "missing_signature"),
        ({TIMESTAMP_HEADER: "yesterday", SIGNATURE_HEADER: "v1=00"}, "malformed_signature"),
        ({TIMESTAMP_HEADER: str(NOW), SIGNATURE_HEADER: "sha256=00"}, "malformed_signature"),
        ({TIMESTAMP_HEADER: str(NOW), SIGNATURE_HEADER: "v1=zz"}, "bad_signature"),
    ],
)
def test_missing_or_malformed_headers_are_refused(headers: dict[str, str], code: str) -> None:
    with pytest.raises(SignatureError) as caught:
        verify_signature(SECRET, BODY, headers, now=NOW)
    assert caught.value.code == code
    assert str(caught.value)


def test_any_of_several_signatures_may_match_during_a_rotation() -> None:
    old = compute_signature("old-secret", NOW, BODY)
    new = compute_signature(SECRET, NOW, BODY)
    headers = {TIMESTAMP_HEADER: str(NOW), SIGNATURE_HEADER: f"{old}, {new}"}
    assert verify_signature(SECRET, BODY, headers, now=NOW) == NOW
    assert verify_signature("old-secret", BODY, headers, now=NOW) == NOW


def test_comparison_is_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(signing.hmac, "compare_digest", spy)
    verify_signature(SECRET, BODY, sign_headers(SECRET, BODY, timestamp=NOW), now=NOW)
    assert len(calls) == 1


def test_an_empty_secret_is_refused() -> None:
    with pytest.raises(ValueError, match="empty"):
        sign_headers("", BODY)


def test_the_test_vector_in_the_protocol_docs_is_right() -> None:
    """docs/bot-protocol.md gives bot authors a vector to check their own code."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "bot-protocol.md").read_text()
    lines = dict(
        line.split(None, 1) for line in doc.splitlines() if line.startswith(("body ", "timestamp "))
    )
    vector = re.search(r"^signature\s+(v1=[0-9a-f]{64})$", doc, re.MULTILINE)
    assert vector is not None
    body = lines["body"].strip().encode()
    assert compute_signature("example-secret", lines["timestamp"].strip(), body) == vector[1]
