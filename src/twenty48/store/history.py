"""The store's history operations: replayed positions, statistics, deletion, hints asked, export.

A part of ``Store`` (``twenty48.store.games``), kept apart so that each module stays small; every
operation is scoped to a player as the rest of the store is::

    store.positions(player_id, game_id, first=0, count=100)  # Positions: the boards after moves n ...
    store.stats(player_id, "classic", assisted=False)         # Stats of finished unassisted games
    store.note_hint(player_id, game_id, revision)             # a hint asked (once per position)
    store.delete_game(player_id, game_id)                     # gone from the player's games
    store.export_game(player_id, game_id)                     # a "twenty48-game/2" dict
    store.export_history(player_id)                           # a "twenty48-history/2" dict
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from twenty48.store import checkpoints, codec, stats, transfer
from twenty48.store.backend import Connection, GameRow, ListQuery, StatsQuery, current_game_of
from twenty48.store.errors import GameInProgressError, GameNotFoundError
from twenty48.store.records import ID_LIMIT, GameRecord, Positions, Stats
from twenty48.store.rows import now_text
from twenty48.variants import get_variant

if TYPE_CHECKING:
    from twenty48.game import Game

#: The most positions one ``positions`` call returns.
MAX_POSITIONS = 1000


class HistoryStore:
    """Mixed into ``Store``, whose transactions and game loading it uses."""

    if TYPE_CHECKING:

        def _read(self) -> AbstractContextManager[Connection]: ...

        def _write(self) -> AbstractContextManager[Connection]: ...

        def _load(self, db: Connection, player_id: int, game_id: int) -> tuple[GameRow, Game]: ...

        def _as_record(self, db: Connection, row: GameRow, game: Game) -> GameRecord: ...

        def _record(self, db: Connection, player_id: int, game_id: int) -> GameRecord: ...

        def _load_for_action(
            self, db: Connection, player_id: int, game_id: int, revision: int | None
        ) -> tuple[GameRow, Game]: ...

        def _close_day(self, db: Connection, row: GameRow, today: str | None) -> GameRow: ...

    def positions(self, player_id: int, game_id: int, first: int = 0, count: int = 100) -> Positions:
        """The positions after moves ``first`` .. ``first + count - 1`` (move 0 is the start);
        fewer at the end of the game, none from past it. Costs at most ``CHECKPOINT_EVERY - 1``
        moves of replay beyond the ones returned, however long the game."""
        if first < 0:
            raise ValueError("first must not be negative")
        if not 1 <= count <= MAX_POSITIONS:
            raise ValueError(f"count must be 1-{MAX_POSITIONS}")
        with self._read() as db:
            _owned(db, player_id, game_id)
            state, moves = db.game_header(game_id)
            last = min(first + count - 1, moves)
            found = []
            if first <= last:
                seed, variant, start = codec.origin(state)
                found = checkpoints.positions(db, game_id, seed, get_variant(variant), start, first, last)
            return Positions(game_id, moves + 1, tuple(found))

    def stats(self, player_id: int, variant: str, *, assisted: bool = True) -> Stats:
        """The player's figures in ``variant``; ``assisted=False`` counts only games known to have
        had no hint, auto-played move or undo."""
        name = get_variant(variant).name
        with self._read() as db:
            return stats.compute(
                db, StatsQuery(player_id, name, current_game_of(db, player_id), not assisted)
            )

    def note_hint(
        self, player_id: int, game_id: int, revision: int | None = None, *, today: str | None = None
    ) -> GameRecord:
        """Count a hint asked on the game at ``revision`` (None: as it stands) and return the game
        as the hint sees it; asking again at that revision counts nothing. The game's revision does
        not change (a hint is not an action), but a hint is refused as an action is, counting
        nothing: on a game that is over or replaced (``GameFinishedError``) or at a revision that
        is not the current one (``StaleRevisionError``). The check and the count are one
        transaction, so a hint and the move that ends a ranked game come in one order: a hint
        first unranks the game before it can reach a board; a hint after it is refused, and the
        game stays on the board as it ended, unassisted. ``today``: as for ``Store.move``."""
        with self._write() as db:
            row, game = self._load_for_action(db, player_id, game_id, revision)
            if db.hint_revision(game_id) != row.revision:
                self._close_day(db, row, today)
                db.add_assists(game_id, hints=1)
                db.set_hint_revision(game_id, row.revision)
                row = row._replace(ranked=False)
            return self._as_record(db, row, game)

    def delete_game(self, player_id: int, game_id: int) -> None:
        """Remove one of the player's games (its moves and state); if it was the current game the
        player gets a new one on the next ``current_game``. Its id is never given to another game."""
        with self._write() as db:
            row = _owned(db, player_id, game_id)
            # The hidden row is never loaded again, so its cached copy cannot be handed out.
            db.delete_game(player_id, game_id, now_text())
            # A deleted game leaves the boards; the player's next best takes its place.
            db.refresh_board_best(player_id, row.variant)

    def export_game(self, player_id: int, game_id: int) -> dict[str, Any]:
        """The game as a ``twenty48-game/2`` file."""
        with self._read() as db:
            return _export(self, db, player_id, game_id)

    def export_history(self, player_id: int) -> dict[str, Any]:
        """Every game of the player, oldest first, as a ``twenty48-history/2`` file."""
        with self._read() as db:
            current_game_of(db, player_id)
            ids = [s.id for s in db.history(player_id, ListQuery("date", None, None, None, ID_LIMIT))]
            # A ranked game in progress is left out: its seed would tell every tile still to come.
            return transfer.export_history(
                [
                    _export(self, db, player_id, i)
                    for i in reversed(ids)
                    if not self._record(db, player_id, i).secret
                ]
            )


def _export(store: HistoryStore, db: Connection, player_id: int, game_id: int) -> dict[str, Any]:
    row, game = store._load(db, player_id, game_id)
    record = store._as_record(db, row, game)
    if record.secret:
        raise GameInProgressError(
            "a ranked game in progress cannot be exported: its seed would tell every tile still to come",
            record,
        )
    return transfer.export_game(game, record.finished, row.created_at, transfer.Assists(*db.assists(game_id)))


def _owned(db: Connection, player_id: int, game_id: int) -> GameRow:
    row = db.game(player_id, game_id) if 0 < game_id <= ID_LIMIT and 0 < player_id <= ID_LIMIT else None
    if row is None:
        raise GameNotFoundError(f"no game {game_id} for this player")
    return row
