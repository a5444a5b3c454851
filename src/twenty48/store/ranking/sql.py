"""The statements of ranked games, daily challenges, the pace check and the server's secrets, in
the SQL both backends share."""

from __future__ import annotations

from twenty48.store.database import SQL


def set_ranking(db: SQL, game_id: int, ranked: bool, daily: str | None) -> None:
    db.execute("UPDATE games SET ranked = ?, daily = ? WHERE id = ?", (ranked, daily, game_id))


def set_pace(db: SQL, game_id: int, at: float, flagged: str | None) -> None:
    """Start the game's next window of actions at ``at``; flag it if ``flagged`` is a reason (a
    flag, once set, stays)."""
    db.execute(
        "UPDATE games SET pace_at = ?, flagged = coalesce(flagged, ?) WHERE id = ?", (at, flagged, game_id)
    )


def daily_game_id(db: SQL, player_id: int, date: str) -> int | None:
    """The player's daily challenge game of ``date`` (deleted ones too: a date is played once)."""
    row = db.execute("SELECT id FROM games WHERE player_id = ? AND daily = ?", (player_id, date)).fetchone()
    return row[0] if row is not None else None


def claim_daily_name(db: SQL, game_id: int, player_id: int, date: str) -> None:
    """Record the player's name as the one the daily game of ``date`` is played under, unless the
    player has none or another game of that date was started under it."""
    db.execute(
        """UPDATE games SET daily_name = p.name_key FROM players p
           WHERE games.id = ? AND p.id = ? AND NOT EXISTS (
               SELECT 1 FROM games o WHERE o.daily = ? AND o.daily_name = p.name_key)""",
        (game_id, player_id, date),
    )


def close_daily(db: SQL, game_id: int) -> None:
    """Keep the daily game's entry on its day's leaderboard as its row has it now: the day is over
    and the game is about to be played on."""
    db.execute(
        "INSERT INTO closed_dailies (game_id, score, max_tile, moves) "
        "SELECT id, score, max_tile, moves FROM games WHERE id = ?",
        (game_id,),
    )


def server_secret(db: SQL, name: str) -> str | None:
    """The secret's hex digits; None before it is made."""
    row = db.execute("SELECT secret FROM server_secrets WHERE name = ?", (name,)).fetchone()
    return row[0] if row is not None else None


def add_server_secret(db: SQL, name: str, secret: str) -> None:
    """Keep ``secret`` unless one of that name exists (another process may have just made it)."""
    db.execute(
        "INSERT INTO server_secrets (name, secret) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
        (name, secret),
    )
