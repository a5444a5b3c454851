"""Games kept deserialised in memory, so an action does not rebuild its game from the database,
and, for a game this process wrote last, its row as that write left it."""

from __future__ import annotations

from collections import OrderedDict
from typing import NamedTuple

from twenty48.game import Game
from twenty48.store.games.sql import GameRow

#: How many games the cache holds; the least recently used one goes first.
CACHE_SIZE = 4096


class Cached(NamedTuple):
    revision: int
    game: Game
    #: The game's row as this process's last write of it left it, or None when it was not the last
    #: to touch the row (read it, or changed the row but not through ``GameRows.save``).
    row: GameRow | None


class GameCache:
    """game id -> (revision, Game, row). An entry is valid only while its revision is the
    database's: another process that acts on the game bumps the revision, and the next read
    rebuilds it. Its row is only ever a guess, which the database checks before it is used."""

    def __init__(self) -> None:
        self._games: OrderedDict[int, Cached] = OrderedDict()

    def get(self, game_id: int, revision: int) -> Cached | None:
        cached = self._games.get(game_id)
        if cached is None or cached.revision != revision:
            return None
        self._games.move_to_end(game_id)
        return cached

    def written(self, game_id: int) -> tuple[GameRow, Game] | None:
        """The row this process's last write of the game left, with the game, if it has them."""
        cached = self._games.get(game_id)
        if cached is None or cached.row is None:
            return None
        self._games.move_to_end(game_id)
        return cached.row, cached.game

    def put(self, game_id: int, revision: int, game: Game, row: GameRow | None = None) -> None:
        self._games[game_id] = Cached(revision, game, row)
        self._games.move_to_end(game_id)
        while len(self._games) > CACHE_SIZE:
            self._games.popitem(last=False)

    def forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)

    def clear(self) -> None:
        self._games.clear()
