"""Start cells by lot (PT-2, A-8): distinct, uniformly random, a minimum distance apart."""

from __future__ import annotations

import random

from gm_daemon.games.primtraktor.model import Cell
from gm_daemon.games.primtraktor.torus import wrap

_QUICK_TRIES = 200  # random draws before falling back to listing the cells still allowed


def _too_close(cell: Cell, min_dist: int, size: int) -> set[Cell]:
    """Cells closer than ``min_dist`` to ``cell`` (torus Chebyshev); the cell itself at least."""
    reach = max(min_dist, 1) - 1
    return {
        (wrap(cell[0] + dx, size), wrap(cell[1] + dy, size))
        for dx in range(-reach, reach + 1)
        for dy in range(-reach, reach + 1)
    }


def _draw_one(blocked: set[Cell], size: int, rng: random.Random) -> Cell | None:
    """A uniform draw among the cells not blocked: rejection first, a full list if crowded."""
    for _ in range(_QUICK_TRIES):
        index = rng.randrange(size * size)
        cell = (index % size + 1, index // size + 1)
        if cell not in blocked:
            return cell
    allowed = [
        (x, y) for y in range(1, size + 1) for x in range(1, size + 1) if (x, y) not in blocked
    ]
    return rng.choice(allowed) if allowed else None


def draw_start_cells(count: int, size: int, min_dist: int, rng: random.Random) -> list[Cell]:
    """One start cell per player, in seat order; ValueError when the board is too crowded."""
    blocked: set[Cell] = set()
    cells: list[Cell] = []
    for _ in range(count):
        cell = _draw_one(blocked, size, rng)
        if cell is None:
            raise ValueError(
                f"{count} tractors do not fit on a {size}x{size} board "
                f"at a start distance of at least {min_dist}"
            )
        cells.append(cell)
        blocked |= _too_close(cell, min_dist, size)
    return cells
