"""The map picture: the drawing's geometry (outlines, places, labels) and rendered PNGs."""

from __future__ import annotations

import io
import itertools
import math
from dataclasses import replace

import pytest
from PIL import Image

from gm_daemon.diplomacy import IMPASSABLE, standard_board
from gm_daemon.games.highlander import picture
from gm_daemon.games.highlander.mapshape import (
    BEYOND,
    MapShapeError,
    build_shape,
    contains,
    shared_edges,
    standard_shape,
)
from gm_daemon.games.highlander.mapview import MapArrow, MapUnit, MapView
from gm_daemon.games.highlander.wording import PHRASES
from gm_daemon.games.kit.picture import WHITE, clashes, label_box, overlap, seat_colour

BOARD = standard_board()
SHAPE = standard_shape()
PROVINCES = BOARD.names[: BOARD.n_provinces]
CENTRES = sorted(BOARD.names[p] for p in BOARD.supply_centers)
# Where a unit can stand: every province but Switzerland, and the six named coasts.
STANDING = [
    n for n in BOARD.names if BOARD.terrain[BOARD.province_of[BOARD.tokens[n]]] != IMPASSABLE
]
TOKEN_HALF = (picture.TOKEN_R + 3, picture.TOKEN_R)  # a fleet's box is the wider token


def _inside_image(x: float, y: float) -> bool:
    width, height = picture.size()
    return 0 <= x < width and picture.HEADER <= y < height - picture.FOOTER


def _token_box(location: str) -> tuple[float, float, float, float]:
    x, y = picture.unit_point(location)
    return x - TOKEN_HALF[0], y - TOKEN_HALF[1], x + TOKEN_HALF[0], y + TOKEN_HALF[1]


def _centre_box(name: str) -> tuple[float, float, float, float]:
    centre = SHAPE.places[name].centre
    assert centre is not None
    x, y = picture.px(centre)
    r = picture.CENTRE_R + 1
    return x - r, y - r, x + r, y + r


def _neighbour_pairs() -> set[frozenset[str]]:
    pairs = set()
    for loc in range(len(BOARD.names)):
        province = BOARD.names[BOARD.province_of[loc]]
        for other in BOARD.fleet_reach[loc] | (
            BOARD.army_adj[loc] if loc < BOARD.n_provinces else set()
        ):
            pairs.add(frozenset((province, BOARD.names[other])))
    return pairs


# --- the drawing's data --------------------------------------------------------------------


def test_every_province_is_one_region_and_beyond_is_not_a_province():
    names = [r.name for r in SHAPE.regions if r.name != BEYOND]
    assert sorted(names) == sorted(PROVINCES)


def test_every_label_and_centre_marker_is_inside_the_image():
    boxes = picture.label_boxes()
    assert sorted(boxes) == sorted(PROVINCES)
    for name, (left, top, right, bottom) in boxes.items():
        assert _inside_image(left, top) and _inside_image(right, bottom), name
    for name in CENTRES:
        left, top, right, bottom = _centre_box(name)
        assert _inside_image(left, top) and _inside_image(right, bottom), name


def test_no_two_province_labelsoverlap():
    boxes = picture.label_boxes()
    clashes = [
        (a, b) for a, b in itertools.combinations(sorted(boxes), 2) if overlap(boxes[a], boxes[b])
    ]
    assert clashes == []


def test_every_label_and_centre_marker_lies_in_its_own_province():
    for name in PROVINCES:
        outline = SHAPE.region(name).outline
        place = SHAPE.places[name]
        assert place.label is not None and contains(outline, place.label), name
        if name in CENTRES:
            assert place.centre is not None and contains(outline, place.centre), name
        else:
            assert place.centre is None, name


def test_every_location_has_a_unit_anchor_inside_its_provinces_outline():
    assert len(STANDING) == 75 + 6
    for location in STANDING:
        anchor = SHAPE.places[location].unit
        province = location.split("/")[0]
        assert anchor is not None, location
        assert contains(SHAPE.region(province).outline, anchor), location


def test_coasts_are_drawn_apart_from_each_other_and_from_the_army_place():
    for province in ("SPA", "STP", "BUL"):
        spots = [picture.unit_point(n) for n in STANDING if n.split("/")[0] == province]
        for a, b in itertools.combinations(spots, 2):
            assert math.dist(a, b) > 2 * TOKEN_HALF[0], province


def test_a_unit_hides_no_name_and_no_centre_marker():
    boxes = picture.label_boxes()
    for location in STANDING:
        token = _token_box(location)
        assert [n for n, box in boxes.items() if overlap(token, box)] == [], location
        assert [n for n in CENTRES if overlap(token, _centre_box(n))] == [], location


def test_a_dislodged_token_with_its_ring_hides_no_name_no_centre_and_no_other_unit():
    """Its place is laid out by ``kit.picture.free_box``: close to the unit, inside its own
    province where there is room."""
    boxes = picture.label_boxes()
    tokens = {n: _token_box(n) for n in STANDING}
    spots = {}
    for location in STANDING:
        x, y = picture.dislodged_point(location)
        r = picture.TOKEN_R + 4 + 1  # the hold ring
        spot = (x - r, y - r, x + r, y + r)
        spots[location] = spot
        assert [n for n, box in boxes.items() if overlap(spot, box)] == [], location
        assert [n for n in CENTRES if overlap(spot, _centre_box(n))] == [], location
        assert [n for n, box in tokens.items() if overlap(spot, box)] == [], location
        assert math.dist((x, y), picture.unit_point(location)) <= 5 * picture.CELL, location
    assert clashes(spots) == []
    inside_own = [
        n
        for n in STANDING
        if contains(SHAPE.region(n.split("/")[0]).outline, _cells(picture.dislodged_point(n)))
    ]
    assert len(inside_own) >= len(STANDING) - 3  # all but the smallest provinces


def _cells(point: tuple[float, float]) -> tuple[float, float]:
    return point[0] / picture.CELL, (point[1] - picture.HEADER) / picture.CELL


def test_neighbours_share_a_border_in_the_drawing():
    shared = shared_edges(SHAPE)
    pairs = _neighbour_pairs()
    land = {p for p in pairs if all(BOARD.terrain[BOARD.tokens[n]] != "sea" for n in p)}
    assert len(land) > 50
    assert sum(p in shared for p in land) / len(land) >= 0.95
    assert sum(p in shared for p in pairs) / len(pairs) >= 0.95


def test_every_neighbour_pair_is_drawn_within_a_small_distance():
    for pair in _neighbour_pairs():
        a, b = (SHAPE.region(n).outline for n in sorted(pair))
        gap = min(math.dist(p, q) for p in a for q in b)
        assert gap * picture.CELL <= 3, sorted(pair)


def test_provinces_that_are_not_neighbours_share_no_border():
    """A shared border on the picture reads as "adjacent", so it must be one."""
    pairs = _neighbour_pairs()
    wrong = [
        sorted(pair)
        for pair in shared_edges(SHAPE)
        if pair not in pairs and not pair & {"SWI", BEYOND}
    ]
    assert wrong == []


@pytest.mark.parametrize(
    ("grid", "problem"),
    [
        ("PAR XYZ\n", "unknown 'XYZ'"),
        ("PAR PAR\nPAR\n", "1 cells"),
        ("PAR BUR\nBUR PAR\n", "only diagonally"),
    ],
)
def test_a_broken_grid_is_refused_with_the_reason(grid: str, problem: str):
    with pytest.raises(MapShapeError, match=problem):
        build_shape(grid, "location,label_x,label_y,unit_x,unit_y,centre_x,centre_y\n")


# --- rendering ---------------------------------------------------------------------------


def _view(arrows: tuple[MapArrow, ...] = (), dislodged: tuple[MapUnit, ...] = ()) -> MapView:
    owners: dict[str, int | None] = dict.fromkeys(CENTRES)
    owners.update(LON=0, PAR=0, MUN=0, MOS=1, VIE=1, CON=1)
    units = (
        MapUnit(0, "F", "LON"),
        MapUnit(0, "A", "BUR"),
        MapUnit(0, "A", "MUN"),
        MapUnit(1, "A", "TYR"),
        MapUnit(1, "F", "STP/NC"),
        MapUnit(1, "F", "BUL/EC"),
    )
    return MapView(
        title="Highlander – Frühjahr 1902",
        players=("Jörg Müller", "Ann Smith"),
        owners=owners,
        units=units,
        arrows=arrows,
        dislodged=dislodged,
        notes=("Brett A / board A",),
    )


def _image(view: MapView) -> Image.Image:
    image = Image.open(io.BytesIO(picture.render_map(view)))
    image.load()
    return image


def _pixel(image: Image.Image, point: tuple[float, float]) -> tuple[int, ...]:
    return image.getpixel((round(point[0]), round(point[1])))


def test_a_rendering_is_a_png_of_the_expected_size_with_centres_in_their_owners_colour():
    image = _image(_view())
    assert image.format == "PNG"
    assert image.size == picture.size()
    for name, colour in (("LON", seat_colour(0)), ("MOS", seat_colour(1)), ("BEL", WHITE)):
        centre = SHAPE.places[name].centre
        assert centre is not None
        assert _pixel(image, picture.px(centre)) == colour, name


def test_units_stand_on_their_places_in_their_players_colour():
    image = _image(_view())
    for location, player in (("BUR", 0), ("TYR", 1), ("STP/NC", 1)):
        x, y = picture.unit_point(location)
        assert _pixel(image, (x - picture.TOKEN_R + 3, y)) == seat_colour(player), location


def test_a_failed_order_is_crossed_out_and_a_move_draws_its_arrow():
    move = MapArrow("move", "TYR", "MUN", failed=True)
    support = MapArrow("support", "BUR", "MUN")
    image = _image(_view(arrows=(move, support)))
    view = _view(arrows=(move, support))
    assert _pixel(image, picture.failure_point(view, move)) == picture.FAIL
    plain = _image(_view(arrows=(MapArrow("move", "TYR", "MUN"), support)))
    assert _pixel(plain, picture.failure_point(view, move)) != picture.FAIL
    assert plain.tobytes() != _image(_view()).tobytes()


def test_a_dislodged_unit_is_drawn_hollow_beside_its_province():
    unit = MapUnit(1, "A", "MUN")
    image = _image(_view(dislodged=(unit,), arrows=(MapArrow("retreat", "MUN", "BOH"),)))
    x, y = picture.dislodged_point("MUN")
    assert _pixel(image, (x + picture.TOKEN_R - 1, y)) == seat_colour(1)
    assert _pixel(image, (x - picture.TOKEN_R + 3, y)) == WHITE


def test_the_same_view_gives_the_same_bytes_even_after_rebuilding_the_drawing():
    view = _view(arrows=(MapArrow("move", "TYR", "MUN", failed=True),))
    first = picture.render_map(view)
    standard_shape.cache_clear()
    picture.label_boxes.cache_clear()
    assert picture.render_map(view) == first


def test_a_failed_hold_of_a_dislodged_unit_is_crossed_beside_the_province_not_on_the_winner():
    """MUN held and was dislodged by TYR: the cross and the hold ring belong to the hollow
    token beside MUN, the attacker now standing in MUN is drawn untouched."""
    hold = MapArrow("hold", "MUN", "MUN", failed=True)
    winner = MapUnit(1, "A", "MUN")
    units = (*(u for u in _view().units if u.location != "MUN"), winner)
    view = replace(
        _view(arrows=(hold, MapArrow("move", "TYR", "MUN"))),
        units=units,
        dislodged=(MapUnit(0, "A", "MUN"),),
    )
    image = _image(view)
    assert picture.failure_point(view, hold) == picture.dislodged_point("MUN")
    assert _pixel(image, picture.dislodged_point("MUN")) == picture.FAIL
    x, y = picture.unit_point("MUN")
    assert _pixel(image, (x - picture.TOKEN_R + 3, y)) == seat_colour(1)
    inner = picture.TOKEN_R - 3
    assert picture.FAIL not in _colours(image, (x - inner, y - inner, x + inner, y + inner))
    start, colour = picture.origin(view, hold)
    assert start == picture.dislodged_point("MUN") and colour == seat_colour(0)


def test_a_move_keeps_its_players_colour_after_it_succeeded():
    view = _view(arrows=(MapArrow("move", "TYR", "MUN"),))
    moved = replace(view, units=(MapUnit(1, "A", "MUN"),))
    assert picture.origin(moved, view.arrows[0]) == (picture.unit_point("TYR"), seat_colour(1))


@pytest.mark.parametrize("arrow", [("ROM", "VEN"), ("VEN", "ROM"), ("MUN", "BOH"), ("NTH", "HEL")])
def test_an_arrow_across_a_province_never_hides_its_name(arrow: tuple[str, str]):
    """The names are drawn after the order lines, on a halo of their province's colour:
    every pixel of a name's letters is still the name's colour with the arrow drawn."""
    start, target = arrow
    plain = _image(_view())
    crossed = _image(_view(arrows=(MapArrow("move", start, target),)))
    assert plain.tobytes() != crossed.tobytes()
    for name in (start, target):
        box = tuple(round(v) for v in picture.label_boxes()[name])
        letters = {
            (x, y)
            for x in range(box[0], box[2])
            for y in range(box[1], box[3])
            if plain.getpixel((x, y)) in (picture.LAND_TEXT, picture.SEA_TEXT)
        }
        assert letters, name
        assert all(crossed.getpixel(p) == plain.getpixel(p) for p in letters), name


@pytest.mark.parametrize(("start", "target"), [("BER", "MUN"), ("BUD", "SER"), ("TYR", "MUN")])
def test_a_move_with_room_points_at_the_name_and_its_head_covers_no_letter(start, target):
    """The arrow stops before the target's name when it would run into it, so the name (on
    top) never hides the head."""
    a, tip = picture.move_ends(picture.unit_point(start), target)
    box = picture.label_boxes()[target]
    head = picture._head(a, tip, 9)
    near = [
        p for p in head if box[0] - 1 <= p[0] <= box[2] + 1 and box[1] - 1 <= p[1] <= box[3] + 1
    ]
    assert near == [], target
    assert math.dist(tip, picture.unit_point(target)) <= 4 * picture.CELL


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_key_names_every_mark_in_the_games_language(lang: str):
    words = [PHRASES(lang, key) for key in picture.KEY_WORDS]
    expected = {
        "de": ["Zug", "Unterstützung", "Konvoi", "Rückzug", "Halten", "gescheitert", "vertrieben"],
        "en": ["move", "support", "convoy", "retreat", "hold", "failed", "dislodged"],
    }
    assert words == expected[lang]
    width, height = picture.size()
    places = picture.key_places(height - picture.FOOTER)
    boxes = {
        word: label_box(word, picture.KEY_SIZE, (x + 42 + label_box(word, 12, (0, 0))[2], y))
        for word, (x, y) in zip(words, places, strict=True)
    }
    assert clashes(boxes) == []
    assert all(box[2] < width for box in boxes.values())


def test_a_long_name_in_the_legend_stays_clear_of_the_key():
    name = "Maximiliane Schwarzenberg-Weißenfels"  # 36 letters
    width = label_box(f"18  {name}", 13, (0, 0))
    assert 52 + (width[2] - width[0]) < picture.KEY_LEFT


def _colours(image: Image.Image, box: tuple[float, float, float, float]) -> set[tuple[int, ...]]:
    left, top, right, bottom = (round(v) for v in box)
    return {image.getpixel((x, y)) for x in range(left, right) for y in range(top, bottom)}
