"""The statements of the leaderboards and public games, in the SQL both backends share.

The all-time leaderboard reads ``board_bests``, each player's best finished ranked game per variant,
kept up to date when a ranked game ends or is deleted, and whether the player is shown, kept up to
date when their name or hiding changes: ranking "best game per player" straight from ``games``
would group every ranked game on each request, and a player's place is then a count over one
index range. A daily leaderboard reads the day's daily games through the index ``games_by_daily`` (one
game per player and day, so nothing to group), each under the name it was started under, and the
entries ``closed_dailies`` keeps of those played on after their day. Both
order by score (highest first), then by who finished first (a daily game still being played comes
after every finished one of its score), then by game id.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from twenty48.store.database import SQL
from twenty48.store.records import LeaderboardEntry

#: A game that counts for the leaderboards: ranked (unassisted, from the server's own moves), not
#: deleted.
RANKED = "g.ranked AND NOT g.set_aside AND g.deleted_at IS NULL"
#: A player whose games appear on the leaderboards: named, hidden neither by themself nor by the host.
ON_BOARDS = "p.name IS NOT NULL AND NOT p.hidden AND NOT p.host_hidden"
_ENTRY = "p.id, p.name, g.id, g.score, g.max_tile, g.moves, g.finished_at"


class LeaderboardQuery(NamedTuple):
    """Which leaderboard, and which page of it."""

    variant: str
    #: The board size, "RxC" (a daily leaderboard's is 4x4).
    size: str
    #: The daily leaderboard of this UTC date (YYYY-MM-DD); None for the all-time one.
    date: str | None
    limit: int
    offset: int


def refresh_best(db: SQL, player_id: int, variant: str, size: str) -> None:
    """Recompute the player's entry on the all-time leaderboard of ``variant`` and ``size`` ("RxC")
    from their games."""
    db.execute(
        "DELETE FROM board_bests WHERE variant = ? AND size = ? AND player_id = ?", (variant, size, player_id)
    )
    db.execute(
        f"""INSERT INTO board_bests (variant, size, player_id, game_id, score, finished_at, shown)
            SELECT g.variant, g.size, g.player_id, g.id, g.score, g.finished_at, {ON_BOARDS}
            FROM games g JOIN players p ON p.id = g.player_id
            WHERE g.player_id = ? AND g.variant = ? AND g.size = ? AND {RANKED} AND g.finished_at IS NOT NULL
            ORDER BY g.score DESC, g.finished_at, g.id LIMIT 1""",
        (player_id, variant, size),
    )


def refresh_shown(db: SQL, player_id: int) -> None:
    """Show or hide the player's all-time entries as their name and hiding now say."""
    db.execute(
        f"UPDATE board_bests SET shown = (SELECT {ON_BOARDS} FROM players p WHERE p.id = ?) "
        "WHERE player_id = ?",
        (player_id, player_id),
    )


def page(db: SQL, query: LeaderboardQuery) -> list[LeaderboardEntry]:
    """One page of the leaderboard, ranked."""
    if query.date is None:
        # The page is cut from the index alone; only its own entries are joined.
        sql = (
            f"SELECT {_ENTRY} FROM (SELECT b.player_id, b.game_id, b.score, b.finished_at "
            f"FROM board_bests b WHERE {_ALL_TIME} ORDER BY {_ALL_TIME_ORDER} LIMIT ? OFFSET ?) AS b "
            f"JOIN games g ON g.id = b.game_id JOIN players p ON p.id = b.player_id "
            f"ORDER BY {_ALL_TIME_ORDER}"
        )
        params: tuple[Any, ...] = (query.variant, query.size, query.limit, query.offset)
    else:
        sql = f"SELECT {_ENTRY} {_DAILY} ORDER BY {_DAILY_ORDER} LIMIT ? OFFSET ?"
        params = (*_daily(query), query.limit, query.offset)
    rows = db.execute(sql, params).fetchall()
    return [LeaderboardEntry(query.offset + i + 1, *row) for i, row in enumerate(rows)]


def entry(db: SQL, query: LeaderboardQuery, player_id: int) -> LeaderboardEntry | None:
    """The player's entry on the leaderboard, with its rank; None when they are not on it."""
    if query.date is None:
        found = db.execute(
            f"SELECT {_ENTRY} FROM board_bests b JOIN games g ON g.id = b.game_id "
            "JOIN players p ON p.id = b.player_id "
            "WHERE b.variant = ? AND b.size = ? AND b.player_id = ? AND b.shown = TRUE",
            (query.variant, query.size, player_id),
        ).fetchone()
        source, params = f"FROM board_bests b WHERE {_ALL_TIME}", (query.variant, query.size)
        prefix = "b"
    else:
        found = db.execute(
            f"SELECT {_ENTRY} {_DAILY} AND g.player_id = ?", (*_daily(query), player_id)
        ).fetchone()
        source, params = _DAILY, _daily(query)
        prefix = "g"
    if found is None:
        return None
    _, _, game_id, score, _, _, finished_at = found
    before, before_params = _before(prefix, score, finished_at, game_id)
    (ahead,) = db.execute(f"SELECT count(*) {source} AND {before}", (*params, *before_params)).fetchone()
    return LeaderboardEntry(ahead + 1, *found)


def public_game_owner(db: SQL, game_id: int, today: str) -> int | None:
    """The player of the game if its replay is public on the UTC date ``today``: it is over and on
    a leaderboard now (its player's all-time best, or a daily game, once its day is past)."""
    row = db.execute(
        f"""SELECT p.id FROM games g JOIN players p ON p.id = g.player_id
            WHERE g.id = ? AND {RANKED} AND g.finished_at IS NOT NULL AND {ON_BOARDS}
            AND (g.daily IS NULL OR g.daily < ?)
            AND (g.daily_name = p.name_key OR EXISTS (SELECT 1 FROM board_bests b
                 WHERE b.variant = g.variant AND b.size = g.size AND b.player_id = g.player_id
                 AND b.game_id = g.id))""",
        (game_id, today),
    ).fetchone()
    return row[0] if row is not None else None


#: The all-time board of a variant and size (parameters), in its index's order. ``shown`` is kept equal to
#: ``ON_BOARDS`` of the player, so that a page and a player's place read that index alone.
_ALL_TIME = "b.variant = ? AND b.size = ? AND b.shown = TRUE"
_ALL_TIME_ORDER = "b.score DESC, b.finished_at, b.game_id"
#: The daily games of a date and variant (parameters, twice; ``_daily``), one per player, as their
#: day's board holds them: the ranked ones as they stand, and those played on after their day
#: (unranked from then on) as the day left them.
_DAILY_GAMES = (
    "SELECT g.id, g.player_id, g.daily_name, g.score, g.max_tile, g.moves, g.finished_at FROM games g "
    f"WHERE g.daily = ? AND g.variant = ? AND {RANKED} "
    "UNION ALL SELECT g.id, g.player_id, g.daily_name, c.score, c.max_tile, c.moves, NULL "
    "FROM closed_dailies c JOIN games g ON g.id = c.game_id "
    "WHERE g.daily = ? AND g.variant = ? AND NOT g.set_aside AND g.deleted_at IS NULL"
)
#: The daily board: a name's entry is the game started under it that day (``games.daily_name``),
#: shown while its player still has that name.
_DAILY = (
    f"FROM ({_DAILY_GAMES}) AS g JOIN players p ON p.id = g.player_id "
    f"WHERE g.daily_name = p.name_key AND {ON_BOARDS}"
)
_DAILY_ORDER = "g.score DESC, g.finished_at IS NULL, g.finished_at, g.id"


def _daily(query: LeaderboardQuery) -> tuple[str | None, str, str | None, str]:
    """The parameters of ``_DAILY``."""
    return query.date, query.variant, query.date, query.variant


def _before(prefix: str, score: int, finished_at: str | None, game_id: int) -> tuple[str, tuple[Any, ...]]:
    """The condition of the entries (of table ``prefix``) before this one in the boards' order; the
    leading ``score >= ?`` lets the index's score order bound the count."""
    game = "game_id" if prefix == "b" else "id"
    if finished_at is None:
        # After every finished game of the same score; among unfinished ones, by id.
        return (
            f"{prefix}.score >= ? AND ({prefix}.score > ? OR {prefix}.finished_at IS NOT NULL "
            f"OR {prefix}.{game} < ?)",
            (score, score, game_id),
        )
    return (
        f"{prefix}.score >= ? AND ({prefix}.score > ? OR {prefix}.finished_at < ? "
        f"OR ({prefix}.finished_at = ? AND {prefix}.{game} < ?))",
        (score, score, finished_at, finished_at, game_id),
    )
