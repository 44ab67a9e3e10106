"""Commands the docs tell a new user to run work in a fresh clone (issue 14).

A fresh clone has no Django outside ``.venv`` (``make demo``/``make test``/
``make install`` create it), so ``python manage.py ...`` or ``python -m
bench...`` fails with ``No module named 'django'``: every command shown to a
reader names ``.venv/bin/python``. Docker's files are left out: inside the
image the dependencies are installed for the image's own ``python``.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIPPED_DIRS = {".venv", ".git", "tests", "migrations", "staticfiles", "node_modules"}
# `python` (or python3, python3.11) running manage.py or a module, not preceded by a path
# such as `.venv/bin/`. Creating the venv (`-m venv`) or using pip needs no project code.
BARE_PYTHON = re.compile(r"(?<![\w/.-])python[0-9.]*\s+(?:manage\.py|-m\s+(?!venv\b|pip\b))")


def shown_to_readers() -> list[Path]:
    """Every Markdown page, template and Python file (docstrings, help texts, hints)."""
    files = []
    for pattern in ("*.md", "*.html", "*.py", "*.txt"):
        for path in ROOT.rglob(pattern):
            if not SKIPPED_DIRS.intersection(path.relative_to(ROOT).parts):
                files.append(path)
    return sorted(files)


def bare_invocations(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if BARE_PYTHON.search(line)]


def test_the_pattern_catches_what_fails_in_a_fresh_clone() -> None:
    assert bare_invocations("run `python manage.py migrate` first")
    assert bare_invocations("    python -m bench.engines --seconds 3")
    assert bare_invocations("python3 -m harbormaster_bot.check http://127.0.0.1:8001/")
    assert not bare_invocations("run `.venv/bin/python manage.py migrate` first")
    assert not bare_invocations(".venv/bin/python -m harbormaster_bot.examples.random_bot")
    assert not bare_invocations("python3.11 -m venv .venv")
    assert not bare_invocations("`manage.py play` plays local games")


def test_no_doc_tells_a_new_user_to_run_a_bare_python() -> None:
    files = shown_to_readers()
    assert ROOT / "README.md" in files and ROOT / "sdk/python/README.md" in files
    assert ROOT / "templates/tournaments/game.html" in files
    found = {
        str(path.relative_to(ROOT)): lines
        for path in files
        if (lines := bare_invocations(path.read_text(encoding="utf-8")))
    }
    assert found == {}, "say .venv/bin/python (a fresh clone has no Django elsewhere)"


README_PAGES = ["README.md", "sdk/python/README.md"]


def test_what_the_readmes_point_at_exists() -> None:
    """Pages, commands, modules and files the READMEs name are there today."""
    import importlib.util

    from django.core.management import get_commands
    from django.urls import Resolver404, resolve

    commands = get_commands()
    missing = []
    for page in README_PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        for path in re.findall(r"http://127\.0\.0\.1:8000(/[\w/{}.-]*)", text):
            try:
                resolve(path.replace("{id}", "1"))
            except Resolver404:
                missing.append(f"{page}: page {path}")
        for command in re.findall(r"manage\.py (\w+)", text):
            if command not in commands:
                missing.append(f"{page}: command {command}")
        for module in re.findall(r"python -m ([\w.]+)", text):
            if importlib.util.find_spec(module) is None:
                missing.append(f"{page}: module {module}")
        for name in re.findall(r"`((?:docs|botapi|bench)/[\w/.-]+|docker-compose\.yml)`", text):
            if not (ROOT / name).exists():
                missing.append(f"{page}: file {name}")
    assert missing == []
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^demo:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
