"""A ``Game`` as the store keeps it: its state as JSON, its action log apart, a few columns."""

from __future__ import annotations

import json
from typing import NamedTuple

import orjson

from twenty48 import spawns
from twenty48.game import Game, Start
from twenty48.rules import DEFAULT_SIZE, Board, BoardSize
from twenty48.store.games.sql import GameColumns, GameRow
from twenty48.store.records import seed_withheld


def encode(game: Game) -> str:
    """The state without the action log, which the store keeps row by row (``Connection.state``),
    as compact JSON. Written on every move, with the undo snapshots: orjson writes it in about a
    ninth of the standard library's time (which was a third of the store thread's time a move)."""
    return orjson.dumps(game.to_dict(actions=False)).decode()


def columns(game: Game) -> GameColumns:
    return GameColumns(
        game.variant.name,
        game.score,
        game.moves,
        game.board.max_tile,
        game.won,
        game.over,
        game.spawns,
        str(game.size),
    )


def unplayed(game: Game) -> bool:
    """Nothing of the game would be lost by replacing it: no move on it, none to take back, not a
    prepared position (an import or a repaired game)."""
    return game.moves == 0 and not game.can_undo and game.start is None and game.score == 0


def decode(state: str, actions: list[str]) -> Game:
    """The game of a stored state and its log. Raises ValueError if they do not make one."""
    try:
        data = json.loads(state)
        return Game.from_dict({**data, "actions": actions})
    except TypeError as exc:
        # Not a JSON object, or a field of the wrong type that the format checks missed.
        raise ValueError(str(exc)) from exc


class Origin(NamedTuple):
    """Where a stored game's replay begins."""

    seed: spawns.Seed
    variant: str
    #: The prepared start; None for a game that began from its seed's starting tiles.
    start: Start | None
    size: BoardSize


def origin(state: str) -> Origin:
    """The seed, variant, prepared start and size of a stored state: where its replay begins, read
    without the action log."""
    data = json.loads(state)
    start = data.get("start")
    begins = None if start is None else Start(Board.from_rows(start["board"]), start["score"])
    # States written before the schemes (saved-game version 3 and older) are SplitMix64 games, and
    # those before the sizes (version 4 and older) are 4x4 games.
    seed = spawns.seed_from_json(data["seed"], data.get("spawns", spawns.SPLITMIX64))
    return Origin(seed, data["variant"], begins, BoardSize.parse(data.get("size", str(DEFAULT_SIZE))))


def withheld(row: GameRow, game: Game) -> bool:
    """Whether the game's seed is withheld (``records.seed_withheld``)."""
    return seed_withheld(row.ranked, game.over, row.current_game_id == row.id, row.daily)
