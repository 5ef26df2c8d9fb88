"""The shape of the map picture: province outlines and borders, derived from the package's own
hand-drawn grid (``mapdata/grid.txt``) and the points in ``mapdata/places.csv``.

Every cell of the grid names the province it belongs to (``---`` is land beyond the board).
Outlines are traced along the cell edges and then smoothed: each border vertex that only two
regions share moves towards its two border neighbours a few times, so stairs become diagonal
coasts. Vertices where three regions meet and the frame stay put. Because a vertex has one
position for every region that uses it, neighbouring outlines still share their border exactly.

Before smoothing, border vertices are shifted by a smooth, fixed pseudo-random wobble (a hash
of lattice points, no random state), so that long straight grid lines become coasts and borders
that wander a little; the same data always gives the same outlines.

Coordinates are in cell units (a point ``(3.5, 2.0)`` lies half-way across the fourth column on
the top edge of the third row); ``picture`` scales them to pixels.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

from gm_daemon.diplomacy import standard_board

BEYOND = "---"  # land that is drawn but is not part of the board
SMOOTHING_ROUNDS = 6
WOBBLE = 1.6  # how far (in cells) a border may stray from the grid before smoothing
WOBBLE_SPACING = 5  # cells between the lattice points of the wobble

Point = tuple[float, float]
Vertex = tuple[int, int]
Cell = tuple[int, int]


class MapShapeError(ValueError):
    """The map drawing data is inconsistent; the message lists every problem found."""


@dataclass(frozen=True, slots=True)
class Region:
    """One connected piece of the drawing: a province, or a piece of land beyond the board."""

    name: str  # province abbreviation, or BEYOND
    cells: frozenset[Cell]
    outline: tuple[Point, ...]  # the outer ring, clockwise on screen


@dataclass(frozen=True, slots=True)
class Border:
    """A stretch of border between two regions (``None``: the frame), from junction to
    junction, so that coasts and land borders can be drawn in different styles."""

    between: tuple[str, str]
    points: tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class Place:
    """Where a location's things are drawn: its label, its unit and (centres) its marker."""

    label: Point | None
    unit: Point | None
    centre: Point | None


@dataclass(frozen=True, slots=True)
class MapShape:
    width: int  # in cells
    height: int
    cells: tuple[tuple[str, ...], ...]  # [row][column] -> region name
    regions: tuple[Region, ...]
    borders: tuple[Border, ...]
    places: Mapping[str, Place]  # location id ("PAR", "STP/NC") -> its points

    def region(self, name: str) -> Region:
        return next(r for r in self.regions if r.name == name)


# --- loading -----------------------------------------------------------------------------


def _read(name: str) -> str:
    return (resources.files(__package__) / "mapdata" / name).read_text(encoding="utf-8")


@cache
def standard_shape() -> MapShape:
    """The standard map's drawing, built and checked once per process."""
    return build_shape(_read("grid.txt"), _read("places.csv"))


def build_shape(grid_text: str, places_text: str) -> MapShape:
    """Build the drawing from the two data texts; raises MapShapeError on bad data."""
    problems: list[str] = []
    cells = _parse_grid(grid_text, problems)
    places = _parse_places(places_text, problems)
    if problems:
        raise MapShapeError("invalid map drawing:\n  " + "\n  ".join(problems))
    height, width = len(cells), len(cells[0])
    edges = _border_edges(cells)
    position = _smoothed(edges, width, height)
    regions = tuple(
        Region(name, frozenset(piece), _outline(piece, position)) for name, piece in _pieces(cells)
    )
    return MapShape(
        width=width,
        height=height,
        cells=cells,
        regions=regions,
        borders=tuple(_borders(edges, position, width, height)),
        places=MappingProxyType(places),
    )


def _parse_grid(text: str, problems: list[str]) -> tuple[tuple[str, ...], ...]:
    rows = tuple(
        tuple(line.split())
        for line in text.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    )
    if not rows:
        problems.append("grid: empty")
        return ((BEYOND,),)
    known = set(standard_board().names[: standard_board().n_provinces]) | {BEYOND}
    for y, row in enumerate(rows):
        if len(row) != len(rows[0]):
            problems.append(f"grid row {y}: {len(row)} cells, the first row has {len(rows[0])}")
        problems.extend(f"grid row {y}: unknown {name!r}" for name in set(row) - known)
    missing = known - {name for row in rows for name in row} - {BEYOND}
    if missing:
        problems.append(f"grid: no cells for {', '.join(sorted(missing))}")
    if all(len(row) == len(rows[0]) for row in rows):
        problems.extend(_pinches(rows))
    return rows


def _pinches(rows: tuple[tuple[str, ...], ...]) -> Iterable[str]:
    """Diagonal-only contacts, which would make a region touch itself or another at a point."""
    for y in range(len(rows) - 1):
        for x in range(len(rows[0]) - 1):
            a, b, c, d = rows[y][x], rows[y][x + 1], rows[y + 1][x], rows[y + 1][x + 1]
            if (a == d and b != a and c != a) or (b == c and a != b and d != b):
                yield f"grid: {a}/{b}/{c}/{d} touch only diagonally at column {x}, row {y}"


def _parse_places(text: str, problems: list[str]) -> dict[str, Place]:
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    places: dict[str, Place] = {}
    for row in csv.DictReader(lines):
        try:
            places[row["location"].strip().upper()] = Place(
                _point(row["label_x"], row["label_y"]),
                _point(row["unit_x"], row["unit_y"]),
                _point(row["centre_x"], row["centre_y"]),
            )
        except ValueError as error:
            problems.append(f"places {row.get('location')}: {error}")
    return places


def _point(x: str | None, y: str | None) -> Point | None:
    if not (x or "").strip() and not (y or "").strip():
        return None
    return float(x or ""), float(y or "")


# --- regions -----------------------------------------------------------------------------


def _pieces(cells: tuple[tuple[str, ...], ...]) -> Iterable[tuple[str, set[Cell]]]:
    """Every connected piece of equal cells (4-neighbourhood), in reading order."""
    seen: set[Cell] = set()
    for y, row in enumerate(cells):
        for x, name in enumerate(row):
            if (x, y) not in seen:
                piece = _flood(cells, (x, y))
                seen |= piece
                yield name, piece


def _flood(cells: tuple[tuple[str, ...], ...], start: Cell) -> set[Cell]:
    name = cells[start[1]][start[0]]
    piece, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            inside = 0 <= ny < len(cells) and 0 <= nx < len(cells[0])
            if inside and (nx, ny) not in piece and cells[ny][nx] == name:
                piece.add((nx, ny))
                todo.append((nx, ny))
    return piece


def _outline(piece: set[Cell], position: Mapping[Vertex, Point]) -> tuple[Point, ...]:
    """The piece's outer ring: its clockwise cell edges chained; holes are left to the
    regions inside them, which are drawn on top."""
    following: dict[Vertex, Vertex] = {}
    for x, y in piece:
        corners = ((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1))
        outside = ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
        for i, other in enumerate(outside):
            if other not in piece:
                following[corners[i]] = corners[(i + 1) % 4]
    rings: list[list[Vertex]] = []
    while following:
        start = min(following)
        ring = [start]
        while (nxt := following.pop(ring[-1])) != start:
            ring.append(nxt)
        rings.append(ring)
    outer = max(rings, key=_area)
    return tuple(position.get(v, (float(v[0]), float(v[1]))) for v in outer)


def _area(ring: list[Vertex]) -> float:
    return (
        sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(ring, ring[1:] + ring[:1], strict=True)) / 2
    )


# --- borders and smoothing ---------------------------------------------------------------


Edge = tuple[Vertex, Vertex]


def _border_edges(cells: tuple[tuple[str, ...], ...]) -> dict[Edge, tuple[str, str | None]]:
    """Every cell edge between two different regions or on the frame, with the two sides."""
    height, width = len(cells), len(cells[0])

    def at(x: int, y: int) -> str | None:
        return cells[y][x] if 0 <= x < width and 0 <= y < height else None

    edges: dict[Edge, tuple[str, str | None]] = {}
    for y in range(height + 1):
        for x in range(width + 1):
            for edge, a, b in (
                (((x, y), (x + 1, y)), at(x, y - 1), at(x, y)),
                (((x, y), (x, y + 1)), at(x - 1, y), at(x, y)),
            ):
                if a != b and (a is not None or b is not None):
                    first, second = (a, b) if a is not None else (b, a)
                    edges[edge] = (str(first), second)
    return edges


def _graph(edges: Iterable[Edge]) -> dict[Vertex, list[Vertex]]:
    graph: dict[Vertex, list[Vertex]] = defaultdict(list)
    for a, b in edges:
        graph[a].append(b)
        graph[b].append(a)
    return graph


def _smoothed(edges: Mapping[Edge, object], width: int, height: int) -> dict[Vertex, Point]:
    """Border vertices after smoothing; junctions (three or more edges) and the frame stay."""
    graph = _graph(edges)
    free = [
        v for v, nbrs in graph.items() if len(nbrs) == 2 and 0 < v[0] < width and 0 < v[1] < height
    ]
    position = {v: (float(v[0]), float(v[1])) for v in graph}
    position.update({v: _wobbled(v) for v in free})
    for _ in range(SMOOTHING_ROUNDS):
        moved = {}
        for v in free:
            (ax, ay), (bx, by) = (position[n] for n in graph[v])
            x, y = position[v]
            moved[v] = ((2 * x + ax + bx) / 4, (2 * y + ay + by) / 4)
        position.update(moved)
    return position


def _wobbled(vertex: Vertex) -> Point:
    """The vertex moved by value noise: bilinear between hashed offsets at lattice points."""
    gx, gy = vertex[0] / WOBBLE_SPACING, vertex[1] / WOBBLE_SPACING
    x0, y0 = int(gx), int(gy)
    fx, fy = gx - x0, gy - y0
    dx = dy = 0.0
    for lx, ly, weight in (
        (x0, y0, (1 - fx) * (1 - fy)),
        (x0 + 1, y0, fx * (1 - fy)),
        (x0, y0 + 1, (1 - fx) * fy),
        (x0 + 1, y0 + 1, fx * fy),
    ):
        hx, hy = _lattice(lx, ly)
        dx += weight * hx
        dy += weight * hy
    return vertex[0] + dx * WOBBLE, vertex[1] + dy * WOBBLE


def _lattice(x: int, y: int) -> Point:
    """Two numbers in [-1, 1) from a lattice point, by an integer hash (same on every run)."""
    h = (x * 73856093 ^ y * 19349663) & 0xFFFFFFFF
    h = (h * 2654435761) & 0xFFFFFFFF
    return (h & 0xFFFF) / 32768 - 1, (h >> 16) / 32768 - 1


def _borders(
    edges: Mapping[Edge, tuple[str, str | None]],
    position: Mapping[Vertex, Point],
    width: int,
    height: int,
) -> Iterable[Border]:
    """The inner border edges chained into lines from junction to junction."""
    inner = {e: sides for e, sides in edges.items() if sides[1] is not None}
    graph = _graph(inner)
    unused = set(inner)
    junctions = sorted(v for v, nbrs in graph.items() if len(nbrs) != 2)
    for start in junctions + sorted(graph):
        for nxt in sorted(graph[start]):
            edge = _edge(start, nxt)
            if edge in unused:
                chain = _walk(start, nxt, graph, unused)
                a, b = inner[edge]
                yield Border((a, str(b)), tuple(position[v] for v in chain))


def _walk(
    start: Vertex, nxt: Vertex, graph: Mapping[Vertex, list[Vertex]], unused: set[Edge]
) -> list[Vertex]:
    chain = [start, nxt]
    unused.discard(_edge(start, nxt))
    while len(graph[chain[-1]]) == 2:
        ahead = [v for v in graph[chain[-1]] if _edge(chain[-1], v) in unused]
        if not ahead:
            break
        unused.discard(_edge(chain[-1], ahead[0]))
        chain.append(ahead[0])
    return chain


def _edge(a: Vertex, b: Vertex) -> Edge:
    return (a, b) if a <= b else (b, a)


# --- questions the picture and the tests ask ---------------------------------------------


def contains(outline: tuple[Point, ...], point: Point) -> bool:
    """Whether ``point`` lies inside the ring (even-odd rule)."""
    x, y = point
    inside = False
    for (ax, ay), (bx, by) in zip(outline, outline[1:] + outline[:1], strict=True):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def shared_edges(shape: MapShape) -> Mapping[frozenset[str], int]:
    """How many cell edges each pair of neighbouring regions shares in the drawing."""
    counts: dict[frozenset[str], int] = defaultdict(int)
    for y, row in enumerate(shape.cells):
        for x, name in enumerate(row):
            for other in (
                row[x + 1] if x + 1 < shape.width else name,
                shape.cells[y + 1][x] if y + 1 < shape.height else name,
            ):
                if other != name:
                    counts[frozenset((name, other))] += 1
    return counts
