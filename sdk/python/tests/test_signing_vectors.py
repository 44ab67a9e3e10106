"""The Python SDK against the shared signing vectors (sdk/signing-vectors.json).

Standard library ``unittest`` only: this runs in a clean virtualenv where
nothing but the ``harbormaster-bot`` wheel is installed
(``python -m unittest discover -s sdk/python/tests``). The vectors file is
found relative to this file, in the checkout the wheel was built from.

Two layers are checked against every case: the signing functions
(:mod:`harbormaster_bot.signing`), and the SDK's HTTP server, which must
accept a genuine request and refuse every other with 401 and the case's
error code, over a real loopback connection, with its clock set to the
case's ``now``.
"""

from __future__ import annotations

import http.client
import json
import time
import types
import unittest
from pathlib import Path
from typing import Any
from unittest import mock

from harbormaster_bot import serve_in_background
from harbormaster_bot import server as server_module
from harbormaster_bot.signing import (
    SignatureError,
    compute_signature,
    sign_headers,
    verify_signature,
)

VECTORS_PATH = Path(__file__).resolve().parents[2] / "signing-vectors.json"
VECTORS = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))


class Bot:
    """Answers act with index 0; start and finish are acknowledged by the SDK."""

    def act(self, turn: Any) -> int:
        return 0


def post(url_port: int, body: bytes, headers: dict[str, str]) -> tuple[int, Any]:
    """POST ``body`` with exactly ``headers`` (plus Content-Type); (status, JSON reply)."""
    connection = http.client.HTTPConnection("127.0.0.1", url_port, timeout=10)
    try:
        connection.request(
            "POST", "/", body=body, headers={"Content-Type": "application/json", **headers}
        )
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def clock_at(now: float) -> Any:
    """Stand-in for the server module's ``time``: its wall clock reads ``now``."""
    return mock.patch.object(
        server_module, "time", types.SimpleNamespace(time=lambda: now, monotonic=time.monotonic)
    )


def protocol_message(body: str) -> dict[str, Any] | None:
    try:
        message = json.loads(body)
    except ValueError:
        return None
    return message if isinstance(message, dict) and "request_id" in message else None


class SigningFunctions(unittest.TestCase):
    def test_the_file_has_cases(self) -> None:
        self.assertGreaterEqual(len(VECTORS["signing"]), 10)
        self.assertGreaterEqual(len(VECTORS["verification"]), 30)

    def test_signing(self) -> None:
        for case in VECTORS["signing"]:
            with self.subTest(case["name"]):
                body = case["body"].encode("utf-8")
                signature = compute_signature(case["secret"], case["timestamp"], body)
                self.assertEqual(signature, case["signature"])
                headers = sign_headers(case["secret"], body, timestamp=case["timestamp"])
                self.assertEqual(headers, case["headers"])

    def test_verification(self) -> None:
        for case in VECTORS["verification"]:
            with self.subTest(case["name"]):
                body = case["body"].encode("utf-8")
                if case["expected"] == "ok":
                    found = verify_signature(case["secret"], body, case["headers"], now=case["now"])
                    self.assertEqual(found, case["returns_timestamp"])
                else:
                    with self.assertRaises(SignatureError) as refused:
                        verify_signature(case["secret"], body, case["headers"], now=case["now"])
                    self.assertEqual(refused.exception.code, case["expected"])


class SdkServer(unittest.TestCase):
    """Each case against a fresh server (a fresh replay memory: cases share bodies)."""

    def exchange(self, case: dict[str, Any], now: float) -> tuple[int, Any]:
        bot = serve_in_background(Bot(), port=0, secret=case["secret"], name="vectors")
        with bot, clock_at(now):
            return post(bot.port, case["body"].encode("utf-8"), case["headers"])

    def assert_accepted(self, case: dict[str, Any], status: int, reply: Any) -> None:
        message = protocol_message(case["body"])
        if message is None:  # genuine, but not a protocol message
            self.assertEqual((status, reply["error"]), (400, "bad_request"))
        else:
            self.assertEqual(status, 200, reply)
            self.assertEqual(reply["request_id"], message["request_id"])

    def test_verification_cases(self) -> None:
        for case in VECTORS["verification"]:
            with self.subTest(case["name"]):
                if case["expected"] == "ok":
                    status, reply = self.exchange(case, case["now"])
                    self.assert_accepted(case, status, reply)
                else:
                    with self.assertLogs("harbormaster.bot", "WARNING") as logged:
                        status, reply = self.exchange(case, case["now"])
                    self.assertIn("refused a request", logged.output[0])
                    self.assertEqual(status, 401, reply)
                    self.assertEqual(reply["error"], case["expected"])
                    self.assertTrue(reply["detail"])

    def test_signed_requests_are_accepted_when_fresh(self) -> None:
        for case in VECTORS["signing"]:
            with self.subTest(case["name"]):
                status, reply = self.exchange(case, case["timestamp"])
                self.assert_accepted(case, status, reply)


if __name__ == "__main__":
    unittest.main()
