"""The store: players, their games, every accepted action, best scores, leaderboards, reviews.

One database holds everything: an SQLite file (the default: the browser server and the terminal
game open the same file, each process through its own ``Store``, and may run at the same time), or
a PostgreSQL database (any number of server processes, on any number of machines). Both run the
same statements and the same migrations and give the same guarantees (below).

API (every game operation is scoped to a player: another player's game is ``GameNotFoundError``)::

    store = Store.open(path)                  # create or migrate; Store.default_path() is the usual file
    player = store.local_player()             # the well-known "terminal" player of this machine
    player = store.web_player(token)          # get or create the anonymous browser player of a cookie
    player = store.find_web_player(token)     # the same, or None: never creates one
    record = store.current_game(player.id)    # the game in progress (a new one on first call)
    record = store.new_game(player.id)        # start a game; it becomes the current one (an unplayed
                                              # current game is replaced in place, not kept)
    record = store.new_game(player.id, variant="merge")  # a "Merge 2048" game (classic by default)
    record = store.new_game(player.id, size="3x3")       # a 3x3 game (4x4 by default); record.size
    record = store.add_game(player.id, game)  # store a prepared or played Game as the current one
    record = store.get_game(player.id, game_id)
    game = store.load_game(player.id, game_id)          # an exact, independent Game copy
    outcome = store.move(player.id, game_id, "left", revision=record.revision)
    outcome = store.move(player.id, game_id, "left", cell=5, revision=...)  # merge: the tile on cell 5
    outcome.turn                              # twenty48.game.Turn: changed, score, slides, merges, spawn...
    outcome.game                              # GameRecord after the move (revision bumped if changed)
    store.move(player.id, game_id, "up", game_copy=True).game_copy  # + the played Game, the caller's own
    record = store.undo(player.id, game_id, revision=...)
    record = store.keep_going(player.id, game_id, revision=...)
    store.best_score(player.id, "classic")    # best score the player reached in that variant (4x4)
    store.best_score(player.id, "classic", "3x3")       # ... on the 3x3: per variant and size
    store.games(player.id, limit=20, before=None)       # GameSummary list, newest first
    store.replay(player.id, game_id)          # Replay(seed, variant, actions, start, ...) of a finished game
    store.games(player.id, sort="score", variant="classic", finished=True)  # sorted, filtered pages
    store.positions(player.id, game_id, first=0, count=100)  # Positions: boards after moves 0, 1, ...
    store.stats(player.id, "classic", assisted=False)         # Stats over ended unassisted games
    store.stats(player.id, "classic", size="3x3")             # ... of one size (4x4 by default)
    store.note_hint(player.id, game_id, revision)  # count a hint asked (once per position)
    store.move(player.id, game_id, "left", revision=..., auto=True)  # an auto-played move, counted
    store.delete_game(player.id, game_id)
    store.export_game(player.id, game_id)     # {"format": "twenty48-game/2", ...}; export_history(...)
    store.import_games(player.id, transfer.read_file(data))   # ImportResult; ImportRefusedError
    job = store.import_job(player.id, games)  # the same import in steps (transfer.imports)
    store.claim_import(player.id, seconds=40.0)  # the player's one import in flight (as claim_hint)
    store.take_new_game(player.id, per_minute=30)  # 0.0, or the seconds until a new game is allowed
    lease = store.claim_hint(player.id, seconds=30.0)  # the player's one hint in flight (None: taken)
    store.release_hint(player.id, lease)
    store.set_name(player.id, "Ada")          # a display name (twenty48.names); set_hidden(player.id, True)
    code = store.new_transfer(player.id)      # a one-time code; store.claim_transfer(code.code, token)
    store.leaderboard("all-time", "classic", player_id=player.id)  # Leaderboard: a page and "me"
    store.leaderboard("all-time", "classic", size="3x3")  # per variant and size (4x4 by default)
    store.public_replay(game_id, today)       # a game on a leaderboard, for anyone; public_positions(...)
    record = store.new_game(player.id, ranked=True)     # ranked: keyed spawns, seed None until finished
    record = store.daily_game(player.id, "2026-12-01")  # start or resume that UTC day's daily challenge
    store.daily(player.id, "2026-12-01")      # Daily(date, game_id, rank and score on the day's leaderboard)
    record = store.adopt_pending(player.id, game)  # a new visitor's first game, stored as it is
    outcome = store.move_pending(player.id, game, "left", revision=0)  # ... or by its first move
    store.server_secret("daily")              # 32 random bytes, made once, kept in the database
    store.request_review(player.id, game_id, setting)  # a game review's job, or the stored review
    store.review_status(player.id, game_id, setting)   # its state, progress and review (reviews)
    store.damaged_games(player.id)            # DamagedGame list: games found damaged, and their repair
    store.flush()                             # with group_commit=True: make the commits durable
    store.close()                             # or use ``with Store.open(path) as store:``

Guarantees:

- **One transaction per accepted action.** ``move``, ``undo`` and ``keep_going`` load, apply and
  write inside one write transaction that holds the player's write lock from its start (SQLite:
  ``BEGIN IMMEDIATE``, the whole file's; PostgreSQL: the player's row, ``SELECT ... FOR UPDATE``),
  and return only after ``COMMIT`` is durable (SQLite: WAL mode, ``synchronous=FULL``; PostgreSQL:
  ``synchronous_commit=on``), so whatever a caller acknowledges survives a crash, of the process or
  of the machine, and a player's actions take turns across every process. An illegal move (the
  board does not change) writes nothing. The action is applied there once: the front ends call the
  store through ``twenty48.play_service`` and take its answer (``move_pending`` stores a new
  visitor's game and plays its first move in one transaction; ``game_copy=True`` hands back the
  played game) instead of playing the action themselves too.
- **Group commit.** ``Store.open(location, group_commit=True)`` keeps one transaction per action but
  shares the disk flush. SQLite: commits reach the operating system at once (surviving a crash of
  the process) and ``store.flush()`` makes all of them durable with one ``fsync`` of the write-ahead
  log. PostgreSQL: commits are made with ``synchronous_commit=off`` and ``store.flush()`` ends the
  batch with one synchronous commit, which flushes the server's log past all of them.
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
  ``twenty48.names.NameRefusedError``).
- **Opening changes nothing it should not.** A file is recognised (SQLite header, application id,
  schema version) and checked (``PRAGMA quick_check``) before anything is written to it, so a foreign
  or damaged file is refused exactly as it was found; a PostgreSQL database that holds other tables
  is refused the same way. An existing empty (0-byte) file is refused too:
  a new database is made only where no file is. Only the default location's directory is created;
  ``database_path`` refuses a URL (``scheme://...``) by name.
- **Damaged games.** Opening a database repairs what an older version wrote wrongly and reports it
  once in ``damaged_games``: a game whose moves were lost but whose state is intact is re-based (it
  starts from where it stands, with no moves and no undo, and plays on); one whose state is
  unreadable is set aside, and its player's current game pointer is cleared. The rest of the
  database is untouched.

Layout: by feature, each with its operations (the rules, one part of ``Store``) and its ``sql``
(the statements both backends run, functions that take the connection)::

    store.py           Store: opens a database, holds the feature parts, documents every operation
    records.py         what the store hands out: Player, GameRecord, MoveOutcome, Stats, ...
    errors.py          the exception tree; ``refusal``: a Game's IllegalActionError -> the store's error
    database.py        the seam: Backend, Connection, and the SQL both backends speak
    location.py        a database's location: an SQLite path or a PostgreSQL URL
    opening.py         the backend a location names, opened and migrated
    games/             a game's life: new, move, undo, keep going, hints asked, replays, positions;
                       rows.py (transactions, the cache, a game's row), sql.py, codec.py, cache.py,
                       checkpoints.py (checkpoints and first reaches kept per move)
    players/           keys, display names, hiding, transfer codes, the host's listing
    ranking/           ranked games, daily challenges, new visitors' first games, server secrets
    archive/           the list of a player's games, statistics (statistics.py), deletion
    transfer/          games as files: the formats (the package itself), exports.py, imports.py
                       (stored in steps), copy.py (an SQLite store into PostgreSQL)
    reviews/           stored game reviews and their jobs, across processes
    leaderboards/      the all-time and daily leaderboards, public replays
    limits/            per-player limits: the new-game rate, the hint and the import in flight
    schema/            the migrations (migrations.py) and the one runner both backends use
    backends/          only what differs: sqlite.py (+ sqlite_durability.py: WAL, group commit,
                       setting a file aside) and postgres.py (+ postgres_dialect.py: placeholders
                       and types), neither importing the other

``Store(backend)`` takes any ``Backend``; ``Store.open(location)`` (or ``open_store``) opens the
SQLite file a path names or the PostgreSQL database a ``postgresql://`` URL does (``opening``).
"""

from twenty48.store import transfer
from twenty48.store.archive.operations import GAME_SORTS
from twenty48.store.backends.sqlite import BUSY_TIMEOUT_MS
from twenty48.store.database import Backend, Connection
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
    refusal,
)
from twenty48.store.games.cache import CACHE_SIZE
from twenty48.store.games.operations import MAX_POSITIONS
from twenty48.store.leaderboards.operations import LEADERBOARDS, MAX_LEADERBOARD_OFFSET, MAX_LEADERBOARD_PAGE
from twenty48.store.location import Location, database_path, is_postgres, parse_location, redact
from twenty48.store.opening import migrate_database
from twenty48.store.players.operations import TERMINAL_PLAYER
from twenty48.store.records import (
    ID_LIMIT,
    Daily,
    DamagedGame,
    FirstReach,
    GameRecord,
    GameSummary,
    ImportResult,
    Leaderboard,
    LeaderboardEntry,
    MoveOutcome,
    Player,
    Position,
    Positions,
    Profile,
    Replay,
    Stats,
    Status,
    TransferCode,
)
from twenty48.store.reviews.operations import ReviewRecord, ReviewRequest
from twenty48.store.schema import APPLICATION_ID, MIGRATIONS
from twenty48.store.store import Store, open_store
from twenty48.store.transfer import MAX_IMPORT_GAMES, ImportRefusedError
from twenty48.store.transfer.copy import CopyResult, copy_store
from twenty48.store.transfer.imports import MAX_IMPORT_SECONDS, ImportBudget, ImportJob, ImportStoppedError

__all__ = [
    "APPLICATION_ID",
    "BUSY_TIMEOUT_MS",
    "CACHE_SIZE",
    "GAME_SORTS",
    "ID_LIMIT",
    "LEADERBOARDS",
    "MAX_IMPORT_GAMES",
    "MAX_IMPORT_SECONDS",
    "MAX_LEADERBOARD_OFFSET",
    "MAX_LEADERBOARD_PAGE",
    "MAX_POSITIONS",
    "MIGRATIONS",
    "TERMINAL_PLAYER",
    "ActionRejectedError",
    "Backend",
    "Connection",
    "CopyResult",
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
    "ImportBudget",
    "ImportJob",
    "ImportRefusedError",
    "ImportResult",
    "ImportStoppedError",
    "Leaderboard",
    "LeaderboardEntry",
    "Location",
    "MoveOutcome",
    "NameTakenError",
    "NewerDatabaseError",
    "Player",
    "PlayerNotFoundError",
    "Position",
    "Positions",
    "Profile",
    "Replay",
    "ReviewRecord",
    "ReviewRequest",
    "StaleRevisionError",
    "Stats",
    "Status",
    "Store",
    "StoreError",
    "StoreUnreadableError",
    "TransferCode",
    "TransferCodeError",
    "copy_store",
    "database_path",
    "is_postgres",
    "migrate_database",
    "open_store",
    "parse_location",
    "redact",
    "refusal",
    "transfer",
]
