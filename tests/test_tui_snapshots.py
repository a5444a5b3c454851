"""Snapshots of the terminal game (pytest-textual-snapshot). Positions, seeds and the terminal size
are fixed, and no snapshot shows a move in progress, so the pictures do not depend on timing.
After an intended change of the look: ``pytest tests/test_tui_snapshots.py --snapshot-update``, then
look at the new SVG files before committing them."""

from __future__ import annotations

import pytest

from test_tui_sizes import LONG_TILES
from twenty48.game import Game
from twenty48.rules import Board, Direction
from twenty48.tui import SolverSettings, Twenty48App

# The whole terminal app through Textual's pilot: integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration

SIZE = (80, 24)
SETTINGS = SolverSettings(depth=1)


def make_app(tmp_path, game: Game | None = None, seed: int | None = None, palette: str = "truecolor"):
    return Twenty48App(
        db_path=tmp_path / "games.sqlite3", game=game, seed=seed, settings=SETTINGS, palette=palette
    )


def played(board: str, direction: Direction, seed: int, score: int) -> Game:
    game = Game.from_board(Board.parse(board), seed=seed, score=score)
    assert game.move(direction).changed
    return game


def test_main_screen(snap_compare, tmp_path):
    assert snap_compare(make_app(tmp_path, seed=2048), terminal_size=SIZE)


def test_every_tile_in_256_colours(snap_compare, tmp_path):
    board = "2 4 8 16/32 64 128 256/512 1024 2048 4096/8192 16384 131072 0"
    game = Game.from_board(Board.parse(board), seed=1, score=1_234_567)
    assert snap_compare(make_app(tmp_path, game=game, palette="256"), terminal_size=SIZE)


def test_win_dialog(snap_compare, tmp_path):
    # Won by the move made before the app starts: the app opens on the unanswered win.
    game = played("1024 1024 4 2/8 16 32 64/0 0 0 0/0 0 0 0", Direction.LEFT, seed=6, score=20000)
    assert game.won and not game.over
    assert snap_compare(make_app(tmp_path, game=game), terminal_size=SIZE)


def test_game_over_dialog(snap_compare, tmp_path):
    game = played("2 4 2 4/4 2 4 2/2 4 2 4/4 2 8 8", Direction.LEFT, seed=3, score=5000)
    assert game.over
    assert snap_compare(make_app(tmp_path, game=game), terminal_size=SIZE)


def test_too_small_terminal(snap_compare, tmp_path):
    assert snap_compare(make_app(tmp_path, seed=5), terminal_size=(60, 18))


def test_every_tile_in_16_colours(snap_compare, tmp_path):
    # The terminal's named colours: the SVG shows them in Rich's default terminal theme.
    board = "2 4 8 16/32 64 128 256/512 1024 2048 4096/8192 16384 131072 0"
    game = Game.from_board(Board.parse(board), seed=1, score=1_234_567)
    assert snap_compare(make_app(tmp_path, game=game, palette="16"), terminal_size=SIZE)


def test_game_over_dialog_in_256_colours(snap_compare, tmp_path):
    # No translucent shade: the board behind the dialog keeps its colours and its digits.
    game = played("8 16 32 64/64 32 16 8/8 16 32 64/4 2 8 8", Direction.LEFT, seed=3, score=5000)
    assert game.over
    assert snap_compare(make_app(tmp_path, game=game, palette="256"), terminal_size=SIZE)


def test_game_over_dialog_in_16_colours(snap_compare, tmp_path):
    game = played("8 16 32 64/64 32 16 8/8 16 32 64/4 2 8 8", Direction.LEFT, seed=3, score=5000)
    assert snap_compare(make_app(tmp_path, game=game, palette="16"), terminal_size=SIZE)


def test_a_wide_terminal_keeps_the_side_panel_beside_the_board(snap_compare, tmp_path):
    assert snap_compare(make_app(tmp_path, seed=2048), terminal_size=(200, 40))


def test_a_dialog_on_a_tiny_terminal_keeps_its_border(snap_compare, tmp_path):
    game = played("2 4 2 4/4 2 4 2/2 4 2 4/4 2 8 8", Direction.LEFT, seed=3, score=5000)
    assert snap_compare(make_app(tmp_path, game=game), terminal_size=(40, 12))


def test_a_6x6_of_six_digit_tiles_at_80x24(snap_compare, tmp_path):
    assert snap_compare(make_app(tmp_path, game=Game.from_board(LONG_TILES, seed=6)), terminal_size=SIZE)
