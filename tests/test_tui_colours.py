"""What the terminal game sends in each colour mode: the board stays visible behind the dialogs in
16 colours, the hint panel's border shows on a dark terminal, TERM=dumb gets no colour code at all,
and a TEXTUAL_COLOR_SYSTEM that names no colour system is one line, not a traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import pytest

from twenty48.game import Game
from twenty48.rules import Board, Direction
from twenty48.tui import SolverSettings, Twenty48App
from twenty48.tui.dialogs import GameOverDialog, WinDialog
from twenty48.tui.widgets import BoardView, HintPanel

pytestmark = pytest.mark.integration  # the terminal app through its pilot and in real terminals

SIZE = (80, 24)
SETTINGS = SolverSettings(depth=1)


def backgrounds_around_the_dialog(app: Twenty48App) -> list[str]:
    """The background drawn at the middle of each board tile that the dialog's box leaves uncovered."""
    board = app.game_screen.query_one(BoardView)  # type: ignore[union-attr]
    box = app.screen.query_one("#dialog").region
    found = []
    for tile in board.tiles:
        x, y = tile.region.x + tile.region.width // 2, tile.region.y + tile.region.height // 2
        if not box.contains(x, y):
            found.append(str(app.screen.get_style_at(x, y).bgcolor))
    return found


@pytest.mark.parametrize("palette", ["16", "256", "truecolor"])
@pytest.mark.parametrize("dialog", ["game over", "win"])
async def test_a_dialog_leaves_the_board_visible_in_every_colour_mode(tmp_path, palette, dialog):
    if dialog == "game over":
        game = Game.from_board(Board.parse("8 16 32 64/64 32 16 8/8 16 32 64/4 2 8 8"), seed=3, score=5000)
    else:
        game = Game.from_board(Board.parse("1024 1024 4 2/8 16 32 64/0 0 0 0/0 0 0 0"), seed=6, score=20000)
    assert game.move(Direction.LEFT).changed
    app = Twenty48App(db_path=tmp_path / "games.sqlite3", game=game, settings=SETTINGS, palette=palette)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverDialog if dialog == "game over" else WinDialog)
        seen = backgrounds_around_the_dialog(app)
        # The tiles keep colours of their own behind the dialog: the board is not painted over in one.
        assert len(seen) >= 4 and len(set(seen)) >= 3, seen


async def test_the_hint_panels_border_shows_on_a_dark_terminal_in_16_colours(tmp_path):
    app = Twenty48App(db_path=tmp_path / "games.sqlite3", seed=3, settings=SETTINGS, palette="16")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        region = app.screen.query_one(HintPanel).region
        corner = app.screen.get_style_at(region.x, region.y)
        # The terminal's own text colour: black (the board's frame) vanished on a dark background.
        assert corner.color is not None and corner.color.is_default, corner


def run_in_a_terminal(term: str, tmp_path, seconds: float = 30) -> bytes:
    """What ``2048 play`` sends to a pseudo-terminal of ``TERM=term`` until its board is drawn; then q."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    env = {k: v for k, v in os.environ.items() if k not in ("COLORTERM", "NO_COLOR", "TEXTUAL_COLOR_SYSTEM")}
    env["TERM"] = term
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    command = [sys.executable, "-m", "twenty48", "play", "--seed", "9", "--db", str(tmp_path / "g.sqlite3")]
    process = subprocess.Popen(command, stdin=follower, stdout=follower, stderr=follower, env=env)
    os.close(follower)
    sent, deadline = b"", time.monotonic() + seconds
    try:
        while b"seed 9" not in sent and time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.1)
            if ready:
                sent += os.read(leader, 65536)
        os.write(leader, b"q")
        process.wait(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(leader)
    assert b"seed 9" in sent, sent[-500:]
    return sent


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_term_dumb_gets_no_colour_code_at_all(tmp_path):
    sent = run_in_a_terminal("dumb", tmp_path)
    codes = re.findall(rb"\x1b\[([0-9;:]*)m", sent)
    colours = [c for c in codes if re.search(rb"(^|;)(3[0-9]|4[0-9]|9[0-7]|10[0-7])($|[;:])", c)]
    assert codes and not colours, sorted(set(colours))[:10]


@pytest.mark.parametrize("value", ["bogus", "", "24bit"])
def test_a_colour_system_textual_does_not_know_is_one_line(tmp_path, value):
    env = {**os.environ, "TEXTUAL_COLOR_SYSTEM": value}
    result = subprocess.run(
        [sys.executable, "-m", "twenty48", "play", "--db", str(tmp_path / "g.sqlite3")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        "2048 play: error: TEXTUAL_COLOR_SYSTEM must be one of auto, standard, 256, truecolor, windows "
        f"(or unset), got {value!r}\n"
    )
