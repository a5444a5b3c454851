"""Modal dialogs: win, game over, confirm new game, unreadable database.

Each dialog dismisses with the ``Choice`` the player made. Every choice has a button (click it, or Tab
to it and press Enter) and a one-key shortcut shown on the button. Their looks are in twenty48.tcss.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from twenty48.wording import count


class Choice(Enum):
    """What the player chose in a dialog; the value is the id of its button."""

    KEEP_GOING = "keep"
    NEW_GAME = "new"
    CLOSE = "close"
    CANCEL = "cancel"
    START_FRESH = "fresh"
    RETRY = "retry"
    PLAY_UNSAVED = "unsaved"
    QUIT = "quit"


@dataclass(frozen=True, slots=True)
class Option:
    """One button of a dialog: the choice it makes, its label and its shortcut key."""

    choice: Choice
    label: str
    key: str
    primary: bool = False


#: The dialog box's width limits (the stylesheet's ``$dialog-min-width`` and ``$dialog-max-width``).
MIN_WIDTH, MAX_WIDTH = 40, 70


class ChoiceDialog(ModalScreen[Choice]):
    """A centred box with a title, a message and one button per option. On a terminal too small for
    it the box shrinks to the screen, border included, and its content scrolls; buttons too wide for
    one row stand in a column, so every label stays whole."""

    #: The choice Escape makes, or None when the dialog insists on a choice.
    escape_choice: Choice | None = None

    def __init__(self, title: str, message: str, options: Sequence[Option]) -> None:
        super().__init__()
        self.title_text = title
        self.message = message
        self.options = tuple(options)
        self._by_key = {option.key: option.choice for option in self.options}
        self._row_width: int | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, id="title")
            yield Static(self.message, id="message")
            with Horizontal(id="buttons"):
                for option in self.options:
                    # A Text label: "[k]" would otherwise be read as markup.
                    label = Text(f"{option.label} [{option.key}]")
                    yield Button(label, id=option.choice.value, classes="choice")

    def on_mount(self) -> None:
        self._fit(self.app.size.width, self.app.size.height)
        primary = [option.choice for option in self.options if option.primary]
        if primary:
            self.query_one(f"#{primary[0].value}", Button).focus()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        box = self.query_one("#dialog", Vertical)
        box.styles.min_width = min(MIN_WIDTH, width)
        box.styles.max_width = min(MAX_WIDTH, width)
        box.styles.max_height = height
        # The buttons' widths and the box's frame are known only once the layout has run.
        self.call_after_refresh(self._arrange_buttons)

    def _arrange_buttons(self) -> None:
        box = self.query_one("#dialog", Vertical)
        row = self.query_one("#buttons", Horizontal)
        if self._row_width is None:
            # Measured while the buttons still stand in a row, at their own widths (a column
            # stretches them). Neighbours' margins collapse to one gap; the outer margins may lie in
            # the box's padding.
            buttons = list(row.query(Button))
            gaps = sum(max(a.styles.margin.right, b.styles.margin.left) for a, b in pairwise(buttons))
            self._row_width = sum(button.outer_size.width for button in buttons) + gaps
        # The box takes its content's width, up to its limit: measure against the limit, less the
        # border, padding and any scrollbar. A column is taller, so it can only add a scrollbar and
        # narrow the room: no flip-flopping.
        frame = box.outer_size.width - box.scrollable_content_region.width
        room = min(MAX_WIDTH, self.app.size.width) - frame
        row.set_class(self._row_width > room, "-stacked")

    def on_key(self, event: events.Key) -> None:
        choice = self._by_key.get(event.key)
        if choice is None and event.key == "escape":
            choice = self.escape_choice
        if choice is not None:
            event.stop()
            self.dismiss(choice)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        assert event.button.id is not None
        self.dismiss(Choice(event.button.id))


class WinDialog(ChoiceDialog):
    """Shown the moment a merge makes the first 2048: keep going (escape) or start a new game."""

    escape_choice = Choice.KEEP_GOING

    def __init__(self, score: int) -> None:
        super().__init__(
            "You win!",
            f"You made 2048 with a score of {score}.\nKeep going toward 4096, or start over.",
            [
                Option(Choice.KEEP_GOING, "Keep going", "k", primary=True),
                Option(Choice.NEW_GAME, "New game", "n"),
            ],
        )


class GameOverDialog(ChoiceDialog):
    """Shown when no legal move is left: start a new game, or close the dialog to look at the board."""

    escape_choice = Choice.CLOSE

    def __init__(self, score: int, best_before: int, won: bool) -> None:
        """``best_before``: the player's best in the variant before this game; only a higher score
        is a new best."""
        reached = "You reached 2048. " if won else ""
        if score > best_before:
            record = " A new best!"
        elif score == best_before:
            record = " The same as your best."
        else:
            record = f" Best: {best_before}."
        super().__init__(
            "Game over!",
            f"{reached}No move is left.\nFinal score: {score}.{record}",
            [
                Option(Choice.NEW_GAME, "Try again", "n", primary=True),
                Option(Choice.CLOSE, "Look at the board", "c"),
            ],
        )


class ConfirmNewGame(ChoiceDialog):
    """Asked before a game in progress is left for a new one."""

    escape_choice = Choice.CANCEL

    def __init__(self, score: int, moves: int) -> None:
        super().__init__(
            "Start a new game?",
            f"The game in progress ({count(moves, 'move')}, score {score}) will end here.",
            [
                Option(Choice.NEW_GAME, "New game", "y"),
                Option(Choice.CANCEL, "Keep playing", "n", primary=True),
            ],
        )


class DatabaseErrorDialog(ChoiceDialog):
    """The saved games cannot be used. ``kind`` says why: ``"damaged"`` (only then is setting the
    file aside for a fresh one offered), ``"damaged_server"`` (a PostgreSQL database's data: there is
    no file to set aside), ``"newer"`` (a newer twenty48's), ``"foreign"`` (not a twenty48
    database), or ``"unreachable"`` (busy or out of reach: it can be tried again). Quitting is the
    default wherever the file is unreadable: a healthy file must never be set aside by a reflexive
    Enter. The player may always play unsaved."""

    def __init__(self, path: str, reason: str, *, kind: str) -> None:
        quit_option = Option(Choice.QUIT, "Quit", "q", primary=kind != "unreachable")
        options = [Option(Choice.PLAY_UNSAVED, "Play without saving", "p"), quit_option]
        if kind == "damaged":
            title = "Saved games cannot be read"
            options.insert(0, Option(Choice.START_FRESH, "Start fresh", "f"))
            advice = "The file is damaged. Start fresh keeps it beside a new, empty one."
        elif kind == "damaged_server":
            title = "Saved games cannot be read"
            advice = "The database server's data is damaged; it is left as it is for its administrator."
        elif kind == "newer":
            title = "Saved by a newer twenty48"
            advice = "Upgrade twenty48 to open these saved games; the file is left as it is."
        elif kind == "foreign":
            title = "Not a twenty48 database"
            advice = "This is not a twenty48 database; it is left as it is. Name another file with --db."
        else:
            title = "Saved games are out of reach"
            options.insert(0, Option(Choice.RETRY, "Try again", "r", primary=True))
            advice = "The file itself may be fine: try again once it is within reach."
        super().__init__(title, f"{path}\n\n{reason}\n\n{advice}", options)
