"""The project's modules import one another without a cycle: every arrow between them points one way.

Two modules in a cycle can only be read, tested and loaded together, and one of
them sees the other half-initialised. Cycles once here: ``smear_env.game`` <->
``smear_env.scoring`` (scoring read the game's internals) and ``training.evaluate``
<-> ``training.ladder`` (the evaluation's command line ran the ladder built on
it). Every import counts, wherever it is written: at the top of a module, inside a
function (a lazy import is still a dependency) and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("smear_env", "agents", "training", "smear_rl")


def module_files(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Dotted module name -> source file, for every module of ``packages`` under ``root`` (packages by __init__)."""
    modules = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _imported_names(module: str, path: Path) -> list[str]:
    """Every dotted name ``module`` imports (``from a import b`` gives ``a.b``), relative imports resolved."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parents = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parents, base] if base else parents)
            names += [f"{base}.{alias.name}" for alias in node.names]
    return names


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the project modules it imports: a name resolves to its longest prefix that is a module."""
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = set()
        for name in _imported_names(module, path):
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that ends where it starts, or None: a depth-first search for a back edge."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> list[str] | None:
        path.append(node)
        on_path.add(node)
        for target in sorted(graph.get(node, ())):
            if target in on_path:
                return path[path.index(target) :] + [target]
            if target not in done and (cycle := visit(target)):
                return cycle
        path.pop()
        on_path.discard(node)
        done.add(node)
        return None

    for node in sorted(graph):
        if node not in done and (cycle := visit(node)):
            return cycle
    return None


def test_the_project_imports_have_no_cycle() -> None:
    graph = import_graph(module_files(ROOT, PACKAGES))
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


@pytest.mark.parametrize(
    ("module", "imports"),
    [
        ("smear_env.game", "smear_env.scoring"),  # the engine scores its hands
        ("smear_env.scoring", "smear_env.rules"),  # scoring reads rules, never the game
        ("training.ladder", "training.evaluate"),  # the ladder is built on the evaluation
        ("training.evaluate.cli", "training.ladder"),  # and the command line runs both
        ("training.evaluate.results", "training.evaluate.report"),  # from ... import <module>
        ("smear_env.aec", "smear_env.game"),
    ],
)
def test_the_graph_sees_the_imports_that_matter(module: str, imports: str) -> None:
    graph = import_graph(module_files(ROOT, PACKAGES))
    assert imports in graph[module]
    assert module not in graph[imports]


def test_every_kind_of_import_closes_a_cycle(tmp_path: Path) -> None:
    """A cycle through a lazy import, a ``TYPE_CHECKING`` import and relative imports is found."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from . import b\n")
    (package / "b.py").write_text("def f():\n    from .c import g\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import x\n")
    graph = import_graph(module_files(tmp_path, ("pkg",)))
    assert graph == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.c"}, "pkg.c": {"pkg.a"}}
    assert find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]
    (package / "c.py").write_text("import pkg\n")
    assert find_cycle(import_graph(module_files(tmp_path, ("pkg",)))) is None
