"""Pictures of a board: text for ``render_mode="ansi"``, an RGB array for ``"rgb_array"``.

The RGB picture uses the original game's palette and draws the numbers with a built-in 5x7 pixel
font scaled to the cell, so it needs no font file, no Pillow and looks the same everywhere.
"""

from __future__ import annotations

import numpy as np

from twenty48 import palette
from twenty48.rules import Board

CELL = 100
GAP = 12
#: The picture of a 4x4 board is SIZE pixels square; a board of R x C is ``picture_size(R, C)``.
SIZE = 4 * CELL + 5 * GAP
#: Space kept between a number and the edge of its tile.
MARGIN = 12
MAX_SCALE = 7
CORNER_RADIUS = 6

_FONT_ROWS = {
    "0": (".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."),
    "1": ("..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."),
    "2": (".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"),
    "3": ("####.", "....#", "....#", ".###.", "....#", "....#", "####."),
    "4": ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."),
    "5": ("#####", "#....", "####.", "....#", "....#", "#...#", ".###."),
    "6": ("..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."),
    "7": ("#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."),
    "8": (".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."),
    "9": (".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."),
}
#: Digit -> (7, 5) boolean glyph.
GLYPHS = {d: np.array([[c == "#" for c in row] for row in rows]) for d, rows in _FONT_ROWS.items()}
GLYPH_HEIGHT, GLYPH_WIDTH = 7, 5

BACKGROUND = palette.rgb(palette.FRAME)
#: Tile colours by exponent (0 = empty cell); 4096 and up share the last one, as in the web game.
TILE_COLOURS = tuple(palette.rgb(c.background) for c in palette.TRUE_COLOUR.values())
TEXT_COLOURS = tuple(palette.rgb(c.text) for c in palette.TRUE_COLOUR.values())


def ansi(board: Board, score: int, moves: int) -> str:
    return f"{board}\nscore {score}  moves {moves}\n"


def text_colour(exponent: int) -> tuple[int, int, int]:
    return TEXT_COLOURS[min(exponent, len(TEXT_COLOURS) - 1)]


def tile_colour(exponent: int) -> tuple[int, int, int]:
    return TILE_COLOURS[min(exponent, len(TILE_COLOURS) - 1)]


def text_scale(digits: int) -> int:
    """The largest pixel size at which ``digits`` glyphs (one blank column apart) fit a tile."""
    width = digits * (GLYPH_WIDTH + 1) - 1
    return min(MAX_SCALE, (CELL - 2 * MARGIN) // width)


def cell_origin(row: int, col: int) -> tuple[int, int]:
    """Top-left pixel (y, x) of a cell."""
    return GAP + row * (CELL + GAP), GAP + col * (CELL + GAP)


def _corner_mask() -> np.ndarray:
    """True on the pixels of a tile that its rounded corners cut away."""
    y, x = np.mgrid[0:CELL, 0:CELL]
    r = CORNER_RADIUS
    dy = np.maximum(np.maximum(r - 1 - y, y - (CELL - r)), 0)
    dx = np.maximum(np.maximum(r - 1 - x, x - (CELL - r)), 0)
    return dx * dx + dy * dy > r * r


_CORNERS = _corner_mask()


def _number(value: int) -> np.ndarray:
    """The boolean pixel mask of ``value`` at the scale its digit count allows."""
    digits = str(value)
    scale = text_scale(len(digits))
    blank = np.zeros((GLYPH_HEIGHT, 1), dtype=bool)
    row = np.hstack([part for d in digits for part in (GLYPHS[d], blank)][:-1])
    return np.kron(row, np.ones((scale, scale), dtype=bool)).astype(bool)


def picture_size(rows: int, cols: int) -> tuple[int, int]:
    """(height, width) in pixels of the picture of a board of ``rows`` x ``cols``."""
    return rows * CELL + (rows + 1) * GAP, cols * CELL + (cols + 1) * GAP


def rgb(grid: np.ndarray) -> np.ndarray:
    """An RGB uint8 picture of an (R, C) exponent grid: (SIZE, SIZE, 3) for a 4x4."""
    rows, cols = grid.shape
    image = np.empty((*picture_size(rows, cols), 3), dtype=np.uint8)
    image[:] = BACKGROUND
    for row in range(rows):
        for col in range(cols):
            exponent = int(grid[row, col])
            y, x = cell_origin(row, col)
            tile = image[y : y + CELL, x : x + CELL]
            tile[~_CORNERS] = tile_colour(exponent)
            if exponent:
                mask = _number(1 << exponent)
                h, w = mask.shape
                ty, tx = (CELL - h) // 2, (CELL - w) // 2
                tile[ty : ty + h, tx : tx + w][mask] = text_colour(exponent)
    return image
