"""The house's import graph: no circle anywhere under ``src/twenty48``, and no import from a lower
layer to a higher one.

The graph is read from the source with ``ast``, not by importing: every ``import`` statement counts,
wherever it stands (at the top of a module, inside a function, under ``if TYPE_CHECKING:``: a late
import still ties the two modules together, and a reader follows a type checker's import as much as
any other). ``from package import name`` is an edge to the submodule ``package.name`` when there is
one, else to the package. The packages above an imported module are not edges: Python runs a
package's ``__init__`` before any of its modules, so counting them would make every facade (``from
twenty48.store import Store``) a circle with its own parts. ``cli.py`` picks its command module by name
(``importlib``), which the graph cannot see; it is the top of the house anyway.
"""

from __future__ import annotations

import ast
import functools
import graphlib
from pathlib import Path

import pytest

import twenty48

SOURCE = Path(twenty48.__file__).parent

#: The layers, lowest first. A module may import from its own part and from the parts of lower
#: layers; the parts of one layer are independent of each other (the store, the environments and the
#: solver know nothing of each other; neither do the browser's server and the terminal game). An
#: entry names a module, or a package and everything in it; the root package ``twenty48`` (its
#: ``Board``, ``Game`` and ``__version__``) is only itself.
LAYERS: list[dict[str, tuple[str, ...]]] = [
    {
        # What knows nothing of 2048: type checks, English counts and error lines, numba's notice
        # of a first run's compiling.
        "base": ("twenty48.checks", "twenty48.wording", "twenty48.compiling"),
    },
    {
        # The rules and the facts defined beside them: spawn schemes, variants, action strings,
        # players' names, the tiles' colours.
        "rules": (
            "twenty48.rules",
            "twenty48.spawns",
            "twenty48.variants",
            "twenty48.actions",
            "twenty48.names",
            "twenty48.palette",
        ),
    },
    {
        # One game played by the rules (with its saved format), and the bitboard engine.
        "game": ("twenty48", "twenty48.game", "twenty48.saved"),
        "fast": ("twenty48.fast",),
    },
    {
        "store": ("twenty48.store",),
        "env": ("twenty48.env",),
        "ai": ("twenty48.ai",),
    },
    {
        # A stored game as a list of games shows it, shared by the terminal and the command line.
        "listing": ("twenty48.listing",),
        # The play use cases over the store (new game, move, undo, keep going, hints, a visitor's
        # pending game): the one flow the browser's routes, the terminal and the commands call.
        "play": ("twenty48.play_service",),
    },
    {
        "web": ("twenty48.web",),
        "tui": ("twenty48.tui",),
    },
    {
        "commands": ("twenty48.commands", "twenty48.cli", "twenty48.__main__"),
    },
]


def module_files(source: Path) -> dict[str, Path]:
    """Every module under ``source`` (a package's directory) by its dotted name."""
    modules = {}
    for path in sorted(source.rglob("*.py")):
        parts = (source.name, *path.relative_to(source).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def import_graph(source: Path) -> dict[str, set[str]]:
    """Each module under ``source`` -> the modules of the same package it imports."""
    modules = module_files(source)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([node.module] if node.module else [])])
                for alias in node.names:
                    submodule = f"{base}.{alias.name}"
                    imported.add(submodule if submodule in modules else base)
        graph[name] = {module for module in imported if module in modules and module != name}
    return graph


def part_of(module: str) -> tuple[int, str] | None:
    """The layer (its index, lowest 0) and the part ``module`` belongs to."""
    best: tuple[int, int, str] | None = None
    for layer, parts in enumerate(LAYERS):
        for part, entries in parts.items():
            for entry in entries:
                inside = entry != SOURCE.name and module.startswith(f"{entry}.")
                if (module == entry or inside) and (best is None or len(entry) > best[0]):
                    best = (len(entry), layer, part)
    return None if best is None else (best[1], best[2])


def cycle_in(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (its first module repeated at its end), or None."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return list(reversed(error.args[1]))
    return None


def back_edges(graph: dict[str, set[str]]) -> list[str]:
    """Every import from a part to another part of its own or a higher layer, as a sentence (a
    module without a place is ``test_every_module_has_its_place_in_the_layers``'s to report)."""
    found = []
    for importer, imported in sorted(graph.items()):
        for module in sorted(imported):
            importer_place, imported_place = part_of(importer), part_of(module)
            if importer_place is None or imported_place is None:
                continue
            (low, low_part), (high, high_part) = importer_place, imported_place
            if high_part != low_part and high >= low:
                found.append(
                    f"{importer} ({low_part}, layer {low}) imports {module} ({high_part}, layer {high})"
                )
    return found


@functools.cache
def house() -> dict[str, set[str]]:
    """The import graph of ``src/twenty48``."""
    return import_graph(SOURCE)


def test_every_module_has_its_place_in_the_layers() -> None:
    assert [module for module in sorted(house()) if part_of(module) is None] == []


def test_no_import_circle() -> None:
    cycle = cycle_in(house())
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_no_import_from_a_lower_layer_or_a_sibling_part() -> None:
    assert back_edges(house()) == [], "\n".join(back_edges(house()))


def test_the_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    """Relative, absolute, ``from package import submodule`` and late imports are all edges, and
    the circle they close is named."""
    package = tmp_path / "house"
    (package / "floor").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "floor" / "__init__.py").write_text("from .room import Room\n")
    (package / "floor" / "room.py").write_text("from house import roof\nclass Room: ...\n")
    (package / "floor" / "hall.py").write_text("import house.floor.room\n")
    (package / "roof.py").write_text("def build():\n    from .floor import hall\n")

    graph = import_graph(package)

    assert graph == {
        "house": set(),
        "house.floor": {"house.floor.room"},
        "house.floor.room": {"house.roof"},
        "house.floor.hall": {"house.floor.room"},
        "house.roof": {"house.floor.hall"},
    }
    assert cycle_in(graph) in (
        ["house.floor.room", "house.roof", "house.floor.hall", "house.floor.room"],
        ["house.roof", "house.floor.hall", "house.floor.room", "house.roof"],
        ["house.floor.hall", "house.floor.room", "house.roof", "house.floor.hall"],
    )


@pytest.mark.parametrize(
    ("importer", "imported", "allowed"),
    [
        ("twenty48.web.routes", "twenty48.store", True),
        ("twenty48.store.store", "twenty48.web.models", False),
        ("twenty48.tui.app", "twenty48.web.models", False),
        ("twenty48.cli", "twenty48", True),
        ("twenty48.rules", "twenty48", False),
        ("twenty48.fast.bitboard", "twenty48.compiling", True),
        ("twenty48.wording", "twenty48.store", False),
    ],
)
def test_the_layers_allow_only_downward_imports(importer: str, imported: str, allowed: bool) -> None:
    assert (back_edges({importer: {imported}}) == []) is allowed
