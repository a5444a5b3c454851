"""The Textual app: opening the saved game, the game screen, its keys, hints and auto-play.

Every key event is handled to the end before the next one is read, and a move is one synchronous call
into the session (store commit, then the local game), so a held key plays each repeat at most once and
in order. The solver runs in a worker thread on an immutable ``Board``; its answer is used only if the
board on screen is still that board, so a late answer can never play a move in the wrong position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, TypeVar

from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from twenty48.ai import rank_moves, warm_up
from twenty48.game import Game, Turn
from twenty48.palette import ACCENT, BUTTON, PAGE, TEXT
from twenty48.rules import Board, Direction
from twenty48.store import Store, StoreError, StoreUnreadableError
from twenty48.tui.dialogs import ConfirmNewGame, DatabaseErrorDialog, GameOverDialog, WinDialog
from twenty48.tui.session import ChangedElsewhere, Session
from twenty48.tui.widgets import (
    MIN_HEIGHT,
    MIN_WIDTH,
    BoardView,
    HintPanel,
    StatBox,
    board_geometry,
)
from twenty48.variants import CLASSIC

#: How long a spawned or merged tile stays marked.
MARK_SECONDS = 0.35

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class SolverSettings:
    """How hard the solver thinks: per hint, per auto-played move, and the pause between auto moves.

    ``depth`` fixes the search depth (tests use it for reproducible answers); None lets the solver
    choose its depth within the time budget."""

    hint_seconds: float = 0.5
    auto_seconds: float = 0.1
    auto_pause: float = 0.05
    depth: int | None = None

    def __post_init__(self) -> None:
        for name in ("hint_seconds", "auto_seconds", "auto_pause"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be a positive number of seconds")


class SolverAnswer(Message):
    """The solver's ranking of ``board``'s legal moves (best first), or why it failed."""

    def __init__(self, board: Board, ranking: dict[Direction, float] | None, error: str | None) -> None:
        super().__init__()
        self.board = board
        self.ranking = ranking
        self.error = error


_MOVE_KEYS = Binding.Group("Move", compact=True)
#: The actions that need the board on screen; refused while the terminal is too small.
_PLAY_ACTIONS = frozenset({"move", "undo", "new_game", "hint", "autoplay"})


class GameScreen(Screen[None]):
    """The board, the score boxes, the hint panel and the key bindings of a game."""

    DEFAULT_CSS = f"""
    GameScreen {{
        background: {PAGE};
        color: {TEXT};
    }}
    GameScreen #body {{
        height: 1fr;
        padding: 1 1 0 1;
    }}
    GameScreen #board-area {{
        width: 1fr;
        align: center top;
    }}
    GameScreen #side {{
        width: 26;
        margin-left: 1;
    }}
    GameScreen #title {{
        text-style: bold;
        height: 1;
        width: 100%;
    }}
    GameScreen #stats {{
        height: 4;
        margin: 1 0;
    }}
    GameScreen StatBox {{
        margin-right: 1;
    }}
    GameScreen StatBox#moves {{
        margin-right: 0;
    }}
    GameScreen #status {{
        margin-top: 1;
        height: auto;
    }}
    GameScreen #too-small {{
        display: none;
        width: 100%;
        height: 1fr;
        content-align: center middle;
        text-align: center;
    }}
    GameScreen.-too-small #body {{
        display: none;
    }}
    GameScreen.-too-small #too-small {{
        display: block;
    }}
    Footer {{
        background: {BUTTON};
    }}
    """

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
    ]

    def __init__(self, session: Session, *, settings: SolverSettings, true_colour: bool) -> None:
        super().__init__()
        self.session = session
        self.settings = settings
        self.true_colour = true_colour
        self.autoplay = False
        self.too_small = False
        self._marks_timer: Timer | None = None
        self._auto_timer: Timer | None = None
        #: The board the solver is working on, if any.
        self._thinking_about: Board | None = None
        #: Whether the footer shows undo as available.
        self._undo_shown: bool | None = None
        #: The status lines on display: updating the Static lays out the screen, so only on a change.
        self._status_shown: Text | None = None

    @property
    def game(self) -> Game:
        return self.session.game

    # ---- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="body"):
            with Vertical(id="board-area"):
                yield BoardView(true_colour=self.true_colour, id="board")
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
        self._fit(self.app.size.width, self.app.size.height)
        self._show()
        self._offer_dialog()
        self._warm_up()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def on_screen_resume(self) -> None:
        self._fit(self.app.size.width, self.app.size.height)

    def _fit(self, width: int, height: int) -> None:
        geometry = board_geometry(width, height)
        too_small = geometry is None
        if geometry is not None:
            self.query_one(BoardView).resize_to(geometry)
        else:
            self.query_one("#too-small", Static).update(
                f"This terminal is {width}x{height}.\n"
                f"2048 needs at least {MIN_WIDTH}x{MIN_HEIGHT} to show the board.\n\n"
                "Make the window larger, or press q to quit"
                + (" (the game is saved)." if self.session.saving else ".")
            )
            self._stop_autoplay()
        if too_small != self.too_small:
            self.too_small = too_small
            self.set_class(too_small, "-too-small")
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in _PLAY_ACTIONS and self.too_small:
            return False
        if action == "undo" and not self.game.can_undo:
            return None
        return True

    # ---- drawing --------------------------------------------------------------------------------

    def _show(self, turn: Turn | None = None) -> None:
        """Draw the session's game; after a move that changed it (``turn``), mark its spawn and merges
        for a moment."""
        game = self.game
        board = self.query_one(BoardView)
        if turn is not None:
            assert turn.changed and turn.spawn is not None
            board.show(game.board, spawned=turn.spawn[0], merged=turn.merges)
            if self._marks_timer is not None:
                self._marks_timer.stop()
            self._marks_timer = self.set_timer(MARK_SECONDS, board.clear_marks)
        else:
            board.show(game.board)
        self.query_one("#score", StatBox).show_number(game.score)
        self.query_one("#best", StatBox).show_number(self.session.best)
        self.query_one("#moves", StatBox).show_number(game.moves)
        hint = self.query_one(HintPanel)
        # A hint belongs to its position. Auto-play keeps its last ranking up until the next arrives.
        if hint.board is not None and hint.board != game.board and not self.autoplay:
            hint.show_idle()
        self._show_status()
        if game.can_undo != self._undo_shown:
            # The footer is rebuilt on every bindings refresh: only when undo's state flips.
            self._undo_shown = game.can_undo
            self.refresh_bindings()

    def _show_status(self) -> None:
        game = self.game
        lines = []
        if self.autoplay:
            lines.append(Text("▶ Auto-play on (A stops)", style=f"bold {ACCENT}"))
        if game.over:
            lines.append(Text("Game over.", style="bold"))
        elif game.won:
            lines.append(Text("2048 reached!" + (" Keep going." if game.keep_playing else "")))
        if game.variant is not CLASSIC:
            lines.append(Text(f"Mode: {game.variant.title}", style="bold"))
        saved = "saved" if self.session.saving else "not saved"
        lines.append(Text(f"seed {game.seed} · {saved}", style="dim"))
        status = Text("\n").join(lines)
        if status != self._status_shown:
            self._status_shown = status
            self.query_one("#status", Static).update(status)

    def _offer_dialog(self) -> None:
        """Show the dialog the position calls for: game over, or the win not yet answered."""
        game = self.game
        if game.over:
            self._stop_autoplay()
            self.app.push_screen(
                GameOverDialog(game.score, self.session.best, game.won),
                callback=self._new_game_if_chosen,
            )
        elif game.won and not game.keep_playing:
            self._stop_autoplay()
            self.app.push_screen(WinDialog(game.score), callback=self._after_win)

    def _report_save_error(self) -> None:
        error = self.session.take_save_error()
        if error is not None:
            self.notify(
                f"{error}\nThe game goes on, but is no longer saved.",
                title="Could not save",
                severity="error",
                timeout=8,
            )

    # ---- actions --------------------------------------------------------------------------------

    def action_move(self, direction: str) -> None:
        # A key press is the player taking over from the solver.
        self._stop_autoplay()
        self._play(Direction(direction))

    def _play(self, direction: Direction) -> None:
        turn = self._session_call(lambda: self.session.move(direction))
        if turn is None or not turn.changed:
            return
        self._show(turn)
        if turn.over or turn.won_now:
            self._offer_dialog()

    def action_undo(self) -> None:
        self._stop_autoplay()
        if self._session_call(self.session.undo):
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
        hint = self.query_one(HintPanel)
        if hint.ranking is not None and hint.board == self.game.board:
            return
        if self.game.over:
            hint.show_ranking(self.game.board, {})
            return
        hint.show_thinking(self.game.board)
        self._ask_solver(self.settings.hint_seconds)

    def action_autoplay(self) -> None:
        if self.autoplay:
            self._stop_autoplay()
            return
        if self.game.over:
            self.notify("The game is over: nothing left to play.")
            return
        self.autoplay = True
        self._show_status()
        self._ask_solver(self.settings.auto_seconds)

    # ---- dialogs' answers -----------------------------------------------------------------------

    def _after_win(self, answer: str | None) -> None:
        if answer == "new":
            self._new_game()
        elif self._session_call(self.session.keep_going) is not None:
            self._show()

    def _new_game_if_chosen(self, answer: str | None) -> None:
        if answer == "new":
            self._new_game()

    def _session_call(self, action: Callable[[], _T]) -> _T | None:
        """``action``'s result, after telling the player of a failed save; None when another window
        had changed the game, which is then on screen instead."""
        try:
            result = action()
        except ChangedElsewhere:
            self._changed_elsewhere()
            return None
        self._report_save_error()
        return result

    def _new_game(self) -> None:
        self.session.new_game()
        self._report_save_error()
        self._show()

    def _changed_elsewhere(self) -> None:
        self._stop_autoplay()
        self.notify(
            "This game was changed in another window; showing the saved game.",
            title="Reloaded",
            severity="warning",
        )
        self._show()
        self._offer_dialog()

    # ---- the solver -----------------------------------------------------------------------------

    def _ask_solver(self, seconds: float) -> None:
        board = self.game.board
        if self._thinking_about == board:
            return
        self._thinking_about = board
        self._rank(board, seconds)

    @work(thread=True, group="solver", exit_on_error=False)
    def _warm_up(self) -> None:
        # Loading the compiled search takes a moment (longer the very first time, while numba compiles):
        # done now, in the background, the first hint or auto-played move does not wait for it.
        warm_up()

    @work(thread=True, group="solver", exit_on_error=False)
    def _rank(self, board: Board, seconds: float) -> None:
        try:
            ranking = rank_moves(board, depth=self.settings.depth, time_limit=seconds)
        except Exception as exc:  # the UI must survive any solver failure and say what it was
            self.post_message(SolverAnswer(board, None, f"{type(exc).__name__}: {exc}"))
        else:
            self.post_message(SolverAnswer(board, ranking, None))

    def on_solver_answer(self, answer: SolverAnswer) -> None:
        if answer.board == self._thinking_about:
            self._thinking_about = None
        hint = self.query_one(HintPanel)
        if answer.error is not None:
            self._stop_autoplay()
            hint.show_message(f"The solver failed:\n{answer.error}")
            return
        assert answer.ranking is not None
        if answer.board != self.game.board:
            # Stale: the position moved on while the solver thought.
            if self.autoplay:
                self._ask_solver(self.settings.auto_seconds)
            return
        hint.show_ranking(answer.board, answer.ranking)
        if self.autoplay and self.app.screen is self:
            self._auto_move(answer.ranking)

    def _auto_move(self, ranking: dict[Direction, float]) -> None:
        if not ranking:
            self._stop_autoplay()
            return
        self._play(next(iter(ranking)))
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
            self._show_status()


class Twenty48App(App[None]):
    """2048 in the terminal. Opens the shared store (``db_path``), resumes the terminal player's game
    and saves every action; ``game`` or ``seed`` start a new game instead of resuming."""

    TITLE = "2048"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "quit", "Quit", priority=True)]

    def __init__(
        self,
        *,
        db_path: Path | None = None,
        game: Game | None = None,
        seed: int | None = None,
        variant: str | None = None,
        settings: SolverSettings | None = None,
        true_colour: bool | None = None,
    ) -> None:
        super().__init__()
        self.db_path = Path(db_path) if db_path is not None else Store.default_path()
        self._start_game = game
        self._start_seed = seed
        self._start_variant = variant
        self.settings = settings if settings is not None else SolverSettings()
        self._true_colour = true_colour
        self.store: Store | None = None
        self.game_screen: GameScreen | None = None

    def on_mount(self) -> None:
        self._open()

    def _open(self) -> None:
        try:
            self.store = Store.open(self.db_path)
            session = Session.resume(
                self.store, game=self._start_game, seed=self._start_seed, variant=self._start_variant
            )
        except StoreError as exc:
            self._close_store()
            corrupt = isinstance(exc, StoreUnreadableError)
            self.push_screen(
                DatabaseErrorDialog(str(self.db_path), str(exc), corrupt=corrupt),
                callback=self._after_database_error,
            )
            return
        self._start(session)

    def _after_database_error(self, answer: str | None) -> None:
        if answer == "fresh":
            try:
                Store.set_aside(self.db_path)
            except OSError as exc:
                self.push_screen(
                    DatabaseErrorDialog(
                        str(self.db_path), f"It could not be moved aside: {exc}", corrupt=False
                    ),
                    callback=self._after_database_error,
                )
                return
            self._open()
        elif answer == "retry":
            self._open()
        elif answer == "unsaved":
            self._start(Session.unsaved(self._start_game, self._start_seed, self._start_variant))
        else:
            self.exit()

    def _start(self, session: Session) -> None:
        true_colour = self._true_colour
        if true_colour is None:
            true_colour = self.console.color_system == "truecolor"
        self.game_screen = GameScreen(session, settings=self.settings, true_colour=true_colour)
        self.push_screen(self.game_screen)

    def _close_store(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None

    def on_unmount(self) -> None:
        self._close_store()
