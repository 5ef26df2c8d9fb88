"""The board as a PNG: each player a colour, trails pale, positions solid, a coordinate grid.

Rendering uses only Pillow's built-in font and fixed colours, and PNG output carries no
timestamp, so the same state always gives the same bytes (with the same Pillow build).
"""

from __future__ import annotations

import colorsys
import io
import unicodedata

from PIL import Image, ImageDraw, ImageFont

from gm_daemon.games.primtraktor.model import State, Tractor
from gm_daemon.games.primtraktor.texts import say

_PALETTE = [
    (230, 25, 75), (60, 140, 60), (0, 90, 200), (245, 130, 48), (145, 30, 180),
    (0, 160, 160), (120, 120, 0), (160, 80, 40), (240, 50, 230), (0, 0, 128),
    (128, 0, 0), (90, 90, 90),
]  # fmt: skip
_BACKGROUND = (255, 255, 255)
_GRID = (225, 225, 225)
_GRID_MAJOR = (170, 170, 170)
_INK = (0, 0, 0)
_MARGIN = 30
_LEGEND_LIMIT = 26
# The built-in font has no umlauts: names are written the way a typewriter would.
_ASCII = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"}
)


def ascii_name(name: str) -> str:
    """ "Bert Bär" -> "Bert Baer"; other accents dropped, anything else left out."""
    decomposed = unicodedata.normalize("NFKD", name.translate(_ASCII))
    return "".join(c for c in decomposed if c.isascii() and not unicodedata.combining(c))


def colour(index: int) -> tuple[int, int, int]:
    """A fixed palette first, then hues spread by the golden angle so neighbours differ."""
    if index < len(_PALETTE):
        return _PALETTE[index]
    hue = (index * 0.618033988749895) % 1.0
    r, g, b = colorsys.hsv_to_rgb(hue, 0.75, 0.8)
    return (round(r * 255), round(g * 255), round(b * 255))


def _pale(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = rgb
    return ((r + 2 * 255) // 3, (g + 2 * 255) // 3, (b + 2 * 255) // 3)


def cell_pixels(size: int) -> int:
    return max(2, min(14, 1000 // size))


class _Canvas:
    """Board coordinates to pixels: cell (x, y) is a square of ``px`` below the margins."""

    def __init__(self, state: State):
        self.size = state.options.board
        self.px = cell_pixels(self.size)
        legend_rows = len(state.tractors) if len(state.tractors) <= _LEGEND_LIMIT else 0
        side = _MARGIN + self.size * self.px + 10
        self.image = Image.new("RGB", (side, side + 16 * legend_rows + 10), _BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.font = ImageFont.load_default(size=10)

    def box(self, x: int, y: int) -> tuple[int, int, int, int]:
        """The inside of a cell; with room for grid lines, the line pixels stay free."""
        inset = 1 if self.px >= 6 else 0
        left = _MARGIN + (x - 1) * self.px + inset
        top = _MARGIN + (y - 1) * self.px + inset
        return (left, top, left + self.px - 1 - inset, top + self.px - 1 - inset)


def _draw_grid(canvas: _Canvas) -> None:
    size, px, end = canvas.size, canvas.px, _MARGIN + canvas.size * canvas.px
    label_every = 5 if px >= 8 else 10 if px >= 4 else 50
    for i in range(size + 1):
        major = i % 5 == 0
        if px < 6 and not major:
            continue
        line = _GRID_MAJOR if major else _GRID
        at = _MARGIN + i * px
        canvas.draw.line([(at, _MARGIN), (at, end)], fill=line)
        canvas.draw.line([(_MARGIN, at), (end, at)], fill=line)
    for n in [1, *range(label_every, size + 1, label_every)]:
        centre = _MARGIN + (n - 1) * px + px // 2
        canvas.draw.text((centre, _MARGIN - 4), str(n), fill=_INK, font=canvas.font, anchor="ms")
        canvas.draw.text((_MARGIN - 4, centre), str(n), fill=_INK, font=canvas.font, anchor="rm")


def _draw_tractor(canvas: _Canvas, tractor: Tractor, index: int) -> None:
    rgb = colour(index)
    for x, y in tractor.trail[:-1]:
        canvas.draw.rectangle(canvas.box(x, y), fill=_pale(rgb))
    box = canvas.box(*tractor.position)
    outline = _INK if canvas.px >= 6 else None
    canvas.draw.rectangle(box, fill=rgb, outline=outline)
    if not tractor.active and canvas.px >= 6:
        canvas.draw.line([box[:2], box[2:]], fill=_INK)
        canvas.draw.line([(box[0], box[3]), (box[2], box[1])], fill=_INK)


def _draw_legend(canvas: _Canvas, state: State, lang: str) -> None:
    if len(state.tractors) > _LEGEND_LIMIT:
        return
    top = _MARGIN + canvas.size * canvas.px + 12
    for index, tractor in enumerate(state.tractors):
        y = top + 16 * index
        canvas.draw.rectangle((_MARGIN, y, _MARGIN + 10, y + 10), fill=colour(index))
        status = "" if tractor.active else say(lang, "picture_out")
        cells = say(lang, "picture_cells", count=tractor.cells)
        label = f"{tractor.letter}  {ascii_name(tractor.name)}  {cells}{status}"
        canvas.draw.text((_MARGIN + 16, y), label, fill=_INK, font=canvas.font)


def render_png(state: State, lang: str = "de") -> bytes:
    canvas = _Canvas(state)
    _draw_grid(canvas)
    for index, tractor in enumerate(state.tractors):
        _draw_tractor(canvas, tractor, index)
    _draw_legend(canvas, state, lang)
    out = io.BytesIO()
    canvas.image.save(out, format="PNG", optimize=False)
    return out.getvalue()
