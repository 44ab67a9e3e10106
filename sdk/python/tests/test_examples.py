"""The example bots answer legal actions for real requests of each game.

The requests (``fixtures/act_requests.json``) were made by the referee's own
code from seeded games, so these tests need neither the engines nor the server.
"""

from __future__ import annotations

import copy
import unittest
import uuid

from harbormaster_bot import Turn, serve_in_background
from harbormaster_bot.check import problems_with_act_reply
from harbormaster_bot.examples.greedy import CHOOSERS, greedy_bot
from harbormaster_bot.examples.random_bot import RandomBot
from support import SECRET, act_requests, post_signed

REQUESTS = act_requests()


def turn_for(request: dict) -> Turn:
    return Turn(request=copy.deepcopy(request), answer_by=float("inf"))


class Fixtures(unittest.TestCase):
    def test_there_are_requests_for_every_game(self) -> None:
        self.assertEqual(sorted(REQUESTS), sorted(CHOOSERS))
        for slug, requests in REQUESTS.items():
            for request in requests:
                self.assertEqual(request["kind"], "act")
                self.assertEqual(request["game"]["engine"], slug)
                self.assertTrue(request["legal_actions"])


class InProcess(unittest.TestCase):
    def test_the_random_bot_picks_a_legal_index(self) -> None:
        bot = RandomBot(seed=3)
        for slug, requests in REQUESTS.items():
            for request in requests:
                with self.subTest(engine=slug, ply=request["ply"]):
                    for _ in range(5):
                        index = bot.act(turn_for(request))
                        self.assertIn(index, range(len(request["legal_actions"])))

    def test_the_random_bot_repeats_itself_from_a_seed(self) -> None:
        request = REQUESTS["manila"][0]
        first = [RandomBot(seed=9).act(turn_for(request)) for _ in range(3)]
        again = [RandomBot(seed=9).act(turn_for(request)) for _ in range(3)]
        self.assertEqual(first, again)

    def test_each_greedy_bot_picks_a_legal_index_deterministically(self) -> None:
        for slug, requests in REQUESTS.items():
            for bot in (greedy_bot(slug), greedy_bot()):
                for request in requests:
                    with self.subTest(engine=slug, bot=bot.engine, ply=request["ply"]):
                        index = bot.act(turn_for(request))
                        self.assertIn(index, range(len(request["legal_actions"])))
                        self.assertEqual(bot.act(turn_for(request)), index)

    def test_a_greedy_bot_refuses_another_game(self) -> None:
        with self.assertRaisesRegex(ValueError, "plays manila, not batavia"):
            greedy_bot("manila").act(turn_for(REQUESTS["batavia"][0]))
        with self.assertRaises(ValueError):
            greedy_bot("chess")


class OverHttp(unittest.TestCase):
    def test_the_greedy_bot_answers_every_request_legally(self) -> None:
        with serve_in_background(greedy_bot(), secret=SECRET) as bot:
            for slug, requests in REQUESTS.items():
                for recorded in requests:
                    request = {**recorded, "request_id": uuid.uuid4().hex}
                    with self.subTest(engine=slug, ply=request["ply"]):
                        status, reply = post_signed(bot.url, request)
                        self.assertEqual(status, 200, reply)
                        self.assertEqual(problems_with_act_reply(reply, request), [])


if __name__ == "__main__":
    unittest.main()
