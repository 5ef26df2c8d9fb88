"""The map picture of a Highlander phase: the standard board drawn from the project's own
outlines (``mapshape``), centres in their owner's colour, units, and this phase's orders.

Drawing order matters for legibility: land and sea, borders, names and centre markers first;
then support and convoy lines, then move arrows, then the units on top, so that no order line
hides a unit; failure crosses come last because they are what a reader looks for.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import cache

from PIL import ImageDraw

from gm_daemon.games.highlander.diplomacy.board import IMPASSABLE, SEA, standard_board
from gm_daemon.games.highlander.mapshape import BEYOND, MapShape, Point, standard_shape
from gm_daemon.games.highlander.mapview import MapArrow, MapUnit, MapView
from gm_daemon.games.kit.picture import (
    BLACK,
    WHITE,
    Colour,
    ascii_text,
    canvas,
    font,
    png_bytes,
    seat_colour,
)

CELL = 10  # pixels per grid cell
HEADER = 30  # the title band above the map
FOOTER = 64  # the legend band below it
LABEL_SIZE = 11
TOKEN_R = 9  # half the size of a unit token
CENTRE_R = 5
DISLODGED_OFFSET = (1.4, 1.0)  # in cells, from the unit's place

SEA_FILL: Colour = (178, 207, 230)
LAND_FILL: Colour = (238, 229, 203)
BEYOND_FILL: Colour = (211, 206, 194)
IMPASSABLE_FILL: Colour = (190, 184, 172)
LAND_LINE: Colour = (128, 112, 90)
SEA_LINE: Colour = (139, 170, 199)
COAST_LINE: Colour = (52, 74, 104)
SEA_TEXT: Colour = (38, 70, 112)
LAND_TEXT: Colour = (62, 52, 40)
PAPER: Colour = (250, 248, 242)
FAIL: Colour = (200, 0, 0)


def size() -> tuple[int, int]:
    """The picture's size in pixels (the same for every view)."""
    shape = standard_shape()
    return shape.width * CELL, HEADER + shape.height * CELL + FOOTER


def px(point: Point) -> tuple[float, float]:
    """A point of the drawing (cell units) in picture pixels."""
    return point[0] * CELL, HEADER + point[1] * CELL


def render_map(view: MapView) -> bytes:
    """The view as a PNG of ``size()``; the same view always gives the same bytes."""
    shape = standard_shape()
    image, draw = canvas(*size(), background=PAPER)
    _regions(draw, shape, view.owners)
    _borders(draw, shape)
    _labels(draw)
    _centres(draw, shape, view.owners)
    _orders(draw, view)
    for unit in view.units:
        _token(draw, unit, unit_point(unit.location))
    for unit in view.dislodged:
        _token(draw, unit, dislodged_point(unit.location), dislodged=True)
    _failures(draw, view)
    _header(draw, view.title, view.notes)
    _legend(draw, view)
    return png_bytes(image, optimize=False)


# --- the board ---------------------------------------------------------------------------


def _fill(name: str, owners: Mapping[str, int | None]) -> Colour:
    if name == BEYOND:
        return BEYOND_FILL
    terrain = _terrain(name)
    if terrain == SEA:
        return SEA_FILL
    if terrain == IMPASSABLE:
        return IMPASSABLE_FILL
    owner = owners.get(name)
    return LAND_FILL if owner is None else _blend(LAND_FILL, seat_colour(owner), 0.28)


def _regions(draw: ImageDraw.ImageDraw, shape: MapShape, owners: Mapping[str, int | None]) -> None:
    """Seas first, so that islands and holes are painted over by what lies inside them."""
    for region in sorted(shape.regions, key=lambda r: _terrain(r.name) != SEA):
        draw.polygon([px(p) for p in region.outline], fill=_fill(region.name, owners))


def _borders(draw: ImageDraw.ImageDraw, shape: MapShape) -> None:
    styles = sorted((_border_style(b.between), b.points) for b in shape.borders)
    for (_, colour, width), points in styles:
        draw.line([px(p) for p in points], fill=colour, width=width, joint="curve")


def _border_style(between: tuple[str, str]) -> tuple[int, Colour, int]:
    """(drawing rank, colour, width): coasts are drawn last and thicker."""
    seas = sum(_terrain(name) == SEA for name in between)
    if seas == 2:
        return 0, SEA_LINE, 1
    if seas == 0:
        return 1, LAND_LINE, 1
    return 2, COAST_LINE, 2


def _labels(draw: ImageDraw.ImageDraw) -> None:
    for name, box in label_boxes().items():
        colour = SEA_TEXT if _terrain(name) == SEA else LAND_TEXT
        draw.text((box[0], box[1]), name, fill=colour, font=font(LABEL_SIZE), anchor="lt")


@cache
def label_boxes() -> Mapping[str, tuple[float, float, float, float]]:
    """Every province name's box in picture pixels, centred on its label point."""
    _, draw = canvas(1, 1)
    boxes = {}
    for name, place in standard_shape().places.items():
        if place.label is not None:
            width, height = _text_box(draw, name, LABEL_SIZE)
            x, y = px(place.label)
            boxes[name] = (x - width / 2, y - height / 2, x + width / 2, y + height / 2)
    return boxes


def _text_box(draw: ImageDraw.ImageDraw, text: str, size: int) -> tuple[float, float]:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font(size), anchor="lt")
    return right - left, bottom - top


def _centres(draw: ImageDraw.ImageDraw, shape: MapShape, owners: Mapping[str, int | None]) -> None:
    for name, place in shape.places.items():
        if place.centre is not None:
            owner = owners.get(name)
            fill = WHITE if owner is None else seat_colour(owner)
            _disc(draw, px(place.centre), CENTRE_R, fill, BLACK, 1)


# --- places of units ---------------------------------------------------------------------


def unit_point(location: str) -> tuple[float, float]:
    """Where a unit at ``location`` is drawn; a coast has its own point, and a province
    without one falls back to its label."""
    places = standard_shape().places
    place = places.get(location.upper()) or places[location.upper().split("/")[0]]
    point = place.unit or place.label
    assert point is not None, location
    return px(point)


def dislodged_point(location: str) -> tuple[float, float]:
    x, y = unit_point(location)
    return x + DISLODGED_OFFSET[0] * CELL, y + DISLODGED_OFFSET[1] * CELL


def _token(
    draw: ImageDraw.ImageDraw, unit: MapUnit, at: tuple[float, float], dislodged: bool = False
) -> None:
    """An army is a disc, a fleet a wide rounded box; a dislodged unit is hollow."""
    colour = seat_colour(unit.player)
    fill, ink, outline = (WHITE, colour, colour) if dislodged else (colour, WHITE, BLACK)
    x, y = at
    if unit.kind == "F":
        box = (x - TOKEN_R - 3, y - TOKEN_R + 2, x + TOKEN_R + 3, y + TOKEN_R - 2)
        draw.rounded_rectangle(box, 5, fill=fill, outline=outline, width=2 if dislodged else 1)
    else:
        _disc(draw, at, TOKEN_R, fill, outline, 2 if dislodged else 1)
    draw.text(at, unit.kind, fill=ink, font=font(12), anchor="mm")


# --- orders ------------------------------------------------------------------------------


def _orders(draw: ImageDraw.ImageDraw, view: MapView) -> None:
    """Supports and convoys under moves, moves under units."""
    for arrow in view.arrows:
        colour = _darker(_player_colour(view, arrow))
        if arrow.kind == "support":
            _support(draw, arrow, colour)
        elif arrow.kind == "convoy":
            _convoy(draw, arrow, colour)
    for arrow in view.arrows:
        colour = _darker(_player_colour(view, arrow))
        if arrow.kind == "move":
            _arrow(draw, unit_point(arrow.unit), unit_point(arrow.target), colour, 3)
        elif arrow.kind == "retreat":
            start = dislodged_point(arrow.unit)
            _arrow(draw, start, unit_point(arrow.target), colour, 2, hollow=True)
        elif arrow.kind == "hold":
            _ring(draw, unit_point(arrow.unit), TOKEN_R + 4, colour, 2)


def _support(draw: ImageDraw.ImageDraw, arrow: MapArrow, colour: Colour) -> None:
    start = unit_point(arrow.unit)
    if arrow.to is None:
        end = unit_point(arrow.target)
        _dashed(draw, _toward(start, end, TOKEN_R + 2), _toward(end, start, TOKEN_R + 4), colour)
        _ring(draw, end, TOKEN_R + 4, colour, 2)
        return
    end = unit_point(arrow.to)
    _dashed(draw, _toward(start, end, TOKEN_R + 2), _toward(end, start, TOKEN_R + 6), colour)
    _disc(draw, _toward(end, start, TOKEN_R + 6), 3, colour, colour, 1)


def _convoy(draw: ImageDraw.ImageDraw, arrow: MapArrow, colour: Colour) -> None:
    start = unit_point(arrow.unit)
    end = _convoy_mark(arrow)
    _dashed(draw, _toward(start, end, TOKEN_R + 2), end, colour, dash=3, gap=4)
    _ring(draw, end, 5, colour, 2)


def _convoy_mark(arrow: MapArrow) -> tuple[float, float]:
    """The middle of the convoyed army's path (or the army itself if no destination)."""
    army = unit_point(arrow.target)
    if arrow.to is None:
        return army
    return _mid(army, unit_point(arrow.to))


def _failures(draw: ImageDraw.ImageDraw, view: MapView) -> None:
    for arrow in view.arrows:
        if arrow.failed:
            _cross(draw, failure_point(arrow))


def failure_point(arrow: MapArrow) -> tuple[float, float]:
    """Where a failed order's cross goes: on its line, or on the unit for a hold."""
    start = unit_point(arrow.unit)
    if arrow.kind == "hold":
        return start
    if arrow.kind == "retreat":
        return _mid(dislodged_point(arrow.unit), unit_point(arrow.target))
    if arrow.kind == "convoy":
        return _mid(start, _convoy_mark(arrow))
    if arrow.kind == "support" and arrow.to is not None:
        return _mid(start, unit_point(arrow.to))
    return _mid(start, unit_point(arrow.target))


def _player_colour(view: MapView, arrow: MapArrow) -> Colour:
    units = view.dislodged if arrow.kind == "retreat" else view.units
    province = arrow.unit.upper().split("/")[0]
    for unit in units:
        if unit.location.upper().split("/")[0] == province:
            return seat_colour(unit.player)
    return BLACK


# --- header and legend -------------------------------------------------------------------


def _header(draw: ImageDraw.ImageDraw, title: str, notes: Sequence[str]) -> None:
    """The title on the left, the notes (board, match score) on the right."""
    width, _ = size()
    draw.rectangle((0, 0, width, HEADER - 1), fill=PAPER)
    draw.line((0, HEADER - 1, width, HEADER - 1), fill=COAST_LINE, width=1)
    draw.text((10, HEADER / 2), ascii_text(title), fill=BLACK, font=font(16), anchor="lm")
    text = ascii_text("  |  ".join(notes))
    draw.text((width - 10, HEADER / 2), text, fill=BLACK, font=font(13), anchor="rm")


def _legend(draw: ImageDraw.ImageDraw, view: MapView) -> None:
    width, height = size()
    top = height - FOOTER
    draw.line((0, top, width, top), fill=COAST_LINE, width=1)
    for seat, name in enumerate(view.players):
        y = top + 16 + seat * 22
        count = sum(owner == seat for owner in view.owners.values())
        _token(draw, MapUnit(seat, "A", ""), (20, y))
        _disc(draw, (40, y), CENTRE_R, seat_colour(seat), BLACK, 1)
        draw.text(
            (52, y), ascii_text(f"{count:2d}  {name}"), fill=BLACK, font=font(13), anchor="lm"
        )
    _key(draw, 330, top + 14)


def _key(draw: ImageDraw.ImageDraw, left: float, top: float) -> None:
    """What the marks mean, in both languages of the game."""
    ink = (60, 60, 60)
    rows = (
        ("Zug / move", lambda a, b: _arrow(draw, a, b, ink, 3, shorten=False)),
        ("Unterstützung / support", lambda a, b: _dashed(draw, a, b, ink)),
        ("Konvoi / convoy", lambda a, b: _dashed(draw, a, b, ink, dash=3, gap=4)),
        ("Rückzug / retreat", lambda a, b: _arrow(draw, a, b, ink, 2, hollow=True, shorten=False)),
    )
    for i, (text, sample) in enumerate(rows):
        x, y = left + (i // 2) * 210, top + (i % 2) * 22
        sample((x, y), (x + 34, y))
        draw.text((x + 42, y), ascii_text(text), fill=BLACK, font=font(12), anchor="lm")
    x = left + 420
    _cross(draw, (x + 8, top))
    draw.text(
        (x + 22, top), ascii_text("gescheitert / failed"), fill=BLACK, font=font(12), anchor="lm"
    )
    _token(draw, MapUnit(0, "A", ""), (x + 8, top + 22), dislodged=True)
    draw.text(
        (x + 22, top + 22),
        ascii_text("vertrieben / dislodged"),
        fill=BLACK,
        font=font(12),
        anchor="lm",
    )


# --- marks -------------------------------------------------------------------------------


def _arrow(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    colour: Colour,
    width: int,
    hollow: bool = False,
    shorten: bool = True,
) -> None:
    """A line with a head, from the edge of the unit to the edge of the target's token, on a
    white halo so that it stays readable across borders and names."""
    if shorten:
        start, end = _toward(start, end, TOKEN_R + 1), _toward(end, start, TOKEN_R + 1)
    head = _head(start, end, 6 + width)
    neck = _toward(end, start, 8 + width)
    draw.line((start, neck), fill=WHITE, width=width + 3)
    draw.polygon(head, fill=WHITE, outline=WHITE, width=3)
    draw.line((start, neck), fill=colour, width=width)
    draw.polygon(head, fill=WHITE if hollow else colour, outline=colour, width=2)


def _head(
    start: tuple[float, float], end: tuple[float, float], length: float
) -> list[tuple[float, float]]:
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    left = (end[0] - length * math.cos(angle - 0.45), end[1] - length * math.sin(angle - 0.45))
    right = (end[0] - length * math.cos(angle + 0.45), end[1] - length * math.sin(angle + 0.45))
    return [end, left, right]


def _dashed(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    colour: Colour,
    dash: float = 7,
    gap: float = 5,
) -> None:
    length = math.dist(start, end)
    for offset in _steps(length, dash + gap):
        a = _along(start, end, offset / length)
        b = _along(start, end, min(offset + dash, length) / length)
        draw.line((a, b), fill=WHITE, width=5)
        draw.line((a, b), fill=colour, width=2)


def _steps(length: float, step: float) -> Iterable[float]:
    offset = 0.0
    while offset < length:
        yield offset
        offset += step


def _cross(draw: ImageDraw.ImageDraw, at: tuple[float, float]) -> None:
    x, y = at
    for a, b in (((x - 6, y - 6), (x + 6, y + 6)), ((x - 6, y + 6), (x + 6, y - 6))):
        draw.line((a, b), fill=WHITE, width=6)
    for a, b in (((x - 6, y - 6), (x + 6, y + 6)), ((x - 6, y + 6), (x + 6, y - 6))):
        draw.line((a, b), fill=FAIL, width=3)


def _disc(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    radius: float,
    fill: Colour,
    outline: Colour,
    width: int,
) -> None:
    x, y = at
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill, outline, width)


def _ring(
    draw: ImageDraw.ImageDraw, at: tuple[float, float], radius: float, colour: Colour, width: int
) -> None:
    x, y = at
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), None, colour, width)


# --- small helpers -----------------------------------------------------------------------


def _terrain(name: str) -> str:
    board = standard_board()
    return board.terrain[board.tokens[name]] if name in board.tokens else BEYOND


def _toward(
    start: tuple[float, float], end: tuple[float, float], distance: float
) -> tuple[float, float]:
    length = math.dist(start, end)
    return start if length == 0 else _along(start, end, min(distance / length, 0.5))


def _along(start: tuple[float, float], end: tuple[float, float], t: float) -> tuple[float, float]:
    return start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t


def _mid(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    return _along(a, b, 0.5)


def _blend(base: Colour, tint: Colour, share: float) -> Colour:
    r, g, b = (round(x * (1 - share) + y * share) for x, y in zip(base, tint, strict=True))
    return r, g, b


def _darker(colour: Colour) -> Colour:
    r, g, b = (round(x * 0.8) for x in colour)
    return r, g, b
