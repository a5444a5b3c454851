"""The results file of ``2048 bench --out``: one JSON line per finished solver game, written as
the game finishes, so that a long measurement survives a crash and can be resumed or reported.

A line holds the game (``seed``, ``score``, ``max_tile``, ``moves``, ``seconds``, the game's own
``ms_per_move_p50`` and ``ms_per_move_p99``) and the setting it was played at (``depth``,
``time_ms``, ``nodes``, ``solver``: ``SOLVER_VERSION``, the board's ``size`` and ``max_moves``, the
moves after which a game stops, or None). Every line of a file has the same setting; a line written
before sizes and move caps were part of it, without ``size`` or ``max_moves``, is a 4x4 game played
to its end. A line counts once its newline is written: a last line without one was cut off while
being written and is left out.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from twenty48.ai.play import PlayedGame
from twenty48.ai.solver import SOLVER_VERSION
from twenty48.checks import is_int, is_real
from twenty48.rules import DEFAULT_SIZE, BoardSize
from twenty48.spawns import SEED_LIMIT

#: The fields of a game in a line, in the order written.
GAME_FIELDS = tuple(field.name for field in dataclasses.fields(PlayedGame))
#: The fields of the setting in a line.
SETTING_FIELDS = ("depth", "time_ms", "nodes", "solver", "size", "max_moves")
#: What a line without them (written before they existed) was played at.
_OLDER_SETTING = {"size": str(DEFAULT_SIZE), "max_moves": None}


class ResultsError(ValueError):
    """A file that is not a results file, or not one this run can continue; the message is one line."""


@dataclass(frozen=True, slots=True)
class Results:
    """What a results file holds."""

    #: The setting every line was played at; None for an empty file.
    setting: dict[str, Any] | None
    games: list[PlayedGame]
    #: Bytes of the whole lines: where the next line goes.
    size: int


def setting_of(
    depth: int | None,
    time_ms: int | None,
    nodes: int | None,
    size: BoardSize = DEFAULT_SIZE,
    max_moves: int | None = None,
) -> dict[str, Any]:
    """The setting a run plays at, as its lines and its summary name it."""
    return {
        "depth": depth if depth else ("adaptive" if not (time_ms or nodes) else None),
        "time_ms": time_ms,
        "nodes": nodes,
        "solver": SOLVER_VERSION,
        "size": str(size),
        "max_moves": max_moves,
    }


def describe(setting: dict[str, Any]) -> str:
    """A setting in words: ``depth 3``, ``adaptive depth``, ``2,000 nodes per move``..."""
    if setting["depth"] == "adaptive":
        words = "adaptive depth"
    elif setting["depth"]:
        words = f"depth {setting['depth']}"
    elif setting["nodes"]:
        words = f"{setting['nodes']:,} nodes per move"
    else:
        words = f"{setting['time_ms']} ms per move"
    if setting["size"] != str(DEFAULT_SIZE):
        words += f" on {setting['size']}"
    if setting["max_moves"]:
        words += f", games stopped at {setting['max_moves']:,} moves"
    return f"{words} (solver version {setting['solver']})"


def line(game: PlayedGame, setting: dict[str, Any]) -> str:
    """The line that records ``game``, newline included."""
    return json.dumps(dataclasses.asdict(game) | setting) + "\n"


def read(path: Path) -> Results:
    """The games in the results file at ``path`` (none where it does not exist yet), or
    ``ResultsError`` saying in one line why it is not a results file."""
    if not path.exists():
        return Results(None, [], 0)
    # Checked before opening: opening a pipe would wait for a writer, a device never ends.
    if not path.is_file():
        raise ResultsError(f"{path} is not a regular file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ResultsError(f"cannot read {path}: {exc.strerror or exc}") from None
    size = data.rfind(b"\n") + 1
    setting: dict[str, Any] | None = None
    games: list[PlayedGame] = []
    seeds: set[int] = set()
    for number, raw in enumerate(data[:size].splitlines(), 1):
        try:
            record = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError, ValueError, RecursionError):
            raise ResultsError(f"{path} line {number} is not JSON: not a results file") from None
        game, its_setting = _parse(record, f"{path} line {number}")
        if setting is None:
            setting = its_setting
        elif its_setting != setting:
            raise ResultsError(
                f"{path} line {number} was played at {describe(its_setting)}, line 1 at {describe(setting)}"
            )
        if game.seed in seeds:
            raise ResultsError(f"{path} line {number}: seed {game.seed} is already in the file")
        seeds.add(game.seed)
        games.append(game)
    return Results(setting, games, size)


def _parse(record: object, where: str) -> tuple[PlayedGame, dict[str, Any]]:
    if isinstance(record, dict) and not set(_OLDER_SETTING) & set(record):
        record = record | _OLDER_SETTING
    if not isinstance(record, dict) or set(record) != {*GAME_FIELDS, *SETTING_FIELDS}:
        fields = ", ".join(GAME_FIELDS + SETTING_FIELDS)
        raise ResultsError(f"{where} is not a game's results line (expected the fields {fields})")
    try:
        largest = BoardSize.parse(record["size"]).max_tile
    except ValueError:
        raise ResultsError(f"{where} has an impossible size: not a results file") from None
    checks = {
        "seed": is_int(record["seed"]) and 0 <= record["seed"] < SEED_LIMIT,
        "score": is_int(record["score"]) and record["score"] >= 0,
        "max_tile": is_int(record["max_tile"])
        and 2 <= record["max_tile"] <= largest
        and record["max_tile"] & (record["max_tile"] - 1) == 0,
        "moves": is_int(record["moves"]) and record["moves"] >= 0,
        **{
            name: is_real(record[name]) and math.isfinite(record[name]) and record[name] >= 0
            for name in ("seconds", "ms_per_move_p50", "ms_per_move_p99")
        },
        "depth": record["depth"] in (None, "adaptive") or (is_int(record["depth"]) and record["depth"] >= 1),
        **{
            name: record[name] is None or (is_int(record[name]) and record[name] >= 1)
            for name in ("time_ms", "nodes", "max_moves")
        },
        "solver": is_int(record["solver"]) and record["solver"] >= 1,
    }
    wrong = [name for name, ok in checks.items() if not ok]
    if wrong:
        raise ResultsError(f"{where} has an impossible {wrong[0]}: not a results file")
    game = PlayedGame(**{name: record[name] for name in GAME_FIELDS})
    return game, {name: record[name] for name in SETTING_FIELDS}
