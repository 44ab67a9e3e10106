"""Write ``sdk/signing-vectors.json``, the signing contract every bot kit tests against.

    .venv/bin/python sdk/tools/make_signing_vectors.py          # (re)write the file
    .venv/bin/python sdk/tools/make_signing_vectors.py --check  # exit 1 if it is stale

The cases are written here by hand, each with the outcome it is meant to
have; the values (signatures, signed messages, headers) are computed. Two
things keep the file honest rather than a copy of whatever the code does:

* every signature is computed twice, from the protocol's definition
  (``HMAC-SHA256(secret, f"{timestamp}.{body}")`` with :mod:`hmac`) and by
  :func:`harbormaster_bot.signing.compute_signature`, and they must agree;
* every verification case's intended outcome is checked against
  :func:`harbormaster_bot.signing.verify_signature`, the code the server and
  the Python SDK share; a disagreement stops the script instead of being
  written down.

Standard library plus the ``harbormaster_bot`` package (install the SDK, or
use the project's virtualenv, where it is installed in editable mode).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys
from pathlib import Path
from typing import Any

from harbormaster_bot.signing import (
    SCHEME,
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    TOLERANCE_SECONDS,
    SignatureError,
    compute_signature,
    verify_signature,
)

OUTPUT = Path(__file__).resolve().parents[1] / "signing-vectors.json"

SECRET = "hms_3q2-7wAAAAAvectorsSecretForEveryKit"
OLD_SECRET = "hms_previous-secret-before-rotation"
T = 1767225600  # 2026-01-01T00:00:00Z
TS = TIMESTAMP_HEADER
SIG = SIGNATURE_HEADER


def compact(message: dict[str, Any], *, ascii_only: bool = False) -> str:
    """JSON the way the referee serialises it (compact, UTF-8, no \\u escapes)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=ascii_only)


PING = compact({"protocol": 1, "kind": "ping", "request_id": "5f0c1a2b3c4d4e5f8a9b0c1d2e3f4a5b"})
DOCS_PING = compact(
    {"protocol": 1, "kind": "ping", "request_id": "0c5e4f7a2b9d4e1c8a3f6b2d7e9c1a4b"}
)
GAME = {
    "id": 4242,
    "engine": "manila",
    "engine_version": "2",
    "num_players": 3,
    "options": {},
    "seat": 1,
}
ACT = compact(
    {
        "protocol": 1,
        "kind": "act",
        "request_id": "act-4242-17",
        "game": GAME,
        "ply": 17,
        "deadline_ms": 2000,
        "view": {"you": 1, "private": {"shares": ["jade", "silk"]}, "round": 2},
        "legal_actions": [{"type": "pass"}, {"type": "bid", "amount": 7}],
        "events": [{"type": "bid", "seat": 0, "amount": 6}],
    }
)
PLAYERS = ["Zoë/bot", "海賊/機械", "Ægir 🏴‍☠️", "naïve café"]
START_UTF8 = compact(
    {
        "protocol": 1,
        "kind": "start",
        "request_id": "start-ünïcode",
        "game": GAME,
        "players": PLAYERS,
    }
)
START_ESCAPED = compact(
    {
        "protocol": 1,
        "kind": "start",
        "request_id": "start-ünïcode",
        "game": GAME,
        "players": PLAYERS,
    },
    ascii_only=True,
)
FINISH_PRETTY = json.dumps(
    {
        "protocol": 1,
        "kind": "finish",
        "request_id": "finish-4242",
        "game": GAME,
        "outcome": {"scores": [31, 12, 12], "ranks": [1, 2, 2]},
    },
    indent=2,
)


def reference_hex(secret: str, timestamp: str, body: str) -> str:
    """The protocol's definition, independent of the SDK's code."""
    message = f"{timestamp}.{body}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def sig(secret: str, timestamp: int, body: str) -> str:
    """``v1=<hex>``, computed both ways; they must agree."""
    ours = f"{SCHEME}={reference_hex(secret, str(timestamp), body)}"
    shared = compute_signature(secret, timestamp, body.encode("utf-8"))
    if ours != shared:
        raise SystemExit(f"compute_signature disagrees with HMAC-SHA256 for {body[:40]!r}")
    return ours


def hexpart(secret: str, timestamp: int, body: str) -> str:
    return sig(secret, timestamp, body)[len(SCHEME) + 1 :]


# ----------------------------------------------------------------- signing
SIGNING: list[dict[str, Any]] = [
    {
        "name": "docs_example",
        "description": "The test vector printed in docs/bot-protocol.md (secret example-secret).",
        "secret": "example-secret",
        "timestamp": T,
        "body": DOCS_PING,
    },
    {
        "name": "ping",
        "description": "A ping request as the referee sends it: compact JSON, no spaces.",
        "secret": SECRET,
        "timestamp": T,
        "body": PING,
    },
    {
        "name": "act",
        "description": "An act request with nested view, legal actions and events.",
        "secret": SECRET,
        "timestamp": T + 17,
        "body": ACT,
    },
    {
        "name": "non_ascii_utf8",
        "description": "Non-ASCII text sent as raw UTF-8 bytes (2-, 3- and 4-byte characters and "
        "a zero-width joiner), as the referee sends it: sign the bytes, not characters.",
        "secret": SECRET,
        "timestamp": T,
        "body": START_UTF8,
    },
    {
        "name": "non_ascii_escaped",
        "description": "The same message with \\u escapes instead of raw UTF-8: equal JSON, "
        "different bytes, so a different signature. Never re-serialise before verifying.",
        "secret": SECRET,
        "timestamp": T,
        "body": START_ESCAPED,
    },
    {
        "name": "whitespace_significant",
        "description": "Indented JSON with newlines: every space and newline is signed.",
        "secret": SECRET,
        "timestamp": T,
        "body": FINISH_PRETTY,
    },
    {
        "name": "trailing_newline",
        "description": "A trailing newline is part of the body and of the signature.",
        "secret": SECRET,
        "timestamp": T,
        "body": PING + "\n",
    },
    {
        "name": "crlf_and_tab",
        "description": "Carriage return, line feed and tab between JSON tokens are signed as sent.",
        "secret": SECRET,
        "timestamp": T,
        "body": '{\r\n\t"protocol": 1,\r\n\t"kind": "ping",\r\n\t"request_id": "crlf"\r\n}',
    },
    {
        "name": "empty_body",
        "description": "An empty body signs the timestamp and the dot alone.",
        "secret": SECRET,
        "timestamp": T,
        "body": "",
    },
    {
        "name": "non_ascii_secret",
        "description": "A secret is used as its UTF-8 bytes (real secrets are ASCII: hms_...).",
        "secret": "sécret-ключ-秘密",
        "timestamp": T,
        "body": PING,
    },
    {
        "name": "small_timestamp",
        "description": "The timestamp is signed as plain decimal digits without leading zeros.",
        "secret": SECRET,
        "timestamp": 7,
        "body": PING,
    },
    {
        "name": "far_timestamp",
        "description": "A ten-digit timestamp past 2038 (2100-01-01) signs like any other.",
        "secret": SECRET,
        "timestamp": 4102444800,
        "body": PING,
    },
]


def signing_case(case: dict[str, Any]) -> dict[str, Any]:
    signature = sig(case["secret"], case["timestamp"], case["body"])
    return {
        **case,
        "signed_message": f"{case['timestamp']}.{case['body']}",
        "signature": signature,
        "headers": {TS: str(case["timestamp"]), SIG: signature},
    }


# ------------------------------------------------------------ verification
def headers(timestamp: str | None, signature: str | None) -> dict[str, str]:
    found = {}
    if timestamp is not None:
        found[TS] = timestamp
    if signature is not None:
        found[SIG] = signature
    return found


GOOD = sig(SECRET, T, PING)
GOOD_HEX = hexpart(SECRET, T, PING)
OLD = sig(OLD_SECRET, T, PING)


def verification_cases() -> list[dict[str, Any]]:
    """Each case: (name, description, body, headers, now, intended outcome)."""
    ok, stale = "ok", "stale_timestamp"
    bad, malformed, missing = "bad_signature", "malformed_signature", "missing_signature"
    good = headers(str(T), GOOD)
    rows: list[tuple[str, str, str, dict[str, str], float, str]] = [
        ("ok", "A genuine request verified at the second it was sent.", PING, good, T, ok),
        (
            "ok_lowercase_header_names",
            "Header names are case-insensitive (HTTP/2 and many servers lowercase them).",
            PING,
            {TS.lower(): str(T), SIG.lower(): GOOD},
            T,
            ok,
        ),
        ("ok_late_within_tolerance", "Verified 299 s after signing.", PING, good, T + 299, ok),
        (
            "ok_late_at_tolerance",
            "Verified exactly 300 s after signing: the limit itself is accepted.",
            PING,
            good,
            T + TOLERANCE_SECONDS,
            ok,
        ),
        (
            "ok_early_at_tolerance",
            "The verifier's clock is exactly 300 s behind the sender's: accepted.",
            PING,
            good,
            T - TOLERANCE_SECONDS,
            ok,
        ),
        (
            "ok_fractional_now",
            "The verifier's clock has a fraction of a second (299.5 s late): accepted.",
            PING,
            good,
            T + 299.5,
            ok,
        ),
        (
            "stale_past",
            "Verified 301 s after signing (a replay of an old request): refused.",
            PING,
            good,
            T + TOLERANCE_SECONDS + 1,
            stale,
        ),
        (
            "stale_past_fraction",
            "300.5 s late: just over the limit, refused (compare with fractions, not "
            "whole seconds).",
            PING,
            good,
            T + TOLERANCE_SECONDS + 0.5,
            stale,
        ),
        (
            "stale_future",
            "The timestamp is 301 s ahead of the verifier's clock: refused too.",
            PING,
            good,
            T - TOLERANCE_SECONDS - 1,
            stale,
        ),
        (
            "stale_milliseconds",
            "A timestamp in milliseconds instead of seconds is far in the future: stale.",
            PING,
            headers(str(T * 1000), sig(SECRET, T * 1000, PING)),
            T,
            stale,
        ),
        (
            "stale_checked_before_signature",
            "Both stale and wrongly signed: the timestamp is checked first, so stale.",
            PING,
            headers(str(T), sig("wrong-secret", T, PING)),
            T + 3600,
            stale,
        ),
        (
            "stale_checked_before_scheme",
            "Stale and without any v1 signature: still stale (the timestamp comes first).",
            PING,
            headers(str(T), "v2=" + GOOD_HEX),
            T + 3600,
            stale,
        ),
        (
            "tampered_body",
            "One character of the body changed after signing (ping -> pong).",
            PING.replace('"ping"', '"pong"'),
            good,
            T,
            bad,
        ),
        (
            "tampered_body_reserialised",
            "The same JSON re-serialised with spaces: different bytes, refused. Verify the "
            "raw body as received.",
            json.dumps(json.loads(PING)),
            good,
            T,
            bad,
        ),
        (
            "tampered_body_trailing_newline",
            "A newline appended to the body after signing.",
            PING + "\n",
            good,
            T,
            bad,
        ),
        (
            "tampered_timestamp",
            "The timestamp header moved by one second; the signature is for the original.",
            PING,
            headers(str(T + 1), GOOD),
            T,
            bad,
        ),
        (
            "wrong_secret",
            "Signed with another secret (e.g. the bot still has the one before a rotation).",
            PING,
            headers(str(T), sig("not-the-bots-secret", T, PING)),
            T,
            bad,
        ),
        (
            "ok_non_ascii_body",
            "A body with raw UTF-8 verifies over its bytes.",
            START_UTF8,
            headers(str(T), sig(SECRET, T, START_UTF8)),
            T,
            ok,
        ),
        (
            "non_ascii_body_escaped",
            "The signature of the raw UTF-8 body does not verify the \\u-escaped form of "
            "the same JSON.",
            START_ESCAPED,
            headers(str(T), sig(SECRET, T, START_UTF8)),
            T,
            bad,
        ),
        (
            "ok_whitespace_body",
            "An indented body verifies as sent, newlines included.",
            FINISH_PRETTY,
            headers(str(T), sig(SECRET, T, FINISH_PRETTY)),
            T,
            ok,
        ),
        (
            "ok_empty_body",
            "An empty body with a valid signature passes the signature check (a server "
            "then refuses it as not a protocol message).",
            "",
            headers(str(T), sig(SECRET, T, "")),
            T,
            ok,
        ),
        (
            "ok_rotation_second_matches",
            "During a rotation: two comma-separated signatures, the second one matches.",
            PING,
            headers(str(T), f"{OLD},{GOOD}"),
            T,
            ok,
        ),
        (
            "ok_rotation_first_matches",
            "During a rotation: the first of two signatures matches.",
            PING,
            headers(str(T), f"{GOOD},{OLD}"),
            T,
            ok,
        ),
        (
            "ok_rotation_spaces",
            "Spaces around the commas are ignored.",
            PING,
            headers(str(T), f"{OLD} ,  {GOOD}"),
            T,
            ok,
        ),
        (
            "rotation_none_matches",
            "Several signatures, none for this secret.",
            PING,
            headers(str(T), f"{OLD},{sig('third-secret', T, PING)}"),
            T,
            bad,
        ),
        (
            "ok_unknown_scheme_ignored",
            "A v2= signature (a future scheme) is ignored; the v1 one beside it matches.",
            PING,
            headers(str(T), f"v2={'ab' * 32},{GOOD}"),
            T,
            ok,
        ),
        (
            "ok_junk_part_ignored",
            "A part without a scheme is ignored, as are empty parts.",
            PING,
            headers(str(T), f"junk,,{GOOD}"),
            T,
            ok,
        ),
        (
            "only_unknown_scheme",
            "Only a v2= signature (even with the right hex): no v1 signature to check.",
            PING,
            headers(str(T), "v2=" + GOOD_HEX),
            T,
            malformed,
        ),
        (
            "no_scheme_prefix",
            "The hex digest without its v1= prefix.",
            PING,
            headers(str(T), GOOD_HEX),
            T,
            malformed,
        ),
        (
            "uppercase_scheme",
            "The scheme name is case-sensitive: V1= is not v1=.",
            PING,
            headers(str(T), "V1=" + GOOD_HEX),
            T,
            malformed,
        ),
        (
            "uppercase_hex",
            "The digest is compared as lowercase hex; the same digest in uppercase is refused.",
            PING,
            headers(str(T), "v1=" + GOOD_HEX.upper()),
            T,
            bad,
        ),
        (
            "space_after_equals",
            "Nothing is trimmed between v1= and the hex: a space there breaks the match.",
            PING,
            headers(str(T), "v1= " + GOOD_HEX),
            T,
            bad,
        ),
        (
            "truncated_hex",
            "The digest with its last hex digit cut off.",
            PING,
            headers(str(T), GOOD[:-1]),
            T,
            bad,
        ),
        ("empty_hex", "v1= with nothing after it.", PING, headers(str(T), "v1="), T, bad),
        (
            "non_hex",
            "v1= then characters that are not hex.",
            PING,
            headers(str(T), "v1=zz"),
            T,
            bad,
        ),
        (
            "missing_timestamp",
            "No timestamp header.",
            PING,
            headers(None, GOOD),
            T,
            missing,
        ),
        ("missing_signature", "No signature header.", PING, headers(str(T), None), T, missing),
        ("missing_both", "Neither header.", PING, {}, T, missing),
        (
            "empty_signature",
            "An empty signature header counts as missing.",
            PING,
            headers(str(T), ""),
            T,
            missing,
        ),
        (
            "empty_timestamp",
            "An empty timestamp header counts as missing.",
            PING,
            headers("", GOOD),
            T,
            missing,
        ),
        (
            "timestamp_not_a_number",
            "A timestamp that is not a number.",
            PING,
            headers("yesterday", GOOD),
            T,
            malformed,
        ),
        (
            "timestamp_with_fraction",
            "Whole seconds only: 1767225600.0 is malformed.",
            PING,
            headers(f"{T}.0", GOOD),
            T,
            malformed,
        ),
        (
            "timestamp_iso_date",
            "An ISO 8601 date instead of Unix seconds.",
            PING,
            headers("2026-01-01T00:00:00Z", GOOD),
            T,
            malformed,
        ),
        (
            "timestamp_with_plus_sign",
            "Decimal digits only: a leading + is malformed (the signature covers the text).",
            PING,
            headers(f"+{T}", GOOD),
            T,
            malformed,
        ),
        (
            "timestamp_with_leading_zero",
            "Decimal digits only: a leading zero is malformed (it would sign other text).",
            PING,
            headers(f"0{T}", GOOD),
            T,
            malformed,
        ),
        (
            "timestamp_with_underscores",
            "Decimal digits only: digit separators such as 1_767_225_600 are malformed.",
            PING,
            headers(f"{T:_}", GOOD),
            T,
            malformed,
        ),
        (
            "timestamp_negative",
            "A negative timestamp is malformed, not merely stale.",
            PING,
            headers("-5", GOOD),
            T,
            malformed,
        ),
    ]
    return [
        {
            "name": name,
            "description": description,
            "secret": SECRET,
            "body": body,
            "headers": case_headers,
            "now": now,
            "expected": expected,
        }
        for name, description, body, case_headers, now, expected in rows
    ]


def actual_outcome(case: dict[str, Any]) -> tuple[str, int | None]:
    """What the shared Python code says about a case: ("ok", timestamp) or (code, None)."""
    try:
        timestamp = verify_signature(
            case["secret"], case["body"].encode("utf-8"), case["headers"], now=case["now"]
        )
    except SignatureError as error:
        return error.code, None
    return "ok", timestamp


def verification_case(case: dict[str, Any]) -> dict[str, Any]:
    outcome, timestamp = actual_outcome(case)
    if outcome != case["expected"]:
        raise SystemExit(
            f"case {case['name']!r}: meant to be {case['expected']!r}, but "
            f"harbormaster_bot.signing.verify_signature says {outcome!r}"
        )
    if timestamp is not None:
        case = {**case, "returns_timestamp": timestamp}
    return case


def generate() -> dict[str, Any]:
    names = [c["name"] for c in SIGNING] + [c["name"] for c in verification_cases()]
    if len(names) != len(set(names)):
        raise SystemExit("case names must be unique")
    return {
        "comment": (
            "Harbormaster bot protocol v1 signing test vectors: the contract every bot kit "
            "(the server's referee, the Python SDK, the JavaScript kit, yours) tests against. "
            "Signature = 'v1=' + lowercase hex HMAC-SHA256(secret as UTF-8, "
            "'{timestamp}.' + raw body bytes); body is the exact text, sent as UTF-8. "
            "'signing' cases: sign body at timestamp, expect signature and headers. "
            "'verification' cases: verify body and headers at the verifier's clock 'now' "
            "(Unix seconds, may have a fraction); expected is 'ok' (returns_timestamp is "
            "the verified timestamp) or the error code. Generated by "
            "sdk/tools/make_signing_vectors.py from the cases written there; do not edit."
        ),
        "scheme": SCHEME,
        "timestamp_header": TIMESTAMP_HEADER,
        "signature_header": SIGNATURE_HEADER,
        "tolerance_seconds": TOLERANCE_SECONDS,
        "error_codes": {
            "missing_signature": "a header is absent or empty",
            "malformed_signature": "the timestamp is not whole Unix seconds, or the "
            "signature header has no v1= part",
            "stale_timestamp": "the timestamp is more than tolerance_seconds from now, "
            "either way (checked before the signature)",
            "bad_signature": "no v1 signature matches",
        },
        "signing": [signing_case(case) for case in SIGNING],
        "verification": [verification_case(case) for case in verification_cases()],
    }


def render() -> str:
    """The file's exact text."""
    return json.dumps(generate(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not current")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT} is out of date: run {Path(__file__).name}", file=sys.stderr)
            return 1
        print(f"{OUTPUT} is current")
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
