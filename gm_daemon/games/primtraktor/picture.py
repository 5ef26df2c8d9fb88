"""The board as a PNG: each player a colour, trails pale, positions solid, a coordinate grid.

Drawn on the toolkit's Pillow base (``games.kit.picture``): its font (names as the players
write them), seat colours and PNG bytes, so the same state always gives the same bytes (with
the same Pillow build).
"""

from __future__ import annotations

from gm_daemon.games.kit.picture import BLACK, WHITE, canvas, font, png_bytes, seat_colour
from gm_daemon.games.primtraktor.model import State, Tractor
from gm_daemon.games.primtraktor.texts import say

_BACKGROUND = WHITE
_GRID = (225, 225, 225)
_GRID_MAJOR = (170, 170, 170)
_INK = BLACK
_MARGIN = 30
_LEGEND_LIMIT = 26
_LEGEND_ROW = 20  # a legend line at 14 px, readable on a phone
_LEGEND_SIZE = 14


def _pale(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = rgb
    return ((r + 2 * 255) // 3, (g + 2 * 255) // 3, (b + 2 * 255) // 3)


def cell_pixels(size: int) -> int:
    return max(2, min(14, 1000 // size))


class _Canvas:
    """Board coordinates to pixels: cell (x, y) is a square of ``px`` below the margins."""

    def __init__(self, state: State, lang: str):
        self.size = state.options.board
        self.px = cell_pixels(self.size)
        self.legend = legend_lines(state, lang)
        side = _MARGIN + self.size * self.px + 10
        widest = max((font(_LEGEND_SIZE).getlength(line) for line in self.legend), default=0)
        width = max(side, _MARGIN + 20 + round(widest) + 10)  # a long name is never cut
        height = side + _LEGEND_ROW * len(self.legend) + 10
        self.image, self.draw = canvas(width, height, _BACKGROUND)
        self.font = font(10)
        self.legend_font = font(_LEGEND_SIZE)

    def box(self, x: int, y: int) -> tuple[int, int, int, int]:
        """The inside of a cell; with room for grid lines, the line pixels stay free."""
        inset = 1 if self.px >= 6 else 0
        left = _MARGIN + (x - 1) * self.px + inset
        top = _MARGIN + (y - 1) * self.px + inset
        return (left, top, left + self.px - 1 - inset, top + self.px - 1 - inset)


def _draw_grid(board: _Canvas) -> None:
    size, px, end = board.size, board.px, _MARGIN + board.size * board.px
    label_every = 5 if px >= 8 else 10 if px >= 4 else 50
    for i in range(size + 1):
        major = i % 5 == 0
        if px < 6 and not major:
            continue
        line = _GRID_MAJOR if major else _GRID
        at = _MARGIN + i * px
        board.draw.line([(at, _MARGIN), (at, end)], fill=line)
        board.draw.line([(_MARGIN, at), (end, at)], fill=line)
    for n in [1, *range(label_every, size + 1, label_every)]:
        centre = _MARGIN + (n - 1) * px + px // 2
        board.draw.text((centre, _MARGIN - 4), str(n), fill=_INK, font=board.font, anchor="ms")
        board.draw.text((_MARGIN - 4, centre), str(n), fill=_INK, font=board.font, anchor="rm")


def _draw_tractor(board: _Canvas, tractor: Tractor, index: int) -> None:
    rgb = seat_colour(index)
    for x, y in tractor.trail[:-1]:
        board.draw.rectangle(board.box(x, y), fill=_pale(rgb))
    box = board.box(*tractor.position)
    outline = _INK if board.px >= 6 else None
    board.draw.rectangle(box, fill=rgb, outline=outline)
    if not tractor.active and board.px >= 6:
        board.draw.line([box[:2], box[2:]], fill=_INK)
        board.draw.line([(box[0], box[3]), (box[2], box[1])], fill=_INK)


def legend_lines(state: State, lang: str) -> list[str]:
    """One line per tractor (none for a crowd too big to list): letter, name, cells."""
    if len(state.tractors) > _LEGEND_LIMIT:
        return []
    lines = []
    for tractor in state.tractors:
        status = "" if tractor.active else say(lang, "picture_out")
        cells = say(lang, "picture_cells", count=tractor.cells)
        lines.append(f"{tractor.letter}  {tractor.name}  {cells}{status}")
    return lines


def _draw_legend(board: _Canvas) -> None:
    top = _MARGIN + board.size * board.px + 12
    for index, label in enumerate(board.legend):
        y = top + _LEGEND_ROW * index
        board.draw.rectangle((_MARGIN, y + 2, _MARGIN + 12, y + 14), fill=seat_colour(index))
        board.draw.text((_MARGIN + 20, y), label, fill=_INK, font=board.legend_font)


def render_png(state: State, lang: str = "de") -> bytes:
    board = _Canvas(state, lang)
    _draw_grid(board)
    for index, tractor in enumerate(state.tractors):
        _draw_tractor(board, tractor, index)
    _draw_legend(board)
    return png_bytes(board.image)
