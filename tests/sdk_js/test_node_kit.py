"""The JavaScript bot kit's own tests (``node --test`` in sdk/js), run by ``make test``."""

from __future__ import annotations

import os
import subprocess

from tests.sdk_js.node import KIT, node_or_skip


def test_the_javascript_kit_passes_its_own_tests() -> None:
    node = node_or_skip()
    run = subprocess.run(
        [node, "--test"],
        cwd=KIT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={k: v for k, v in os.environ.items() if k not in ("HARBORMASTER_SECRET", "PORT")},
    )
    assert run.returncode == 0, f"node --test failed:\n{run.stdout}\n{run.stderr}"
    assert "# fail 0" in run.stdout
