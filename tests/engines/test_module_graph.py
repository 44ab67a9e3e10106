"""The ``engines`` package imports without cycles, and every import stands at the top.

Issue #29 (layers): a module imports only modules below it, so no module needs
a bottom-of-file import (``# noqa: E402``) or an import hidden in a function
to break a cycle. The graph is read from the source with ``ast``: every
``import`` at module level or inside a function, resolved to the modules of
``engines`` it loads (``from . import flow`` -> ``engines.<game>.flow``;
``from .rules import X`` -> ``engines.<game>.rules``). Imports under ``if
TYPE_CHECKING:`` never run, so they are not edges. A function-level import
is allowed only with its reason written beside it (a comment on its line or
the line above), as the issue asks.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import engines

ENGINES_DIR = Path(engines.__file__).resolve().parent

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass
class Module:
    """One parsed module: its imports with their line and whether a function holds them."""

    name: str
    path: Path
    is_package: bool
    tree: ast.Module
    lines: list[str]
    imports: list[tuple[ast.Import | ast.ImportFrom, bool]] = field(default_factory=list)


def _module_name(root: Path, path: Path) -> tuple[str, bool]:
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def _is_type_checking(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``): its body never runs."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _collect(node: ast.AST, in_function: bool, out: list) -> None:
    for child in ast.iter_child_nodes(node):
        if _is_type_checking(child):
            for sub in child.orelse:  # an ``else:`` does run
                _collect(sub, in_function, out)
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            out.append((child, in_function))
        _collect(child, in_function or isinstance(child, _SCOPES), out)


def load_modules(root: Path) -> dict[str, Module]:
    """Every ``.py`` file under ``root`` (a package folder), parsed."""
    modules = {}
    for path in sorted(root.rglob("*.py")):
        name, is_package = _module_name(root, path)
        source = path.read_text(encoding="utf-8")
        module = Module(name, path, is_package, ast.parse(source), source.splitlines())
        _collect(module.tree, False, module.imports)
        modules[name] = module
    return modules


def _targets(module: Module, node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    """The modules of ``known`` that running ``node`` in ``module`` imports directly."""
    found = set()
    if isinstance(node, ast.Import):
        for alias in node.names:
            name = alias.name
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name:
                found.add(name)
        return found
    if node.level:
        package = module.name if module.is_package else module.name.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{node.module}" if node.module else package
    else:
        base = node.module or ""
    for alias in node.names:
        submodule = f"{base}.{alias.name}"
        if submodule in known:
            found.add(submodule)
        elif base in known:
            found.add(base)
    return found


def import_graph(modules: dict[str, Module]) -> dict[str, set[str]]:
    """Module -> the modules of the same tree it imports (at module level or in a function)."""
    known = set(modules)
    return {
        name: {t for node, _ in module.imports for t in _targets(module, node, known)} - {name}
        for name, module in modules.items()
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as error:
        return list(error.args[1])
    return None


def _is_header(stmt: ast.stmt, index: int) -> bool:
    if index == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
        return True  # the module docstring
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        return True
    return _is_type_checking(stmt) and all(
        isinstance(s, ast.Import | ast.ImportFrom) for s in [*stmt.body, *stmt.orelse]
    )


def late_imports(module: Module) -> list[str]:
    """Module-level imports that stand after the first statement that is not an import."""
    body = module.tree.body
    first = next((s for i, s in enumerate(body) if not _is_header(s, i)), None)
    if first is None:
        return []
    return [
        f"{module.name}:{node.lineno}"
        for node, in_function in module.imports
        if not in_function and node.lineno > first.lineno
    ]


def unexplained_function_imports(module: Module) -> list[str]:
    """Imports inside functions without a comment on their line or the line above."""
    found = []
    for node, in_function in module.imports:
        if not in_function:
            continue
        line = module.lines[node.lineno - 1]
        above = module.lines[node.lineno - 2].strip() if node.lineno > 1 else ""
        if "#" not in line and not above.startswith("#"):
            found.append(f"{module.name}:{node.lineno}")
    return found


# ------------------------------------------------------------------- engines
MODULES = load_modules(ENGINES_DIR)


def test_the_graph_is_read_from_the_source() -> None:
    """The reader sees relative, absolute and function-level imports (no vacuous pass)."""
    graph = import_graph(MODULES)
    assert {"engines.batavia.turn", "engines.batavia.rules"} <= graph["engines.batavia.state"]
    assert "engines.base" in graph["engines.batavia.engine"]
    assert "engines" in graph["engines.manila.flow"]  # ``from engines import CHANCE``
    assert "engines.batavia.state" not in graph["engines.batavia.turn"]  # TYPE_CHECKING only
    for game in ("manila", "batavia", "cargo_noir", "grog_island"):
        assert f"engines.{game}.state" in MODULES


def test_engines_import_graph_has_no_cycle() -> None:
    cycle = find_cycle(import_graph(MODULES))
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_import_after_the_first_statement() -> None:
    late = [where for module in MODULES.values() for where in late_imports(module)]
    assert late == []


def test_function_level_imports_say_why() -> None:
    bare = [where for module in MODULES.values() for where in unexplained_function_imports(module)]
    assert bare == []


# ---------------------------------------------------------- the checks bite
def _tree(tmp_path: Path, files: dict[str, str]) -> dict[str, Module]:
    root = tmp_path / "pkg"
    for rel, source in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return load_modules(root)


def test_a_cycle_through_a_late_or_function_import_is_found(tmp_path: Path) -> None:
    modules = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "game/__init__.py": "from .a import f\n",
            "game/a.py": '"""A."""\nfrom .b import g\n\n\ndef f():\n    return g()\n',
            "game/b.py": "def g():\n    from . import c\n    return c\n",
            "game/c.py": "X = 1\nfrom .a import f  # noqa: E402\n",
            "game/d.py": "import typing\nif typing.TYPE_CHECKING:\n    from .a import f\n",
        },
    )
    graph = import_graph(modules)
    assert graph["pkg.game.a"] == {"pkg.game.b"}
    assert graph["pkg.game.d"] == set()
    cycle = find_cycle(graph)
    assert cycle is not None and set(cycle) == {"pkg.game.a", "pkg.game.b", "pkg.game.c"}
    assert late_imports(modules["pkg.game.c"]) == ["pkg.game.c:2"]
    assert late_imports(modules["pkg.game.a"]) == []
    assert late_imports(modules["pkg.game.d"]) == []
    assert unexplained_function_imports(modules["pkg.game.b"]) == ["pkg.game.b:2"]


def test_an_acyclic_tree_passes(tmp_path: Path) -> None:
    modules = _tree(
        tmp_path,
        {
            "__init__.py": "from .game import run\n",
            "game/__init__.py": "from .top import run\n",
            "game/top.py": "from . import low\n\n\ndef run():\n    return low.X\n",
            "game/low.py": "def f():\n    import json  # loaded only when asked: it is slow\n",
        },
    )
    assert find_cycle(import_graph(modules)) is None
    assert unexplained_function_imports(modules["pkg.game.low"]) == []
