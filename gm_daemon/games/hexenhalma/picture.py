"""PNG pictures on kit.picture: the board of a round, and one pairing with both teams'
paths (walks solid, Beelzebub jumps and banishments as dotted lines), the spells cast and
where each witch ended. Always in the viewer's frame, his start fields at the bottom."""

from __future__ import annotations

import itertools

from PIL import ImageDraw

from gm_daemon.games.hexenhalma.board import GOAL, START, WALL, Board
from gm_daemon.games.hexenhalma.rounds import View
from gm_daemon.games.hexenhalma.simulate import SPELL_LETTERS
from gm_daemon.games.kit import picture

CELL = 36
MARGIN = 24
_FILL = {WALL: (70, 70, 70), ".": picture.WHITE, START: (214, 236, 214), GOAL: (250, 236, 190)}
_END_MARK = {"goal": "Z!", "burst": "X", "asleep": "zz", "out": "!", "starved": "-", "blocked": "/"}


def _centre(board: Board, index: int, shift: int = 0) -> tuple[int, int]:
    row, col = divmod(index, board.stride)
    x = MARGIN + (col - 1) * CELL + CELL // 2 + shift
    y = MARGIN + (row - 1) * CELL + CELL // 2 + shift
    return x, y


def _grid(board: Board, title: str, extra: int = 0):
    title = picture.latin1(title.replace("„", '"').replace("“", '"'))
    probe = picture.canvas(1, 1)[1]
    width = max(MARGIN * 2 + board.width * CELL, picture.text_size(probe, title, 11)[0] + 8)
    height = MARGIN * 2 + board.height * CELL + extra
    image, draw = picture.canvas(width, height)
    for row in range(1, board.height + 1):
        draw.text(
            (4, MARGIN + (row - 1) * CELL + CELL // 3),
            str(row),
            fill=picture.BLACK,
            font=picture.font(11),
        )
        for col in range(1, board.width + 1):
            kind = board.cells[board.index(col, row)]
            x0, y0 = MARGIN + (col - 1) * CELL, MARGIN + (row - 1) * CELL
            draw.rectangle((x0, y0, x0 + CELL, y0 + CELL), fill=_FILL[kind], outline=picture.GREY)
            if kind in (START, GOAL):
                draw.text((x0 + 3, y0 + 2), kind, fill=picture.GREY, font=picture.font(11))
    for col in range(1, board.width + 1):
        letter = chr(ord("A") + col - 1)
        draw.text(
            (MARGIN + (col - 1) * CELL + CELL // 2 - 3, 6),
            letter,
            fill=picture.BLACK,
            font=picture.font(11),
        )
    draw.text(
        (MARGIN, height - 18), picture.latin1(title), fill=picture.BLACK, font=picture.font(11)
    )
    return image, draw


def board_png(board: Board, title: str) -> bytes:
    image, _ = _grid(board, title, extra=16)
    return picture.png_bytes(image)


def pairing_png(v: View, title: str) -> bytes:
    board = v.board
    image, draw = _grid(board, title, extra=16)
    for (team, number), path in sorted(v.outcome.paths.items()):
        colour = picture.seat_colour(team)
        shift = (number - 1) * 4 - 4 + team * 2
        _path(draw, board, path, colour, shift)
        fate = (v.mine if team == 0 else v.theirs).get(number)
        if fate is not None:
            x, y = _centre(board, fate.cell, shift)
            draw.text(
                (x + 4, y - 14), _END_MARK.get(fate.kind, "?"), fill=colour, font=picture.font(11)
            )
    for t, team, _number, what, cell, extra in v.outcome.log or []:
        if what == "cast" and extra in SPELL_LETTERS and SPELL_LETTERS[extra] != "I":
            x, y = _centre(board, cell)
            draw.text(
                (x - 14, y + 4),
                f"{SPELL_LETTERS[extra]}{t}",
                fill=picture.seat_colour(team),
                font=picture.font(10),
            )
    return picture.png_bytes(image)


def _path(
    draw: ImageDraw.ImageDraw,
    board: Board,
    path: list[tuple[int, int, str]],
    colour: picture.Colour,
    shift: int,
) -> None:
    for (_, before, _), (_, after, how) in itertools.pairwise(path):
        start, end = _centre(board, before, shift), _centre(board, after, shift)
        if how == "-":
            draw.line((start, end), fill=colour, width=3)
        else:
            _dotted(draw, start, end, colour if how == "~" else picture.GREY)
    x, y = _centre(board, path[0][1], shift)
    draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=colour)


def _dotted(
    draw: ImageDraw.ImageDraw, start: tuple[int, int], end: tuple[int, int], colour: picture.Colour
) -> None:
    (x0, y0), (x1, y1) = start, end
    steps = max(4, int(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 // 6))
    for i in range(0, steps + 1, 2):
        x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
        draw.ellipse((x - 1.5, y - 1.5, x + 1.5, y + 1.5), fill=colour)
