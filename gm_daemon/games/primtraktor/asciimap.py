"""The board as text for a monospace mail (rules section 3): column numbers along the top as
stacked digits, row numbers along the side; a tractor's position is its upper-case letter,
its trail the lower-case letter, a free cell ``.``."""

from __future__ import annotations

from gm_daemon.games.primtraktor.model import State

MAX_LETTERED = 26  # one letter per tractor; beyond that the picture has to do


def map_fits(state: State) -> bool:
    return len(state.tractors) <= MAX_LETTERED and state.options.board <= 120


def _column_header(size: int, indent: int) -> list[str]:
    """Stacked digits, one row per decimal place: a 51-wide board has a tens and a ones row."""
    places = len(str(size))
    rows = []
    for place in range(places - 1, -1, -1):
        digits = []
        for x in range(1, size + 1):
            digit = (x // 10**place) % 10
            shown = place == 0 or x >= 10**place
            digits.append(str(digit) if shown else " ")
        rows.append(" " * indent + "".join(digits).rstrip())
    return rows


def render_map(state: State) -> str:
    size = state.options.board
    grid = [["."] * size for _ in range(size)]
    for tractor in state.tractors:
        for x, y in tractor.trail:
            grid[y - 1][x - 1] = tractor.letter.lower()
    for tractor in state.tractors:
        x, y = tractor.position
        grid[y - 1][x - 1] = tractor.letter.upper()
    width = len(str(size))
    lines = _column_header(size, width + 1)
    for y, row in enumerate(grid, start=1):
        lines.append(f"{y:>{width}} " + "".join(row))
    return "\n".join(lines)
