"""What every screen that draws a board shares: the board follows the terminal's size, and on a
terminal too small for the smallest board (``MIN_WIDTH`` x ``MIN_HEIGHT``) a message replaces the
screen's body, instead of a board cut short, until the terminal grows again."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Static

from twenty48.tui.widgets import MIN_HEIGHT, MIN_WIDTH, BoardGeometry, BoardView, board_geometry


class BoardScreen(Screen[None]):
    """A screen whose body (the widget of class ``board-body``) holds a ``BoardView``. A subclass
    yields ``Static(id="too-small")`` beside its body, names the actions that need the board in
    ``BOARD_ACTIONS`` (refused while it is too small) and says in ``leave_hint`` how to leave."""

    DEFAULT_CSS = """
    BoardScreen #too-small {
        display: none;
        width: 100%;
        height: 1fr;
        content-align: center middle;
        text-align: center;
    }
    BoardScreen.-too-small .board-body {
        display: none;
    }
    BoardScreen.-too-small #too-small {
        display: block;
    }
    """

    #: The actions that need the board on screen.
    BOARD_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    #: What draws the board, in the message ("2048", "The replay").
    drawn_by = "2048"

    #: Whether the terminal is too small for the board: a message replaces it.
    too_small: var[bool] = var(False, init=False, toggle_class="-too-small", bindings=True)

    def leave_hint(self) -> str:
        """How to leave this screen, ending the message: "press q to quit"."""
        return "press q to quit."

    def on_mount(self) -> None:
        self.fit(self.app.size.width, self.app.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)

    def on_screen_resume(self) -> None:
        self.fit(self.app.size.width, self.app.size.height)

    def fit(self, width: int, height: int) -> BoardGeometry | None:
        """Size the board for a terminal of ``width`` x ``height``, or say it is too small; returns
        the board's geometry, None when it does not fit."""
        geometry = board_geometry(width, height)
        if geometry is not None:
            self.query_one(BoardView).resize_to(geometry)
        else:
            self.query_one("#too-small", Static).update(
                f"This terminal is {width}x{height}.\n"
                f"{self.drawn_by} needs at least {MIN_WIDTH}x{MIN_HEIGHT} to show the board.\n\n"
                f"Make the window larger, or {self.leave_hint()}"
            )
        self.too_small = geometry is None
        return geometry

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (self.too_small and action in self.BOARD_ACTIONS)
