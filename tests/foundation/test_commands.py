"""The README's two commands, the Makefile behind them and CI's script agree."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from tests.foundation.processes import PROJECT_DIR, clean_env

README = (PROJECT_DIR / "README.md").read_text()
CI_SCRIPT = (PROJECT_DIR / ".ci" / "run").read_text()


def make_dry_run(*args: str) -> str:
    """What ``make -n`` would run, free of any make this suite itself runs under."""
    environ = clean_env()
    for name in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"):
        environ.pop(name, None)
    result = subprocess.run(
        ["make", "-n", *args],
        cwd=PROJECT_DIR,
        env=environ,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return result.stdout


def test_readme_gives_the_two_commands() -> None:
    commands = re.findall(r"^make (\w+)", README, flags=re.MULTILINE)
    assert commands[:2] == ["demo", "test"]


def test_ci_runs_exactly_the_readme_test_command() -> None:
    lines = [line.strip() for line in CI_SCRIPT.splitlines() if line.strip()]
    assert lines[0] == "#!/usr/bin/env bash"
    assert "set -euo pipefail" in lines
    assert lines[-1] == "make test"


needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


@needs_make
def test_make_test_points_at_local_servers_and_runs_whole_suite() -> None:
    recipe = make_dry_run("test")
    assert "DATABASE_URL='postgres://postgres@127.0.0.1:5432/harbormaster'" in recipe
    assert re.search(r"REDIS_URL='redis://127\.0\.0\.1:6379/\d+'", recipe)
    pytest_line = next(line for line in recipe.splitlines() if "-m pytest" in line)
    assert "tests/" not in pytest_line and " -k " not in pytest_line  # the whole suite


@needs_make
def test_make_test_with_servers_unset() -> None:
    recipe = make_dry_run("test", "DATABASE_URL=", "REDIS_URL=")
    assert "DATABASE_URL='' REDIS_URL=''" in recipe


@needs_make
def test_make_demo_migrates_sets_up_and_serves_asgi_with_the_bots() -> None:
    recipe = make_dry_run("demo")
    steps = ["manage.py migrate", "manage.py demo_setup", "manage.py demo_serve"]
    positions = [recipe.index(step) for step in steps]
    assert positions == sorted(positions)
    assert "demo_serve --host 127.0.0.1 --port 8000" in recipe
    assert "uvicorn" not in recipe, "demo_serve runs uvicorn itself, beside the example bots"
