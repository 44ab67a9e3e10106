"""No import cycle is stepped around in silence: a function-level import says why (issue 29).

An import inside a function hides a dependency from the top of the module and
from ``lint-imports``' reading of it, and is the easy way round a cycle that
should have been broken instead. Where one is needed (a module that imports
this one back, Django's app loading, an optional dependency, Celery's app
reading the settings), a comment on its line or the line above says so.
Imports under ``if TYPE_CHECKING:`` are exempt (they never run), and in an
``AppConfig.ready()``, Django's documented place for them, one comment covers
the method.
"""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (
    "botapi",
    "common",
    "engines",
    "games",
    "harbormaster",
    "lobby",
    "people",
    "ratings",
    "stats",
    "tournaments",
    "web",
)
TOOL_DIRECTIVES = ("noqa", "type:", "pragma", "fmt:", "isort:")


@dataclass(frozen=True)
class Bare:
    """A function-level import with no comment saying why."""

    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text}"


def modules() -> list[Path]:
    """Every module of the apps, migrations left out."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative:
                continue
            found.append(path)
    return found


def reason_lines(source: str) -> set[int]:
    """Lines carrying a comment in words (a bare ``# noqa`` or ``# type: ignore`` says no why)."""
    lines = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        words = token.string.lstrip("#").strip()
        if words and not words.lower().startswith(TOOL_DIRECTIVES):
            lines.add(token.start[0])
    return lines


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _function_imports(
    node: ast.AST, function: ast.AST | None
) -> list[tuple[ast.Import | ast.ImportFrom, ast.AST]]:
    """(import, the function it runs in) for every import inside a function under ``node``."""
    found: list[tuple[ast.Import | ast.ImportFrom, ast.AST]] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child):
            found.extend(
                pair for other in child.orelse for pair in _function_imports(other, function)
            )
            continue
        if isinstance(child, (ast.Import, ast.ImportFrom)) and function is not None:
            found.append((child, function))
        inner = child if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
        found.extend(_function_imports(child, inner))
    return found


def _is_ready(function: ast.AST) -> bool:
    return isinstance(function, ast.FunctionDef) and function.name == "ready"


def bare_imports(source: str, path: str = "<source>") -> list[Bare]:
    """The function-level imports of ``source`` without a reason on their line or the one above."""
    tree = ast.parse(source)
    lines = source.splitlines()
    reasons = reason_lines(source)

    def explained(node: ast.Import | ast.ImportFrom) -> bool:
        own = range(node.lineno, (node.end_lineno or node.lineno) + 1)
        return any(line in reasons for line in own) or (
            node.lineno - 1 in reasons and lines[node.lineno - 2].strip().startswith("#")
        )

    pairs = _function_imports(tree, None)
    ready_explained = {
        id(function) for node, function in pairs if _is_ready(function) and explained(node)
    }
    return [
        Bare(path, node.lineno, lines[node.lineno - 1].strip())
        for node, function in pairs
        if not explained(node) and id(function) not in ready_explained
    ]


def test_every_function_level_import_says_why() -> None:
    bare = [
        imp
        for path in modules()
        for imp in bare_imports(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())
    ]
    assert not bare, (
        "function-level imports with no reason beside them: move each to the top of its module, "
        "or say in a comment on its line or the line above why it cannot be there:\n"
        + "\n".join(str(imp) for imp in bare)
    )


# The check itself, on small sources: what it must catch and what it must let through.


def test_an_import_in_a_function_without_a_comment_is_caught() -> None:
    source = "def f():\n    from os import path\n    return path\n"
    assert [imp.line for imp in bare_imports(source)] == [2]


def test_a_tool_directive_is_no_reason() -> None:
    source = "def f():\n    from os import path  # noqa: PLC0415\n    return path\n"
    assert [imp.line for imp in bare_imports(source)] == [2]


def test_a_reason_on_the_line_or_the_line_above_is_enough() -> None:
    source = (
        "def f():\n"
        "    from os import path  # tasks import this module: circular at the top\n"
        "    # optional dependency\n"
        "    import json\n"
        "    return path, json\n"
    )
    assert bare_imports(source) == []


def test_a_comment_two_lines_up_or_after_code_above_is_not_a_reason() -> None:
    source = (
        "def f():\n"
        "    # why the first one is here\n"
        "    x = 1\n"
        "    import json\n"
        "    y = 2  # about y\n"
        "    import os\n"
        "    return x, y, json, os\n"
    )
    assert [imp.line for imp in bare_imports(source)] == [4, 6]


def test_type_checking_imports_and_module_level_imports_are_exempt() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "import os\n"
        "if TYPE_CHECKING:\n"
        "    from collections.abc import Sequence\n"
        "def f():\n"
        "    if TYPE_CHECKING:\n"
        "        from decimal import Decimal\n"
        "    return os\n"
    )
    assert bare_imports(source) == []


def test_one_comment_covers_a_ready_method_and_only_it() -> None:
    source = (
        "class Config:\n"
        "    def ready(self):\n"
        "        # Django's app registry is ready only now\n"
        "        from os import path\n"
        "        from json import loads\n"
        "    def other(self):\n"
        "        from os import sep\n"
    )
    assert [imp.line for imp in bare_imports(source)] == [7]


def test_a_ready_method_without_any_comment_is_caught() -> None:
    source = (
        "class Config:\n"
        "    def ready(self):\n"
        "        from os import path\n"
        "        from json import loads\n"
    )
    assert [imp.line for imp in bare_imports(source)] == [3, 4]
