"""Every exception class of the package is named ``...Error`` (docs/reference/errors.md draws the
tree), and the names exported before the rule are still the same classes."""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

from twenty48 import game

SRC = Path(__file__).parents[1] / "src" / "twenty48"
_BUILTIN = {
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
}


def _classes() -> dict[str, tuple[str, list[str]]]:
    """Every class of the package: name -> (where, the names of its bases)."""
    found: dict[str, tuple[str, list[str]]] = {}
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                bases = [
                    base.id if isinstance(base, ast.Name) else ast.unparse(base).rsplit(".", 1)[-1]
                    for base in node.bases
                ]
                found[node.name] = (f"{path.relative_to(SRC)}:{node.lineno}", bases)
    return found


def test_every_exception_class_is_named_error() -> None:
    classes = _classes()
    exceptions = set(_BUILTIN)
    # Exceptions of exceptions, until no class is added (a base may come later in the walk).
    while True:
        more = {name for name, (_, bases) in classes.items() if set(bases) & exceptions} - exceptions
        if not more:
            break
        exceptions |= more
    ours = exceptions - _BUILTIN
    assert len(ours) > 30
    misnamed = [f"{classes[name][0]}: {name}" for name in sorted(ours) if not name.endswith("Error")]
    assert not misnamed


def test_the_names_exported_before_the_rule_are_the_same_classes() -> None:
    assert game.IllegalAction is game.IllegalActionError
    assert game.GameOver is game.GameOverError
    assert game.NothingToUndo is game.NothingToUndoError
    assert game.NotWon is game.NotWonError
    assert game.NoTileMoves is game.NoTileMovesError
