"""The statements of a game's row, its action log, its checkpoints and first reaches, its assisted
counts, and the players' best scores, in the SQL both backends share (``twenty48.store.database``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from twenty48.game import Action, TileMove, parse_action
from twenty48.rules import Board, BoardSize
from twenty48.store.database import SQL, Connection
from twenty48.store.errors import PlayerNotFoundError
from twenty48.store.records import ID_LIMIT, DamagedGame


class GameRow(NamedTuple):
    """A game's row with its player's current game; the state is read only when the game is not
    cached."""

    id: int
    player_id: int
    revision: int
    created_at: str
    updated_at: str
    current_game_id: int | None
    variant: str
    #: The board's size, "RxC".
    size: str
    #: The game still counts for the leaderboards (``twenty48.store.ranking``).
    ranked: bool
    #: The date of the daily challenge the game is, or None.
    daily: str | None
    #: When the game ended (game over), or None.
    finished_at: str | None
    #: Why the game was flagged as played faster than a person can, or None.
    flagged: str | None
    #: When the game's current window of actions began (Unix seconds), or None.
    pace_at: float | None
    #: The player's best score in the game's variant and size (0 before any), read with the row so
    #: that an answer needs no statement of its own for it.
    best_score: int


class GameColumns(NamedTuple):
    """The queryable copy of a game's state, written beside it (the list of games reads only these)."""

    variant: str
    score: int
    moves: int
    max_tile: int
    won: bool
    over: bool
    #: The spawn scheme's name (``twenty48.spawns``).
    spawns: str
    #: The board's size, "RxC".
    size: str


class Checkpoint(NamedTuple):
    """The position after move ``move``, enough for a ``Game`` to play on from it."""

    move: int
    board: Board
    score: int
    won: bool
    keep_playing: bool


#: A game's row (``GameRow``) past its id and its player's.
_ROW_STATE = (
    "g.revision, g.created_at, g.updated_at, p.current_game_id, g.variant, g.size, g.ranked, g.daily, "
    "g.finished_at, g.flagged, g.pace_at, coalesce(b.score, 0)"
)
#: Where a player's game's row is read from: the game's id and its player's.
_GAME_ROW = (
    "FROM games g JOIN players p ON p.id = g.player_id LEFT JOIN best_scores b "
    "ON b.player_id = g.player_id AND b.variant = g.variant AND b.size = g.size "
    "WHERE g.id = ? AND g.player_id = ? AND NOT g.set_aside"
)
_UNCHANGED = (
    f"SELECT EXISTS (SELECT 1 {_GAME_ROW} AND ({_ROW_STATE}) IS NOT DISTINCT FROM "
    f"({', '.join(['?'] * (len(GameRow._fields) - 2))}))"
)

# ---- the player's games -------------------------------------------------------------------------


def current_game_of(db: Connection, player_id: int) -> int | None:
    """The player's current game (None when it has none); raises ``PlayerNotFoundError`` for an
    unknown player, an id no column can hold included. In a write transaction it takes the
    player's write lock, as every action of a player does."""
    if not 0 < player_id <= ID_LIMIT:
        raise PlayerNotFoundError(f"no player {player_id}")
    db.lock_player(player_id)
    row = db.execute("SELECT current_game_id FROM players WHERE id = ?", (player_id,)).fetchone()
    if row is None:
        raise PlayerNotFoundError(f"no player {player_id}")
    current: int | None = row[0]
    return current


def set_current_game(db: SQL, player_id: int, game_id: int) -> None:
    db.execute("UPDATE players SET current_game_id = ? WHERE id = ?", (game_id, player_id))


def has_games(db: SQL, player_id: int) -> bool:
    """Whether the player has ever had a game (deleted and set-aside ones included: a key once shown
    must not start another game)."""
    found = db.execute("SELECT 1 FROM games WHERE player_id = ? LIMIT 1", (player_id,)).fetchone()
    return found is not None


def game(db: Connection, player_id: int, game_id: int) -> GameRow | None:
    """The game if it exists and belongs to this player (taking the player's write lock in a write
    transaction)."""
    db.lock_player(player_id)
    found = db.execute(f"SELECT g.id, g.player_id, {_ROW_STATE} {_GAME_ROW}", (game_id, player_id)).fetchone()
    if found is None:
        return None
    # SQLite gives its BOOLEAN as 0 or 1.
    return GameRow(*found[:8], bool(found[8]), *found[9:])


def unchanged(row: GameRow) -> tuple[str, tuple[object, ...]]:
    """A query (and its parameters) that is true while the game's row, as ``game`` reads it, is
    still ``row``: a write that knows the row already checks it instead of reading it."""
    return _UNCHANGED, row


def state(db: SQL, game_id: int) -> tuple[str, list[str]]:
    """The game's state (``Game.to_dict(actions=False)`` as JSON) and its actions in order
    (``str`` of each: "left", "left@5")."""
    (found,) = db.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()
    actions = [
        d if cell is None else f"{d}@{cell}"
        for d, cell in db.execute(
            "SELECT direction, cell FROM game_moves WHERE game_id = ? ORDER BY ply", (game_id,)
        )
    ]
    return found, actions


def header(db: SQL, game_id: int) -> tuple[str, int]:
    """The game's state (as ``state``, without the actions) and its number of moves."""
    found, moves = db.execute("SELECT state, moves FROM games WHERE id = ?", (game_id,)).fetchone()
    return found, moves


def insert_game(
    db: SQL, player_id: int, columns: GameColumns, state: str, now: str, pace_at: float | None
) -> int:
    """A new game row at revision 0, unranked, without its actions; returns its id. An over game is
    finished at ``now``; ``pace_at`` starts its first window of actions (None: not measured)."""
    (game_id,) = db.execute(
        """INSERT INTO games (player_id, revision, variant, score, moves, max_tile, won, over, spawns,
                              size, state, created_at, updated_at, finished_at, pace_at)
           VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id""",
        (player_id, *columns, state, now, now, now if columns.over else None, pace_at),
    ).fetchone()
    return int(game_id)


def update_game(db: SQL, game_id: int, revision: int, columns: GameColumns, state: str, now: str) -> None:
    """Write the game's new state at ``revision``; a game that is now over and was not is finished
    at ``now``."""
    # A game once over stays over (undo is refused then), so its first finish time is kept. Its
    # digest no longer says what it holds: an import fills it in again when it needs it.
    db.execute(
        """UPDATE games SET revision = ?, variant = ?, score = ?, moves = ?, max_tile = ?, won = ?,
                            over = ?, spawns = ?, size = ?, state = ?, updated_at = ?, digest = NULL,
                            finished_at = CASE WHEN ? THEN coalesce(finished_at, ?) END
           WHERE id = ?""",
        (revision, *columns, state, now, columns.over, now, game_id),
    )


def restart(db: SQL, game_id: int) -> None:
    """Forget what the game's row holds beside its state (checkpoints, first reaches, its review,
    assisted counts, the hint counted, its origin, its ranking): a new game is about to take it."""
    forget_after(db, game_id, -1)
    db.execute("DELETE FROM game_reviews WHERE game_id = ?", (game_id,))
    db.execute(
        "UPDATE games SET hints = 0, auto_moves = 0, undos = 0, hint_revision = NULL, "
        "auto_hint_revision = NULL, origin = 'played', ranked = FALSE, daily = NULL, finished_at = NULL, "
        "flagged = NULL WHERE id = ?",
        (game_id,),
    )


# ---- the action log -----------------------------------------------------------------------------


def append_actions(db: SQL, game_id: int, first_ply: int, actions: Sequence[Action]) -> None:
    """Log ``actions`` as plies ``first_ply``, ``first_ply + 1``, ... of the game."""
    db.executemany(
        "INSERT INTO game_moves (game_id, ply, direction, cell) VALUES (?, ?, ?, ?)",
        [
            (game_id, ply, *((a[0].value, a[1]) if isinstance(a, TileMove) else (a.value, None)))
            for ply, a in enumerate(actions, start=first_ply)
        ],
    )


def delete_action(db: SQL, game_id: int, ply: int) -> None:
    db.execute("DELETE FROM game_moves WHERE game_id = ? AND ply = ?", (game_id, ply))


def actions_between(db: SQL, game_id: int, first_ply: int, last_ply: int, size: BoardSize) -> list[Action]:
    """The actions of plies ``first_ply`` .. ``last_ply`` (ply ``k`` is move ``k + 1``) of a game
    of ``size`` (its cells)."""
    return [
        parse_action(d if cell is None else f"{d}@{cell}", size)
        for d, cell in db.execute(
            "SELECT direction, cell FROM game_moves WHERE game_id = ? AND ply BETWEEN ? AND ? ORDER BY ply",
            (game_id, first_ply, last_ply),
        )
    ]


# ---- checkpoints and first reaches (``twenty48.store.games.checkpoints``) -----------------------


def checkpoint_before(db: SQL, game_id: int, move: int, size: BoardSize) -> Checkpoint | None:
    """The latest checkpoint at or before ``move`` of a game of ``size``."""
    row = db.execute(
        "SELECT move, cells, score, won, keep_playing FROM game_checkpoints "
        "WHERE game_id = ? AND move <= ? ORDER BY move DESC LIMIT 1",
        (game_id, move),
    ).fetchone()
    if row is None:
        return None
    move, cells, score, won, keep_playing = row
    board = Board.from_cells((int(c) for c in cells.split(",")), size)
    return Checkpoint(move, board, score, bool(won), bool(keep_playing))


def add_checkpoints(db: SQL, game_id: int, checkpoints: Sequence[Checkpoint]) -> None:
    db.executemany(
        "INSERT INTO game_checkpoints (game_id, move, cells, score, won, keep_playing) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [
            (game_id, c.move, ",".join(map(str, c.board.cells)), c.score, c.won, c.keep_playing)
            for c in checkpoints
        ],
    )


def add_first_reaches(db: SQL, game_id: int, reaches: Sequence[tuple[int, int]]) -> None:
    """Record (tile, move) pairs: the move at which each tile was first reached."""
    db.executemany(
        "INSERT INTO game_first_reach (game_id, tile, move) VALUES (?, ?, ?)",
        [(game_id, tile, move) for tile, move in reaches],
    )


def forget_after(db: SQL, game_id: int, move: int) -> None:
    """Drop the checkpoints and first reaches of moves after ``move``."""
    db.execute("DELETE FROM game_checkpoints WHERE game_id = ? AND move > ?", (game_id, move))
    db.execute("DELETE FROM game_first_reach WHERE game_id = ? AND move > ?", (game_id, move))


# ---- assisted counts ----------------------------------------------------------------------------


def add_assists(db: SQL, game_id: int, *, hints: int = 0, auto_moves: int = 0, undos: int = 0) -> None:
    """Add to the game's assisted counts and unrank it for good."""
    # NULL + n stays NULL: a game whose earlier assists nobody counted stays unknown.
    db.execute(
        "UPDATE games SET hints = hints + ?, auto_moves = auto_moves + ?, undos = undos + ?, "
        "ranked = FALSE WHERE id = ?",
        (hints, auto_moves, undos, game_id),
    )


def assists(db: SQL, game_id: int) -> tuple[int | None, int | None, int | None]:
    """The game's (hints, auto_moves, undos); None where unknown."""
    hints, auto_moves, undos = db.execute(
        "SELECT hints, auto_moves, undos FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    return hints, auto_moves, undos


#: The column of the last hint counted: the player's (False) or auto-play's (True).
_HINT_REVISION = {False: "hint_revision", True: "auto_hint_revision"}


def hint_revision(db: SQL, game_id: int, *, auto: bool = False) -> int | None:
    """The revision of the last hint counted for the game: the player's, or (``auto``) one asked
    for auto-play."""
    column = _HINT_REVISION[auto]
    (revision,) = db.execute(f"SELECT {column} FROM games WHERE id = ?", (game_id,)).fetchone()
    return revision


def set_hint_revision(db: SQL, game_id: int, revision: int, *, auto: bool = False) -> None:
    db.execute(f"UPDATE games SET {_HINT_REVISION[auto]} = ? WHERE id = ?", (revision, game_id))


# ---- best scores, damaged games -----------------------------------------------------------------


def best_score(db: SQL, player_id: int, variant: str, size: str) -> int:
    """0 before any score in that variant and size ("RxC")."""
    row = db.execute(
        "SELECT score FROM best_scores WHERE player_id = ? AND variant = ? AND size = ?",
        (player_id, variant, size),
    ).fetchone()
    return row[0] if row is not None else 0


def raise_best_score(db: SQL, player_id: int, variant: str, size: str, score: int) -> None:
    """Keep ``score`` if it beats the best so far in that variant and size."""
    db.execute(
        """INSERT INTO best_scores (player_id, variant, size, score) VALUES (?, ?, ?, ?)
           ON CONFLICT (player_id, variant, size) DO UPDATE SET score = excluded.score
           WHERE excluded.score > best_scores.score""",
        (player_id, variant, size, score),
    )


def damaged_games(db: SQL, player_id: int) -> list[DamagedGame]:
    rows = db.execute(
        "SELECT game_id, player_id, repair, problem, found_at FROM damaged_games "
        "WHERE player_id = ? ORDER BY id",
        (player_id,),
    ).fetchall()
    return [DamagedGame(*r) for r in rows]
