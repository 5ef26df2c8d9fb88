"""The map picture of a Highlander phase: the standard board drawn from the project's own
outlines (``mapshape``), centres in their owner's colour, units, and this phase's orders.

Drawing order matters for legibility: land and sea, borders and centre markers first; then
support and convoy lines, then move arrows; then the names on a halo of their province's
colour, so that an arrow across a province never hides its name; then the units on top, so
that no order line hides a unit; failure crosses come last because they are what a reader
looks for. An order of a unit that was dislodged starts at its hollow token beside the
province, where its cross goes as well: the attacker standing in the province now is not the
one that failed. Every word is in the game's language.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache, partial

from PIL import ImageDraw

from gm_daemon.diplomacy import IMPASSABLE, SEA, standard_board
from gm_daemon.games.highlander.mapshape import BEYOND, MapShape, Point, contains, standard_shape
from gm_daemon.games.highlander.mapview import MapArrow, MapUnit, MapView
from gm_daemon.games.highlander.wording import PHRASES
from gm_daemon.games.kit.picture import (
    BLACK,
    WHITE,
    Box,
    Colour,
    canvas,
    draw_label,
    font,
    free_box,
    label_box,
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
    _centres(draw, shape, view.owners)
    _orders(draw, view)
    _labels(draw, view.owners)
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


def _labels(draw: ImageDraw.ImageDraw, owners: Mapping[str, int | None]) -> None:
    for name, box in label_boxes().items():
        colour = SEA_TEXT if _terrain(name) == SEA else LAND_TEXT
        draw_label(draw, box, name, LABEL_SIZE, colour, halo=_fill(name, owners))


@cache
def label_boxes() -> Mapping[str, Box]:
    """Every province name's box in picture pixels, centred on its label point."""
    return {
        name: label_box(name, LABEL_SIZE, px(place.label))
        for name, place in standard_shape().places.items()
        if place.label is not None
    }


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
    """Beside the unit's place, where the hollow token, its hold ring and its cross hide no
    name, no centre marker and no other unit (``kit.picture.free_box``, the same layout
    that keeps every label clear)."""
    return _dislodged_points()[location.upper()]


@cache
def _dislodged_points() -> Mapping[str, tuple[float, float]]:
    places = standard_shape().places
    standing = [name for name, place in places.items() if place.unit is not None]
    width, height = size()
    bounds = (0.0, float(HEADER), float(width), float(height - FOOTER))
    taken = [*label_boxes().values(), *_centre_boxes(), *(token_box(n) for n in standing)]
    side = 2 * (TOKEN_R + 4) + 2  # the hold ring around the token
    points = {}
    for name in standing:
        x, y = unit_point(name)
        outline = standard_shape().region(name.split("/")[0]).outline
        own = partial(_within, outline)
        box = free_box((side, side), (x, y), taken, bounds, 3, own)  # in its own province
        box = box or free_box((side, side), (x, y), taken, bounds, step=3)
        if box is None:
            points[name] = (x + DISLODGED_OFFSET[0] * CELL, y + DISLODGED_OFFSET[1] * CELL)
        else:
            points[name] = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            taken.append(box)
    return points


def _within(outline: tuple[Point, ...], at: tuple[float, float]) -> bool:
    return contains(outline, (at[0] / CELL, (at[1] - HEADER) / CELL))


def token_box(location: str) -> Box:
    """The box a unit's token covers (a fleet's is the wider one)."""
    x, y = unit_point(location)
    return x - TOKEN_R - 3, y - TOKEN_R, x + TOKEN_R + 3, y + TOKEN_R


def _centre_boxes() -> list[Box]:
    boxes = []
    for place in standard_shape().places.values():
        if place.centre is not None:
            x, y = px(place.centre)
            r = CENTRE_R + 1
            boxes.append((x - r, y - r, x + r, y + r))
    return boxes


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
        start, colour = origin(view, arrow)
        if arrow.kind == "support":
            _support(draw, arrow, start, _darker(colour))
        elif arrow.kind == "convoy":
            _convoy(draw, arrow, start, _darker(colour))
    for arrow in view.arrows:
        start, colour = origin(view, arrow)
        if arrow.kind in ("move", "retreat"):
            hollow = arrow.kind == "retreat"
            width = 2 if hollow else 3
            a, b = move_ends(start, arrow.target)
            _arrow(draw, a, b, _darker(colour), width, hollow, shorten=False)
        elif arrow.kind == "hold":
            _ring(draw, start, TOKEN_R + 4, _darker(colour), 2)


def move_ends(
    start: tuple[float, float], target: str
) -> tuple[tuple[float, float], tuple[float, float]]:
    """A move's arrow from the edge of the unit to the edge of the target's token, or, when
    it would run into the target's name, to the edge of the name: the arrow points at the
    name and its head covers no letter."""
    end = unit_point(target)
    first = _toward(start, end, TOKEN_R + 1)
    length = math.dist(start, end)
    box = label_boxes().get(target.upper().split("/")[0])
    distance = TOKEN_R + 1.0
    while box is not None and distance < length - TOKEN_R - 16:
        tip = _toward(end, start, distance)
        if not any(_near_box(p, box, 2) for p in _head(first, tip, 6 + 3)):
            return first, tip
        distance += 1
    return first, _toward(end, start, TOKEN_R + 1)


def _near_box(point: tuple[float, float], box: Box, margin: float) -> bool:
    x, y = point
    return box[0] - margin <= x <= box[2] + margin and box[1] - margin <= y <= box[3] + margin


def origin(view: MapView, arrow: MapArrow) -> tuple[tuple[float, float], Colour]:
    """Where an order's mark starts and whose colour it has: the unit that gave it. A unit
    dislodged this phase is drawn beside its province (a retreat is its own order); one
    that moved away stands at its target now."""
    province = _province(arrow.unit)
    for unit in view.dislodged:
        if _province(unit.location) == province:
            return dislodged_point(arrow.unit), seat_colour(unit.player)
    retreat = arrow.kind == "retreat"
    start = dislodged_point(arrow.unit) if retreat else unit_point(arrow.unit)
    moved = arrow.kind in ("move", "retreat") and not arrow.failed
    now = _province(arrow.target if moved else arrow.unit)
    if retreat and not moved:
        return start, BLACK  # disbanded: nobody's unit is left
    for unit in view.units:
        if _province(unit.location) == now:
            return start, seat_colour(unit.player)
    return start, BLACK


def _province(location: str) -> str:
    return location.upper().split("/")[0]


def _support(
    draw: ImageDraw.ImageDraw, arrow: MapArrow, start: tuple[float, float], colour: Colour
) -> None:
    if arrow.to is None:
        end = unit_point(arrow.target)
        _dashed(draw, _toward(start, end, TOKEN_R + 2), _toward(end, start, TOKEN_R + 4), colour)
        _ring(draw, end, TOKEN_R + 4, colour, 2)
        return
    end = unit_point(arrow.to)
    _dashed(draw, _toward(start, end, TOKEN_R + 2), _toward(end, start, TOKEN_R + 6), colour)
    _disc(draw, _toward(end, start, TOKEN_R + 6), 3, colour, colour, 1)


def _convoy(
    draw: ImageDraw.ImageDraw, arrow: MapArrow, start: tuple[float, float], colour: Colour
) -> None:
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
            _cross(draw, failure_point(view, arrow))


def failure_point(view: MapView, arrow: MapArrow) -> tuple[float, float]:
    """Where a failed order's cross goes: on its line, or on the unit for a hold."""
    start, _ = origin(view, arrow)
    if arrow.kind == "hold":
        return start
    if arrow.kind == "convoy":
        return _mid(start, _convoy_mark(arrow))
    if arrow.kind == "support" and arrow.to is not None:
        return _mid(start, unit_point(arrow.to))
    return _mid(start, unit_point(arrow.target))


# --- header and legend -------------------------------------------------------------------


def _header(draw: ImageDraw.ImageDraw, title: str, notes: Sequence[str]) -> None:
    """The title on the left, the notes (board, match score) on the right."""
    width, _ = size()
    draw.rectangle((0, 0, width, HEADER - 1), fill=PAPER)
    draw.line((0, HEADER - 1, width, HEADER - 1), fill=COAST_LINE, width=1)
    draw.text((10, HEADER / 2), title, fill=BLACK, font=font(16), anchor="lm")
    text = "  |  ".join(notes)
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
        draw.text((52, y), f"{count:2d}  {name}", fill=BLACK, font=font(13), anchor="lm")
    for (x, y), (sample, text) in zip(key_places(top), _key_rows(draw), strict=True):
        sample((x, y), (x + 34, y))
        draw.text((x + 42, y), PHRASES(view.lang, text), fill=BLACK, font=font(KEY_SIZE),
                  anchor="lm")  # fmt: skip


KEY_SIZE = 12
KEY_LEFT = 430  # the key keeps to the right: the players' names have the room on the left
KEY_COLUMN = 170
KEY_ROWS = 2


def key_places(top: float) -> list[tuple[float, float]]:
    """Where each sample of the key stands, column by column, two rows each."""
    return [
        (KEY_LEFT + (i // KEY_ROWS) * KEY_COLUMN, top + 14 + (i % KEY_ROWS) * 22)
        for i in range(len(KEY_WORDS))
    ]


KEY_WORDS = (
    "map_key_move",
    "map_key_support",
    "map_key_convoy",
    "map_key_retreat",
    "map_key_hold",
    "map_key_failed",
    "map_key_dislodged",
)


def _key_rows(draw: ImageDraw.ImageDraw) -> list[tuple[Callable[..., None], str]]:
    """What the marks mean: a sample of each mark beside its word, in ``KEY_WORDS`` order."""
    ink = (60, 60, 60)
    token = MapUnit(0, "A", "")

    def held(a: tuple[float, float], b: tuple[float, float]) -> None:
        _token(draw, token, _mid(a, b))
        _ring(draw, _mid(a, b), TOKEN_R + 4, ink, 2)

    def failed(a: tuple[float, float], b: tuple[float, float]) -> None:
        _cross(draw, _mid(a, b))

    def dislodged(a: tuple[float, float], b: tuple[float, float]) -> None:
        _token(draw, token, _mid(a, b), dislodged=True)

    samples: list[Callable[..., None]] = [
        lambda a, b: _arrow(draw, a, b, ink, 3, shorten=False),
        lambda a, b: _dashed(draw, a, b, ink),
        lambda a, b: _dashed(draw, a, b, ink, dash=3, gap=4),
        lambda a, b: _arrow(draw, a, b, ink, 2, hollow=True, shorten=False),
        held,
        failed,
        dislodged,
    ]
    return list(zip(samples, KEY_WORDS, strict=True))


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
    white halo so that it stays readable across borders."""
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
