"""``harbormaster_bot.check`` against bots in this process and the example bots' commands."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import subprocess
import sys
import threading
import unittest

from harbormaster_bot import check, serve_in_background
from harbormaster_bot.examples.random_bot import RandomBot
from support import SECRET

HAS_ENGINES = importlib.util.find_spec("engines") is not None


def run_check(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = check.main(list(args))
    return status, out.getvalue()


class CheckInProcess(unittest.TestCase):
    def setUp(self) -> None:
        self.bot = serve_in_background(RandomBot(seed=1), secret=SECRET, name="rnd")
        self.addCleanup(self.bot.stop)

    def test_a_good_bot_passes(self) -> None:
        status, out = run_check(self.bot.url, "--secret", SECRET)
        self.assertEqual(status, 0, out)
        self.assertIn("'name': 'rnd'", out)
        self.assertIn("OK: the endpoint speaks protocol v1", out)

    def test_a_wrong_secret_fails_with_the_401_shown(self) -> None:
        status, out = run_check(self.bot.url, "--secret", "wrong")
        self.assertEqual(status, 1, out)
        self.assertIn("HTTP 401", out)

    def test_an_unreachable_url_is_status_2(self) -> None:
        stopped = serve_in_background(RandomBot(), secret=SECRET)
        url = stopped.url
        stopped.stop()
        status, out = run_check(url, "--secret", SECRET)
        self.assertEqual(status, 2, out)
        self.assertIn("could not reach", out)

    @unittest.skipUnless(HAS_ENGINES, "harbormaster-engines is not installed")
    def test_a_real_opening_position_of_every_game(self) -> None:
        for slug in ("batavia", "cargo_noir", "grog_island", "manila"):
            with self.subTest(engine=slug):
                status, out = run_check(self.bot.url, "--secret", SECRET, "--engine", slug)
                self.assertEqual(status, 0, out)

    @unittest.skipIf(HAS_ENGINES, "harbormaster-engines is installed")
    def test_without_the_engines_a_real_position_is_refused_clearly(self) -> None:
        status, out = run_check(self.bot.url, "--secret", SECRET, "--engine", "manila")
        self.assertEqual(status, 2, out)
        self.assertIn("No module named 'engines'", out)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    process.communicate(timeout=10)  # and close its pipes


class ExampleBotCommands(unittest.TestCase):
    """``python -m harbormaster_bot.examples.…`` as a bot author starts them, then checked."""

    def start(self, module: str) -> str:
        env = {**os.environ, "HARBORMASTER_SECRET": SECRET}
        process = subprocess.Popen(
            [sys.executable, "-m", module, "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.addCleanup(stop, process)
        watchdog = threading.Timer(30, process.kill)  # a bot that never says where it listens
        watchdog.start()
        self.addCleanup(watchdog.cancel)
        line = process.stdout.readline()
        found = re.search(r"listening on (http://\S+/)", line)
        self.assertTrue(found, f"{module} printed {line!r}")
        return found.group(1)

    def test_the_random_bot_passes_the_check(self) -> None:
        url = self.start("harbormaster_bot.examples.random_bot")
        status, out = run_check(url, "--secret", SECRET)
        self.assertEqual(status, 0, out)
        self.assertIn("'name': 'random'", out)

    def test_the_greedy_bot_passes_the_check(self) -> None:
        url = self.start("harbormaster_bot.examples.greedy")
        args = ["--engine", "cargo_noir"] if HAS_ENGINES else []
        status, out = run_check(url, "--secret", SECRET, *args)
        self.assertEqual(status, 0, out)
        self.assertIn("'name': 'greedy-all'", out)

    def test_the_check_command_line_help(self) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "harbormaster_bot.check", "--help"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("--engine", done.stdout)


if __name__ == "__main__":
    unittest.main()
