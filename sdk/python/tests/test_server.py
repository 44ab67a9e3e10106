"""The bot endpoint over real HTTP: signatures, the four message kinds, the deadline.

Standard library only, like every test of this folder; from the checkout's top::

    python -m unittest discover -s sdk/python/tests -t sdk/python/tests
"""

from __future__ import annotations

import http.client
import threading
import time
import unittest
import urllib.error
import urllib.request
from typing import Any

from harbormaster_bot import (
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    Turn,
    answer_budget_ms,
    compute_signature,
    serve_in_background,
    sign_headers,
)
from support import SECRET, act_requests, encode, message, post, post_signed


class Recorder:
    """A handler that remembers what it was given and plays the last legal action."""

    def __init__(self) -> None:
        self.turns: list[Turn] = []
        self.started: list[dict[str, Any]] = []
        self.finished: list[dict[str, Any]] = []

    def act(self, turn: Turn) -> int:
        self.turns.append(turn)
        return len(turn.legal_actions) - 1

    def start(self, request: dict[str, Any]) -> None:
        self.started.append(request)

    def finish(self, request: dict[str, Any]) -> None:
        self.finished.append(request)


def act_message(deadline_ms: int = 2000) -> dict[str, Any]:
    """A real Manila act request, with a fresh id."""
    request = dict(act_requests()["manila"][0])
    request.update(message("act"), deadline_ms=deadline_ms)
    return request


class BotCase(unittest.TestCase):
    handler: Any = None

    def setUp(self) -> None:
        self.handler = self.handler or Recorder()
        self.bot = serve_in_background(self.handler, secret=SECRET, name="tester", version="7")
        self.addCleanup(self.bot.stop)


class TheFourKinds(BotCase):
    def test_ping_is_answered_with_the_name_version_and_protocol(self) -> None:
        ping = message("ping")
        status, reply = post_signed(self.bot.url, ping)
        self.assertEqual(status, 200)
        self.assertEqual(
            reply,
            {"request_id": ping["request_id"], "name": "tester", "version": "7", "protocol": 1},
        )

    def test_act_gives_the_handler_a_turn_and_returns_its_choice(self) -> None:
        request = act_message()
        status, reply = post_signed(self.bot.url, request)
        self.assertEqual(status, 200, reply)
        legal = request["legal_actions"]
        self.assertEqual(
            reply, {"request_id": request["request_id"], "action_index": len(legal) - 1}
        )
        (turn,) = self.handler.turns
        self.assertEqual(turn.legal_actions, legal)
        self.assertEqual(turn.view, request["view"])
        self.assertEqual(turn.seat, request["game"]["seat"])
        self.assertEqual(turn.ply, request["ply"])
        self.assertEqual(turn["events"], request["events"])

    def test_start_and_finish_reach_the_handler(self) -> None:
        game = act_message()["game"]
        start = message("start", game=game, players=["a", "b", "c"])
        finish = message("finish", game=game, outcome={"scores": [1, 2, 3], "ranks": [3, 2, 1]})
        for sent, seen in ((start, self.handler.started), (finish, self.handler.finished)):
            status, reply = post_signed(self.bot.url, sent)
            self.assertEqual((status, reply), (200, {"request_id": sent["request_id"], "ok": True}))
            self.assertEqual(seen, [sent])

    def test_an_unknown_kind_and_a_get_are_refused(self) -> None:
        status, reply = post_signed(self.bot.url, message("dance"))
        self.assertEqual((status, reply["error"]), (400, "unknown_kind"))
        with self.assertRaises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(self.bot.url, timeout=5)
        self.assertEqual(caught.exception.code, 405)

    def test_a_content_length_that_is_not_ascii_digits_gets_411(self) -> None:
        """'²' passes str.isdigit() but not int(): it must be refused, not drop the connection."""
        host, port = self.bot.url.removeprefix("http://").rstrip("/").split(":")
        for length in ("\u00b2", "-1", "12a"):
            connection = http.client.HTTPConnection(host, int(port), timeout=5)
            connection.putrequest("POST", "/")
            connection.putheader("Content-Length", length.encode("latin-1"))  # as HTTP reads it
            connection.endheaders()
            response = connection.getresponse()
            self.assertEqual(response.status, 411, length)
            connection.close()


class Signatures(BotCase):
    def test_a_signed_request_is_accepted(self) -> None:
        self.assertEqual(post_signed(self.bot.url, message("ping"))[0], 200)

    def test_a_request_signed_with_another_secret_is_refused(self) -> None:
        status, reply = post_signed(self.bot.url, act_message(), secret="not-the-secret")
        self.assertEqual((status, reply["error"]), (401, "bad_signature"))
        self.assertEqual(self.handler.turns, [])

    def test_a_body_changed_after_signing_is_refused(self) -> None:
        body = encode(act_message())
        headers = sign_headers(SECRET, body)
        status, reply = post(self.bot.url, body.replace(b'"seat":0', b'"seat":1'), headers)
        self.assertEqual((status, reply["error"]), (401, "bad_signature"))
        self.assertEqual(self.handler.turns, [])

    def test_stale_and_future_timestamps_are_refused(self) -> None:
        # Well past the five minutes either way, each stamp taken just before its request, so a
        # slow machine cannot bring a future stamp back inside the window.
        for offset in (-330, 330):
            with self.subTest(offset=offset):
                stamp = int(time.time()) + offset
                status, reply = post_signed(self.bot.url, message("ping"), timestamp=stamp)
                self.assertEqual((status, reply["error"]), (401, "stale_timestamp"))
        now = int(time.time())
        status, _ = post_signed(self.bot.url, message("ping"), timestamp=now - 290)
        self.assertEqual(status, 200, "a clock within five minutes is fine")

    def test_missing_or_malformed_headers_are_refused(self) -> None:
        body = encode(message("ping"))
        stamp = str(int(time.time()))
        cases = {
            "missing_signature": {TIMESTAMP_HEADER: stamp},
            "malformed_signature": {TIMESTAMP_HEADER: stamp, SIGNATURE_HEADER: "v2=abc"},
        }
        for code, headers in cases.items():
            with self.subTest(code=code):
                status, reply = post(self.bot.url, body, headers)
                self.assertEqual((status, reply["error"]), (401, code))

    def test_one_matching_signature_among_several_is_enough(self) -> None:
        body = encode(message("ping"))
        stamp = int(time.time())
        good = compute_signature(SECRET, stamp, body)
        header = f"v1={'0' * 64}, {good}"
        status, _ = post(
            self.bot.url, body, {TIMESTAMP_HEADER: str(stamp), SIGNATURE_HEADER: header}
        )
        self.assertEqual(status, 200)

    def test_the_same_signed_request_twice_is_refused_as_a_replay(self) -> None:
        body = encode(act_message())
        headers = sign_headers(SECRET, body)
        self.assertEqual(post(self.bot.url, body, headers)[0], 200)
        status, reply = post(self.bot.url, body, headers)
        self.assertEqual((status, reply["error"]), (401, "replayed_request"))
        self.assertEqual(len(self.handler.turns), 1)


class SlowBot:
    """Thinks until told to stop, far past any deadline."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.time_left_seen: list[float] = []

    def act(self, turn: Turn) -> int:
        self.time_left_seen.append(turn.time_left())
        self.release.wait(10)
        return 1


class Deadlines(BotCase):
    def setUp(self) -> None:
        self.handler = SlowBot()
        super().setUp()
        self.addCleanup(self.handler.release.set)

    def test_a_slow_handler_is_answered_for_before_the_deadline(self) -> None:
        request = act_message(deadline_ms=400)
        started = time.monotonic()
        status, reply = post_signed(self.bot.url, request)
        elapsed_ms = (time.monotonic() - started) * 1000
        self.assertEqual(status, 200)
        self.assertEqual(reply["action_index"], request["default_action_index"])
        self.assertIn("too slow", reply["note"])
        self.assertLess(elapsed_ms, 400, "the SDK must answer within the request's deadline")
        self.assertGreaterEqual(elapsed_ms, answer_budget_ms(400) * 0.9)
        (left,) = self.handler.time_left_seen
        self.assertTrue(0 < left <= answer_budget_ms(400) / 1000, left)

    def test_a_slow_handler_answers_the_servers_default_not_the_first_action(self) -> None:
        # Issue #32: the first legal action can be a raise; the default is the pass.
        legal = [{"type": "bid", "amount": 2}, {"type": "bid", "amount": 3}, {"type": "pass"}]
        request = act_message(deadline_ms=200)
        request.update(legal_actions=legal, default_action_index=2)
        status, reply = post_signed(self.bot.url, request)
        self.assertEqual((status, reply["action_index"]), (200, 2))

    def test_an_older_server_without_a_default_gets_the_first_action(self) -> None:
        for default in (None, 3, -1, True, "2"):
            with self.subTest(default=default):
                request = act_message(deadline_ms=200)
                request["legal_actions"] = request["legal_actions"][:3]
                request.pop("default_action_index", None)
                if default is not None:
                    request["default_action_index"] = default
                status, reply = post_signed(self.bot.url, request)
                self.assertEqual((status, reply["action_index"]), (200, 0))

    def test_the_budget_leaves_a_margin_for_the_network(self) -> None:
        self.assertEqual(answer_budget_ms(2000), 1850)
        self.assertEqual(answer_budget_ms(100), 80)
        self.assertEqual(answer_budget_ms(1), 1)


class BadHandlers(unittest.TestCase):
    def serve(self, handler: Any) -> str:
        bot = serve_in_background(handler, secret=SECRET)
        self.addCleanup(bot.stop)
        return bot.url

    def test_a_handler_that_raises_gives_a_500_with_its_message(self) -> None:
        def broken(turn: Turn) -> int:
            raise RuntimeError("no idea what to play")

        status, reply = post_signed(self.serve(broken), act_message())
        self.assertEqual(status, 500)
        self.assertEqual(reply["error"], "handler_failed")
        self.assertIn("no idea what to play", reply["detail"])

    def test_an_index_out_of_range_is_not_passed_on(self) -> None:
        status, reply = post_signed(self.serve(lambda turn: 999), act_message())
        self.assertEqual(status, 500)
        self.assertIn("999", reply["detail"])

    def test_a_returned_action_dict_is_passed_on_as_the_action(self) -> None:
        request = act_message()
        chosen = request["legal_actions"][2]
        status, reply = post_signed(self.serve(lambda turn: turn.legal_actions[2]), request)
        self.assertEqual((status, reply["action"]), (200, chosen))


if __name__ == "__main__":
    unittest.main()
