"""Modal dialogs: win, game over, confirm new game, unreadable database.

Each dialog dismisses with the id of the chosen answer. Every answer has a button (click it, or Tab to
it and press Enter) and a one-key shortcut shown on the button.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from twenty48.palette import ACCENT, BUTTON, FRAME, LIGHT_TEXT, PAGE, TEXT


@dataclass(frozen=True, slots=True)
class Choice:
    answer: str
    label: str
    key: str
    primary: bool = False


class ChoiceDialog(ModalScreen[str]):
    """A centred box with a title, a message and one button per choice."""

    DEFAULT_CSS = f"""
    ChoiceDialog {{
        align: center middle;
        background: {PAGE} 60%;
    }}
    ChoiceDialog > #dialog {{
        width: auto;
        min-width: 40;
        max-width: 70;
        height: auto;
        padding: 1 2;
        background: {PAGE};
        border: thick {FRAME};
        color: {TEXT};
    }}
    ChoiceDialog #title {{
        width: 100%;
        text-align: center;
        text-style: bold;
        margin-bottom: 1;
    }}
    ChoiceDialog #message {{
        width: 100%;
        text-align: center;
        margin-bottom: 1;
    }}
    ChoiceDialog #buttons {{
        width: auto;
        height: auto;
        align-horizontal: center;
    }}
    ChoiceDialog Button.choice {{
        margin: 0 1;
        min-width: 12;
        height: 1;
        border: none;
        background: {BUTTON};
        color: {LIGHT_TEXT};
        text-style: none;
        &:hover {{
            background: #9f8b77;
        }}
        &:focus {{
            background: {ACCENT};
            text-style: bold;
        }}
    }}
    """

    #: The answer Escape gives, or None when the dialog insists on a choice.
    escape_answer: str | None = None

    def __init__(self, title: str, message: str, choices: Sequence[Choice]) -> None:
        super().__init__()
        self.title_text = title
        self.message = message
        self.choices = tuple(choices)
        self._by_key = {choice.key: choice.answer for choice in self.choices}

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, id="title")
            yield Static(self.message, id="message")
            with Horizontal(id="buttons"):
                for choice in self.choices:
                    # A Text label: "[k]" would otherwise be read as markup.
                    yield Button(Text(f"{choice.label} [{choice.key}]"), id=choice.answer, classes="choice")

    def on_mount(self) -> None:
        primary = [choice.answer for choice in self.choices if choice.primary]
        if primary:
            self.query_one(f"#{primary[0]}", Button).focus()

    def on_key(self, event: events.Key) -> None:
        answer = self._by_key.get(event.key)
        if answer is None and event.key == "escape":
            answer = self.escape_answer
        if answer is not None:
            event.stop()
            self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        assert event.button.id is not None
        self.dismiss(event.button.id)


class WinDialog(ChoiceDialog):
    """Shown the moment a merge makes the first 2048: keep going (escape) or start a new game."""

    DEFAULT_CSS = """
    WinDialog {
        background: #edc22e 50%;
    }
    WinDialog > #dialog {
        border: thick #edc22e;
    }
    """
    escape_answer = "keep"

    def __init__(self, score: int) -> None:
        super().__init__(
            "You win!",
            f"You made 2048 with a score of {score}.\nKeep going toward 4096, or start over.",
            [Choice("keep", "Keep going", "k", primary=True), Choice("new", "New game", "n")],
        )


class GameOverDialog(ChoiceDialog):
    """Shown when no legal move is left: start a new game, or close the dialog to look at the board."""

    DEFAULT_CSS = f"""
    GameOverDialog {{
        background: #eee4da 73%;
    }}
    GameOverDialog #message {{
        color: {TEXT};
    }}
    """
    escape_answer = "close"

    def __init__(self, score: int, best: int, won: bool) -> None:
        reached = "You reached 2048. " if won else ""
        record = " A new best!" if score >= best and score > 0 else f" Best: {best}."
        super().__init__(
            "Game over!",
            f"{reached}No move is left.\nFinal score: {score}.{record}",
            [Choice("new", "Try again", "n", primary=True), Choice("close", "Look at the board", "c")],
        )


class ConfirmNewGame(ChoiceDialog):
    """Asked before a game in progress is left for a new one."""

    escape_answer = "cancel"

    def __init__(self, score: int, moves: int) -> None:
        super().__init__(
            "Start a new game?",
            f"The game in progress ({moves} moves, score {score}) will end here.",
            [Choice("new", "New game", "y"), Choice("cancel", "Keep playing", "n", primary=True)],
        )


class DatabaseErrorDialog(ChoiceDialog):
    """The saved games cannot be used. A damaged file can be set aside for a fresh one; a file that is
    merely busy or out of reach can be tried again. Either way the player may also play unsaved."""

    DEFAULT_CSS = f"""
    DatabaseErrorDialog > #dialog {{
        border: thick {ACCENT};
    }}
    """

    def __init__(self, path: str, reason: str, *, corrupt: bool) -> None:
        if corrupt:
            title = "Saved games cannot be read"
            first = Choice("fresh", "Start fresh", "f", primary=True)
            advice = "Start fresh keeps the damaged file beside a new, empty one."
        else:
            title = "Saved games are out of reach"
            first = Choice("retry", "Try again", "r", primary=True)
            advice = "The file itself may be fine: try again once it is within reach."
        super().__init__(
            title,
            f"{path}\n\n{reason}\n\n{advice}",
            [first, Choice("unsaved", "Play without saving", "p"), Choice("quit", "Quit", "q")],
        )
