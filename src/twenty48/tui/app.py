"""The Textual app: opening the saved game, or saying why it cannot be opened, then the game screen.

Its stylesheet is twenty48.tcss, whose colours and sizes are CSS variables that the app supplies from
their Python definitions (``twenty48.tui.styles``).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import ClassVar

from rich.console import Console
from textual import constants
from textual.app import App
from textual.binding import Binding, BindingType

from twenty48.game import Game
from twenty48.palette import PALETTES
from twenty48.store import (
    ForeignDatabaseError,
    NewerDatabaseError,
    Store,
    StoreError,
    StoreUnreadableError,
    open_store,
)
from twenty48.tui.dialogs import Choice, DatabaseErrorDialog
from twenty48.tui.game_screen import GameScreen
from twenty48.tui.session import Session
from twenty48.tui.solver import SolverSettings
from twenty48.tui.styles import css_variables


def palette_for(color_system: str | None) -> str:
    """The palette for a Rich colour system: true colour and 256 colours have their own; 16 colours,
    the Windows console's and none at all (``TERM=dumb``) get the 16-colour one."""
    return color_system if color_system in ("truecolor", "256") else "16"


def detected_palette() -> str:
    """The palette for this terminal, from the colour system Textual's console will detect: Rich's
    rules on ``COLORTERM`` and ``TERM`` (``truecolor``/``24bit``; ``*-256color``; other terminals
    16 colours; ``dumb`` none), unless ``TEXTUAL_COLOR_SYSTEM`` names one."""
    console = Console(
        color_system=constants.COLOR_SYSTEM, file=io.StringIO(), force_terminal=True, legacy_windows=False
    )
    return palette_for(console.color_system)


class Twenty48App(App[None]):
    """2048 in the terminal. Opens the shared store (``db_path``), resumes the terminal player's game
    and saves every action; ``game`` or ``seed`` start a new game instead of resuming."""

    TITLE = "2048"
    CSS_PATH = "twenty48.tcss"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "quit", "Quit", priority=True)]

    def __init__(
        self,
        *,
        db_path: Path | str | None = None,
        game: Game | None = None,
        seed: int | None = None,
        variant: str | None = None,
        settings: SolverSettings | None = None,
        palette: str | None = None,
    ) -> None:
        if palette is not None and palette not in PALETTES:
            raise ValueError(f"palette must be one of {', '.join(PALETTES)}, got {palette!r}")
        #: The board's palette: ``palette`` when given, else the terminal's (``detected_palette``).
        #: Set first: Textual reads the CSS variables, which depend on it, while it initialises.
        self.palette = palette if palette is not None else detected_palette()
        super().__init__()
        if self.palette == "16":
            # Named colours as the terminal defines them, not converted to RGB through a theme.
            self.ansi_color = True
        # A str is a PostgreSQL URL (``--db``), which a Path would mangle ("//" becomes "/").
        self.db_path = (
            db_path if isinstance(db_path, str) else Path(db_path) if db_path else Store.default_path()
        )
        self._start_game = game
        self._start_seed = seed
        self._start_variant = variant
        self.settings = settings if settings is not None else SolverSettings()
        self.store: Store | None = None
        self.game_screen: GameScreen | None = None

    def get_css_variables(self) -> dict[str, str]:
        return {**super().get_css_variables(), **css_variables(self.palette)}

    def on_mount(self) -> None:
        self._open()

    def _open(self) -> None:
        try:
            self.store = open_store(self.db_path)
            session = Session.resume(
                self.store, game=self._start_game, seed=self._start_seed, variant=self._start_variant
            )
        except StoreError as exc:
            self._close_store()
            self.push_screen(
                DatabaseErrorDialog(str(self.db_path), str(exc), kind=_problem(exc, self.db_path)),
                callback=self._after_database_error,
            )
            return
        self._start(session)

    def _after_database_error(self, choice: Choice | None) -> None:
        if choice is Choice.START_FRESH:
            try:
                Store.set_aside(self.db_path)
            except OSError as exc:
                self.push_screen(
                    DatabaseErrorDialog(
                        str(self.db_path), f"It could not be moved aside: {exc}", kind="unreachable"
                    ),
                    callback=self._after_database_error,
                )
                return
            self._open()
        elif choice is Choice.RETRY:
            self._open()
        elif choice is Choice.PLAY_UNSAVED:
            self._start(Session.unsaved(self._start_game, self._start_seed, self._start_variant))
        else:
            self.exit()

    def _start(self, session: Session) -> None:
        self.game_screen = GameScreen(session, settings=self.settings, palette=self.palette, store=self.store)
        self.push_screen(self.game_screen)

    def _close_store(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None

    def on_unmount(self) -> None:
        self._close_store()


def _problem(exc: StoreError, location: Path | str) -> str:
    """The ``DatabaseErrorDialog`` kind of a store error at ``location`` (a str: a PostgreSQL URL)."""
    if isinstance(exc, NewerDatabaseError):
        return "newer"
    if isinstance(exc, ForeignDatabaseError):
        return "foreign"
    if isinstance(exc, StoreUnreadableError):
        # A database server's data is no file to move aside: only its administrator can repair it.
        return "damaged_server" if isinstance(location, str) else "damaged"
    return "unreachable"
