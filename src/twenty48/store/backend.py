"""The seam between the store's rules and a database: what a backend must provide.

``Store`` (``twenty48.store.games``) holds every rule of the game operations and talks to the
database only through a ``Backend`` and the ``Connection`` it hands out. A backend owns what
differs from one database to another: the SQL dialect (placeholders, upserts), how a write
transaction takes its lock (SQLite's ``BEGIN IMMEDIATE``; PostgreSQL would lock the player's row
with ``SELECT ... FOR UPDATE``), how the schema version is kept (``PRAGMA user_version``; a table),
how its errors read (busy, damaged, full) and what makes a commit durable (the write-ahead log's
fsync, shared by group commit; ``synchronous_commit``). ``twenty48.store.sqlite`` is the backend in
use. Each primitive is one statement or two; none decides anything about the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Literal, NamedTuple, Protocol

from twenty48.game import Action
from twenty48.rules import Board
from twenty48.store.errors import PlayerNotFoundError
from twenty48.store.records import (
    ID_LIMIT,
    BoardEntry,
    DamagedGame,
    GameSummary,
    Player,
    PlayerOverview,
    Profile,
)


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


class GameColumns(NamedTuple):
    """The queryable copy of a game's state, written beside it (the listing reads only these)."""

    variant: str
    score: int
    moves: int
    max_tile: int
    won: bool
    over: bool
    #: The spawn scheme's name (``twenty48.spawns``).
    spawns: str


class Checkpoint(NamedTuple):
    """The position after move ``move``, enough for a ``Game`` to play on from it."""

    move: int
    board: Board
    score: int
    won: bool
    keep_playing: bool


class ListQuery(NamedTuple):
    """Which of a player's games a history page holds, in which order."""

    #: "date" (newest first), "score" or "max_tile" (highest first; ties newest first).
    sort: str
    #: Only this variant; None for all.
    variant: str | None
    #: Only finished (True) or unfinished (False) games; None for both.
    finished: bool | None
    #: The page starts after this game in ``sort`` order; None for the first page.
    before: int | None
    limit: int


class StatsQuery(NamedTuple):
    """The finished games a statistic covers: one player's, one variant's, assisted ones or not."""

    player_id: int
    variant: str
    #: The player's current game, which is not finished unless it is over.
    current_game_id: int | None
    #: Leave out every game that had a hint, an auto-played move or an undo, whose counts are
    #: unknown, or that was imported (its counts are its file's word).
    unassisted: bool


class HistoryConnection(Protocol):
    """The primitives of the history, statistics and transfer of games."""

    def history(self, player_id: int, query: ListQuery) -> list[GameSummary]: ...

    def game_header(self, game_id: int) -> tuple[str, int]:
        """The game's state (as ``state``, without the actions) and its number of moves."""

    def actions_between(self, game_id: int, first_ply: int, last_ply: int) -> list[Action]:
        """The actions of plies ``first_ply`` .. ``last_ply`` (ply ``k`` is move ``k + 1``)."""

    def checkpoint_before(self, game_id: int, move: int) -> Checkpoint | None:
        """The latest checkpoint at or before ``move``."""

    def add_checkpoints(self, game_id: int, checkpoints: Sequence[Checkpoint]) -> None: ...

    def add_first_reaches(self, game_id: int, reaches: Sequence[tuple[int, int]]) -> None:
        """Record (tile, move) pairs: the move at which each tile was first reached."""

    def forget_after(self, game_id: int, move: int) -> None:
        """Drop the checkpoints and first reaches of moves after ``move``."""

    def restart(self, game_id: int) -> None:
        """Forget what the game's history holds (checkpoints, first reaches, its review, assisted
        counts, the hint counted, its origin): a new game is about to take its row."""

    def add_assists(self, game_id: int, *, hints: int = 0, auto_moves: int = 0, undos: int = 0) -> None:
        """Add to the game's assisted counts (unknown counts stay unknown)."""

    def assists(self, game_id: int) -> tuple[int | None, int | None, int | None]:
        """The game's (hints, auto_moves, undos); None where unknown."""

    def hint_revision(self, game_id: int) -> int | None:
        """The revision of the last hint counted for the game."""

    def set_hint_revision(self, game_id: int, revision: int) -> None: ...

    def delete_game(self, player_id: int, game_id: int, now: str) -> None:
        """Remove the game's moves, checkpoints and state; its row stays, hidden (ids are never reused)."""

    def stats_totals(self, query: StatsQuery) -> tuple[int, int, int | None, float | None, int]:
        """(games, finished games, best, mean score, games won); the last four over finished games."""

    def median_score(self, query: StatsQuery) -> float | None: ...

    def reach_counts(self, query: StatsQuery, smallest: int) -> dict[int, int]:
        """Largest tile (``smallest`` and up) -> how many finished games ended with it."""

    def first_reach(self, query: StatsQuery, smallest: int) -> dict[int, tuple[float, int]]:
        """Tile -> (median, best) first-reach move over the finished games that reached it."""

    def streaks(self, query: StatsQuery, tile: int) -> tuple[int, int]:
        """(current, longest) run of finished games, in id order, whose largest tile reached ``tile``."""

    def recent_scores(self, query: StatsQuery, count: int) -> list[int]:
        """The scores of the last ``count`` finished games, oldest first."""


#: What a player has at most one of in flight: a hint being computed, an import being stored.
LeaseKind = Literal["hint", "import"]


class Staged(NamedTuple):
    """What an imported game's row holds beside its state: the import staging it, what makes it the
    same game as another (``transfer.digest``), and what its file says of it."""

    token: str
    digest: str
    created_at: str | None
    #: (hints, auto_moves, undos), None where unknown.
    assists: tuple[int | None, int | None, int | None]


class ImportsConnection(Protocol):
    """The primitives of imports stored in steps (``twenty48.store.imports``)."""

    def undigested(self, player_id: int, after: int, limit: int) -> list[tuple[int, int]]:
        """(id, moves) of up to ``limit`` of the player's games (not deleted) without a digest,
        from the first id above ``after`` on."""

    def set_digest(self, game_id: int, digest: str) -> None: ...

    def digests_present(self, player_id: int, digests: Sequence[str]) -> list[tuple[str, str]]:
        """(digest, created_at) of each of the player's games (not deleted) with one of ``digests``."""

    def insert_staged(
        self, player_id: int, columns: GameColumns, state: str, now: str, staged: Staged
    ) -> int:
        """A new imported game row (never ranked), hidden under the import's token until
        ``unstage``, without its actions; returns its id. It began at ``staged.created_at``, or
        ``now`` when the file does not say."""

    def unstage(self, game_ids: Sequence[int]) -> None:
        """Show these staged games: they are the player's from now on."""

    def staged(self, token: str, limit: int) -> list[tuple[int, int]]:
        """(id, moves) of up to ``limit`` games staged under ``token``."""

    def staged_before(self, token: str, limit: int) -> list[tuple[int, int]]:
        """(id, moves) of up to ``limit`` games staged under a token that sorts before ``token``."""

    def drop_staged(self, game_ids: Sequence[int]) -> None:
        """Delete these staged games and their moves: nobody was ever shown them, so their ids may
        be given again."""


class LimitsConnection(Protocol):
    """The primitives of the per-player limits (``twenty48.store.limits``); the caller holds the
    player's write lock."""

    def new_game_bucket(self, player_id: int) -> tuple[float, float] | None:
        """(tokens left, when counted) of the player's new-game bucket; None before its first use."""

    def set_new_game_bucket(self, player_id: int, tokens: float, at: float) -> None: ...

    def lease(self, player_id: int, kind: LeaseKind) -> tuple[str, float] | None:
        """(lease, expiry) of the player's hint or import in flight; None when there is none."""

    def set_lease(self, player_id: int, kind: LeaseKind, lease: str | None, until: float | None) -> None: ...


class BoardQuery(NamedTuple):
    """Which leaderboard, and which page of it."""

    variant: str
    #: The daily board of this UTC date (YYYY-MM-DD); None for the all-time board.
    date: str | None
    limit: int
    offset: int


class PlayersConnection(Protocol):
    """The primitives of players' names, devices and transfer codes (``twenty48.store.players``)."""

    def profile(self, player_id: int) -> Profile | None: ...

    def player_named(self, name_key: str) -> int | None:
        """The player whose name has this key (``twenty48.names.Name.key``)."""

    def set_name(self, player_id: int, name: str | None, name_key: str | None) -> None:
        """Raises the backend's unique-constraint error (as ``StoreError``) if another has the key."""

    def set_hidden(self, player_id: int, hidden: bool, *, by_host: bool) -> None: ...

    def add_device(self, key: str, player_id: int, now: str) -> None:
        """Make the cookie key ``key`` another way to be the player."""

    def add_transfer_code(self, code_hash: str, player_id: int, expires_at: float) -> None: ...

    def end_transfer_codes(self, player_id: int, now: float) -> None:
        """Expire the player's codes still open at ``now``."""

    def forget_transfer_codes(self, before: float) -> None:
        """Delete the codes that expired before ``before``."""

    def transfer_code(self, code_hash: str) -> tuple[int, float, float | None] | None:
        """(player, expiry, when used or None) of the code with this hash."""

    def use_transfer_code(self, code_hash: str, now: float) -> None: ...

    def players_overview(self, named_only: bool) -> list[PlayerOverview]: ...


class BoardsConnection(Protocol):
    """The primitives of the leaderboards and public games (``twenty48.store.boards``)."""

    def refresh_board_best(self, player_id: int, variant: str) -> None:
        """Recompute the player's entry on the all-time board of ``variant`` from their games."""

    def refresh_board_shown(self, player_id: int) -> None:
        """Show or hide the player's all-time entries as their name and hiding now say."""

    def board_page(self, query: BoardQuery) -> list[BoardEntry]: ...

    def board_entry(self, query: BoardQuery, player_id: int) -> BoardEntry | None:
        """The player's entry on the board, with its rank; None when they are not on it."""

    def public_game_owner(self, game_id: int, today: str) -> int | None:
        """The player of the game if its replay is public on the UTC date ``today``: it is over and
        on a board now (its player's all-time best, or a daily game, once its day is past)."""


class RankingConnection(Protocol):
    """The primitives of ranked games, daily challenges and the server's secrets
    (``twenty48.store.ranking``)."""

    def set_ranking(self, game_id: int, ranked: bool, daily: str | None) -> None: ...

    def set_pace(self, game_id: int, at: float, flagged: str | None) -> None:
        """Start the game's next window of actions at ``at``; flag it if ``flagged`` is a reason (a
        flag, once set, stays)."""

    def daily_game_id(self, player_id: int, date: str) -> int | None:
        """The player's daily challenge game of ``date`` (deleted ones too: a date is played once)."""

    def claim_daily_name(self, game_id: int, player_id: int, date: str) -> None:
        """Record the player's name as the one the daily game of ``date`` is played under, unless
        the player has none or another game of that date was started under it."""

    def close_daily(self, game_id: int) -> None:
        """Keep the daily game's entry on its day's board as its row has it now: the day is over
        and the game is about to be played on."""

    def server_secret(self, name: str) -> str | None:
        """The secret's hex digits; None before it is made."""

    def add_server_secret(self, name: str, secret: str) -> None:
        """Keep ``secret`` unless one of that name exists (another process may have just made it)."""


class ReviewRow(NamedTuple):
    """A game's review row (``twenty48.store.reviews``)."""

    game_id: int
    player_id: int
    job: str
    state: str
    #: The game's revision and moves when the review was asked for.
    revision: int
    covers: int
    done: int
    #: The setting, as ``reviews.setting_text`` writes it.
    setting: str
    #: The review's JSON text once done.
    review: str | None
    #: Unix seconds of the last word from the job's worker.
    heartbeat: float


class ReviewsConnection(Protocol):
    """The primitives of stored reviews and review jobs; the caller holds the player's write lock
    where it writes on a player's behalf."""

    def review(self, game_id: int) -> ReviewRow | None: ...

    def live_review_of_player(self, player_id: int, since: float) -> int | None:
        """A game of the player with a job queued or running whose heartbeat is after ``since``."""

    def put_review_job(
        self,
        game_id: int,
        player_id: int,
        job: str,
        revision: int,
        covers: int,
        setting: str,
        heartbeat: float,
        now: str,
    ) -> None:
        """A new queued job for the game, replacing the game's review row if it has one."""

    def update_review(
        self,
        game_id: int,
        job: str,
        states: Sequence[str],
        state: str | None,
        done: int | None,
        review: str | None,
        heartbeat: float,
        now: str,
    ) -> bool:
        """Update the row of ``job`` if it is in one of ``states``: the new ``state``, ``done`` and
        ``review`` where not None, and the heartbeat. Whether such a row was there."""


class Connection(
    HistoryConnection,
    ImportsConnection,
    LimitsConnection,
    RankingConnection,
    PlayersConnection,
    BoardsConnection,
    ReviewsConnection,
    Protocol,
):
    """The primitive operations, inside the transaction of ``Backend.read`` or ``Backend.write``."""

    def player(self, key: str) -> Player | None: ...

    def add_player(self, key: str, now: str) -> None:
        """Create the player unless one has this key (another process may have just done it)."""

    def has_games(self, player_id: int) -> bool:
        """Whether the player has ever had a game (deleted and set-aside ones included)."""

    def current_game_id(self, player_id: int) -> int | None:
        """The player's current game; raises ``PlayerNotFoundError`` for an unknown player."""

    def game(self, player_id: int, game_id: int) -> GameRow | None:
        """The game if it exists and belongs to this player."""

    def state(self, game_id: int) -> tuple[str, list[str]]:
        """The game's state (``Game.to_dict(actions=False)`` as JSON) and its actions in order
        (``str`` of each: "left", "left@5")."""

    def insert_game(
        self, player_id: int, columns: GameColumns, state: str, now: str, pace_at: float | None
    ) -> int:
        """A new game row at revision 0, unranked, without its actions; returns its id. An over game
        is finished at ``now``; ``pace_at`` starts its first window of actions (None: not measured)."""

    def update_game(self, game_id: int, revision: int, columns: GameColumns, state: str, now: str) -> None:
        """Write the game's new state at ``revision``; a game that is now over and was not is
        finished at ``now``."""

    def append_actions(self, game_id: int, first_ply: int, actions: Sequence[Action]) -> None:
        """Log ``actions`` as plies ``first_ply``, ``first_ply + 1``, ... of the game."""

    def delete_action(self, game_id: int, ply: int) -> None: ...

    def set_current_game(self, player_id: int, game_id: int) -> None: ...

    def best_score(self, player_id: int, variant: str) -> int:
        """0 before any score in that variant."""

    def raise_best_score(self, player_id: int, variant: str, score: int) -> None:
        """Keep ``score`` if it beats the best so far."""

    def damaged_games(self, player_id: int) -> list[DamagedGame]: ...


class Backend(Protocol):
    #: Where the data lives, for messages (a file path for SQLite).
    location: str

    def read(self) -> AbstractContextManager[Connection]:
        """One read transaction: every statement in the block reads the same snapshot of the
        database, however many there are, so a concurrent writer is never seen halfway. Database
        errors leave it as ``StoreError`` subclasses."""

    def write(self) -> AbstractContextManager[Connection]:
        """One transaction that holds the write lock from its start (so two writers never deadlock
        upgrading a read lock): committed when the block ends, rolled back if it raises."""

    def ping(self) -> None:
        """Raise ``StoreError`` unless the database answers now."""

    def flush(self) -> None:
        """Make every commit so far durable, for a backend that defers that (group commit)."""

    def close(self) -> None: ...


def current_game_of(db: Connection, player_id: int) -> int | None:
    """The player's current game (None when it has none); raises ``PlayerNotFoundError`` for an
    unknown player, an id no column can hold included. In a write transaction on PostgreSQL it
    also takes the player's row lock, as every action of a player does."""
    if not 0 < player_id <= ID_LIMIT:
        raise PlayerNotFoundError(f"no player {player_id}")
    return db.current_game_id(player_id)
