"""Request signing for bot protocol v1 (standard library only).

Every request the referee sends carries two headers::

    X-Harbormaster-Timestamp: 1767225600
    X-Harbormaster-Signature: v1=<hex HMAC-SHA256(secret, "{timestamp}.{raw body}")>

Signing the timestamp together with the raw body lets a bot prove that a
request comes from Harbormaster (only it and the bot know the secret) and
refuse a recorded request replayed later (the timestamp must be recent).

This module imports nothing outside the standard library because the bot SDK
(``harbormaster_bot``) uses it on the bot author's machine, without Django.

During a secret rotation the sender may put several signatures in one header,
comma separated (``v1=aaa,v1=bbb``); a request is genuine when any of them
matches. Unknown schemes (``v2=...``) are ignored so a future version can be
added without breaking v1 verifiers.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from collections.abc import Mapping

TIMESTAMP_HEADER = "X-Harbormaster-Timestamp"
SIGNATURE_HEADER = "X-Harbormaster-Signature"
SCHEME = "v1"
_TIMESTAMP_DIGITS = re.compile(r"0|[1-9][0-9]{0,14}", re.ASCII)
TOLERANCE_SECONDS = 300
"""A timestamp further than this from the verifier's clock is refused (5 minutes)."""


class SignatureError(ValueError):
    """A request whose signature cannot be trusted.

    ``code`` is a stable machine-readable reason (``missing_signature``,
    ``malformed_signature``, ``stale_timestamp``, ``bad_signature``); the
    message explains it to a person.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _key(secret: str | bytes) -> bytes:
    if isinstance(secret, str):
        secret = secret.encode("utf-8")
    if not secret:
        raise ValueError("a signing secret must not be empty")
    return secret


def compute_signature(secret: str | bytes, timestamp: int | str, body: bytes) -> str:
    """The header value ``v1=<hex>`` for ``body`` sent at ``timestamp``."""
    message = str(timestamp).encode("ascii") + b"." + body
    digest = hmac.new(_key(secret), message, hashlib.sha256).hexdigest()
    return f"{SCHEME}={digest}"


def sign_headers(secret: str | bytes, body: bytes, timestamp: int | None = None) -> dict[str, str]:
    """The two headers that authenticate ``body``; ``timestamp`` defaults to now."""
    if timestamp is None:
        timestamp = int(time.time())
    return {
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: compute_signature(secret, timestamp, body),
    }


def _header(headers: Mapping[str, str], name: str) -> str | None:
    """Case-insensitive header lookup that works for any mapping (dict, Message...)."""
    value = headers.get(name)
    if value is not None:
        return value
    lowered = name.lower()
    for key, candidate in headers.items():
        if key.lower() == lowered:
            return candidate
    return None


def verify_signature(
    secret: str | bytes,
    body: bytes,
    headers: Mapping[str, str],
    *,
    now: float | None = None,
    tolerance: int = TOLERANCE_SECONDS,
) -> int:
    """Check the signature headers of a request; return its timestamp.

    Raises :class:`SignatureError` when a header is missing or malformed, the
    timestamp is more than ``tolerance`` seconds away from ``now`` (either
    direction: a clock far ahead is as suspicious as a replay), or no ``v1``
    signature matches. Comparison is constant-time (``hmac.compare_digest``).
    """
    timestamp_text = _header(headers, TIMESTAMP_HEADER)
    signature_text = _header(headers, SIGNATURE_HEADER)
    if not timestamp_text or not signature_text:
        raise SignatureError(
            "missing_signature",
            f"the request needs both {TIMESTAMP_HEADER} and {SIGNATURE_HEADER} headers",
        )
    # Plain decimal digits only: the signature covers the header's text, so a
    # form int() would also take ('+17…', '017…', '1_7…') must not verify.
    if not _TIMESTAMP_DIGITS.fullmatch(timestamp_text.strip()):
        raise SignatureError(
            "malformed_signature",
            f"{TIMESTAMP_HEADER} must be whole seconds since the Unix epoch in decimal digits, "
            f"not {timestamp_text[:40]!r}",
        )
    timestamp = int(timestamp_text.strip())
    current = time.time() if now is None else now
    skew = current - timestamp
    if abs(skew) > tolerance:
        direction = "old" if skew > 0 else "in the future"
        raise SignatureError(
            "stale_timestamp",
            f"timestamp {timestamp} is {abs(int(skew))} s {direction}; "
            f"at most {tolerance} s of difference is accepted (check the bot's clock)",
        )
    offered = [
        part.strip()[len(SCHEME) + 1 :]
        for part in signature_text.split(",")
        if part.strip().startswith(SCHEME + "=")
    ]
    if not offered:
        raise SignatureError(
            "malformed_signature", f"{SIGNATURE_HEADER} has no {SCHEME}=<hex> signature"
        )
    expected = compute_signature(secret, timestamp, body)[len(SCHEME) + 1 :]
    # Check every candidate so the time taken does not reveal which one matched.
    matched = False
    for candidate in offered:
        matched |= hmac.compare_digest(candidate.encode("ascii", "replace"), expected.encode())
    if not matched:
        raise SignatureError(
            "bad_signature",
            "the signature does not match the body: check the bot's secret "
            "(it changes when rotated) and sign the raw body bytes as received",
        )
    return timestamp
