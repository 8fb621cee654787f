"""Draw the web app manifest's PNG icons (web/icons/) from the favicon's design (web/favicon.svg:
two token blocks on the accent colour), with Pillow. Run once when the design changes; the PNGs
are committed (small) and copied into web/dist by the build like any file of web/.

    python tools/make_icons.py

Writes icon-192.png and icon-512.png (rounded square, transparent corners, purpose "any") and
icon-maskable-512.png (full-bleed background, the blocks inside the central 80 % safe zone,
purpose "maskable"), as web/manifest.webmanifest lists them.
"""

from __future__ import annotations

import pathlib

from PIL import Image, ImageDraw

OUT = pathlib.Path(__file__).resolve().parent.parent / "web" / "icons"
ACCENT = "#3b5bdb"
BLOCKS = (((5, 10, 14, 22), "#ffe3e3"), ((15, 10, 27, 22), "#d0ebff"))  # favicon.svg, 32x32 units


def draw_icon(size: int, *, maskable: bool) -> Image.Image:
    """One icon of ``size`` x ``size`` pixels (RGBA). ``maskable``: the background fills the square
    and the design is scaled into the safe zone (a circle of 80 % of the width)."""
    scale = 4  # drawn larger, then downsampled: smooth edges
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, big, big), fill=ACCENT)
        unit, offset = big * 0.62 / 32, big * 0.19  # 62 % of the width: inside the safe circle
    else:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 6 / 32, fill=ACCENT)
        unit, offset = big / 32, 0.0
    for (x0, y0, x1, y1), colour in BLOCKS:
        box = (offset + x0 * unit, offset + y0 * unit, offset + x1 * unit, offset + y1 * unit)
        draw.rounded_rectangle(box, radius=2 * unit, fill=colour)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("icon-maskable-512.png", 512, True),
    ):
        draw_icon(size, maskable=maskable).save(OUT / name, optimize=True)
        print(f"{OUT / name}: {(OUT / name).stat().st_size} bytes")


if __name__ == "__main__":
    main()
