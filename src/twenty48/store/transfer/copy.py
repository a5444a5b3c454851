"""Copying an SQLite store into an empty PostgreSQL database, every game verified by replay.

Both databases are first brought to the current schema by the one migration list, so they have
the same tables and columns; every row is copied as it is, ids included (a page or a link that
names a game keeps working), in one PostgreSQL transaction: a failed copy leaves the target empty.
Before anything is written, every game of the source is rebuilt from its seed, start and moves
(``Game.replay``) and must equal its stored state; after the rows are in, every game is loaded
back from the target and must equal the source's.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import NamedTuple

from twenty48.game import Game
from twenty48.store.database import SQL
from twenty48.store.errors import StoreError
from twenty48.store.games import codec
from twenty48.store.opening import postgres_backend
from twenty48.store.store import Store
from twenty48.wording import count


class CopyResult(NamedTuple):
    players: int
    games: int
    #: Rows per table.
    rows: dict[str, int]


def copy_store(source: Path, target: str) -> CopyResult:
    """Copy the SQLite store at ``source`` into the PostgreSQL database ``target``. Raises
    ``StoreError`` if the target already holds players or games, or a game does not replay to its
    state, or the ``postgres`` extra is not installed."""
    opened = postgres_backend()  # before the source is changed, if it cannot be copied anywhere
    with Store.open(source):  # migrates the source to the current schema
        pass
    backend = opened.open(target)
    try:
        with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as db:
            games = _verified_games(db, source)
            # One transaction: its errors leave it as StoreError, and a failed copy leaves nothing.
            with backend.write() as pg:
                rows = _copy_rows(db, pg, backend.location)
        with Store(backend) as copied:
            for game_id, player_id, game in games:
                if copied.load_game(player_id, game_id).to_dict() != game.to_dict():
                    raise StoreError(f"game {game_id} reads back differently from {backend.location}")
    finally:
        backend.close()
    return CopyResult(rows.get("players", 0), len(games), rows)


def _verified_games(db: sqlite3.Connection, source: Path) -> list[tuple[int, int, Game]]:
    games = []
    for game_id, player_id, state in db.execute(
        "SELECT id, player_id, state FROM games WHERE NOT set_aside ORDER BY id"
    ).fetchall():
        actions = [
            d if cell is None else f"{d}@{cell}"
            for d, cell in db.execute(
                "SELECT direction, cell FROM game_moves WHERE game_id = ? ORDER BY ply", (game_id,)
            )
        ]
        try:
            game = codec.decode(state, actions)
            replayed = Game.replay(game.seed, actions, game.variant.name, game.start, game.size)
        except ValueError as exc:
            raise StoreError(f"{source}: game {game_id} cannot be read: {exc}") from None
        if (replayed.board, replayed.score) != (game.board, game.score):
            raise StoreError(f"{source}: game {game_id} does not replay to its stored state")
        games.append((game_id, player_id, game))
    return games


def _copy_rows(db: sqlite3.Connection, pg: SQL, location: str) -> dict[str, int]:
    (players,) = pg.execute("SELECT count(*) FROM players").fetchone() or (0,)
    (present,) = pg.execute("SELECT count(*) FROM games").fetchone() or (0,)
    if players or present:
        raise StoreError(
            f"{location} already holds {count(present, 'game')} of {count(players, 'player')}: copy only "
            "into a database without players"
        )
    tables = [
        name
        for (name,) in db.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
    ]
    # players.current_game_id points into games, and games into players: the pointers go last.
    order = ["players", "games", *(t for t in tables if t not in ("players", "games"))]
    counts: dict[str, int] = {}
    # Every other table belongs to a player but the server's secrets: a server started on the empty
    # target made its own, which nothing there uses yet; the source's, which its games use, win.
    names = [name for (name,) in db.execute("SELECT name FROM server_secrets")]
    pg.execute("DELETE FROM server_secrets WHERE name = ANY(?)", (names,))
    for table in order:
        counts[table] = _copy_table(db, pg, table)
    for player_id, game_id in db.execute(
        "SELECT id, current_game_id FROM players WHERE current_game_id IS NOT NULL"
    ):
        pg.execute("UPDATE players SET current_game_id = ? WHERE id = ?", (game_id, player_id))
    for table in order:
        if _has_identity(pg, table):
            # The identity column continues after the copied ids.
            pg.execute(
                f"SELECT setval(pg_get_serial_sequence(?, 'id'), max(id)) FROM {table} HAVING count(*) > 0",
                (table,),
            )
    return counts


def _copy_table(db: sqlite3.Connection, pg: SQL, table: str) -> int:
    types = dict(
        pg.execute(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = ?",
            (table,),
        ).fetchall()
    )
    columns = [c[1] for c in db.execute(f"PRAGMA table_info({table})")]
    flags = [types.get(c) == "boolean" for c in columns]
    selected = ", ".join("NULL" if (table, c) == ("players", "current_game_id") else c for c in columns)
    rows = [
        tuple(bool(v) if flag and v is not None else v for v, flag in zip(row, flags, strict=True))
        for row in db.execute(f"SELECT {selected} FROM {table}")
    ]
    if rows:
        pg.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['?'] * len(columns))})", rows
        )
    return len(rows)


def _has_identity(pg: SQL, table: str) -> bool:
    row = pg.execute(
        "SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND table_name = ? AND column_name = 'id' AND is_identity = 'YES'",
        (table,),
    ).fetchone()
    return bool(row and row[0])
