"""The Textual app: opening the saved game, or saying why it cannot be opened, then the game screen.

Its stylesheet is twenty48.tcss, whose colours and sizes are CSS variables that the app supplies from
their Python definitions (``twenty48.tui.styles``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.filter import LineFilter

from twenty48.commands.messages import error_line
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
from twenty48.tui.colours import WithoutColour, detected_color_system, palette_for
from twenty48.tui.dialogs import Choice, DatabaseErrorDialog
from twenty48.tui.game_screen import GameScreen
from twenty48.tui.session import Session
from twenty48.tui.solver import SolverSettings
from twenty48.tui.styles import css_variables


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
        system = detected_color_system() if palette is None else palette
        self.palette = palette_for(system)
        #: The terminal shows no colour: everything is drawn without (``WithoutColour``).
        self.colourless = system is None
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
        #: Why the saved games could not be opened, while the player is asked what to do.
        self._problem = ""

    def get_line_filters(self) -> Sequence[LineFilter]:
        filters = super().get_line_filters()
        return [*filters, WithoutColour()] if self.colourless else filters

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
            self._problem = str(exc)
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
                self._problem = f"{self.db_path} could not be moved aside: {exc}"
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
            self._quit()

    async def action_quit(self) -> None:
        self._quit()

    def _quit(self) -> None:
        if self.game_screen is None:
            # Quit from the database's dialog, nothing played: the exit status tells a script, the
            # line the player why.
            self.exit(return_code=1, message=error_line("play", self._problem))
        else:
            self.exit()

    def _start(self, session: Session) -> None:
        self.game_screen = GameScreen(session, settings=self.settings, palette=self.palette)
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
