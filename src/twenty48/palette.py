"""Tile colours: the web game's palette (gabrielecirulli/2048) and the terminal's palettes.

The one Python copy of the palette: the terminal game and the environment's pictures read it, and a
test holds the stylesheet's tile backgrounds up to 4096 equal to ``TRUE_COLOUR``, and its default
digits too (the page also gives the tiles past 4096 colours of their own).

The terminal draws every tile's digits at 3:1 contrast or more (WCAG's floor for large text; a test
computes it from these colours, the 16 named ones taken as xterm's defaults): in true colour with
``TERMINAL_TRUE_COLOUR``, the web backgrounds with the digits of the page's "High-contrast tiles"
(``HIGH_CONTRAST_DIGITS``; the original's light digits on the orange and gold tiles read at 1.4-3:1).

Textual downgrades true colour to the nearest xterm-256 entry on its own, but that collapses the web
palette badly (2 and 4 become one colour, so do 16 and 32, and 128 to 1024 all become the same yellow).
Terminals without true colour therefore get their own palette, chosen from the xterm-256 cube so that
every tile value keeps a colour of its own and the same warm progression as the web game.

Terminals with 16 colours (``TERM=xterm``, ``screen``, ``linux``) get ``COLOUR_16``, written in the
terminal's own named colours, since those differ from terminal to terminal and no RGB value maps onto
them reliably. It uses only the eight normal backgrounds, because the Linux console shows the bright
ones as the normal ones: black for the frame, white (a light grey) for the empty cell, and the six
hues two tile values each, told apart by their digits: black on every hue but blue; then blue digits
on the light hues (cyan, yellow, green), bright white ones on the dark ones (red, magenta, blue),
where white on a light hue read at 2:1. So every value has its own background-and-digits pair and
no tile looks like the frame or an empty cell on any terminal.
"""

from __future__ import annotations

from dataclasses import dataclass

from twenty48.rules import MAX_TILE, TILE_VALUES

#: The page, text and frame colours of the web game, its buttons' colour, and the orange of its 64 tile
#: that it uses for emphasis.
PAGE = "#faf8ef"
#: The page's colour in the browser game's dark theme (its own, the original has none).
PAGE_DARK = "#1c1a17"
TEXT = "#776e65"
FRAME = "#bbada0"
LIGHT_TEXT = "#f9f6f2"
BUTTON = "#8f7a66"
ACCENT = "#f65e3b"


@dataclass(frozen=True, slots=True)
class TileColours:
    background: str
    text: str


_DARK = TEXT
_LIGHT = LIGHT_TEXT

#: Tile value (0 = empty cell) -> colours, as in the original game's stylesheet. Tiles past 2048 share the
#: web game's "super" tile colour.
TRUE_COLOUR: dict[int, TileColours] = {
    0: TileColours("#cdc1b4", _DARK),
    2: TileColours("#eee4da", _DARK),
    4: TileColours("#ede0c8", _DARK),
    8: TileColours("#f2b179", _LIGHT),
    16: TileColours("#f59563", _LIGHT),
    32: TileColours("#f67c5f", _LIGHT),
    64: TileColours("#f65e3b", _LIGHT),
    128: TileColours("#edcf72", _LIGHT),
    256: TileColours("#edcc61", _LIGHT),
    512: TileColours("#edc850", _LIGHT),
    1024: TileColours("#edc53f", _LIGHT),
    2048: TileColours("#edc22e", _LIGHT),
    4096: TileColours("#3c3a32", _LIGHT),
}

#: The digits of the page's "High-contrast tiles" (style.css, under ``.hc``; a test holds them
#: equal): dark on the light tiles, darkest on orange, light on the dark 4096.
HIGH_CONTRAST_DIGITS: dict[int, str] = {
    **dict.fromkeys((0, 2, 4), "#574e45"),
    **dict.fromkeys((8, 16, 32, 64), "#2a211b"),
    **dict.fromkeys((128, 256, 512, 1024, 2048), "#3a2f27"),
    4096: "#ffffff",
}
#: The terminal's true-colour palette: the web backgrounds, the high-contrast digits.
TERMINAL_TRUE_COLOUR: dict[int, TileColours] = {
    value: TileColours(colours.background, HIGH_CONTRAST_DIGITS[value])
    for value, colours in TRUE_COLOUR.items()
}

# Every colour is an xterm-256 entry (index in the comment), written as the exact RGB the terminal
# shows for it, so that Textual's downgrade maps each one onto itself. Digits are dark on every light
# tile (grey 59 on the palest, 234 on orange and red, 236 on gold), white on the dark 4096.
_DARK_256 = "#5f5f5f"  # 59
_ORANGE_DIGITS_256 = "#1c1c1c"  # 234
_GOLD_DIGITS_256 = "#303030"  # 236
_LIGHT_256 = "#ffffff"  # 231
COLOUR_256: dict[int, TileColours] = {
    0: TileColours("#d7d7af", _DARK_256),  # 187
    2: TileColours("#ffffd7", _DARK_256),  # 230
    4: TileColours("#ffd7af", _DARK_256),  # 223
    8: TileColours("#ffaf87", _ORANGE_DIGITS_256),  # 216
    16: TileColours("#ff875f", _ORANGE_DIGITS_256),  # 209
    32: TileColours("#ff5f5f", _ORANGE_DIGITS_256),  # 203
    64: TileColours("#ff0000", _ORANGE_DIGITS_256),  # 196
    128: TileColours("#d7d75f", _GOLD_DIGITS_256),  # 185
    256: TileColours("#d7d700", _GOLD_DIGITS_256),  # 184
    512: TileColours("#ffd75f", _GOLD_DIGITS_256),  # 221
    1024: TileColours("#ffd700", _GOLD_DIGITS_256),  # 220
    2048: TileColours("#ffaf00", _GOLD_DIGITS_256),  # 214
    4096: TileColours("#303030", _LIGHT_256),  # 236
}

# Textual's names for the terminal's 16 colours ("ansi_" + Rich's name).
_BLACK_16 = "ansi_black"
_BLUE_16 = "ansi_blue"
_WHITE_16 = "ansi_bright_white"
COLOUR_16: dict[int, TileColours] = {
    0: TileColours("ansi_white", _BLACK_16),
    2: TileColours("ansi_cyan", _BLACK_16),
    4: TileColours("ansi_cyan", _BLUE_16),
    8: TileColours("ansi_yellow", _BLACK_16),
    16: TileColours("ansi_yellow", _BLUE_16),
    32: TileColours("ansi_red", _BLACK_16),
    64: TileColours("ansi_red", _WHITE_16),
    128: TileColours("ansi_magenta", _BLACK_16),
    256: TileColours("ansi_magenta", _WHITE_16),
    512: TileColours("ansi_green", _BLACK_16),
    1024: TileColours("ansi_green", _BLUE_16),
    2048: TileColours("ansi_blue", "ansi_bright_yellow"),
    4096: TileColours("ansi_blue", _WHITE_16),
}
#: The 16-colour board's frame: black, which no tile and no empty cell wears.
FRAME_16 = _BLACK_16

#: The terminal palettes, by the colour system they are for (Rich's names: "truecolor", "256", "16").
PALETTES: dict[str, dict[int, TileColours]] = {
    "truecolor": TERMINAL_TRUE_COLOUR,
    "256": COLOUR_256,
    "16": COLOUR_16,
}

_SUPER = 4096


def tile_colours(value: int, palette: str = "truecolor") -> TileColours:
    """The colours of a tile (0 for an empty cell) in ``palette`` (a key of ``PALETTES``); every tile
    above 2048 looks like 4096."""
    if value != 0 and value not in TILE_VALUES:
        raise ValueError(f"not a tile value: {value!r} (0 or a power of two from 2 to {MAX_TILE})")
    if palette not in PALETTES:
        raise ValueError(f"palette must be one of {', '.join(PALETTES)}, got {palette!r}")
    return PALETTES[palette][min(value, _SUPER)]


def rgb(colour: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` -> (r, g, b)."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
