"""Draws the page's app icons (src/twenty48/web/static/icons/) in the look of the game's 2048 tile:
its gold, its light digits in Clear Sans Bold (the page's own font file), the corners of icon.svg.

Run once when the look changes (`python tools/draw_icons.py`); the PNGs are committed. Each is cut
down to a few dozen colours, which keeps it a few kilobytes.

- icon-192.png, icon-512.png ("any"): the tile, transparent around its rounded corners;
- maskable-512.png ("maskable"): the tile's gold to every edge, the digits inside the central circle
  of 80% that every launcher's mask keeps;
- apple-touch-icon.png (180 px): opaque, square (iOS rounds the corners itself).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from twenty48.palette import TRUE_COLOUR

STATIC = Path(__file__).resolve().parents[1] / "src" / "twenty48" / "web" / "static"
FONT = STATIC / "fonts" / "clear-sans-700.woff2"
TILE = TRUE_COLOUR[2048]
#: Drawn this many times larger, then scaled down: smooth edges without antialiasing of our own.
OVERSAMPLE = 4
#: icon.svg's corner: 10 of 64.
CORNER = 10 / 64
COLOURS = 48


def draw(size: int, *, rounded: bool, text_width: float) -> Image.Image:
    """The tile at ``size`` px: rounded corners or square, "2048" ``text_width`` of its width wide."""
    big = size * OVERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    if rounded:
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=round(big * CORNER), fill=TILE.background)
    else:
        pen.rectangle((0, 0, big - 1, big - 1), fill=TILE.background)
    # The font size whose "2048" is text_width wide, centred on the ink (not the line box).
    probe = ImageFont.truetype(str(FONT), 100)
    left, top, right, bottom = probe.getbbox("2048")
    font = ImageFont.truetype(str(FONT), round(100 * text_width * big / (right - left)))
    left, top, right, bottom = font.getbbox("2048")
    corner = ((big - (right - left)) / 2 - left, (big - (bottom - top)) / 2 - top)
    pen.text(corner, "2048", font=font, fill=TILE.text)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def save(image: Image.Image, path: Path) -> None:
    if image.getextrema()[3][0] == 255:
        # Opaque: a palette without an alpha channel.
        small = image.convert("RGB").quantize(COLOURS, method=Image.Quantize.MEDIANCUT)
    else:
        small = image.quantize(COLOURS, method=Image.Quantize.FASTOCTREE)
        # The quantizer averages alpha too: the tile must stay opaque, its surroundings clear.
        palette = small.getpalette("RGBA") or []
        for alpha in range(3, len(palette), 4):
            palette[alpha] = 255 if palette[alpha] > 250 else 0 if palette[alpha] < 5 else palette[alpha]
        small.putpalette(palette, "RGBA")
    small.save(path, optimize=True)


def main() -> None:
    out = STATIC / "icons"
    out.mkdir(exist_ok=True)
    for size in (192, 512):
        save(draw(size, rounded=True, text_width=0.72), out / f"icon-{size}.png")
    # Within the safe circle (radius 40%): the digits' box is 0.56 wide and about 0.18 high.
    save(draw(512, rounded=False, text_width=0.56), out / "maskable-512.png")
    save(draw(180, rounded=False, text_width=0.72), out / "apple-touch-icon.png")


if __name__ == "__main__":
    main()
