"""The terminal game's parts that need no running app: palette, board geometry, the saved session."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import sqlite3
import struct
import sys
import termios
import time

import pytest
from rich.color import Color, ColorSystem

from sized import ALL_SIZES
from twenty48.game import Game, NotWonError
from twenty48.palette import COLOUR_256, PALETTES, TRUE_COLOUR, tile_colours
from twenty48.rules import MAX_TILE, Board, BoardSize, Direction
from twenty48.store import Store, StoreError, StoreUnreadableError
from twenty48.store.backends import sqlite as sqlite_backend
from twenty48.tui.session import ChangedElsewhereError, Session
from twenty48.tui.widgets import (
    MIN_HEIGHT,
    MIN_WIDTH,
    SIDE_WIDTH,
    board_geometry,
    minimum_terminal,
    tile_digits,
)

TILES = [0] + [2**k for k in range(1, 18)]


# ---- palette --------------------------------------------------------------------------------------


def test_web_palette_colours_every_tile():
    assert tile_colours(0).background == "#cdc1b4"
    assert tile_colours(2048).background == "#edc22e"
    # Past 2048 every tile wears the web game's dark "super" colours, up to the largest possible tile.
    assert tile_colours(MAX_TILE).background == tile_colours(4096).background == TRUE_COLOUR[4096].background
    assert {tile_colours(v).background for v in TILES} == {c.background for c in TRUE_COLOUR.values()}


#: xterm's default RGB for the 16 named colours (its resources color0-color15: black, red3, green3,
#: yellow3, blue2, magenta3, cyan3, gray90, gray50, red, green, yellow, #5c5cff, magenta, cyan,
#: white). Every terminal picks its own; the 16-colour palette's contrast is measured on xterm's.
XTERM_16 = {
    "black": "#000000", "red": "#cd0000", "green": "#00cd00", "yellow": "#cdcd00",
    "blue": "#0000ee", "magenta": "#cd00cd", "cyan": "#00cdcd", "white": "#e5e5e5",
    "bright_black": "#7f7f7f", "bright_red": "#ff0000", "bright_green": "#00ff00",
    "bright_yellow": "#ffff00", "bright_blue": "#5c5cff", "bright_magenta": "#ff00ff",
    "bright_cyan": "#00ffff", "bright_white": "#ffffff",
}  # fmt: skip


@pytest.mark.parametrize("palette", sorted(PALETTES))
@pytest.mark.parametrize("value", TILES[1:])
def test_every_tiles_digits_read_at_3_to_1_in_every_colour_mode(palette, value):
    from test_web_palette import contrast

    colours = tile_colours(value, palette)
    background, text = (XTERM_16.get(c.removeprefix("ansi_"), c) for c in (colours.background, colours.text))
    # WCAG 2's relative luminance; 3:1 is its floor for large text, which a tile's bold digits are.
    assert contrast(background, text) >= 3, (palette, value, colours)


def test_256_colour_palette_survives_the_downgrade_and_keeps_tiles_apart():
    numbers = {}
    for value, colours in COLOUR_256.items():
        colour = Color.parse(colours.background)
        downgraded = colour.downgrade(ColorSystem.EIGHT_BIT)
        # Each background is an xterm-256 entry, so a 256-colour terminal shows exactly it.
        assert downgraded.get_truecolor() == colour.get_truecolor(), value
        numbers[value] = downgraded.number
    assert len(set(numbers.values())) == len(numbers)


def test_the_web_palette_alone_would_collapse_in_256_colours():
    # Why the 256-colour twin exists: the plain downgrade gives 128 to 1024 a single colour.
    downgraded = {
        Color.parse(TRUE_COLOUR[v].background).downgrade(ColorSystem.EIGHT_BIT).number
        for v in (128, 256, 512, 1024)
    }
    assert len(downgraded) == 1


@pytest.mark.parametrize("value", [1, 3, 6, -2, 2 * BoardSize(6, 6).max_tile])
def test_palette_refuses_non_tiles(value):
    with pytest.raises(ValueError, match="not a tile value"):
        tile_colours(value)


def test_palette_colours_the_tiles_of_every_board_size():
    # A 5x5 or 6x6 board builds tiles past the 4x4's largest, up to 2**37.
    for value in (2 * MAX_TILE, BoardSize(6, 6).max_tile):
        assert tile_colours(value, "16") == tile_colours(4096, "16")


# ---- geometry -------------------------------------------------------------------------------------


def test_the_board_fits_80x24_with_tiles_that_hold_the_largest_number():
    geometry = board_geometry(80, 24)
    assert geometry is not None
    assert geometry.width <= 80 - SIDE_WIDTH and geometry.height <= 24 - 2
    assert geometry.tile_width >= len(str(MAX_TILE)) + 2


def test_below_the_minimum_there_is_no_board():
    assert MIN_WIDTH <= 80 and MIN_HEIGHT <= 24
    assert board_geometry(MIN_WIDTH, MIN_HEIGHT) is not None
    assert board_geometry(MIN_WIDTH - 1, MIN_HEIGHT) is None
    assert board_geometry(MIN_WIDTH, MIN_HEIGHT - 1) is None


def test_tiles_grow_with_the_terminal_and_stay_roughly_square():
    sizes = [board_geometry(w, h) for w, h in [(80, 24), (120, 40), (200, 60)]]
    assert all(g is not None for g in sizes)
    areas = [g.tile_width * g.tile_height for g in sizes if g is not None]
    assert areas == sorted(areas) and areas[0] < areas[-1]
    for g in sizes:
        assert g is not None
        assert g.tile_height * 2 <= g.tile_width <= g.tile_height * 2 + 2
    # A very wide but short terminal does not stretch tiles into bars.
    wide = board_geometry(300, 24)
    assert wide is not None and wide.tile_width <= 2 * wide.tile_height + 2


@pytest.mark.parametrize("size", ALL_SIZES, ids=str)
def test_every_board_size_fits_80x24_with_tiles_that_hold_its_numbers(size):
    digits = tile_digits(Board.empty(size))
    assert digits == min(len(str(size.max_tile)), len(str(MAX_TILE)))
    assert minimum_terminal(size, digits) <= (80, 24)
    geometry = board_geometry(80, 24, size, digits)
    assert geometry is not None and geometry.size == size
    assert geometry.width <= 80 - SIDE_WIDTH - 4 and geometry.height <= 24 - 2
    assert geometry.tile_width >= digits and geometry.tile_height >= 2
    assert board_geometry(*minimum_terminal(size, digits), size, digits) is not None


def test_a_tile_longer_than_the_room_kept_for_it_widens_every_tile():
    size = BoardSize(6, 6)
    board = Board.from_cells([1 << 20, *[0] * 35], size)
    assert tile_digits(board) == 7  # 1048576
    assert board_geometry(80, 24, size, 7) is None  # six columns of seven digits need 86
    wide = board_geometry(86, 24, size, 7)
    assert wide is not None and wide.tile_width == 7
    assert tile_digits(Board.empty(BoardSize(2, 2))) == 2  # 32 is its largest tile


# ---- session --------------------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "games.sqlite3") as store:
        yield store


def _legal_moves(session: Session, count: int) -> None:
    for _ in range(count):
        session.move(session.game.board.legal_moves()[0])


def test_a_sessions_best_is_its_board_sizes_own(store):
    four = Session.resume(store, seed=1)
    _legal_moves(four, 12)
    assert four.best > 0
    small = Session.resume(store, seed=2, size=BoardSize(3, 3))
    assert small.game.size == BoardSize(3, 3) and small.best == small.best_before == 0
    _legal_moves(small, 2)
    # Resumed, the 3x3 holds its size's best; the 4x4's higher score is no rival of it.
    resumed = Session.resume(store)
    assert resumed.game.size == BoardSize(3, 3) and resumed.best == small.game.score
    assert resumed.best_before == 0
    resumed.new_game()
    assert resumed.game.size == BoardSize(3, 3) and resumed.best_before == small.game.score


def test_a_session_saves_every_move_and_resumes_exactly(store):
    session = Session.resume(store, seed=11)
    _legal_moves(session, 6)
    session.undo()
    _legal_moves(session, 2)
    again = Session.resume(store)
    assert again.game.to_dict() == session.game.to_dict()
    assert again.saving


def test_an_illegal_move_writes_nothing(store):
    board = Board.parse("2 0 0 0/4 0 0 0/0 0 0 0/0 0 0 0")
    session = Session.resume(store, game=Game.from_board(board, seed=1))
    player = store.local_player()
    before = store.current_game(player.id)
    turn = session.move(Direction.LEFT)
    assert not turn.changed
    assert store.current_game(player.id).revision == before.revision


def test_an_action_the_game_refuses_writes_nothing(store):
    player = store.local_player()
    session = Session.resume(store, seed=2)
    before = store.current_game(player.id)
    assert not session.undo()  # nothing to undo
    with pytest.raises(NotWonError):
        session.keep_going()
    assert session.saving  # a refusal is not a failed save
    assert store.current_game(player.id).revision == before.revision
    # On a finished game the store would refuse any write as "finished", which the session would take
    # for another window's doing: the game's own refusal has to come first.
    over = Game.from_board(Board.parse("2 4 2 4/4 2 4 2/2 4 2 4/4 2 8 8"), seed=3)
    assert over.move(Direction.LEFT).over
    session = Session.resume(store, game=over)
    finished = store.current_game(player.id)
    assert not session.undo()
    assert not session.move(Direction.RIGHT).changed
    assert store.current_game(player.id).revision == finished.revision
    assert session.game.to_dict() == over.to_dict()


def test_best_covers_earlier_games_and_the_game_on_screen(store):
    session = Session.resume(store, seed=5)
    _legal_moves(session, 30)
    first_score = session.game.score
    assert first_score > 0
    session.new_game(seed=6)
    assert session.game.score == 0 and session.best == first_score
    assert Session.resume(store).best == first_score


def test_a_merge_session_keeps_its_variant_and_its_own_best(store):
    classic = Session.resume(store, seed=5)
    _legal_moves(classic, 20)
    classic_best = classic.best
    session = Session.resume(store, variant="merge")
    assert session.game.variant.name == "merge" and session.best == 0
    _legal_moves(session, 3)
    assert Session.resume(store).game.to_dict() == session.game.to_dict()
    session.new_game(seed=9)
    assert session.game.variant.name == "merge"
    assert session.game.board == Game.new(9, "merge").board
    player = store.local_player()
    assert store.current_game(player.id).variant == "merge"
    assert store.best_score(player.id, "classic") == classic_best
    assert Session.resume(store, seed=4).game.variant.name == "classic"  # a seed alone: classic


def test_a_second_window_playing_the_same_game_is_noticed(store):
    here = Session.resume(store, seed=21)
    there = Session.resume(store)
    there.move(there.game.board.legal_moves()[0])
    with pytest.raises(ChangedElsewhereError):
        here.move(here.game.board.legal_moves()[-1])
    # Nothing was played over the other window's move: this session now shows the stored game.
    assert here.game.to_dict() == there.game.to_dict()
    here.move(here.game.board.legal_moves()[0])
    assert Session.resume(store).game.to_dict() == here.game.to_dict()


def test_a_failing_store_stops_saving_but_never_loses_the_move(store):
    session = Session.resume(store, seed=8)
    _legal_moves(session, 2)
    store.close()  # every later write fails
    board_before = session.game.board
    direction = session.game.board.legal_moves()[0]
    turn = session.move(direction)
    assert turn.changed and session.game.moves == 3
    assert turn.board == board_before.move(direction).board.with_tile(*turn.spawn)
    assert not session.saving
    error = session.take_save_error()
    assert error is not None and "closed" in error
    assert session.take_save_error() is None
    _legal_moves(session, 1)
    assert session.game.moves == 4


def test_an_unsaved_session_plays_like_a_game():
    session = Session.unsaved(Game.new(3))
    reference = Game.new(3)
    for _ in range(5):
        direction = session.game.board.legal_moves()[0]
        session.move(direction)
        reference.move(direction)
    assert session.undo()
    reference.undo()
    assert session.game.to_dict() == reference.to_dict()
    assert not session.saving and session.take_save_error() is None


# ---- Store.set_aside (added to the store for the terminal game's "start fresh") ---------------------


def test_set_aside_moves_a_damaged_database_and_its_companions_out_of_the_way(tmp_path):
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"garbage")
    (tmp_path / "games.sqlite3-wal").write_bytes(b"wal")
    (tmp_path / "games.sqlite3-shm").write_bytes(b"shm")
    target = Store.set_aside(path)
    assert target.parent == tmp_path and target.name.startswith("games.sqlite3.damaged-")
    assert target.read_bytes() == b"garbage"
    assert (tmp_path / (target.name + "-wal")).read_bytes() == b"wal"
    assert (tmp_path / (target.name + "-shm")).read_bytes() == b"shm"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [target.name, target.name + "-wal", target.name + "-shm"]
    )
    with Store.open(path) as store:
        assert store.current_game(store.local_player().id).moves == 0


def test_set_aside_keeps_a_real_database_readable_under_its_new_name(tmp_path):
    path = tmp_path / "games.sqlite3"
    with Store.open(path) as store:
        player = store.local_player()
        store.new_game(player.id, seed=9)
        store.move(player.id, store.current_game(player.id).id, "left")
    target = Store.set_aside(path)
    with Store.open(target) as store:
        player = store.local_player()
        assert store.current_game(player.id).moves == 1


def test_set_aside_refuses_what_is_not_a_file(tmp_path):
    with pytest.raises(OSError, match="not a file"):
        Store.set_aside(tmp_path)
    with pytest.raises(OSError, match="not a file"):
        Store.set_aside(tmp_path / "missing.sqlite3")


# ---- the command ------------------------------------------------------------------------------------


def test_play_takes_a_seed_and_a_database_path(tmp_path):
    from twenty48.cli import build_parser
    from twenty48.commands import play

    args = build_parser().parse_args(["play", "--seed", "5", "--db", str(tmp_path / "x.sqlite3")])
    assert args.run is play.run and args.seed == 5 and args.db == tmp_path / "x.sqlite3"
    defaults = build_parser().parse_args(["play"])
    assert defaults.seed is None and defaults.db is None and defaults.variant is None
    assert defaults.size is None
    assert build_parser().parse_args(["play", "--variant", "merge"]).variant == "merge"
    assert build_parser().parse_args(["play", "--size", "5x5"]).size == BoardSize(5, 5)


def test_play_refuses_an_unknown_variant(capsys):
    from twenty48.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--variant", "hexagonal"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_play_refuses_a_bad_seed(capsys):
    from twenty48.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--seed", "banana"])
    assert exit_info.value.code == 2
    assert "a seed (or a ranked game's 64 hex digits) is written in decimal digits" in capsys.readouterr().err


def test_play_without_a_terminal_says_so(capsys, tmp_path):
    from twenty48.cli import main

    # Under pytest stdin is not a terminal.
    assert main(["play", "--db", str(tmp_path / "x.sqlite3")]) == 2
    assert "needs an interactive terminal" in capsys.readouterr().err
    assert not (tmp_path / "x.sqlite3").exists()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pseudo-terminal")
@pytest.mark.integration
@pytest.mark.parametrize("size", [None, "3x3"])
def test_2048_play_runs_in_a_real_terminal_and_saves(tmp_path, size):
    """The installed command in a pseudo-terminal: it draws, plays a key, and q quits with status 0;
    ``--size`` starts a game on that board."""
    db = tmp_path / "games.sqlite3"
    command = [sys.executable, "-m", "twenty48", "play", "--seed", "42", "--db", str(db)]
    command += ["--size", size] if size else []
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child becomes the game
        os.environ["TERM"] = "xterm-256color"
        os.execv(sys.executable, command)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    screen = b""

    def read_until(needle: bytes, timeout: float) -> None:
        nonlocal screen
        deadline = time.monotonic() + timeout
        while needle not in screen and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    screen += os.read(fd, 65536)
                except OSError:
                    return

    try:
        read_until(b"seed 42", 30)
        assert b"seed 42" in screen
        reference = Game.new(42, size=size or "4x4")
        direction = reference.board.legal_moves()[0]
        os.write(fd, {"up": b"\x1b[A", "down": b"\x1b[B", "right": b"\x1b[C", "left": b"\x1b[D"}[direction])
        reference.move(direction)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with Store.open(db) as store:
                if store.current_game(store.local_player().id).moves == 1:
                    break
            time.sleep(0.05)
        os.write(fd, b"q")
        read_until(b"\0never", 5)
    finally:
        status = _wait_or_kill(pid, timeout=10)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0
    assert b"Traceback" not in screen
    with Store.open(db) as store:
        player = store.local_player()
        assert store.load_game(player.id, store.current_game(player.id).id).to_dict() == reference.to_dict()


def _wait_or_kill(pid: int, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)  # a hung game must not hang the suite
    return os.waitpid(pid, 0)[1]


def test_a_busy_database_is_not_called_damaged(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    Store.open(path).close()
    monkeypatch.setattr(sqlite_backend, "BUSY_TIMEOUT_MS", 50)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="busy") as info:
            Store.open(path)
        assert not isinstance(info.value, StoreUnreadableError)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    Store.open(path).close()


def test_16_colour_palette_keeps_every_value_apart_on_any_terminal():
    from twenty48.palette import COLOUR_16, FRAME_16

    pairs = {(c.background, c.text) for c in COLOUR_16.values()}
    assert len(pairs) == len(COLOUR_16)  # every value its own background-and-digits pair
    backgrounds = {v: c.background for v, c in COLOUR_16.items()}
    assert FRAME_16 not in backgrounds.values()  # no tile, and no empty cell, looks like the frame
    assert list(backgrounds.values()).count(backgrounds[0]) == 1  # the empty cell's colour is its own
    # Only the eight normal backgrounds: the Linux console shows the bright ones as these.
    assert not any("bright" in b for b in backgrounds.values())
    for colours in COLOUR_16.values():
        assert Color.parse(colours.background.removeprefix("ansi_")).is_system_defined


@pytest.mark.parametrize(
    ("environ", "palette"),
    [
        ({"COLORTERM": "truecolor", "TERM": "xterm-256color"}, "truecolor"),
        ({"TERM": "xterm-256color"}, "256"),
        ({"TERM": "screen"}, "16"),
        ({"TERM": "xterm"}, "16"),
        ({"TERM": "linux"}, "16"),
    ],
)
def test_each_terminal_gets_its_palette(monkeypatch, environ, palette):
    from twenty48.tui.colours import detected_palette

    for name in ("COLORTERM", "TERM", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert detected_palette() == palette
