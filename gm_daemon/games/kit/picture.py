"""The Pillow base of every game's pictures: a canvas, fonts, colours per seat, PNG bytes.

Pictures are deterministic (no time stamps, no random colours), so a re-rendered phase gives
the same bytes, and they use only Pillow's built-in font, which has no glyphs outside
Latin-1: ``latin1`` makes a text safe to draw.
"""

from __future__ import annotations

import colorsys
import io
import unicodedata
from functools import cache

from PIL import Image, ImageDraw, ImageFont

Colour = tuple[int, int, int]
WHITE: Colour = (255, 255, 255)
BLACK: Colour = (0, 0, 0)
GREY: Colour = (150, 150, 150)
# Distinguishable on screen and in print, also for the common red-green weakness.
SEAT_COLOURS: tuple[Colour, ...] = (
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (230, 159, 0),
    (86, 180, 233),
    (120, 94, 240),
    (100, 100, 100),
)


@cache
def font(size: int = 12) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def seat_colour(index: int) -> Colour:
    """The fixed palette first, then hues spread by the golden angle, so that every seat of
    a big game (Primtraktor allows dozens) has a colour of its own and neighbours differ."""
    if index < len(SEAT_COLOURS):
        return SEAT_COLOURS[index]
    hue = (index * 0.618033988749895) % 1.0
    r, g, b = colorsys.hsv_to_rgb(hue, 0.75, 0.8)
    return (round(r * 255), round(g * 255), round(b * 255))


def canvas(
    width: int, height: int, background: Colour = WHITE
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (max(1, width), max(1, height)), background)
    return image, ImageDraw.Draw(image)


def text_size(draw: ImageDraw.ImageDraw, text: str, size: int = 12) -> tuple[int, int]:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font(size))
    return int(right - left), int(bottom - top)


def latin1(text: str) -> str:
    """The text with characters the built-in font cannot draw replaced (› for ▸ etc.)."""
    return text.encode("latin-1", "replace").decode("latin-1")


def png_bytes(image: Image.Image, optimize: bool = True) -> bytes:
    """The image as PNG. ``optimize=False`` keeps zlib's default level: for a large picture
    (a whole map) that is four times faster for a file only a few per cent larger."""
    buffer = io.BytesIO()
    if optimize:
        image.save(buffer, format="PNG", optimize=True)
    else:
        image.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


GERMAN_LETTERS = str.maketrans(
    {
        "ä": "ae",
        "ö": "oe",
        "ü": "ue",
        "Ä": "Ae",
        "Ö": "Oe",
        "Ü": "Ue",
        "ß": "ss",
        "–": "-",
        "—": "-",
        "‘": "'",
        "’": "'",
        "„": '"',
        "“": '"',
        "”": '"',
        "…": "...",
    }
)


def ascii_text(text: str) -> str:
    """The text spelt with ASCII only (Müller → Mueller, é → e, anything else → ?).

    The built-in font Pillow ships draws ASCII only: every other letter, umlauts included,
    comes out as the same empty box, so a name has to be spelt out before it is drawn."""
    spelt = unicodedata.normalize("NFKD", text.translate(GERMAN_LETTERS))
    plain = "".join(c for c in spelt if not unicodedata.combining(c))
    return plain.encode("ascii", "replace").decode("ascii")
