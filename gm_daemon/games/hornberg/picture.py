"""A PNG of the table, attached to every report (never a hand: only table cards).

Drawn on the toolkit's Pillow base (``games.kit.picture``), in the game's language. Cards
are coloured rectangles with their value; a beer is the amber strip across the lower part
of the cannon it covers. D&D shows each row with its dukes; K&Q shows the printed window
with the same labels as the text, and the cells a cannon may go to dashed (on an empty
table its one cell).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from gm_daemon.games.hornberg import cards, kq
from gm_daemon.games.hornberg.dd import ROW_NAMES
from gm_daemon.games.hornberg.model import Row, State
from gm_daemon.games.hornberg.texts import say
from gm_daemon.games.hornberg.window import window
from gm_daemon.games.kit.picture import canvas, font, png_bytes, text_size

CARD_W, CARD_H, GAP, MARGIN = 48, 66, 8, 16
LABEL_W = 40
PAPER = (246, 241, 228)
INK = (40, 35, 30)
BEER = (222, 160, 40)
DUKE = (120, 30, 60)
COLOURS = {
    "ro": (200, 45, 45),
    "ge": (232, 196, 40),
    "bl": (45, 85, 200),
    "gr": (45, 150, 70),
    "sw": (35, 35, 35),
    "ws": (250, 250, 250),
    "li": (140, 65, 170),
    "or": (240, 130, 25),
    "br": (130, 85, 45),
}
LIGHT = {"ge", "ws", "or"}  # colours that need dark text


def table_png(state: State, lang: str = "de") -> bytes:
    """The table in the words and colour codes of the game's language."""
    return png_bytes(_dd_image(state, lang) if state.variant == "dd" else _kq_image(state, lang))


def _canvas(width: int, height: int, title: str) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A canvas at least as wide as its title, so a small table does not clip it."""
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    width = max(width, MARGIN * 2 + text_size(probe, title, 14)[0])
    image, draw = canvas(width, height, PAPER)
    draw.text((MARGIN, MARGIN // 2), title, fill=INK, font=font(14))
    return image, draw


def _title(state: State, lang: str) -> str:
    key = "picture_title_over" if state.finished else "picture_title"
    return say(lang, key, round=state.round, turn=state.turn)


def _card(
    draw: ImageDraw.ImageDraw, x: int, y: int, cannon: str, beer: str | None, lang: str
) -> None:
    colour = cards.colour(cannon)
    fill = COLOURS.get(colour, (128, 128, 128))
    text = INK if colour in LIGHT else (255, 255, 255)
    draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), 6, fill=fill, outline=INK, width=2)
    draw.text((x + 6, y + 4), cards.shown(cannon, lang), fill=text, font=font(13))
    draw.text(
        (x + CARD_W // 2, y + 28), str(cards.value(cannon)), fill=text, font=font(20), anchor="mm"
    )
    if beer:
        top = y + CARD_H - 22
        draw.rectangle((x + 3, top, x + CARD_W - 3, y + CARD_H - 3), fill=BEER, outline=INK)
        draw.text(
            (x + CARD_W // 2, top + 10),
            f"B{cards.value(beer)}",
            fill=INK,
            font=font(13),
            anchor="mm",
        )


def _slot(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """A place a cannon may go: a dashed outline."""
    for i in range(0, CARD_W, 8):
        draw.line((x + i, y, x + min(i + 4, CARD_W), y), fill=INK)
        draw.line((x + i, y + CARD_H, x + min(i + 4, CARD_W), y + CARD_H), fill=INK)
    for j in range(0, CARD_H, 8):
        draw.line((x, y + j, x, y + min(j + 4, CARD_H)), fill=INK)
        draw.line((x + CARD_W, y + j, x + CARD_W, y + min(j + 4, CARD_H)), fill=INK)


def _duke(draw: ImageDraw.ImageDraw, x: int, y: int, text: str) -> None:
    draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), 6, fill=DUKE, outline=INK, width=2)
    draw.text(
        (x + CARD_W // 2, y + CARD_H // 2), text, fill=(255, 230, 150), font=font(16), anchor="mm"
    )


# --- Drunter & Drüber -------------------------------------------------------------------
def _dd_image(state: State, lang: str) -> Image.Image:
    rows = state.table.rows
    longest = max((max(r.length, len(r.stacks)) for r in rows), default=1)
    width = MARGIN * 2 + LABEL_W + (CARD_W + GAP) * (longest + 2)
    height = MARGIN * 2 + 20 + (CARD_H + GAP) * len(rows)
    image, draw = _canvas(width, height, _title(state, lang))
    for index, row in enumerate(rows):
        y = MARGIN + 20 + index * (CARD_H + GAP)
        _dd_row(draw, row, ROW_NAMES[index], y, lang)
    return image


def _dd_row(draw: ImageDraw.ImageDraw, row: Row, name: str, y: int, lang: str) -> None:
    draw.text((MARGIN, y + CARD_H // 2), name, fill=INK, font=font(16), anchor="lm")
    x = MARGIN + LABEL_W
    dukes = f"H{row.base}" + "".join(f"+{v}" for v in row.extenders)
    dukes += "".join(f"-{v}" for v in row.shorteners)
    _duke(draw, x, y, f"H{row.base}")
    draw.text(
        (x + CARD_W + 4, y + CARD_H - 2),
        f"{dukes}={row.length}",
        fill=INK,
        font=font(11),
        anchor="ld",
    )
    x += 2 * (CARD_W + GAP)
    for stack in row.stacks:
        _card(draw, x, y, stack.cannon, stack.beer, lang)
        x += CARD_W + GAP
    for _ in range(row.length - len(row.stacks)):
        _slot(draw, x, y)
        x += CARD_W + GAP


# --- Kreuz & Quer -----------------------------------------------------------------------
def _kq_image(state: State, lang: str) -> Image.Image:
    win = window(state.table)
    occupied = kq.grid(state.table)
    # an empty table: the one printed cell A1 is where the first cannon goes
    legal = set(kq.legal_cells(state.table)) if state.table.cells else {(win.x0, win.y0)}
    width = MARGIN * 2 + LABEL_W + (CARD_W + GAP) * win.width
    height = MARGIN * 2 + 40 + (CARD_H + GAP) * win.height
    image, draw = _canvas(width, height, _title(state, lang))
    top = MARGIN + 40
    for i in range(win.width):
        x = MARGIN + LABEL_W + i * (CARD_W + GAP) + CARD_W // 2
        draw.text((x, top - 10), str(i + 1), fill=INK, font=font(14), anchor="mm")
    for j, row in enumerate(win.cells()):
        y = top + j * (CARD_H + GAP)
        draw.text(
            (MARGIN, y + CARD_H // 2), chr(ord("A") + j), fill=INK, font=font(16), anchor="lm"
        )
        for i, xy in enumerate(row):
            x = MARGIN + LABEL_W + i * (CARD_W + GAP)
            if xy in occupied:
                _card(draw, x, y, occupied[xy].cannon, occupied[xy].beer, lang)
            elif xy in legal:
                _slot(draw, x, y)
    return image
