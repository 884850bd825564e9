"""The domain's modules import one another one way: no circle, however deep, and however hidden.

Every module under domain/ is parsed (nothing is imported): each ``import`` and ``from ...
import`` anywhere in it (at the top, under ``if TYPE_CHECKING``, inside a function) is an edge
to the most specific domain module it names, as import-linter counts them: ``from
domain.deathwick import cards`` is an edge to ``domain.deathwick.cards``, ``from domain import
ember`` one to the package ``domain.ember``. A circle among these edges fails the test with its
path, so a function-level import cannot hide one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = ROOT / "domain"


def module_name(path: Path) -> str:
    """'domain.deathwick.cards' for domain/deathwick/cards.py; a package is its __init__."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def domain_modules() -> dict[str, Path]:
    """Every module of the domain package, by its dotted name."""
    return {module_name(path): path for path in sorted(DOMAIN.rglob("*.py"))}


def imported(path: Path, name: str, modules: dict[str, Path]) -> Iterator[str]:
    """The domain modules one module imports, at any depth of its code (relative ones resolved):
    ``from package import name`` is an edge to ``package.name`` when that is a module, else to
    the package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                if f"{base}.{alias.name}" in modules:
                    yield f"{base}.{alias.name}"
                elif base in modules:
                    yield base


def graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Each domain module's edges to the other domain modules."""
    return {name: set(imported(path, name, modules)) - {name} for name, path in modules.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One path for each import circle found by a depth-first walk (empty when there is none)."""
    found: list[list[str]] = []
    done: set[str] = set()

    def walk(name: str, path: list[str]) -> None:
        """Follow the edges from ``name``, reporting a return to a module on the path."""
        for target in sorted(edges[name]):
            if target in path:
                found.append([*path[path.index(target):], target])
            elif target not in done:
                walk(target, [*path, target])
        done.add(name)

    for start in sorted(edges):
        if start not in done:
            walk(start, [start])
    return found


def test_no_domain_module_imports_itself_through_others():
    """Given every module of domain/, when their imports (at any depth) are read as a graph,
    then it has no circle."""
    found = circles(graph(domain_modules()))
    assert not found, "import circles in domain/:\n" + "\n".join(" -> ".join(c) for c in found)


@pytest.mark.parametrize(("edges", "expected"), [
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ({"a": {"b"}, "b": {"a"}}, [["a", "b", "a"]]),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, [["a", "b", "c", "a"]]),
])
def test_the_circle_finder_reports_a_circle_and_only_a_circle(edges, expected):
    """Given a small graph, then the circles found are exactly its circles."""
    assert circles(edges) == expected


def test_a_function_level_import_is_an_edge_too(tmp_path):
    """Given a module importing another only inside a function, then that import is an edge."""
    module = tmp_path / "effects.py"
    module.write_text("def carry_out():\n    from domain.deathwick.windows import turn_to\n")
    modules = {"domain.deathwick.effects": module, "domain.deathwick.windows": module}
    assert set(imported(module, "domain.deathwick.effects", modules)) == {"domain.deathwick.windows"}
