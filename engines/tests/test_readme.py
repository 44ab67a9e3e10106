"""The example of ``engines/README.md`` runs as printed (skipped where the README is absent)."""

from __future__ import annotations

import contextlib
import io
import re
import unittest
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


@unittest.skipUnless(README.is_file(), "no engines/README.md beside these tests")
class ReadmeExample(unittest.TestCase):
    def test_the_fifteen_line_game_runs_and_replays(self) -> None:
        text = README.read_text(encoding="utf-8")
        code = re.search(r"```python\n(.*?)```", text, re.S)
        self.assertIsNotNone(code, "the README lost its example")
        self.assertLessEqual(len(code.group(1).strip().splitlines()), 20, "keep it short")
        out = io.StringIO()
        namespace: dict = {}
        with contextlib.redirect_stdout(out):
            exec(compile(code.group(1), str(README), "exec"), namespace)
        self.assertTrue(namespace["state"].is_over)
        self.assertIn("'ranks': [", out.getvalue())
        self.assertIn("'shares'", out.getvalue(), "Manila's private part: hidden shares")


if __name__ == "__main__":
    unittest.main()
