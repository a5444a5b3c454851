"""The game screen: the board, the score boxes, the hint panel, its keys, hints and auto-play.

Every key event is handled to the end before the next one is read, and a move is one synchronous call
into the session (the local game says whether it changes anything, the store plays and commits it
once), so a held key plays each repeat at most once and in order. Hints and auto-play ask the solver
in a worker thread (see ``twenty48.tui.solver``). Every change of the game on screen starts a new
*position* (a counter): each question to the solver names the position it is about, its answer is
used only while that position is still on screen, and the hint panel never shows a ranking for any
other position (not even during auto-play).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.timer import Timer
from textual.widgets import Footer, Static

from twenty48.game import Game, Turn
from twenty48.palette import ACCENT
from twenty48.rules import DEFAULT_SIZE, Board, Direction
from twenty48.store import Store
from twenty48.tui.board_screen import BoardScreen
from twenty48.tui.dialogs import Choice, ConfirmNewGame, GameOverDialog, WinDialog
from twenty48.tui.history_screen import open_history
from twenty48.tui.session import ChangedElsewhereError, Session
from twenty48.tui.solver import SolverAnswer, SolverSettings, solve
from twenty48.tui.widgets import BoardGeometry, BoardView, HintPanel, StatBox
from twenty48.variants import CLASSIC

#: How long a spawned or merged tile stays marked.
MARK_SECONDS = 0.35

_MOVE_KEYS = Binding.Group("Move", compact=True)


class GameScreen(BoardScreen):
    """The board, the score boxes, the hint panel and the key bindings of a game. Its looks are in
    twenty48.tcss."""

    BOARD_ACTIONS = frozenset({"move", "undo", "new_game", "hint", "autoplay"})

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move('up')", "Move", group=_MOVE_KEYS),
        Binding("down", "move('down')", "Move", group=_MOVE_KEYS),
        Binding("left", "move('left')", "Move", group=_MOVE_KEYS),
        Binding("right", "move('right')", "Move", group=_MOVE_KEYS),
        *(
            Binding(key, f"move('{direction}')", show=False)
            for keys, direction in (("wk", "up"), ("sj", "down"), ("ah", "left"), ("dl", "right"))
            for key in keys
        ),
        Binding("u", "undo", "Undo"),
        Binding("n", "new_game", "New game"),
        Binding("question_mark", "hint", "Hint", key_display="?"),
        # Lower-case "a" is WASD's left, so auto-play takes the capital.
        Binding("A", "autoplay", "Auto-play", key_display="A"),
        Binding("r", "history", "History", show=False),
    ]

    #: Whether the solver is playing; the status lines say so.
    autoplay: var[bool] = var(False, init=False)
    #: Whether the solver is loaded (compiled, the first run after installing): until then the hint
    #: panel says it is being prepared instead of thinking.
    solver_ready: var[bool] = var(False, init=False)
    #: Whether the footer offers undo. The footer is rebuilt on every bindings refresh, so a var
    #: refreshes them only when undo's state flips.
    undo_offered: var[bool] = var(False, init=False, bindings=True)
    #: The status lines. Updating their ``Static`` lays out the screen, so the var does it only on a change.
    status: var[Text] = var(Text, init=False)

    def __init__(
        self, session: Session, *, settings: SolverSettings, palette: str, store: Store | None = None
    ) -> None:
        super().__init__()
        self.session = session
        #: The store whose history ``r`` shows (the app's, even once this game stopped saving to it);
        #: None for an unsaved game, which has none.
        self.store = store
        self.settings = settings
        #: The tiles' palette (a key of ``twenty48.palette.PALETTES``).
        self.palette = palette
        self._marks_timer: Timer | None = None
        self._auto_timer: Timer | None = None
        #: The position on screen: it changes with every drawing of a changed or reloaded game.
        self._position = 0
        #: The position the solver is working on, if any.
        self._thinking_about: int | None = None
        #: The position whose ranking the hint panel shows, if it shows one.
        self._ranked: int | None = None
        #: When the screen started preparing the solver, and the timer that shows how long for.
        self._mounted_at = time.monotonic()
        self._preparing_timer: Timer | None = None

    @property
    def game(self) -> Game:
        return self.session.game

    # ---- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="body", classes="board-body"):
            with Vertical(id="board-area"):
                yield BoardView(palette=self.palette, size=self.game.board.size, id="board")
            with Vertical(id="side"):
                yield Static(Text("2048", style="bold"), id="title")
                with Horizontal(id="stats"):
                    yield StatBox("score", id="score")
                    yield StatBox("best", id="best")
                    yield StatBox("moves", id="moves")
                yield HintPanel(id="hint")
                yield Static(id="status")
        yield Static(id="too-small")
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self._show()
        self._offer_dialog()
        self._warm_up()

    def leave_hint(self) -> str:
        return "press q to quit" + (" (the game is saved)." if self.session.saving else ".")

    def fit(self, width: int, height: int) -> BoardGeometry | None:
        geometry = super().fit(width, height)
        if geometry is None:
            self._stop_autoplay()
        return geometry

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo" and not self.game.can_undo and not self.too_small:
            return None
        return super().check_action(action, parameters)

    # ---- drawing --------------------------------------------------------------------------------

    def _show(self, turn: Turn | None = None) -> None:
        """Draw the session's game; after a move that changed it (``turn``), mark its spawn and merges
        for a moment."""
        game = self.game
        if turn is not None:
            assert turn.changed and turn.spawn is not None
            self.show_board(game.board, spawned=turn.spawn[0], merged=turn.merges)
            if self._marks_timer is not None:
                self._marks_timer.stop()
            self._marks_timer = self.set_timer(MARK_SECONDS, self.query_one(BoardView).clear_marks)
        else:
            self.show_board(game.board)
        self.query_one("#score", StatBox).number = game.score
        self.query_one("#best", StatBox).number = self.session.best
        self.query_one("#moves", StatBox).number = game.moves
        # A new position: whatever the hint panel says belongs to the previous one.
        self._position += 1
        self._ranked = None
        self._show_hint_state()
        self._show_status()
        self.undo_offered = game.can_undo

    def _show_hint_state(self) -> None:
        """Unless it shows the current position's ranking, the hint panel says whether the solver is
        (or, under auto-play, is about to be) thinking about this position, or else how to ask."""
        if self._ranked == self._position:
            return
        hint = self.query_one(HintPanel)
        if self.autoplay or self._thinking_about == self._position:
            hint.show_thinking(self.game.board, preparing=self._preparing())
        elif hint.board is not None:
            hint.show_idle()

    def _preparing(self) -> float | None:
        """Seconds the solver has been being prepared, while it is; None once it is ready. While
        the panel waits for it, it says so every second."""
        if self.solver_ready:
            return None
        if self._preparing_timer is None:
            self._preparing_timer = self.set_interval(1.0, self._show_hint_state)
        return time.monotonic() - self._mounted_at

    def watch_solver_ready(self, ready: bool) -> None:
        if ready and self._preparing_timer is not None:
            self._preparing_timer.stop()
            self._preparing_timer = None

    def _show_status(self) -> None:
        game = self.game
        lines = []
        if self.autoplay:
            lines.append(Text("▶ Auto-play on (A stops)", style=f"bold {ACCENT}"))
        if game.over:
            lines.append(Text("Game over.", style="bold"))
        elif game.won:
            lines.append(Text(f"{game.win_tile} reached!" + (" Keep going." if game.keep_playing else "")))
        mode = _mode(game)
        if mode:
            lines.append(Text(f"Mode: {mode}", style="bold"))
        saved = "saved" if self.session.saving else "not saved"
        lines.append(Text(f"seed {game.seed} · {saved}", style="dim"))
        self.status = Text("\n").join(lines)

    def watch_status(self, status: Text) -> None:
        self.query_one("#status", Static).update(status)

    def watch_autoplay(self) -> None:
        self._show_status()

    def _offer_dialog(self) -> None:
        """Show the dialog the position calls for: game over, or the win not yet answered."""
        game = self.game
        if game.over:
            self._stop_autoplay()
            self.app.push_screen(
                GameOverDialog(game.score, self.session.best_before, game.won, game.win_tile),
                callback=self._new_game_if_chosen,
            )
        elif game.won and not game.keep_playing:
            self._stop_autoplay()
            self.app.push_screen(WinDialog(game.score, game.win_tile), callback=self._after_win)

    # ---- actions --------------------------------------------------------------------------------

    def action_move(self, direction: str) -> None:
        # A key press is the player taking over from the solver.
        self._stop_autoplay()
        self._play(Direction(direction))

    def _play(self, direction: Direction, *, auto: bool = False) -> None:
        with self._session_action():
            turn = self.session.move(direction, auto=auto)
            if turn.changed:
                self._show(turn)
                if turn.over or turn.won_now:
                    self._offer_dialog()

    def action_undo(self) -> None:
        self._stop_autoplay()
        with self._session_action():
            if self.session.undo():
                self._show()

    def action_new_game(self) -> None:
        self._stop_autoplay()
        if self.session.in_progress:
            self.app.push_screen(
                ConfirmNewGame(self.game.score, self.game.moves), callback=self._new_game_if_chosen
            )
        else:
            self._new_game()

    def action_hint(self) -> None:
        if self._ranked == self._position:
            return
        hint = self.query_one(HintPanel)
        if self.game.over:
            hint.show_ranking(self.game.board, {})
            self._ranked = self._position
            return
        hint.show_thinking(self.game.board, preparing=self._preparing())
        with self._session_action():
            self.session.note_hint()
        self._ask_solver(self.settings.hint_seconds)

    def action_history(self) -> None:
        self._stop_autoplay()
        open_history(self, self.store, palette=self.palette)

    def action_autoplay(self) -> None:
        if self.autoplay:
            self._stop_autoplay()
            return
        if self.game.over:
            self.notify("The game is over: nothing left to play.")
            return
        self.autoplay = True
        self._ask_solver(self.settings.auto_seconds)

    # ---- dialogs' answers -----------------------------------------------------------------------

    def _after_win(self, choice: Choice | None) -> None:
        if choice is Choice.NEW_GAME:
            self._new_game()
            return
        with self._session_action():
            self.session.keep_going()
            self._show()

    def _new_game_if_chosen(self, choice: Choice | None) -> None:
        if choice is Choice.NEW_GAME:
            self._new_game()

    def _new_game(self) -> None:
        with self._session_action():
            self.session.new_game()
            self._show()

    @contextmanager
    def _session_action(self) -> Iterator[None]:
        """Around a session call and the drawing of its result: a failed save is told to the player
        afterwards; when another window had changed the game, the rest of the block is skipped and the
        stored game is shown instead."""
        try:
            yield
        except ChangedElsewhereError:
            self._stop_autoplay()
            self.notify(
                "This game was changed in another window; showing the saved game.",
                title="Reloaded",
                severity="warning",
            )
            self._show()
            self._offer_dialog()
            return
        error = self.session.take_save_error()
        if error is not None:
            self.notify(
                f"{error}\nThe game goes on, but is no longer saved.",
                title="Could not save",
                severity="error",
                timeout=8,
            )

    # ---- the solver -----------------------------------------------------------------------------

    def _ask_solver(self, seconds: float) -> None:
        if self._thinking_about == self._position:
            return
        self._thinking_about = self._position
        self._rank(self.game.board, self._position, seconds)

    def _warm_up(self) -> None:
        # Loading the compiled search takes a moment, and the first run after installing compiles it
        # (up to a minute): done in the background from the start, so the board is there at once and
        # the first hint waits for what is left, saying so (``_preparing``). The solver is imported
        # there, not with the screen, for the same reason. A daemon thread, not a Textual worker:
        # the app waits for its workers when it quits, and a compile cannot be interrupted.
        threading.Thread(target=self._load_solver, name="solver-warm-up", daemon=True).start()

    def _load_solver(self) -> None:
        from twenty48.ai import warm_up

        try:
            warm_up()
        finally:
            # The player may have quit meanwhile: then there is no app left to tell.
            with suppress(RuntimeError):
                self.app.call_from_thread(self._solver_warm)

    def _solver_warm(self) -> None:
        self.solver_ready = True
        self._show_hint_state()

    @work(thread=True, group="solver", exit_on_error=False)
    def _rank(self, board: Board, position: int, seconds: float) -> None:
        self.post_message(solve(board, position, seconds, self.settings.depth))

    def on_solver_answer(self, answer: SolverAnswer) -> None:
        if answer.position == self._thinking_about:
            self._thinking_about = None
        if answer.position != self._position:
            # Stale: the position moved on while the solver thought (even back to the same board).
            if self.autoplay:
                self._ask_solver(self.settings.auto_seconds)
            return
        hint = self.query_one(HintPanel)
        if answer.error is not None:
            self._stop_autoplay()
            hint.show_message(f"The solver failed:\n{answer.error}")
            return
        assert answer.ranking is not None
        hint.show_ranking(answer.board, answer.ranking)
        self._ranked = answer.position
        if self.autoplay and self.app.screen is self:
            self._auto_move(answer.ranking)

    def _auto_move(self, ranking: dict[Direction, float]) -> None:
        if not ranking:
            self._stop_autoplay()
            return
        self._play(next(iter(ranking)), auto=True)
        if not self.autoplay:
            return
        if self._auto_timer is not None:
            self._auto_timer.stop()
        self._auto_timer = self.set_timer(self.settings.auto_pause, self._auto_step)

    def _auto_step(self) -> None:
        self._auto_timer = None
        if self.autoplay and self.app.screen is self and not self.game.over:
            self._ask_solver(self.settings.auto_seconds)

    def _stop_autoplay(self) -> None:
        if self._auto_timer is not None:
            self._auto_timer.stop()
            self._auto_timer = None
        if self.autoplay:
            self.autoplay = False
            # "Thinking…" stays only if the solver really is thinking about this position.
            self._show_hint_state()


def _mode(game: Game) -> str:
    """What sets ``game`` apart from the official one, for the status lines: its variant and its
    board's size ("" for a classic 4x4)."""
    parts = [game.variant.title] if game.variant is not CLASSIC else []
    if game.board.size != DEFAULT_SIZE:
        parts.append(f"{game.board.size} board")
    return ", ".join(parts)
