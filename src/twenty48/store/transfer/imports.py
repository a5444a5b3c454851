"""Imports stored in short steps, all or nothing, so that one never holds up other players' actions.

A file's games are checked first, without the store (``transfer.read_file`` replays each);
``ImportJob.steps`` then stores them in transactions that each write at most ``STEP_ROWS`` rows (or
one game's, for a longer game's first reaches and checkpoints), run one at a time by the caller:
the web server on its store thread between other players' actions, ``2048 import`` with a progress
bar::

    result = store.import_games(player_id, transfer.read_file(data))   # every step, here
    job = store.import_job(player_id, games)
    for step in job.steps():                   # or: await worker.run(step), one after another
        step()
    job.result                                 # ImportResult
    for step in job.abandon():                 # the import stopped: delete what it staged
        step()

The steps: (1) delete what imports stopped by a killed process left, staged over
``ABANDONED_AFTER_S`` ago; (2) fill in the digests (``transfer.digest``) of the player's games that
changed since they were last compared, from each game's state and moves, with no replay; (3) look
the file's digests up (``transfer.unseen``: which games are already here); (4) stage the new games,
hidden: rows, moves, checkpoints, first reaches; (5) show them all in one transaction, which looks
for duplicates once more (another import of the same games may have ended meanwhile) and makes the
file's game in progress the player's current game when the player has none; (6) delete what was
staged and not shown. Nothing is shown before step 5, and step 5 shows everything at once.

The work grows with the file's games and moves, and with the player's games changed since their
last import (each read once), never with all of the player's games per game imported.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from twenty48 import spawns
from twenty48.store import transfer
from twenty48.store.database import Connection
from twenty48.store.errors import StoreError, StoreUnreadableError
from twenty48.store.games import checkpoints, codec
from twenty48.store.games import sql as games_sql
from twenty48.store.games.rows import GameRows, now_text
from twenty48.store.records import ImportResult
from twenty48.store.transfer import sql as transfer_sql
from twenty48.store.transfer.sql import Staged

#: The longest an import may take, from reading its file to showing its games, in seconds (the web
#: server's; ``2048 import`` has its own). A 2 MiB file of long games replays in about 15 s on a
#: busy 2-core machine.
MAX_IMPORT_SECONDS = 30.0
#: The rows one step writes, at most: a few milliseconds of one core (on a busy 2-core machine
#: SQLite wrote about 20,000 of an import's rows a second, indexes included), which another
#: player's action may wait.
STEP_ROWS = 100
#: Games a step reads or shows at once (and ids or digests in one statement).
STEP_GAMES = 500
#: Staged games older than this were left by an import whose process was killed: no import lasts
#: this long (``2048 import``'s bound is 10 minutes).
ABANDONED_AFTER_S = 3600.0


class ImportStoppedError(StoreError):
    """The import stopped before its end (its client hung up, the server is shutting down): nothing
    of it is stored."""


@dataclass
class ImportBudget:
    """An import's bound in time, and the switch that stops it from another thread."""

    seconds: float = MAX_IMPORT_SECONDS
    started: float = field(default_factory=time.monotonic)
    _stop: threading.Event = field(default_factory=threading.Event)
    _why: str = "the import was stopped"

    def stop(self, why: str) -> None:
        """Stop the import at its next check (from any thread)."""
        self._why = why
        self._stop.set()

    def check(self) -> None:
        """Raise ``ImportStoppedError`` once stopped, ``ImportRefusedError`` once past its time.
        Called every few milliseconds of an import's work, it also lets other threads run: a
        replay on a thread of its own would otherwise hold the interpreter for up to its switch
        interval (5 ms) each time the event loop or the store thread wants it."""
        time.sleep(0)
        if self._stop.is_set():
            raise ImportStoppedError(self._why)
        if time.monotonic() - self.started > self.seconds:
            raise transfer.ImportRefusedError(
                f"the import took longer than its bound of {self.seconds:g} s: split the file into "
                "smaller ones"
            )


Step = Callable[[], None]


class Imports:
    """The store's part for imports; ``Store`` documents each operation."""

    def __init__(self, rows: GameRows) -> None:
        self._rows = rows

    def job(self, player_id: int, games: Sequence[transfer.Imported]) -> ImportJob:
        return ImportJob(self._rows, player_id, games)

    def import_games(
        self,
        player_id: int,
        games: Sequence[transfer.Imported],
        budget: ImportBudget | None,
        progress: Callable[[int, int], None] | None,
    ) -> ImportResult:
        job = self.job(player_id, games)
        try:
            for step in job.steps():
                if budget is not None:
                    budget.check()
                step()
                if progress is not None:
                    progress(*job.progress)
        except BaseException:
            for step in job.abandon():
                step()
            raise
        assert job.result is not None
        return job.result


class ImportJob:
    """One import of ``games`` for a player, as steps (see the module)."""

    def __init__(self, rows: GameRows, player_id: int, games: Sequence[transfer.Imported]) -> None:
        self._rows = rows
        self._player = player_id
        self._games = games
        now = time.time()
        # The start time first, so that tokens sort by age (step 1).
        self.token = f"{int(now):012d}-{uuid.uuid4().hex}"
        self._abandoned_before = f"{max(0, int(now - ABANDONED_AFTER_S)):012d}"
        self._present: list[tuple[str, str]] = []
        #: Index in ``games`` -> the staged game's id.
        self._staged: dict[int, int] = {}
        self._skipped = 0
        self._found: list[tuple[int, int]] = []
        self._after = 0
        self._new = len(games)
        self.result: ImportResult | None = None

    @property
    def progress(self) -> tuple[int, int]:
        """(games staged, games to stage): the file's games until the look-up says which are new."""
        return len(self._staged), self._new

    def steps(self) -> Iterator[Step]:
        """The steps, each one transaction; run each before asking for the next."""
        yield from self._until_none(self._drop_abandoned)
        yield from self._until_none(self._fill_digests)
        digests = sorted({item.digest for item in self._games})
        for first in range(0, len(digests), STEP_GAMES):
            yield self._look_up(digests[first : first + STEP_GAMES])
        new = transfer.unseen(self._games, self._present)
        self._skipped = new.count(False)
        self._new = len(self._games) - self._skipped
        yield from self._stages([i for i, is_new in enumerate(new) if is_new])
        yield self._show
        if len(self._staged) > len(self.result.imported if self.result else ()):
            # Games another import showed meanwhile: staged here for nothing.
            yield from self.abandon()

    def abandon(self) -> Iterator[Step]:
        """Steps that delete the games this import staged and did not show."""
        return self._until_none(self._drop_own)

    # ---- the steps ------------------------------------------------------------------------------

    def _until_none(self, step: Callable[[], None]) -> Iterator[Step]:
        """``step`` again and again while its last run found something to do (in ``_found``)."""
        while True:
            self._found = []
            yield step
            if not self._found:
                return

    def _drop_abandoned(self) -> None:
        with self._rows.write() as db:
            self._found = _within(transfer_sql.staged_before(db, self._abandoned_before, STEP_GAMES))
            transfer_sql.drop_staged(db, [game_id for game_id, _ in self._found])

    def _drop_own(self) -> None:
        with self._rows.write() as db:
            self._found = _within(transfer_sql.staged(db, self.token, STEP_GAMES))
            transfer_sql.drop_staged(db, [game_id for game_id, _ in self._found])

    def _fill_digests(self) -> None:
        with self._rows.write() as db:
            games_sql.current_game_of(db, self._player)
            # Ids ascending, each once: a game played on meanwhile loses its digest again, and
            # must not keep this step going.
            self._found = _within(transfer_sql.undigested(db, self._player, self._after, STEP_GAMES))
            for game_id, _ in self._found:
                transfer_sql.set_digest(db, game_id, _stored_digest(db, game_id))
                self._after = game_id

    def _look_up(self, digests: list[str]) -> Step:
        def look_up() -> None:
            with self._rows.read() as db:
                games_sql.current_game_of(db, self._player)
                self._present.extend(transfer_sql.digests_present(db, self._player, digests))

        return look_up

    def _stages(self, new: list[int]) -> Iterator[Step]:
        """Steps that stage the games at these indexes, each writing about ``STEP_ROWS`` rows: a
        short game shares a step with others, a long one's moves take several."""
        work: list[Callable[[Connection], None]] = []
        rows = 0
        for index in new:
            item = self._games[index]
            parts = [(1, self._insert(index))]
            actions = item.game.actions
            for first in range(0, len(actions), STEP_ROWS):
                parts.append((min(STEP_ROWS, len(actions) - first), self._log(index, first)))
            parts.append((len(item.index.reaches) + len(item.index.checkpoints), self._note(index)))
            for cost, part in parts:
                if rows + cost > STEP_ROWS and work:
                    yield self._stage(work)
                    work, rows = [], 0
                work.append(part)
                rows += cost
        if work:
            yield self._stage(work)

    def _stage(self, work: list[Callable[[Connection], None]]) -> Step:
        def stage() -> None:
            with self._rows.write() as db:
                games_sql.current_game_of(db, self._player)
                for part in work:
                    part(db)

        return stage

    def _insert(self, index: int) -> Callable[[Connection], None]:
        item = self._games[index]

        def insert(db: Connection) -> None:
            game = item.game
            staged = Staged(self.token, item.digest, item.created_at, item.assists)
            self._staged[index] = transfer_sql.insert_staged(
                db, self._player, codec.columns(game), codec.encode(game), now_text(), staged
            )

        return insert

    def _log(self, index: int, first: int) -> Callable[[Connection], None]:
        actions = self._games[index].game.actions[first : first + STEP_ROWS]
        return lambda db: games_sql.append_actions(db, self._staged[index], first, actions)

    def _note(self, index: int) -> Callable[[Connection], None]:
        return lambda db: checkpoints.write_index(db, self._staged[index], self._games[index].index)

    def _show(self) -> None:
        staged = sorted(self._staged)
        games = [self._games[i] for i in staged]
        with self._rows.write() as db:
            current = games_sql.current_game_of(db, self._player)
            digests = sorted({item.digest for item in games})
            present = [
                found
                for first in range(0, len(digests), STEP_GAMES)
                for found in transfer_sql.digests_present(
                    db, self._player, digests[first : first + STEP_GAMES]
                )
            ]
            new = transfer.unseen(games, present)
            shown = [self._staged[i] for i, is_new in zip(staged, new, strict=True) if is_new]
            for first in range(0, len(shown), STEP_GAMES):
                transfer_sql.unstage(db, shown[first : first + STEP_GAMES])
            resumed = None
            if current is None:
                # The file's game in progress (its last, if it lists several) goes on where it was
                # left, unless the player has a game in progress of their own.
                going = [
                    self._staged[i]
                    for i, is_new in zip(staged, new, strict=True)
                    if is_new and not self._games[i].finished
                ]
                if going:
                    resumed = going[-1]
                    games_sql.set_current_game(db, self._player, resumed)
        self.result = ImportResult(tuple(shown), self._skipped + new.count(False), resumed)


def _within(games: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The first of these (id, moves) whose moves fit in a step together (always the first one)."""
    taken, rows = [], 0
    for game_id, moves in games:
        if taken and rows + moves > STEP_ROWS:
            break
        taken.append((game_id, moves))
        rows += moves
    return taken


def _stored_digest(db: Connection, game_id: int) -> str:
    """The digest of a stored game, from its state's origin and its moves (no replay)."""
    state, actions = games_sql.state(db, game_id)
    try:
        seed, variant, start, size = codec.origin(state)
    except (ValueError, KeyError, TypeError) as exc:
        raise StoreUnreadableError(f"game {game_id} is damaged: {exc}") from exc
    return transfer.digest(spawns.scheme(seed), spawns.seed_json(seed), variant, start, actions, size)
