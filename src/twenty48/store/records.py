"""What the store hands out: immutable snapshots, safe to pass to other threads (and, when asked
for, a ``Game`` that is the caller's own copy)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from twenty48.game import Action, Game, Start, Turn
from twenty48.rules import DEFAULT_SIZE, Board, BoardSize
from twenty48.spawns import Seed

#: The largest id the store can hold (a signed 64-bit integer, in SQLite as in PostgreSQL).
ID_LIMIT = 2**63 - 1


def seed_withheld(ranked: bool, over: bool, current: bool, daily: str | None) -> bool:
    """Whether a game's seed is withheld: it is ranked and may still be played. A ranked game
    replaced by a newer one is finished for good, but a daily one can be resumed until it is over."""
    return ranked and not over and (current or daily is not None)


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    #: "web:<sha256 of the cookie token>" or "local:<name>".
    key: str
    current_game_id: int | None


#: What became of a game (``game_status``).
Status = Literal["playing", "ended", "abandoned"]


def game_status(over: bool, won: bool, finished: bool) -> Status:
    """``"playing"`` while the game takes moves; ``"ended"`` once it is over (no legal move) or,
    left for a new game, after it was won (2048 made: the win banner itself offers a new game
    beside keeping going); ``"abandoned"``: replaced by a new game before it was over or won."""
    if not finished:
        return "playing"
    return "ended" if over or won else "abandoned"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """An immutable snapshot of a stored game, safe to hand to other threads."""

    id: int
    player_id: int
    #: Incremented by every accepted action; see the package docstring.
    revision: int
    #: The player's current game (not replaced by a newer one).
    current: bool
    #: The SplitMix64 seed or the key the spawns come from; None while the game is ranked and in
    #: progress (``secret``): it would tell every later tile.
    seed: Seed | None
    #: The game's rules: "classic" or "merge" (see ``twenty48.variants``).
    variant: str
    board: Board
    score: int
    moves: int
    won: bool
    keep_playing: bool
    over: bool
    can_undo: bool
    #: The player's best score in this game's variant, as of this snapshot.
    best_score: int
    created_at: str
    updated_at: str
    #: The spawn scheme (``twenty48.spawns``): "splitmix64" or "blake2b".
    spawns: str
    #: The game still counts for the leaderboards (``twenty48.store.ranking``).
    ranked: bool
    #: The UTC date (YYYY-MM-DD) whose daily challenge this game is; None for any other game.
    daily: str | None
    #: When the game ended (game over); None before.
    finished_at: str | None
    #: Why the game looks played faster than a person can (for the host); None when it does not.
    flagged: str | None

    @property
    def finished(self) -> bool:
        return self.over or not self.current

    @property
    def status(self) -> Status:
        """``"playing"``, ``"ended"`` or ``"abandoned"``: see ``game_status``."""
        return game_status(self.over, self.won, self.finished)

    @property
    def max_tile(self) -> int:
        return self.board.max_tile

    @property
    def size(self) -> BoardSize:
        """The board's size (``str(record.size) == "4x4"``)."""
        return self.board.size

    @property
    def secret(self) -> bool:
        """The seed is withheld: the game is ranked and may still be played (a daily game can be
        resumed until it is over, so replacing it does not end it)."""
        return self.seed is None


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    turn: Turn
    game: GameRecord
    #: The game after the move, a copy that is the caller's own: only when asked for
    #: (``Store.move(..., game_copy=True)``), for a front end that keeps playing the game it
    #: shows (the terminal's) without playing the move a second time.
    game_copy: Game | None = None


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: int
    variant: str
    score: int
    moves: int
    max_tile: int
    won: bool
    over: bool
    current: bool
    created_at: str
    updated_at: str
    #: Hints asked (once per position), auto-played moves and undos; None ("unknown") for a game
    #: stored before the store counted them, or imported from a file that does not say. An imported
    #: game's counts are its file's word (``twenty48.store.transfer``).
    hints: int | None = None
    auto_moves: int | None = None
    undos: int | None = None
    #: "played" here, or "imported" from a file (never ranked).
    origin: str = "played"
    #: Ranked for the leaderboards, the daily challenge's date, when it ended, why it was flagged
    #: (see ``GameRecord``).
    ranked: bool = False
    daily: str | None = None
    finished_at: str | None = None
    flagged: str | None = None
    #: The board's size (``str(summary.size) == "4x4"``).
    size: BoardSize = DEFAULT_SIZE

    @property
    def finished(self) -> bool:
        return self.over or not self.current

    @property
    def status(self) -> Status:
        """``"playing"``, ``"ended"`` or ``"abandoned"``: see ``game_status``."""
        return game_status(self.over, self.won, self.finished)

    @property
    def secret(self) -> bool:
        """As ``GameRecord.secret``: ranked and still playable, so neither replayed nor exported."""
        return seed_withheld(self.ranked, self.over, self.current, self.daily)

    @property
    def assisted(self) -> bool | None:
        """Any hint, auto-played move or undo; None when none is known and a count is unknown."""
        counts = (self.hints, self.auto_moves, self.undos)
        if any(counts):
            return True
        return None if None in counts else False


@dataclass(frozen=True, slots=True)
class Replay:
    """What ``Game.replay(seed, actions, variant, start, size)`` needs to rebuild a finished game,
    plus its result."""

    game_id: int
    seed: Seed
    variant: str
    #: ``Direction`` for a whole-board move, ``TileMove`` (``str()`` gives "left@5") for a single tile.
    actions: tuple[Action, ...]
    score: int
    max_tile: int
    won: bool
    over: bool
    #: The prepared position the game began from (``Game.from_board``, or a game whose log was
    #: re-based, see ``DamagedGame``); None when it began from its seed's two starting tiles.
    start: Start | None
    #: The board's size (a ``start`` board has it too).
    size: BoardSize = DEFAULT_SIZE


@dataclass(frozen=True, slots=True)
class DamagedGame:
    """A game the store found inconsistent when it upgraded the database, and what it did.

    ``"rebased"``: the state (board, score, win) was intact but the moves that led to it were lost,
    so the game now starts from its present position, with no moves and no undo history, and plays
    on. ``"set aside"``: the state itself was unreadable; the game left the player's games (the
    player gets a new current game if it was theirs), its row stays in the database, hidden, and
    its id is not given to another game.
    """

    game_id: int
    player_id: int
    repair: Literal["rebased", "set aside"]
    #: Why the game could not be read as it was stored.
    problem: str
    found_at: str


@dataclass(frozen=True, slots=True)
class Position:
    """The board after move ``move`` of a game's current line (move 0: the start, nothing slid)."""

    move: int
    board: Board
    score: int
    #: What move ``move`` did, as in ``twenty48.game.Turn``; empty and None for move 0.
    slides: tuple[tuple[int, int], ...]
    merges: tuple[int, ...]
    spawn: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Positions:
    game_id: int
    #: How many positions the game has: its moves + 1 (the last one is move ``total - 1``).
    total: int
    positions: tuple[Position, ...]


@dataclass(frozen=True, slots=True)
class FirstReach:
    """Move numbers at which a tile was first reached, over the finished games that reached it."""

    median: float | None
    best: int | None


@dataclass(frozen=True, slots=True)
class Stats:
    """One variant's figures on one board size for one player. The figures from ``best`` on are
    over the ``counted`` games: the ended ones, and the abandoned ones too when they were asked for
    (``game_status``)."""

    variant: str
    games: int
    #: Games that ended (game over, or won) and games abandoned (replaced before they ended).
    ended: int
    abandoned: int
    #: The games the figures are over.
    counted: int
    best: int | None
    mean: float | None
    median: float | None
    #: Tile (128 up to the one above the largest reached) -> fraction of the games whose largest
    #: tile reached it.
    reach: dict[int, float]
    first_reach: dict[int, FirstReach]
    #: Fraction of the games won (a merge made the size's win tile: 2048 on the 4x4).
    win_rate: float | None
    #: Runs of the games (in the order played) whose largest tile reached the win tile: the run still
    #: going at the newest game, and the longest.
    streak_current: int
    streak_best: int
    #: Scores of the last 100 games, oldest first.
    recent: tuple[int, ...]
    #: The board size the figures are of.
    size: BoardSize = DEFAULT_SIZE

    @property
    def finished(self) -> int:
        """The games that take no more moves: ended or abandoned."""
        return self.ended + self.abandoned

    @classmethod
    def unfinished(
        cls, variant: str, games: int = 0, ended: int = 0, abandoned: int = 0, size: BoardSize = DEFAULT_SIZE
    ) -> Stats:
        """The figures of a player none of whose ``games`` is counted yet."""
        return cls(variant, games, ended, abandoned, 0, None, None, None, {}, {}, None, 0, 0, (), size)


@dataclass(frozen=True, slots=True)
class ImportResult:
    #: Ids of the games stored, in file order.
    imported: tuple[int, ...]
    #: Games of the file already present (``twenty48.store.transfer``: "The same game"), not stored again.
    skipped: int
    #: The file's game in progress, now the player's current game (the player had none); else None.
    resumed: int | None = None


@dataclass(frozen=True, slots=True)
class Profile:
    """What a player shows of themself: a display name (None: anonymous, never on a board) and
    whether their games are kept off the boards, by their own choice or by the host."""

    player_id: int
    name: str | None
    hidden: bool
    host_hidden: bool

    @property
    def on_boards(self) -> bool:
        """Whether the player's ranked games appear on the leaderboards."""
        return self.name is not None and not self.hidden and not self.host_hidden


@dataclass(frozen=True, slots=True)
class TransferCode:
    """A one-time code that makes another device this player (``Store.claim_transfer``)."""

    code: str
    #: Unix seconds.
    expires_at: float


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """A player's best game on a leaderboard: its place (1 is the best), who and what."""

    rank: int
    player_id: int
    name: str
    game_id: int
    score: int
    max_tile: int
    moves: int
    #: None for a daily game still being played.
    finished_at: str | None


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """One page of a leaderboard, and the asking player's own entry wherever it stands."""

    #: "daily" or "all-time".
    board: str
    variant: str
    #: The daily board's UTC date (YYYY-MM-DD); None for the all-time board.
    date: str | None
    entries: tuple[LeaderboardEntry, ...]
    me: LeaderboardEntry | None
    #: The board size whose board it is (the daily board's is 4x4).
    size: BoardSize = DEFAULT_SIZE


@dataclass(frozen=True, slots=True)
class PlayerOverview:
    """A player as the host sees them (``2048 admin players``)."""

    profile: Profile
    created_at: str
    games: int
    #: Finished games that count for the boards.
    ranked: int
    #: Games played faster than a person can (for the host to judge).
    flagged: int


@dataclass(frozen=True, slots=True)
class Daily:
    """A player's daily challenge of one UTC date."""

    date: str
    #: The player's game of that date, or None before they start it.
    game_id: int | None
    #: The game's place on the day's board; None unless it is a ranked daily game.
    rank: int | None
    #: Its score there (None with no place): a place among games still at 0 means nothing yet.
    score: int | None = None
