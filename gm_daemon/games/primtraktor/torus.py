"""Geometry of the torus board (PT-1): coordinates 1..size, wrapping on every side."""

from __future__ import annotations

from gm_daemon.games.primtraktor.model import Cell, Direction


def wrap(value: int, size: int) -> int:
    """Any integer coordinate into 1..size."""
    return (value - 1) % size + 1


def step(cell: Cell, direction: Direction, distance: int, size: int) -> Cell:
    dx, dy = direction.delta
    return (wrap(cell[0] + dx * distance, size), wrap(cell[1] + dy * distance, size))


def path(start: Cell, direction: Direction, speed: int, size: int) -> list[Cell]:
    """The cells a leg traverses, start excluded: P+1·d … P+s·d (PT-9)."""
    return [step(start, direction, j, size) for j in range(1, speed + 1)]


def axis_distance(a: int, b: int, size: int) -> int:
    around = abs(a - b) % size
    return min(around, size - around)


def distance(a: Cell, b: Cell, size: int) -> int:
    """Chebyshev distance on the torus, used for the start cells' minimum distance (PT-2)."""
    return max(axis_distance(a[0], b[0], size), axis_distance(a[1], b[1], size))
