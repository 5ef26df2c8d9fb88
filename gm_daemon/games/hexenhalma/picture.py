"""PNG pictures on kit.picture: the board of a round, and one pairing with both teams'
paths (walks solid, Beelzebub jumps and banishments as dotted lines), the spells cast and
where each witch ended. Always in the viewer's frame, his start fields at the bottom, and in
the game's language.

Sized for a phone: a field is a thumb wide and every word is drawn at 14 px or more. The
caption is wrapped to the picture's width instead of widening it, a legend under the board
names both colours and every mark the picture uses, and the marks on the board (spells, end
marks) are laid out by the toolkit so that no two of them overlap, however many fall on one
field.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import lru_cache

from PIL import ImageDraw

from gm_daemon.games.hexenhalma.board import GOAL, START, WALL, Board
from gm_daemon.games.hexenhalma.rounds import View
from gm_daemon.games.hexenhalma.simulate import SPELL_LETTERS
from gm_daemon.games.hexenhalma.words import say
from gm_daemon.games.kit import picture

CELL = 56
MARGIN = 28  # room for the row numbers and the column letters
SIZE = 16  # captions, coordinates, legend
MARK_SIZE = 15  # spells and end marks on the board
LINE = 24  # one line of caption or legend
_FILL = {WALL: (70, 70, 70), ".": picture.WHITE, START: (214, 236, 214), GOAL: (250, 236, 190)}
_END_MARK = {"goal": "Z!", "burst": "X", "asleep": "zz", "out": "!", "starved": "-", "blocked": "/"}
HALO = picture.WHITE

Sample = Callable[[ImageDraw.ImageDraw, tuple[int, int], tuple[int, int]], None] | None


def _centre(board: Board, top: int, index: int, shift: int = 0) -> tuple[int, int]:
    row, col = divmod(index, board.stride)
    x = MARGIN + (col - 1) * CELL + CELL // 2 + shift
    y = top + (row - 1) * CELL + CELL // 2 + shift
    return x, y


def width_of(board: Board) -> int:
    return MARGIN * 2 + board.width * CELL


def wrap(text: str, size: int, width: float) -> list[str]:
    """``text`` in lines no wider than ``width`` pixels, broken between words."""
    lines: list[str] = []
    for word in text.split():
        if lines and picture.font(size).getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def caption(board: Board, title: str) -> list[str]:
    """The title's lines: wrapped to the board's width, so a long title (two long names, a
    score) is never cut off and never makes the picture too wide for a phone."""
    return wrap(title, SIZE, width_of(board) - 2 * 8)


def _top_of_board(board: Board, title: str) -> int:
    """Below the caption and the column letters."""
    return 8 + len(caption(board, title)) * LINE + MARGIN


def _grid(
    board: Board, title: str, legend: list[tuple[Sample, str]]
) -> tuple[picture.Image.Image, ImageDraw.ImageDraw]:
    """The caption, the board with its coordinates and the legend under it."""
    legend_lines = len(_legend_lines(board, legend))
    top = _top_of_board(board, title)
    height = top + board.height * CELL + 12 + LINE * legend_lines + 8
    image, draw = picture.canvas(width_of(board), height)
    for i, line in enumerate(caption(board, title)):
        draw.text((8, 8 + i * LINE), line, fill=picture.BLACK, font=picture.font(SIZE))
    for row in range(1, board.height + 1):
        y = top + (row - 1) * CELL + CELL // 2
        draw.text((MARGIN // 2, y), str(row), fill=picture.BLACK, font=picture.font(SIZE),
                  anchor="mm")  # fmt: skip
        for col in range(1, board.width + 1):
            kind = board.cells[board.index(col, row)]
            x0, y0 = MARGIN + (col - 1) * CELL, top + (row - 1) * CELL
            draw.rectangle((x0, y0, x0 + CELL, y0 + CELL), fill=_FILL[kind], outline=picture.GREY)
    for kind, box in _field_letters(board, top):
        picture.draw_label(draw, box, kind, SIZE, picture.GREY)
    for col in range(1, board.width + 1):
        x = MARGIN + (col - 1) * CELL + CELL // 2
        draw.text((x, top - MARGIN // 2), chr(ord("A") + col - 1), fill=picture.BLACK,
                  font=picture.font(SIZE), anchor="mm")  # fmt: skip
    _legend(draw, board, _legend_top(board, title), legend)
    return image, draw


def _field_letters(board: Board, top: int) -> list[tuple[str, picture.Box]]:
    """The S and Z in the corner of every start and goal field, with their boxes."""
    letters = []
    for row in range(1, board.height + 1):
        for col in range(1, board.width + 1):
            kind = board.cells[board.index(col, row)]
            if kind in (START, GOAL):
                x0, y0 = MARGIN + (col - 1) * CELL, top + (row - 1) * CELL
                letters.append((kind, picture.label_box(kind, SIZE, (x0 + 12, y0 + 12))))
    return letters


@lru_cache(maxsize=16)
def board_png(board: Board, title: str, lang: str = "de") -> bytes:
    """Kept for the next caller: a game's start sends the same board to every player
    (200 welcomes drew it 200 times, ~0.1 s each), a result once per language."""
    image, _ = _grid(board, title, [(None, say(lang, "picture_fields"))])
    return picture.png_bytes(image)


def _legend_top(board: Board, title: str) -> int:
    return _top_of_board(board, title) + board.height * CELL + 12


def pairing_png(v: View, title: str, names: tuple[str, str], lang: str = "de") -> bytes:
    """``names``: the viewer's and the opponent's; the viewer's team is team 0."""
    board = v.board
    rows = _legend_rows(v, names, lang)
    image, draw = _grid(board, title, rows)
    top = _top_of_board(board, title)
    for (team, number), path in sorted(v.traced.paths.items()):
        _path(draw, board, top, path, picture.seat_colour(team), _shift(team, number))
    labels = mark_labels(v, top)
    for (text, _, colour), box in zip(labels, mark_boxes(v, top), strict=True):
        picture.draw_label(draw, box, text, MARK_SIZE, colour, halo=HALO)
    return picture.png_bytes(image)


def _shift(team: int, number: int) -> int:
    """Paths of several witches over one field run side by side, not on top of each other."""
    return (number - 1) * 4 - 4 + team * 2


def mark_labels(v: View, top: int) -> list[tuple[str, tuple[int, int], picture.Colour]]:
    """Every text mark on the board: (text, the point it belongs to, colour), end marks
    first, then the spells in the order they were cast."""
    board = v.board
    marks = []
    for team, number in sorted(v.traced.paths):
        fate = (v.mine if team == 0 else v.theirs).get(number)
        if fate is not None:
            at = _centre(board, top, fate.cell, _shift(team, number))
            marks.append((_END_MARK.get(fate.kind, "?"), at, picture.seat_colour(team)))
    for t, team, _number, what, cell, extra in v.traced.log or []:
        if what == "cast" and extra in SPELL_LETTERS and SPELL_LETTERS[extra] != "I":
            text = f"{SPELL_LETTERS[extra]}{t}"
            marks.append((text, _centre(board, top, cell), picture.seat_colour(team)))
    return marks


def mark_boxes(v: View, top: int) -> list[picture.Box]:
    """Where each of ``mark_labels`` is drawn: near its point, none overlapping another."""
    board = v.board
    bounds = (MARGIN, top, MARGIN + board.width * CELL, top + board.height * CELL)
    labels = [(text, at) for text, at, _ in mark_labels(v, top)]
    letters = [box for _, box in _field_letters(board, top)]
    return picture.lay_out(labels, MARK_SIZE, bounds, step=CELL / 4, taken=letters)


# --- the legend --------------------------------------------------------------------------


def _legend_rows(v: View, names: tuple[str, str], lang: str) -> list[tuple[Sample, str]]:
    """One row per colour, per kind of line and per mark the picture shows."""
    rows: list[tuple[Sample, str]] = [
        (_swatch(picture.seat_colour(0)), say(lang, "picture_you", name=names[0])),
        (_swatch(picture.seat_colour(1)), names[1]),
        (lambda d, a, b: d.line((a, b), fill=picture.BLACK, width=3), say(lang, "picture_walk")),
    ]
    hows = {how for path in v.traced.paths.values() for _, _, how in path[1:]}
    if "~" in hows:
        rows.append((lambda d, a, b: _dotted(d, a, b, picture.BLACK), say(lang, "picture_jump")))
    if "b" in hows:
        rows.append((lambda d, a, b: _dotted(d, a, b, picture.GREY), say(lang, "picture_banned")))
    ends = sorted(
        {f.kind for f in [*v.mine.values(), *v.theirs.values()]}, key=list(_END_MARK).index
    )
    for kind in ends:
        rows.append((_text_sample(_END_MARK[kind]), say(lang, f"picture_end_{kind}")))
    spells = [text for text, _, _ in mark_labels(v, 0) if text not in _END_MARK.values()]
    if spells:
        text = spells[0]
        rows.append((_text_sample(text), say(lang, "picture_spell", spell=text[0], step=text[1:])))
    return rows


def _swatch(colour: picture.Colour) -> Sample:
    def sample(draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int]) -> None:
        draw.line((a, b), fill=colour, width=5)

    return sample


def _text_sample(text: str) -> Sample:
    def sample(draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int]) -> None:
        centre = ((a[0] + b[0]) // 2, a[1])
        draw.text(centre, text, fill=picture.BLACK, font=picture.font(MARK_SIZE), anchor="mm")

    return sample


def _no_sample(draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int]) -> None:
    """The second line of a legend row: indented like the first, without a sample."""


def _legend_lines(board: Board, rows: list[tuple[Sample, str]]) -> list[tuple[Sample, str]]:
    """The rows wrapped to the picture's width, the sample beside the first line only (a
    row without a sample is text across the whole width)."""
    lines = []
    for sample, text in rows:
        indent = 10 if sample is None else 50
        for i, line in enumerate(wrap(text, SIZE, width_of(board) - indent - 8)):
            lines.append((sample if i == 0 or sample is None else _no_sample, line))
    return lines


def _legend(
    draw: ImageDraw.ImageDraw, board: Board, top: int, rows: list[tuple[Sample, str]]
) -> None:
    for i, (sample, text) in enumerate(_legend_lines(board, rows)):
        y = top + i * LINE + LINE // 2
        if sample is not None:
            sample(draw, (10, y), (40, y))
        draw.text(
            (10 if sample is None else 50, y),
            text,
            fill=picture.BLACK,
            font=picture.font(SIZE),
            anchor="lm",
        )


def legend_texts(v: View, names: tuple[str, str], lang: str) -> list[str]:
    return [text for _, text in _legend_rows(v, names, lang)]


# --- paths -------------------------------------------------------------------------------


def _path(
    draw: ImageDraw.ImageDraw,
    board: Board,
    top: int,
    path: list[tuple[int, int, str]],
    colour: picture.Colour,
    shift: int,
) -> None:
    for (_, before, _), (_, after, how) in itertools.pairwise(path):
        start, end = _centre(board, top, before, shift), _centre(board, top, after, shift)
        if how == "-":
            draw.line((start, end), fill=colour, width=3)
        else:
            _dotted(draw, start, end, colour if how == "~" else picture.GREY)
    x, y = _centre(board, top, path[0][1], shift)
    draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=colour)


def _dotted(
    draw: ImageDraw.ImageDraw, start: tuple[int, int], end: tuple[int, int], colour: picture.Colour
) -> None:
    (x0, y0), (x1, y1) = start, end
    steps = max(4, int(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 // 6))
    for i in range(0, steps + 1, 2):
        x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
        draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=colour)
