"""The store's layout holds: no import circle among its modules, no import hidden in a function but
the optional PostgreSQL backend's, neither backend importing the other, and the rest of ``src``
importing only the package ``twenty48.store`` itself. Read from the source with ``ast``."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
STORE = "twenty48.store"
#: Loaded only when a ``postgresql://`` URL asks for it: psycopg is an optional extra.
OPTIONAL = "twenty48.store.backends.postgres"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def _modules() -> dict[str, ast.Module]:
    return {_module_name(p): ast.parse(p.read_text(), str(p)) for p in (SRC / "twenty48").rglob("*.py")}


def _imports(name: str, tree: ast.Module) -> Iterator[tuple[str, str, bool]]:
    """(module imported, module named in the statement, whether the import is inside a function)
    for each import of a module: ``from a import b`` imports ``a.b`` if that is a module, else
    ``a``, and names ``a``. The project imports absolutely only."""
    modules = _modules()
    inside = {
        id(n)
        for f in ast.walk(tree)
        if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
        for n in ast.walk(f)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, alias.name, id(node) in inside
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and node.module is not None, f"{name}: a relative import"
            base = node.module
            for alias in node.names:
                found = f"{base}.{alias.name}"
                yield (found if found in modules else base), base, id(node) in inside


def _store_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {
        name: {imported for imported, _, _ in _imports(name, tree) if imported.startswith(STORE + ".")}
        for name, tree in modules.items()
        if name.startswith(STORE + ".")
    }


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        for target in sorted(graph.get(node, ())):
            found = visit(target, [*path, node])
            if found:
                return found
        done.add(node)
        return None

    for start in sorted(graph):
        found = visit(start, [])
        if found:
            return found
    return None


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for target in graph.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def test_the_store_has_no_import_circle() -> None:
    assert _cycle(_store_graph()) is None


def test_the_cycle_finder_finds_one() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_no_import_in_a_function_but_the_optional_backend() -> None:
    hidden = [
        (name, imported)
        for name, tree in _modules().items()
        if name.startswith(STORE)
        for imported, _, in_function in _imports(name, tree)
        if in_function and imported != OPTIONAL
    ]
    assert hidden == []


@pytest.mark.parametrize(
    ("backend", "other"),
    [
        ("twenty48.store.backends.sqlite", "twenty48.store.backends.postgres"),
        (OPTIONAL, "twenty48.store.backends.sqlite"),
    ],
)
def test_neither_backend_imports_the_other(backend: str, other: str) -> None:
    graph = _store_graph()
    assert other not in _reach(graph, backend)
    assert not any(m.startswith(other) for m in _reach(graph, backend))


def test_the_rest_of_src_imports_only_the_package() -> None:
    reaching = [
        (name, named)
        for name, tree in _modules().items()
        if not name.startswith(STORE)
        for _, named, _ in _imports(name, tree)
        if named.startswith(STORE + ".")
    ]
    assert reaching == []
