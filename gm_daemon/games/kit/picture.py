"""The Pillow base of every game's pictures: a canvas, the font, colours per seat, labels that
never overlap, PNG bytes.

Pictures are deterministic (no time stamps, no random colours), so a re-rendered phase gives
the same bytes. Every picture draws with the one TrueType font shipped in the wheel
(``gm_daemon/fonts``, DejaVu Sans): it has every letter a club's names and the games' texts
use (umlauts, ß, typographic quotes and dashes, the accents of European names), so a name is
drawn as its player writes it and nothing is spelt out in ASCII.
"""

from __future__ import annotations

import colorsys
import io
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]  # left, top, right, bottom in pixels
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
FONT_FILE = "DejaVuSans.ttf"


@cache
def font_bytes() -> bytes:
    """The font file, read once from the package (works from a wheel or a zip as well)."""
    return resources.files("gm_daemon").joinpath("fonts", FONT_FILE).read_bytes()


@cache
def font(size: int = 12) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(io.BytesIO(font_bytes()), size)


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


def png_bytes(image: Image.Image, optimize: bool = True) -> bytes:
    """The image as PNG. ``optimize=False`` keeps zlib's default level: for a large picture
    (a whole map) that is four times faster for a file only a few per cent larger."""
    buffer = io.BytesIO()
    if optimize:
        image.save(buffer, format="PNG", optimize=True)
    else:
        image.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


# --- labels ------------------------------------------------------------------------------


def label_box(text: str, size: int, centre: tuple[float, float]) -> Box:
    """The box the ink of ``text`` covers when ``draw_label`` draws it centred on ``centre``."""
    left, top, right, bottom = font(size).getbbox(text, anchor="lt")
    width, height = right - left, bottom - top
    x, y = centre
    return x - width / 2, y - height / 2, x + width / 2, y + height / 2


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def clashes(boxes: Mapping[str, Box]) -> list[tuple[str, str]]:
    """Every pair of labels whose boxes overlap; a picture's test asks for none."""
    return [
        (a, b) for a, b in itertools.combinations(sorted(boxes), 2) if overlap(boxes[a], boxes[b])
    ]


def inside(box: Box, bounds: Box) -> bool:
    return (
        bounds[0] <= box[0] and bounds[1] <= box[1] and box[2] <= bounds[2] and box[3] <= bounds[3]
    )


def free_spot(
    text: str,
    size: int,
    near: tuple[float, float],
    taken: Sequence[Box],
    bounds: Box,
    step: float,
) -> Box:
    """Where a label for the point ``near`` goes: the first spot on rings of growing radius
    around the point (right, below, left, above and the diagonals) whose box stays inside
    ``bounds`` and overlaps nothing ``taken``. Labels placed one after the other this way
    never overlap, however many fall on one field."""
    left, top, right, bottom = label_box(text, size, (0, 0))
    found = free_box((right - left, bottom - top), near, taken, bounds, step)
    if found is None:
        raise ValueError(f"no room for the label {text!r} near {near}")
    return found


def free_box(
    size: tuple[float, float],
    near: tuple[float, float],
    taken: Sequence[Box],
    bounds: Box,
    step: float,
    where: Callable[[tuple[float, float]], bool] = lambda _: True,
) -> Box | None:
    """The first box of ``size`` (width, height) on the rings around ``near`` that stays in
    ``bounds``, overlaps nothing ``taken`` (a label, a token, a marker) and whose centre is
    a place ``where`` allows; None if there is none."""
    width, height = size
    for x, y in _spots(near, step):
        box = (x - width / 2, y - height / 2, x + width / 2, y + height / 2)
        free = inside(box, bounds) and not any(overlap(box, other) for other in taken)
        if free and where((x, y)):
            return box
    return None


def _spots(near: tuple[float, float], step: float) -> Iterable[tuple[float, float]]:
    x, y = near
    directions = ((1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1))
    for ring in range(1, 40):
        for dx, dy in directions:
            yield x + dx * ring * step, y + dy * ring * step


def lay_out(
    labels: Sequence[tuple[str, tuple[float, float]]],
    size: int,
    bounds: Box,
    step: float,
    taken: Sequence[Box] = (),
) -> list[Box]:
    """Boxes for ``labels`` (text, the point it belongs to) in order, none overlapping another
    or anything in ``taken``."""
    placed: list[Box] = []
    for text, near in labels:
        placed.append(free_spot(text, size, near, [*taken, *placed], bounds, step))
    return placed


def draw_label(
    draw: ImageDraw.ImageDraw,
    box: Box,
    text: str,
    size: int,
    fill: Colour,
    halo: Colour | None = None,
) -> None:
    """The text with its ink in ``box`` (from ``label_box``); a halo keeps it readable over
    lines drawn before it."""
    left, top, _, _ = font(size).getbbox(text, anchor="lt")
    width = 2 if halo is not None else 0
    at = (box[0] - left, box[1] - top)
    draw.text(at, text, fill=fill, font=font(size), anchor="lt", stroke_width=width,
              stroke_fill=halo)  # fmt: skip
