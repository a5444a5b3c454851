"""The page's stylesheet against ``twenty48.palette``, the one Python copy of the tile colours.

What is equal and what deliberately is not, read from ``web/static/style.css``:

- backgrounds: the empty cell (light theme) and every tile from 2 to 4096 are the palette's colours;
- past 4096 the page gives each tile a colour of its own, where the palette draws them all as 4096;
- text: the default look is the original's (dark digits on 2 and 4, light ones from 8 up), the
  palette's colours exactly; the "High-contrast tiles" setting (rules under ``.hc``) turns the digits
  on the light tiles dark so that every tile reads at 4.5:1, and is never less legible than the palette.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from twenty48.palette import HIGH_CONTRAST_DIGITS, TRUE_COLOUR, rgb, tile_colours
from twenty48.rules import TILE_VALUES

STYLESHEET = Path(__file__).parents[1] / "src" / "twenty48" / "web" / "static" / "style.css"
#: WCAG 2's minimum contrast for normal text (level AA).
MIN_CONTRAST = 4.5
#: The palette's last entry: every larger tile shares its colours.
_SUPER = max(TRUE_COLOUR)
_TILE = re.compile(r'\.tile\[data-v="(\d+)"\]')
_HEX = r"(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})"


def _top_level_rules(css: str) -> list[tuple[str, dict[str, str]]]:
    """(selector, declarations) of every rule outside at-rules such as ``@media`` (comments removed)."""
    rules = []
    depth = 0
    start = 0
    selector = ""
    for i, char in enumerate(css):
        if char == "{":
            if depth == 0:
                selector = css[start:i].strip()
            depth += 1
            start = i + 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                body = css[start:i]
                if not selector.startswith("@"):
                    declarations = {}
                    for part in body.split(";"):
                        name, colon, value = part.partition(":")
                        if colon:
                            declarations[name.strip()] = value.strip()
                    rules.append((selector, declarations))
            start = i + 1
    assert depth == 0, "unbalanced braces in style.css"
    return rules


def _hex(value: str) -> str:
    """``#rgb`` or ``#rrggbb`` -> ``#rrggbb`` in lower case."""
    assert re.fullmatch(_HEX, value), f"not a plain hex colour: {value!r}"
    value = value.lower()
    return "#" + "".join(c * 2 for c in value[1:]) if len(value) == 4 else value


def _light(value: str) -> str:
    """The light-theme colour of ``light-dark(light, dark)`` (or of a plain colour)."""
    found = re.fullmatch(rf"light-dark\(\s*{_HEX}\s*,\s*{_HEX}\s*\)", value)
    return _hex(found.group(1) if found else value)


def _fallback(value: str, variable: str) -> str:
    """The colour in ``var(--variable, colour)``."""
    found = re.fullmatch(rf"var\(\s*{variable}\s*,\s*{_HEX}\s*\)", value)
    assert found, f"expected var({variable}, #colour), got {value!r}"
    return _hex(found.group(1))


@functools.cache
def _selectors(selector: str) -> list[str]:
    """A selector list's selectors: split at its commas, not at those inside ``:is(...)``."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(selector):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(selector[start:i].strip())
            start = i + 1
    return [*parts, selector[start:].strip()]


def _tile_values(selector: str) -> list[int]:
    """The tile values a selector styles: ``.tile[data-v="8"]``, ``.tile:is([data-v="8"], ...)``, or
    ``.tile.huge`` (the page's class for six digits and more: 131072)."""
    if re.search(r"\.tile\.huge\b", selector):
        return [v for v in TILE_VALUES if v > 99999]
    if _TILE.search(selector) or re.search(r"\.tile:is\(", selector):
        return [int(v) for v in re.findall(r'data-v="(\d+)"', selector)]
    return []


def _page_colours() -> tuple[str, dict[int, tuple[str, str]], dict[int, str]]:
    """The stylesheet's empty-cell background (light theme), tile value -> (background, text) of the
    default look, and tile value -> text under high contrast (``.hc``)."""
    css = re.sub(r"/\*.*?\*/", "", STYLESHEET.read_text(encoding="utf-8"), flags=re.S)
    rules = _top_level_rules(css)
    # A tile colour set inside an at-rule (a dark theme, a media query) would escape what follows.
    assert sum(name in d for _, d in rules for name in ("--tb", "--fg")) == len(
        re.findall(r"--(?:tb|fg)\s*:", css)
    ), "a tile colour is set inside an at-rule"
    variables = {k: v for s, d in rules if s == ":root" for k, v in d.items() if k.startswith("--")}
    base = next(d for s, d in rules if s == ".tile")
    tiles = {
        value: {"background": _fallback(base["background"], "--tb"), "text": _fallback(base["color"], "--fg")}
        for value in TILE_VALUES
    }
    contrast: dict[int, str] = {}
    for selector, declarations in rules:
        if selector == ".hc .tile":
            contrast.update(dict.fromkeys(TILE_VALUES, _hex(declarations["--fg"])))
            continue
        for part in _selectors(selector):
            for value in _tile_values(part):
                if part.startswith(".hc "):
                    assert set(declarations) == {"--fg"}, f"high contrast changes only the digits: {part}"
                    contrast[value] = _hex(declarations["--fg"])
                    continue
                if "--tb" in declarations:
                    tiles[value]["background"] = _hex(declarations["--tb"])
                if "--fg" in declarations:
                    tiles[value]["text"] = _hex(declarations["--fg"])
                    if ".huge" in part:
                        # As specific as `.hc .tile` and after it: its digits hold under .hc too.
                        contrast[value] = _hex(declarations["--fg"])
    assert next(d for s, d in rules if s == ".cell")["background"] == "var(--slot)"
    page = {v: (t["background"], t["text"]) for v, t in tiles.items()}
    return _light(variables["--slot"]), page, {v: contrast.get(v, page[v][1]) for v in TILE_VALUES}


CLASSIC_TILES = sorted(v for v in TILE_VALUES if v <= _SUPER)
SUPER_TILES = sorted(v for v in TILE_VALUES if v > _SUPER)


def luminance(colour: str) -> float:
    """WCAG 2's relative luminance of ``#rrggbb``."""
    channels = [c / 255 for c in rgb(colour)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _page_tiles() -> dict[int, tuple[str, str]]:
    return _page_colours()[1]


def test_the_stylesheet_colours_every_tile_value() -> None:
    assert sorted(_page_tiles()) == sorted(TILE_VALUES)


def test_the_empty_cell_is_the_palettes() -> None:
    assert TRUE_COLOUR[0].background == _page_colours()[0]


@pytest.mark.parametrize("value", CLASSIC_TILES)
def test_tile_backgrounds_up_to_4096_are_the_palettes(value: int) -> None:
    assert _page_tiles()[value][0] == TRUE_COLOUR[value].background


def test_tiles_past_4096_have_colours_of_their_own_where_the_palette_shares_one() -> None:
    assert all(tile_colours(v) == tile_colours(_SUPER) for v in SUPER_TILES)
    backgrounds = [_page_tiles()[v][0] for v in sorted(TILE_VALUES)]
    assert len(set(backgrounds)) == len(backgrounds)


@pytest.mark.parametrize("value", CLASSIC_TILES)
def test_the_default_digits_are_the_originals(value: int) -> None:
    assert _page_tiles()[value][1] == TRUE_COLOUR[value].text


def test_past_4096_the_default_digits_stay_light() -> None:
    for value in SUPER_TILES:
        background, text = _page_tiles()[value]
        assert luminance(text) > luminance(background) and contrast(text, background) >= MIN_CONTRAST


def _high_contrast(value: int) -> tuple[str, str]:
    return _page_tiles()[value][0], _page_colours()[2][value]


@pytest.mark.parametrize("value", sorted(TILE_VALUES))
def test_high_contrast_tile_text_reads_at_4_5_to_1(value: int) -> None:
    background, text = _high_contrast(value)
    assert contrast(text, background) >= MIN_CONTRAST


@pytest.mark.parametrize("value", CLASSIC_TILES)
def test_high_contrast_text_is_never_less_legible_than_the_palettes(value: int) -> None:
    # Only where the backgrounds are the same: past 4096 the page's own colours are not comparable.
    background, text = _high_contrast(value)
    assert contrast(text, background) >= contrast(TRUE_COLOUR[value].text, background)


@pytest.mark.parametrize("value", CLASSIC_TILES)
def test_high_contrast_turns_dark_exactly_the_light_digits_on_orange_and_gold(value: int) -> None:
    # The palette's dark text (2 and 4) stays dark; its light text on orange and gold (8 to 2048)
    # turns dark for contrast; 4096's light text stays light.
    palette_dark = luminance(TRUE_COLOUR[value].text) < luminance(TRUE_COLOUR[value].background)
    background, text = _high_contrast(value)
    assert (luminance(text) < luminance(background)) == (palette_dark or 8 <= value <= 2048)


@pytest.mark.parametrize("value", CLASSIC_TILES)
def test_the_terminal_draws_the_digits_of_the_pages_high_contrast_tiles(value: int) -> None:
    assert HIGH_CONTRAST_DIGITS[value] == _page_colours()[2][value]
    colours = tile_colours(value, "truecolor")
    assert (colours.background, colours.text) == (TRUE_COLOUR[value].background, HIGH_CONTRAST_DIGITS[value])
