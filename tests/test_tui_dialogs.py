"""Every dialog of the terminal game at the smallest, the usual and a wide terminal: each button's label
is drawn whole and on screen (Textual's pilot, the real app and stylesheet)."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.widgets import Button

from twenty48.tui import SolverSettings, Twenty48App
from twenty48.tui.dialogs import (
    ChoiceDialog,
    ConfirmNewGame,
    DatabaseErrorDialog,
    GameOverDialog,
    WinDialog,
)

# The whole terminal app through Textual's pilot: integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration

SIZES = [(40, 12), (80, 24), (200, 50)]
PATH = "/home/player/.local/share/twenty48/games.sqlite3"
DIALOGS = {
    "win": lambda: WinDialog(3_932_100),
    "game over": lambda: GameOverDialog(3_932_100, 3_932_100, won=True),
    "game over, no best": lambda: GameOverDialog(1_000, 3_932_100, won=False),
    "confirm new game": lambda: ConfirmNewGame(3_932_100, 100_000),
    **{
        f"database {kind}": (lambda kind=kind: DatabaseErrorDialog(PATH, "file is not a database", kind=kind))
        for kind in ["damaged", "damaged_server", "newer", "foreign", "unreachable"]
    },
}


def make_app(tmp_path) -> Twenty48App:
    settings = SolverSettings(depth=1)
    return Twenty48App(db_path=tmp_path / "games.sqlite3", settings=settings, palette="truecolor")


def label_width(button: Button) -> int:
    label = button.label
    return label.cell_len if isinstance(label, Text) else len(str(label))


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("name", list(DIALOGS))
async def test_every_button_label_is_drawn_whole(tmp_path, name, size):
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        dialog: ChoiceDialog = DIALOGS[name]()
        await app.push_screen(dialog)
        await pilot.pause()
        for button in dialog.query(Button):
            # Focus scrolls a button into view where the dialog's content is taller than the screen.
            button.focus()
            await pilot.wait_for_scheduled_animations()
            await pilot.pause()
            content = button.content_region
            assert content.width >= label_width(button), f"{button.id}: {content} for {button.label}"
            start = content.x + (content.width - label_width(button)) // 2
            for x in range(start, start + label_width(button)):
                assert 0 <= x < size[0], f"{button.id} runs off the screen at column {x}"
                widget, _ = app.screen.get_widget_at(x, content.y)
                assert widget is button, f"{button.id}: column {x} of {button.label} shows {widget}"


async def test_buttons_stand_in_a_column_only_while_a_row_does_not_fit(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = GameOverDialog(3_932_100, 3_932_100, won=True)
        await app.push_screen(dialog)
        await pilot.pause()
        rows = lambda: {button.region.y for button in dialog.query(Button)}  # noqa: E731
        assert len(rows()) == 1
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        assert len(rows()) == 2
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert len(rows()) == 1
