"""The store: players, their games, every accepted action, best scores, in one SQLite database.

One database file holds everything; the browser server and the terminal game open the same file
(each process through its own ``Store``) and may run at the same time.

API (every game operation is scoped to a player: another player's game is ``GameNotFoundError``)::

    store = Store.open(path)                  # create or migrate; Store.default_path() is the usual file
    player = store.local_player()             # the well-known "terminal" player of this machine
    player = store.web_player(token)          # get or create the anonymous browser player of a cookie
    player = store.find_web_player(token)     # the same, or None: never creates one
    record = store.current_game(player.id)    # the game in progress (a new one on first call)
    record = store.new_game(player.id)        # start a game; it becomes the current one (an unplayed
                                              # current game is replaced in place, not kept)
    record = store.new_game(player.id, variant="merge")  # a "Merge 2048" game (classic by default)
    record = store.add_game(player.id, game)  # store a prepared or played Game as the current one
    record = store.get_game(player.id, game_id)
    game = store.load_game(player.id, game_id)          # an exact, independent Game copy
    outcome = store.move(player.id, game_id, "left", revision=record.revision)
    outcome = store.move(player.id, game_id, "left", cell=5, revision=...)  # merge: the tile on cell 5
    outcome.turn                              # twenty48.game.Turn: changed, score, slides, merges, spawn...
    outcome.game                              # GameRecord after the move (revision bumped if changed)
    record = store.undo(player.id, game_id, revision=...)
    record = store.keep_going(player.id, game_id, revision=...)
    store.best_score(player.id, "classic")    # best score the player reached in that variant
    store.games(player.id, limit=20, before=None)       # GameSummary list, newest first
    store.replay(player.id, game_id)          # Replay(seed, variant, actions, start, ...) of a finished game
    store.games(player.id, sort="score", variant="classic", finished=True)  # sorted, filtered pages
    store.positions(player.id, game_id, first=0, count=100)  # Positions: boards after moves 0, 1, ...
    store.stats(player.id, "classic", assisted=False)         # Stats over finished unassisted games
    store.note_hint(player.id, game_id, revision)  # count a hint asked (once per position)
    store.move(player.id, game_id, "left", revision=..., auto=True)  # an auto-played move, counted
    store.delete_game(player.id, game_id)
    store.export_game(player.id, game_id)     # {"format": "twenty48-game/2", ...}; export_history(...)
    store.import_games(player.id, transfer.read_file(data))   # ImportResult; ImportRefusedError
    store.claim_import(player.id, seconds=40.0)  # the player's one import in flight (as claim_hint)
    store.take_new_game(player.id, per_minute=30)  # 0.0, or the seconds until a new game is allowed
    lease = store.claim_hint(player.id, seconds=30.0)  # the player's one hint in flight (None: taken)
    store.release_hint(player.id, lease)
    store.set_name(player.id, "Ada")          # a display name (twenty48.names); set_hidden(player.id, True)
    code = store.new_transfer(player.id)      # a one-time code; store.claim_transfer(code.code, token)
    store.leaderboard("all-time", "classic", player_id=player.id)  # Leaderboard: a page and "me"
    store.public_replay(game_id, today)       # a game on the boards, for anyone; public_positions(...)
    record = store.new_game(player.id, ranked=True)     # ranked: keyed spawns, seed None until finished
    record = store.daily_game(player.id, "2026-12-01")  # start or resume that UTC day's daily challenge
    store.daily(player.id, "2026-12-01")      # Daily(date, game_id, rank on the day's board)
    record = store.adopt_pending(player.id, game)  # a new visitor's first game
    store.server_secret("daily")              # 32 random bytes, made once, kept in the database
    store.request_review(player.id, game_id, setting)  # a game review's job, or the stored review
    store.review_status(player.id, game_id, setting)   # its state, progress and review (reviews.py)
    store.damaged_games(player.id)            # DamagedGame list: games found damaged, and their repair
    store.flush()                             # with group_commit=True: make the commits durable
    store.close()                             # or use ``with Store.open(path) as store:``

Guarantees:

- **One transaction per accepted action.** ``move``, ``undo`` and ``keep_going`` load, apply and write
  inside one ``BEGIN IMMEDIATE`` transaction and return only after ``COMMIT`` (WAL mode,
  ``synchronous=FULL``: the commit is on disk), so whatever a caller acknowledges survives a crash,
  of the process or of the machine. An illegal move (the board does not change) writes nothing.
- **Group commit.** ``Store.open(path, group_commit=True)`` keeps one transaction per action but
  shares the disk flush: commits reach the operating system at once (surviving a crash of the
  process) and ``store.flush()`` makes all of them durable with one ``fsync`` of the write-ahead log.
  A server answering many players calls ``flush()`` after each batch of actions and acknowledges
  them only after it returns: the same guarantee at a fraction of the disk waits.
- **Revisions.** Each game has a ``revision`` that every accepted action increments. Passing the
  revision you last saw makes the action conditional: if anything else changed the game meanwhile the
  call raises ``StaleRevisionError`` (carrying the current record) and changes nothing. Move counts
  cannot serve here: undo lowers them, so "move 5" can name two different positions.
- **Exact reload.** A game is stored as ``Game.to_dict()`` (the current line of moves in its own table,
  written by one function whether a game is stored whole or a move is added), so ``load_game``
  restores the very same state, undo history and start position included, and
  ``Game.replay(r.seed, r.actions, r.variant, r.start)`` of a ``Replay`` rebuilds the game's board.
- **Variants.** A game keeps the variant it was started with (``twenty48.variants``: classic, the
  default, or "Merge 2048"); best scores are kept per variant, since the two games score differently.
  A single-tile move (``cell=``) on a classic game is refused with ``ActionRejectedError``.
- **Finished games.** A game is finished when it is over or when the player has started a newer one;
  actions on a finished game raise ``GameFinishedError``; only a finished game has replay data.
- **Errors.** Refused actions raise a ``GameConflictError`` whose ``game`` is the unchanged current
  record; the Game decides what it refuses and the store translates that once
  (``twenty48.store.errors``, which draws the whole tree). A file that is not a twenty48 database
  (``ForeignDatabaseError``), comes from a newer version (``NewerDatabaseError``) or is damaged
  raises a ``StoreUnreadableError``; an unknown player, ``PlayerNotFoundError``; every store
  exception derives from ``StoreError`` (but a display name the name rules refuse:
  ``twenty48.names.NameRefused``).
- **Opening changes nothing it should not.** A file is recognised (SQLite header, application id,
  schema version) and checked (``PRAGMA quick_check``) before anything is written to it, so a foreign
  or damaged file is refused exactly as it was found. An existing empty (0-byte) file is refused too:
  a new database is made only where no file is. Only the default location's directory is created;
  ``database_path`` refuses a URL (``scheme://...``) by name.
- **Damaged games.** Opening a database repairs what an older version wrote wrongly and reports it
  once in ``damaged_games``: a game whose moves were lost but whose state is intact is re-based (it
  starts from where it stands, with no moves and no undo, and plays on); one whose state is
  unreadable is set aside, and its player's current game pointer is cleared. The rest of the
  database is untouched.

Layout, and the seam for a second database::

    records.py     Player, GameRecord, MoveOutcome, GameSummary, Replay, DamagedGame
    errors.py      the exception tree; ``refusal``: a Game's IllegalAction -> the store's error
    backend.py     Backend / Connection: the primitive operations a database must provide
    games.py       Store: every operation and the rules of an action, once, against a Backend
    rows.py        its transactions, and a game's row loaded, checked, saved and answered
    codec.py       a Game as stored: state JSON, separate action log, listing columns
    cache.py       the LRU of deserialised games, keyed by revision
    sqlite.py      the SQLite backend: statements, BEGIN IMMEDIATE, busy and damage errors
    durability.py  WAL, synchronous=FULL or group commit with one fsync per flush, set_aside
    schema.py      the list of migrations and SQLite's ``PRAGMA user_version`` bookkeeping
    migrations.py  the migrations themselves, in the SQL both backends share
    history.py     positions, statistics, deletion, hints asked, export (part of Store)
    imports.py     imports stored in short steps, all or nothing, bounded (part of Store)
    sqlite_imports.py  their statements
    checkpoints.py checkpoints and first reaches kept per move; positions replayed from a checkpoint
    stats.py       a variant's statistics from the aggregate primitives
    transfer.py    the game and history file formats, the checks of an import, what makes games the same
    sqlite_history.py  the SQLite statements of the history primitives
    players.py     display names, hiding, transfer codes, the host's listings (sqlite_players.py)
    boards.py      the leaderboards and public replays (sqlite_boards.py)
    limits.py      per-player limits in the database (new-game rate, the hint in flight), across processes
    sqlite_limits.py   their statements
    reviews.py     stored game reviews and their jobs' state and progress, across processes
    sqlite_reviews.py  their statements

``Store(backend)`` takes any ``Backend``; ``Store.open(location)`` (or ``open_store``) opens the
SQLite file a path names or the PostgreSQL database a ``postgresql://`` URL does. The PostgreSQL
backend (``postgres.py``) runs the same statements through ``dialect.py``, locks the player's row
with ``SELECT ... FOR UPDATE`` and keeps its schema version in a table (``postgres_schema.py``);
``Store`` is unchanged.
"""

from twenty48.store.backend import Backend, Connection
from twenty48.store.cache import CACHE_SIZE
from twenty48.store.errors import (
    ActionRejectedError,
    ForeignDatabaseError,
    GameConflictError,
    GameFinishedError,
    GameInProgressError,
    GameNotFoundError,
    NameTakenError,
    NewerDatabaseError,
    PlayerNotFoundError,
    StaleRevisionError,
    StoreError,
    StoreUnreadableError,
    TransferCodeError,
)
from twenty48.store.games import TERMINAL_PLAYER, Store
from twenty48.store.location import database_path, open_store
from twenty48.store.records import (
    ID_LIMIT,
    Daily,
    DamagedGame,
    FirstReach,
    GameRecord,
    GameSummary,
    ImportResult,
    MoveOutcome,
    Player,
    Position,
    Positions,
    Replay,
    Stats,
)
from twenty48.store.schema import APPLICATION_ID, MIGRATIONS
from twenty48.store.sqlite import BUSY_TIMEOUT_MS
from twenty48.store.transfer import ImportRefusedError

__all__ = [
    "APPLICATION_ID",
    "BUSY_TIMEOUT_MS",
    "CACHE_SIZE",
    "ID_LIMIT",
    "MIGRATIONS",
    "TERMINAL_PLAYER",
    "ActionRejectedError",
    "Backend",
    "Connection",
    "Daily",
    "DamagedGame",
    "FirstReach",
    "ForeignDatabaseError",
    "GameConflictError",
    "GameFinishedError",
    "GameInProgressError",
    "GameNotFoundError",
    "GameRecord",
    "GameSummary",
    "ImportRefusedError",
    "ImportResult",
    "MoveOutcome",
    "NameTakenError",
    "NewerDatabaseError",
    "Player",
    "PlayerNotFoundError",
    "Position",
    "Positions",
    "Replay",
    "StaleRevisionError",
    "Stats",
    "Store",
    "StoreError",
    "StoreUnreadableError",
    "TransferCodeError",
    "database_path",
    "open_store",
]
