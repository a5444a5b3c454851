"""``Exports``: a player's games as ``twenty48-game/2`` and ``twenty48-history/2`` files (the
formats of ``twenty48.store.transfer``)::

    store.export_game(player_id, game_id)     # a "twenty48-game/2" dict
    store.export_history(player_id)           # a "twenty48-history/2" dict, oldest game first

A ranked game in progress is never exported: its seed would tell every tile still to come.
"""

from __future__ import annotations

from typing import Any

from twenty48.store import transfer
from twenty48.store.archive import sql as archive_sql
from twenty48.store.archive.sql import ListQuery
from twenty48.store.database import Connection
from twenty48.store.errors import GameInProgressError
from twenty48.store.games import sql as games_sql
from twenty48.store.games.rows import GameRows
from twenty48.store.records import ID_LIMIT


class Exports:
    """The store's part for exports; ``Store`` documents each operation."""

    def __init__(self, rows: GameRows) -> None:
        self._rows = rows

    def export_game(self, player_id: int, game_id: int) -> dict[str, Any]:
        with self._rows.read() as db:
            return self._export(db, player_id, game_id)

    def export_history(self, player_id: int) -> dict[str, Any]:
        with self._rows.read() as db:
            games_sql.current_game_of(db, player_id)
            every = archive_sql.page(db, player_id, ListQuery("date", None, None, None, ID_LIMIT))
            return transfer.export_history(
                [
                    self._export(db, player_id, game.id)
                    for game in reversed(every)
                    if not self._rows.record(db, player_id, game.id).secret
                ]
            )

    def _export(self, db: Connection, player_id: int, game_id: int) -> dict[str, Any]:
        row, game = self._rows.load(db, player_id, game_id)
        record = self._rows.as_record(db, row, game)
        if record.secret:
            raise GameInProgressError(
                "a ranked game in progress cannot be exported: its seed would tell every tile still to come",
                record,
            )
        assists = transfer.Assists(*games_sql.assists(db, game_id))
        return transfer.export_game(game, record.finished, row.created_at, assists)
