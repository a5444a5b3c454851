"""The migrations themselves, in the SQL SQLite and PostgreSQL share: ``schema.MIGRATIONS`` lists
them in order, and ``schema.migrate`` runs them on either backend. Each takes a database from one
schema version to the next; once released, a migration is never edited.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

from twenty48.game import Game, Start
from twenty48.rules import BoardSize
from twenty48.store.database import SQL
from twenty48.store.games import checkpoints, codec
from twenty48.store.games import sql as games_sql

logger = logging.getLogger("twenty48.store")


def schema_1(db: SQL) -> None:
    db.execute(
        """
        CREATE TABLE players (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            best_score INTEGER NOT NULL DEFAULT 0,
            current_game_id INTEGER REFERENCES games(id),
            created_at TEXT NOT NULL
        )"""
    )
    db.execute(
        """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            player_id INTEGER NOT NULL REFERENCES players(id),
            revision INTEGER NOT NULL,
            score INTEGER NOT NULL,
            moves INTEGER NOT NULL,
            max_tile INTEGER NOT NULL,
            won BOOLEAN NOT NULL,
            over BOOLEAN NOT NULL,
            -- Game.to_dict() without "actions", which live in game_moves.
            state TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX games_by_player ON games (player_id, id)")
    # The current line of play: a move appends a ply, undo deletes the last one. Kept apart from
    # the state so that an action writes a constant amount however long the game has run.
    db.execute(
        """
        CREATE TABLE game_moves (
            game_id INTEGER NOT NULL REFERENCES games(id),
            ply INTEGER NOT NULL,
            direction TEXT NOT NULL CHECK (direction IN ('up', 'down', 'left', 'right')),
            PRIMARY KEY (game_id, ply)
        ) WITHOUT ROWID"""
    )


def variants_2(db: SQL) -> None:
    # Every game stored before variants existed is classic.
    db.execute("ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'classic'")
    # The source cell of a single-tile move ("Merge 2048"); NULL for a whole-board move.
    db.execute("ALTER TABLE game_moves ADD COLUMN cell INTEGER CHECK (cell BETWEEN 0 AND 15)")
    # Best scores per variant: the variants score differently, so one number would mix them.
    db.execute(
        """
        CREATE TABLE best_scores (
            player_id INTEGER NOT NULL REFERENCES players(id),
            variant TEXT NOT NULL,
            score INTEGER NOT NULL,
            PRIMARY KEY (player_id, variant)
        ) WITHOUT ROWID"""
    )
    db.execute(
        "INSERT INTO best_scores (player_id, variant, score) "
        "SELECT id, 'classic', best_score FROM players WHERE best_score > 0"
    )
    db.execute("ALTER TABLE players DROP COLUMN best_score")


def lost_actions_3(db: SQL) -> None:
    # A set-aside game keeps its row, hidden, so that its id is never given to another game.
    db.execute("ALTER TABLE games ADD COLUMN set_aside BOOLEAN NOT NULL DEFAULT FALSE")
    # The report of every game found inconsistent, with the game as it was found (nothing is
    # deleted, a re-based game's state is rewritten).
    db.execute(
        """
        CREATE TABLE damaged_games (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL UNIQUE REFERENCES games(id),
            player_id INTEGER NOT NULL REFERENCES players(id),
            repair TEXT NOT NULL CHECK (repair IN ('rebased', 'set aside')),
            problem TEXT NOT NULL,
            state TEXT NOT NULL,
            -- JSON list of the actions game_moves held for it.
            actions TEXT NOT NULL,
            found_at TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX damaged_games_by_player ON damaged_games (player_id, id)")
    # Store.add_game before this version wrote the state of a game that already had moves but not
    # its actions: the state is intact, the moves that led to it are lost.
    lost = db.execute(
        """SELECT id, player_id, revision, state FROM games g
           WHERE moves != (SELECT count(*) FROM game_moves m WHERE m.game_id = g.id)"""
    ).fetchall()
    now = datetime.now(UTC).isoformat(timespec="milliseconds")
    for game_id, player_id, revision, state in lost:
        actions = [
            d if cell is None else f"{d}@{cell}"
            for d, cell in db.execute(
                "SELECT direction, cell FROM game_moves WHERE game_id = ? ORDER BY ply", (game_id,)
            )
        ]
        try:
            codec.decode(state, actions)
        except ValueError as exc:
            problem = str(exc)
        else:
            continue
        rebased = _rebased(state)
        repair = "rebased" if rebased is not None else "set aside"
        db.execute(
            """INSERT INTO damaged_games (game_id, player_id, repair, problem, state, actions, found_at)
               VALUES (?, ?, ?, ?, ?, ?, ?)""",
            (game_id, player_id, repair, problem, state, json.dumps(actions), now),
        )
        if rebased is not None:
            db.execute("DELETE FROM game_moves WHERE game_id = ?", (game_id,))
            db.execute(
                "UPDATE games SET revision = ?, moves = 0, state = ?, updated_at = ? WHERE id = ?",
                (revision + 1, codec.encode(rebased), now, game_id),
            )
        else:
            # Nothing may point at a game that was set aside: the player gets a new one.
            db.execute("UPDATE players SET current_game_id = NULL WHERE current_game_id = ?", (game_id,))
            db.execute("UPDATE games SET set_aside = TRUE WHERE id = ?", (game_id,))
        logger.warning("game %d of player %d was damaged (%s): %s", game_id, player_id, problem, repair)


def _rebased(state: str) -> Game | None:
    """The game of an intact ``state`` whose actions are lost, starting where it stands now:
    board, score and win are kept; the moves and the undo history (which takes moves back) are
    not. None if the state itself is unreadable."""
    try:
        found = Game.from_dict({**json.loads(state), "actions": [], "moves": 0, "undo": []})
    except (ValueError, TypeError):
        return None
    return Game(
        seed=found.seed,
        board=found.board,
        score=found.score,
        won=found.won,
        keep_playing=found.keep_playing,
        variant=found.variant,
        start=Start(found.board, found.score),
    )


def history_4(db: SQL) -> None:
    # Assisted counts exist from this version on: new games start at 0 (the column default), the
    # games already stored are unknown (NULL), since nobody counted their hints, auto-play or undos.
    for column in ("hints", "auto_moves", "undos"):
        db.execute(f"ALTER TABLE games ADD COLUMN {column} INTEGER DEFAULT 0")
        db.execute(f"UPDATE games SET {column} = NULL")
    # The revision of the last hint counted: a hint is counted once per position.
    db.execute("ALTER TABLE games ADD COLUMN hint_revision INTEGER")
    # An imported game is never ranked; a deleted one keeps a hidden row (set_aside) so that its id
    # is never given to another game, which a page still holding it could then act on.
    db.execute(
        "ALTER TABLE games ADD COLUMN origin TEXT NOT NULL DEFAULT 'played' "
        "CHECK (origin IN ('played', 'imported'))"
    )
    db.execute("ALTER TABLE games ADD COLUMN deleted_at TEXT")
    # The move at which each tile value was first on the board (0: the start), for the statistics;
    # written as it happens, undone with the move.
    db.execute(
        """
        CREATE TABLE game_first_reach (
            game_id INTEGER NOT NULL REFERENCES games(id),
            tile INTEGER NOT NULL,
            move INTEGER NOT NULL,
            PRIMARY KEY (game_id, tile)
        ) WITHOUT ROWID"""
    )
    # The position after every CHECKPOINT_EVERY-th move, so that a replayed position never needs the
    # game replayed from its start. Cells are 16 comma-separated values, row-major.
    db.execute(
        """
        CREATE TABLE game_checkpoints (
            game_id INTEGER NOT NULL REFERENCES games(id),
            move INTEGER NOT NULL,
            cells TEXT NOT NULL,
            score INTEGER NOT NULL,
            won BOOLEAN NOT NULL,
            keep_playing BOOLEAN NOT NULL,
            PRIMARY KEY (game_id, move)
        ) WITHOUT ROWID"""
    )
    # The statistics read only games_stats (a covering index), never a game's state; a sorted or
    # filtered history page walks its sort index and reads just the rows it returns.
    db.execute(
        "CREATE INDEX games_stats ON games "
        "(player_id, variant, id, score, max_tile, won, over, set_aside, hints, auto_moves, undos)"
    )
    for column in ("score", "max_tile"):
        db.execute(
            f"CREATE INDEX games_by_{column} ON games (player_id, {column}, id, variant, over, set_aside)"
        )
    # What the store now keeps per move, for the games already stored: one replay of each, once.
    for (game_id,) in db.execute("SELECT id FROM games WHERE NOT set_aside").fetchall():
        try:
            game = codec.decode(*games_sql.state(db, game_id))
        except ValueError:
            continue  # cannot happen after lost_actions_3 set such games aside; nothing to index
        checkpoints.note_game(db, game_id, game)


def player_limits_5(db: SQL) -> None:
    # The per-player limits of the web server, in the database so that they hold across every
    # server process on it: the new-game token bucket (tokens left, when counted) and the lease of
    # the hint in flight (who holds it, until when: a process killed mid-hint frees it by expiry).
    # Times are Unix seconds from the processes' clocks; DOUBLE PRECISION, not REAL, which is a
    # 4-byte float on PostgreSQL.
    db.execute(
        """
        CREATE TABLE player_limits (
            player_id INTEGER NOT NULL PRIMARY KEY REFERENCES players(id),
            new_game_tokens DOUBLE PRECISION,
            new_game_at DOUBLE PRECISION,
            hint_lease TEXT,
            hint_until DOUBLE PRECISION
        )"""
    )


def ranked_6(db: SQL) -> None:
    # Whether the game still counts for the leaderboards: set when a browser game starts through
    # the server without a chosen seed, cleared for good by its first assisted action. Every game
    # stored before this version is unranked (nobody kept its spawns secret).
    db.execute("ALTER TABLE games ADD COLUMN ranked BOOLEAN NOT NULL DEFAULT FALSE")
    # When the game ended (game over), for the boards' ties; NULL while it is not over. For the
    # games already over, their last update is when their last move ended them.
    db.execute("ALTER TABLE games ADD COLUMN finished_at TEXT")
    db.execute("UPDATE games SET finished_at = updated_at WHERE over AND NOT set_aside")
    # The UTC date (YYYY-MM-DD) whose daily challenge the game is; one per player and date.
    db.execute("ALTER TABLE games ADD COLUMN daily TEXT")
    db.execute("CREATE UNIQUE INDEX games_daily ON games (player_id, daily)")
    db.execute("CREATE INDEX games_by_daily ON games (daily, variant, score)")
    # The spawn scheme (twenty48.spawns), a copy of the state's: the key of a "blake2b" game is its
    # seed, in the state, which no answer shows while the game is ranked and in progress.
    db.execute(
        "ALTER TABLE games ADD COLUMN spawns TEXT NOT NULL DEFAULT 'splitmix64' "
        "CHECK (spawns IN ('splitmix64', 'blake2b'))"
    )
    # Why the game looks played faster than a person can (NULL: it does not), for the host; and
    # when its current window of actions began (Unix seconds), to measure the pace.
    db.execute("ALTER TABLE games ADD COLUMN flagged TEXT")
    db.execute("ALTER TABLE games ADD COLUMN pace_at DOUBLE PRECISION")
    # The server's own secrets (the daily challenges' keys, the pending games of new visitors):
    # 32 random bytes each, as hex, made the first time one is asked for and kept.
    db.execute("CREATE TABLE server_secrets (name TEXT NOT NULL PRIMARY KEY, secret TEXT NOT NULL)")


def players_7(db: SQL) -> None:
    # Display names, shown on the leaderboards; name_key (the name casefolded) is what must be
    # unique. NULL for an anonymous player, and a unique index allows any number of NULLs.
    db.execute("ALTER TABLE players ADD COLUMN name TEXT")
    db.execute("ALTER TABLE players ADD COLUMN name_key TEXT")
    db.execute("CREATE UNIQUE INDEX players_by_name ON players (name_key)")
    # Off the boards: by the player's own choice, or by the host's (which the player cannot undo).
    db.execute("ALTER TABLE players ADD COLUMN hidden BOOLEAN NOT NULL DEFAULT FALSE")
    db.execute("ALTER TABLE players ADD COLUMN host_hidden BOOLEAN NOT NULL DEFAULT FALSE")
    # The cookies of devices that claimed a transfer code: each is the player as its key is.
    db.execute(
        """
        CREATE TABLE player_devices (
            key TEXT NOT NULL PRIMARY KEY,
            player_id INTEGER NOT NULL REFERENCES players(id),
            created_at TEXT NOT NULL
        )"""
    )
    # One-time codes that make another device the player: only a hash of the code is kept; a used
    # or expired code stays a day, so that claiming it again says why it no longer works.
    db.execute(
        """
        CREATE TABLE transfer_codes (
            code_hash TEXT NOT NULL PRIMARY KEY,
            player_id INTEGER NOT NULL REFERENCES players(id),
            expires_at DOUBLE PRECISION NOT NULL,
            used_at DOUBLE PRECISION
        )"""
    )
    db.execute("CREATE INDEX transfer_codes_by_player ON transfer_codes (player_id, expires_at)")
    # Each player's best finished ranked game per variant: the all-time board, in its order.
    db.execute(
        """
        CREATE TABLE board_bests (
            variant TEXT NOT NULL,
            player_id INTEGER NOT NULL REFERENCES players(id),
            game_id INTEGER NOT NULL REFERENCES games(id),
            score INTEGER NOT NULL,
            finished_at TEXT NOT NULL,
            -- The player is on the boards (named, not hidden): kept with their name and hiding.
            shown BOOLEAN NOT NULL,
            PRIMARY KEY (variant, player_id)
        ) WITHOUT ROWID"""
    )
    db.execute(
        "CREATE INDEX board_bests_in_order ON board_bests (variant, shown, score DESC, finished_at, game_id)"
    )
    # Nobody has a name yet, so nobody is shown.
    db.execute(
        """INSERT INTO board_bests (variant, player_id, game_id, score, finished_at, shown)
           SELECT variant, player_id, id, score, finished_at, FALSE FROM (
               SELECT g.variant, g.player_id, g.id, g.score, g.finished_at, row_number() OVER (
                   PARTITION BY g.variant, g.player_id ORDER BY g.score DESC, g.finished_at, g.id
               ) AS nth
               FROM games g
               WHERE g.ranked AND g.finished_at IS NOT NULL AND NOT g.set_aside AND g.deleted_at IS NULL
           ) AS ranked_games
           WHERE nth = 1"""
    )


def game_reviews_8(db: SQL) -> None:
    # A game's review (issue 23) and the job computing it, in the database so that every server
    # process answers for every job (twenty48.store.reviews). One row per game: asking again
    # replaces it. heartbeat: Unix seconds of the worker's last word (a dead worker's job expires).
    db.execute(
        """
        CREATE TABLE game_reviews (
            game_id INTEGER NOT NULL PRIMARY KEY REFERENCES games(id),
            player_id INTEGER NOT NULL REFERENCES players(id),
            job TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'cancelled', 'failed')),
            revision INTEGER NOT NULL,
            covers INTEGER NOT NULL,
            done INTEGER NOT NULL,
            setting TEXT NOT NULL,
            review TEXT,
            heartbeat DOUBLE PRECISION NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX game_reviews_by_player ON game_reviews (player_id, state)")


def dailies_9(db: SQL) -> None:
    # The name (players.name_key) a daily game was started under: a name's entry on a day's board
    # is the one game started under it that day, so that a name passed from player to player, or
    # taken after the day's game by whichever of many throwaway players did best, brings no other
    # try. NULL: started without a name, or under one that had its game of the day already. A
    # daily game stored before this version counts under its player's name of now.
    db.execute("ALTER TABLE games ADD COLUMN daily_name TEXT")
    db.execute(
        "UPDATE games SET daily_name = (SELECT p.name_key FROM players p WHERE p.id = games.player_id) "
        "WHERE daily IS NOT NULL"
    )
    db.execute("CREATE UNIQUE INDEX games_by_daily_name ON games (daily, daily_name)")
    # A daily game's entry on its day's board as the day left it, kept once the game is played on
    # after that day (unranked from then on): a day's board is closed at midnight UTC.
    db.execute(
        """
        CREATE TABLE closed_dailies (
            game_id INTEGER NOT NULL PRIMARY KEY REFERENCES games(id),
            score INTEGER NOT NULL,
            max_tile INTEGER NOT NULL,
            moves INTEGER NOT NULL
        )"""
    )


def imports_10(db: SQL) -> None:
    # What makes two games the same to an import (``transfer.digest``: spawn scheme, seed, variant,
    # start, actions): written with an imported game, filled in by an import for the stored games
    # it compares with, forgotten (NULL) whenever a game changes. Found through the index, so an
    # import never loads or replays the games it is compared with.
    db.execute("ALTER TABLE games ADD COLUMN digest TEXT")
    db.execute("CREATE INDEX games_by_digest ON games (player_id, digest)")
    # The import a game is being stored by: hidden (set_aside) until the import's last transaction
    # shows all its games at once; deleted if the import stops. The text begins with the import's
    # start time (Unix seconds, 12 digits), so that what a killed process left is found by age.
    db.execute("ALTER TABLE games ADD COLUMN import_token TEXT")
    db.execute("CREATE INDEX games_staged ON games (import_token) WHERE import_token IS NOT NULL")
    # An imported game's assisted counts are its file's word: the unassisted statistics leave
    # imported games out, and their covering index gains the origin to say so.
    db.execute("DROP INDEX games_stats")
    db.execute(
        "CREATE INDEX games_stats ON games (player_id, variant, id, score, max_tile, won, over, set_aside, "
        "hints, auto_moves, undos, origin)"
    )
    # The player's one import in flight, a lease as the hint's.
    db.execute("ALTER TABLE player_limits ADD COLUMN import_lease TEXT")
    db.execute("ALTER TABLE player_limits ADD COLUMN import_until DOUBLE PRECISION")


def assists_11(db: SQL) -> None:
    # The revision of the last hint asked for auto-play: it counts as the auto-played move it
    # chooses (once per position), and that move is not counted again when it is played.
    db.execute("ALTER TABLE games ADD COLUMN auto_hint_revision INTEGER")
    # Until this version the page's auto-play counted each of its moves twice, as a hint (asking the
    # solver) and as an auto-played move; the terminal counted them once. ``hints - auto_moves``
    # would not give the player's own hints back: a hint the player asked on a position where
    # auto-play then asked again was counted once for both, and auto-play's last hint was counted
    # without a move. So the hint count of a browser player's game with auto-played moves becomes
    # unknown, as for games stored before the counts existed; the game stays assisted.
    db.execute(
        "UPDATE games SET hints = NULL WHERE auto_moves > 0 "
        "AND player_id IN (SELECT id FROM players WHERE key LIKE ?)",
        ("web:%",),
    )


def sizes_12(db: SQL) -> None:
    # The board's size, "RxC" rows first (twenty48.rules.BoardSize), beside the variant: what the
    # statistics, best scores and leaderboards keep apart. Every game stored before is 4x4 but a
    # prepared or imported one of another size, whose state says so (saved-game version 5).
    db.execute("ALTER TABLE games ADD COLUMN size TEXT NOT NULL DEFAULT '4x4'")
    for game_id, state in db.execute(
        "SELECT id, state FROM games WHERE state LIKE ? AND state NOT LIKE ?", ('%"size"%', '%"size":"4x4"%')
    ).fetchall():
        try:
            size = str(BoardSize.parse(json.loads(state)["size"]))
        except (ValueError, KeyError, TypeError):
            continue  # an unreadable state: the game is refused as damaged when it is loaded
        db.execute("UPDATE games SET size = ? WHERE id = ?", (size, game_id))
    # A single-tile move's cell is any of a 6x6 board's (0-35). A CHECK cannot be changed in place
    # on SQLite, so the table is made again, as are the two whose keys gain the size.
    db.execute(
        """
        CREATE TABLE game_moves_sized (
            game_id INTEGER NOT NULL REFERENCES games(id),
            ply INTEGER NOT NULL,
            direction TEXT NOT NULL CHECK (direction IN ('up', 'down', 'left', 'right')),
            cell INTEGER CHECK (cell BETWEEN 0 AND 35),
            PRIMARY KEY (game_id, ply)
        ) WITHOUT ROWID"""
    )
    db.execute(
        "INSERT INTO game_moves_sized (game_id, ply, direction, cell) "
        "SELECT game_id, ply, direction, cell FROM game_moves"
    )
    db.execute("DROP TABLE game_moves")
    db.execute("ALTER TABLE game_moves_sized RENAME TO game_moves")
    # Best scores per variant and size: a 3x3 score and a 6x6 one are not the same game's. The
    # best scores kept so far are the 4x4's.
    db.execute(
        """
        CREATE TABLE best_scores_sized (
            player_id INTEGER NOT NULL REFERENCES players(id),
            variant TEXT NOT NULL,
            size TEXT NOT NULL,
            score INTEGER NOT NULL,
            PRIMARY KEY (player_id, variant, size)
        ) WITHOUT ROWID"""
    )
    db.execute(
        "INSERT INTO best_scores_sized (player_id, variant, size, score) "
        "SELECT player_id, variant, '4x4', score FROM best_scores"
    )
    db.execute("DROP TABLE best_scores")
    db.execute("ALTER TABLE best_scores_sized RENAME TO best_scores")
    # The all-time boards per variant and size.
    db.execute(
        """
        CREATE TABLE board_bests_sized (
            variant TEXT NOT NULL,
            size TEXT NOT NULL,
            player_id INTEGER NOT NULL REFERENCES players(id),
            game_id INTEGER NOT NULL REFERENCES games(id),
            score INTEGER NOT NULL,
            finished_at TEXT NOT NULL,
            shown BOOLEAN NOT NULL,
            PRIMARY KEY (variant, size, player_id)
        ) WITHOUT ROWID"""
    )
    db.execute(
        """INSERT INTO board_bests_sized (variant, size, player_id, game_id, score, finished_at, shown)
           SELECT b.variant, g.size, b.player_id, b.game_id, b.score, b.finished_at, b.shown
           FROM board_bests b JOIN games g ON g.id = b.game_id"""
    )
    db.execute("DROP TABLE board_bests")
    db.execute("ALTER TABLE board_bests_sized RENAME TO board_bests")
    db.execute(
        "CREATE INDEX board_bests_in_order "
        "ON board_bests (variant, size, shown, score DESC, finished_at, game_id)"
    )
    # The statistics are per variant and size: their covering index gains the size.
    db.execute("DROP INDEX games_stats")
    db.execute(
        "CREATE INDEX games_stats ON games (player_id, variant, size, id, score, max_tile, won, over, "
        "set_aside, hints, auto_moves, undos, origin)"
    )
