"""Rendering: the text board, and an RGB picture whose numbers can be read back pixel by pixel."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from twenty48 import Board
from twenty48.env import Twenty48Env, Twenty48VectorEnv
from twenty48.env import render as r

EVERY_TILE = Board.from_rows(
    [
        [0, 2, 4, 8],
        [16, 32, 64, 128],
        [256, 512, 1024, 2048],
        [4096, 16384, 65536, 131072],
    ]
)


def read_cell(image: np.ndarray, row: int, col: int) -> int:
    """Read the number on one tile like a reader would: find the text pixels, infer the pixel size
    from the glyph height, then find the one digit string whose glyphs, laid side by side at
    that size, cover exactly those pixels."""
    y, x = r.cell_origin(row, col)
    tile = image[y : y + r.CELL, x : x + r.CELL]
    text = np.any([np.all(tile == colour, axis=-1) for colour in set(r.TEXT_COLOURS)], axis=0)
    if not text.any():
        return 0
    ys, xs = np.nonzero(text)
    top, bottom, left, right = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    scale = (bottom - top) // r.GLYPH_HEIGHT
    assert scale >= 2, "numbers are drawn at least two pixels per font pixel"
    assert (bottom - top) == r.GLYPH_HEIGHT * scale
    # Text stays clear of the tile's edges.
    assert min(top, left) >= r.MARGIN // 2 and max(bottom, right) <= r.CELL - r.MARGIN // 2
    readings = set()
    # A leading "1" starts with a blank font column, so the ink may begin one font pixel late.
    for start in (left, left - scale):
        for count in range(1, 7):
            width = (count * (r.GLYPH_WIDTH + 1) - 1) * scale
            if start < 0 or start + width < right or start + width > r.CELL:
                continue
            pixels = text[top:bottom:scale, start : start + width : scale]
            digits = ""
            for k in range(count):
                glyph = pixels[:, k * (r.GLYPH_WIDTH + 1) : k * (r.GLYPH_WIDTH + 1) + r.GLYPH_WIDTH]
                digits += next((d for d, g in r.GLYPHS.items() if np.array_equal(g, glyph)), "?")
            if "?" in digits:
                continue
            redrawn = np.zeros_like(text)
            redrawn[top:bottom, start : start + width] = np.kron(
                np.hstack([np.pad(r.GLYPHS[d], ((0, 0), (0, 1))) for d in digits])[:, :-1],
                np.ones((scale, scale), dtype=bool),
            )
            if np.array_equal(redrawn, text):
                readings.add(int(digits))
    assert len(readings) == 1, f"tile ({row}, {col}) reads as {sorted(readings)}"
    return readings.pop()


def test_every_tile_value_reads_back_from_the_picture():
    env = Twenty48Env(render_mode="rgb_array")
    env.reset(seed=1, options={"board": EVERY_TILE})
    image = env.render()
    assert image.shape == (r.SIZE, r.SIZE, 3) and image.dtype == np.uint8
    read = [[read_cell(image, row, col) for col in range(4)] for row in range(4)]
    assert read == [list(row) for row in EVERY_TILE.rows]


def test_tiles_use_their_colours_and_text_contrasts():
    env = Twenty48Env(render_mode="rgb_array")
    env.reset(seed=1, options={"board": EVERY_TILE})
    image = env.render()
    for row, col in itertools.product(range(4), range(4)):
        exponent = (EVERY_TILE.rows[row][col] or 1).bit_length() - 1
        y, x = r.cell_origin(row, col)
        # A point inside the tile, away from its rounded corners and its number.
        assert tuple(image[y + 8, x + r.CELL // 2]) == r.tile_colour(exponent)
    assert tuple(image[0, 0]) == r.BACKGROUND
    for exponent in range(18):
        tile, text = np.array(r.tile_colour(exponent)), np.array(r.text_colour(exponent))
        assert np.abs(tile.astype(int) - text).sum() > 150


def test_glyphs_are_distinct_and_six_digits_fit():
    glyphs = list(r.GLYPHS.values())
    assert all(not np.array_equal(a, b) for a, b in itertools.combinations(glyphs, 2))
    assert all(g.shape == (r.GLYPH_HEIGHT, r.GLYPH_WIDTH) for g in glyphs)
    for digits in range(1, 7):
        scale = r.text_scale(digits)
        assert scale >= 2
        assert (digits * (r.GLYPH_WIDTH + 1) - 1) * scale <= r.CELL - 2 * r.MARGIN


def test_ansi_shows_the_board_score_and_moves():
    env = Twenty48Env(render_mode="ansi")
    env.reset(seed=3, options={"board": EVERY_TILE, "score": 12})
    text = env.render()
    assert str(EVERY_TILE) in text
    assert "score 12" in text and "moves 0" in text


def test_render_without_a_mode_warns_and_returns_none():
    env = Twenty48Env()
    env.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None


def test_vector_render_gives_one_frame_per_board():
    envs = Twenty48VectorEnv(2, render_mode="rgb_array")
    envs.reset(seed=1, options={"board": EVERY_TILE})
    frames = envs.render()
    assert len(frames) == 2 and all(f.shape == (r.SIZE, r.SIZE, 3) for f in frames)
    assert read_cell(frames[1], 3, 3) == 131072
    text = Twenty48VectorEnv(2, render_mode="ansi")
    text.reset(seed=1)
    assert [f.splitlines()[:4] for f in text.render()] == [str(text.board(i)).splitlines() for i in range(2)]
