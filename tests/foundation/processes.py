"""Running the project's own commands in a child process with a chosen environment."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from harbormaster.env import ENV_VARS

PROJECT_DIR = Path(__file__).resolve().parents[2]

PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "k7P-x2Vq9rLmZ4wT8sYb1nC6dF3gH0jR5uE7iO2pA9zX4cV8bN1mQ6wS3eD0fG",
    "ALLOWED_HOSTS": "harbormaster.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://harbormaster.example.org",
    "HTTPS": "1",
    "TRUST_X_FORWARDED_PROTO": "1",
}


def clean_env(**overrides: str) -> dict[str, str]:
    """This process's environment without any Harbormaster variable, plus ``overrides``."""
    base = {key: value for key, value in os.environ.items() if key not in ENV_VARS}
    base.pop("DJANGO_SETTINGS_MODULE", None)
    base.update(overrides)
    return base


def run_python(args: list[str], environ: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    """``python <args>`` in the project folder; output captured as text."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=PROJECT_DIR,
        env=dict(environ),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
