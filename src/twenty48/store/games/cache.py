"""Games kept deserialised in memory, so an action does not rebuild its game from the database."""

from __future__ import annotations

from collections import OrderedDict

from twenty48.game import Game

#: How many games the cache holds; the least recently used one goes first.
CACHE_SIZE = 4096


class GameCache:
    """game id -> (revision, Game). An entry is valid only while its revision is the database's:
    another process that acts on the game bumps the revision, and the next read rebuilds it."""

    def __init__(self) -> None:
        self._games: OrderedDict[int, tuple[int, Game]] = OrderedDict()

    def get(self, game_id: int, revision: int) -> Game | None:
        cached = self._games.get(game_id)
        if cached is None or cached[0] != revision:
            return None
        self._games.move_to_end(game_id)
        return cached[1]

    def put(self, game_id: int, revision: int, game: Game) -> None:
        self._games[game_id] = (revision, game)
        self._games.move_to_end(game_id)
        while len(self._games) > CACHE_SIZE:
            self._games.popitem(last=False)

    def forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)

    def clear(self) -> None:
        self._games.clear()
