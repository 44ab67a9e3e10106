"""Finding Node.js for the JavaScript kit's tests, and skipping clearly without it."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

KIT = Path(__file__).resolve().parents[2] / "sdk" / "js"
MINIMUM_MAJOR = 20
"""sdk/js/package.json's engines.node. Debian bookworm's nodejs package is 18: too old."""


def node_or_skip() -> str:
    """The ``node`` executable, or skip the test saying what is missing."""
    node = shutil.which("node")
    if node is None:
        pytest.skip(f"needs Node.js {MINIMUM_MAJOR}+ for sdk/js: `node` is not on PATH")
    version = subprocess.run(
        [node, "--version"], capture_output=True, text=True, timeout=30, check=False
    ).stdout.strip()
    found = re.match(r"v(\d+)\.", version)
    if found is None or int(found[1]) < MINIMUM_MAJOR:
        pytest.skip(f"needs Node.js {MINIMUM_MAJOR}+ for sdk/js; {node} is {version or 'unknown'}")
    return node
