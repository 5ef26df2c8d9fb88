"""The pairing picture (BILD/PICTURE) and the board picture: the caption whole, a legend for
both colours and every mark shown, marks that never overlap, sizes a phone shows readably."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image

from gm_daemon.games.hexenhalma import GAME, picture
from gm_daemon.games.hexenhalma.board import parse_board
from gm_daemon.games.hexenhalma.rounds import View, view
from gm_daemon.games.hexenhalma.words import say
from gm_daemon.games.kit.picture import clashes, font, inside, label_box, overlap
from tests.hexenhalma.support import board_text, new_state, read

KREUZ = (Path(__file__).resolve().parents[2] / "config" / "boards" / "kreuz.txt").read_text(
    encoding="utf-8"
)
GAMES = {
    # the golden game: a banishment, arrivals
    "h1": (
        board_text("h1"),
        {
            "anna": "Hexe 1: B7 | N, N+M, N, N, N, N\nHexe 2: D7 | N+I, N5",
            "bert": "Hexe 1: B7-B6-B5[K]~E3-E2-D2-D1\nHexe 2: D7 | N, N+B>E5, N, N, W, N, N, W",
        },
    ),
    # board Kreuz, where "B6" was once drawn over "B4": spells and ends crowd a few fields
    "kreuz": (
        KREUZ,
        {
            "anna": "Hexe 1: C7 | N+K, N4, E, N\nHexe 2: D7 | N, E+M, N5\nHexe 3: E7 | N5, W2+K, N",
            "bert": "Hexe 1: C7 | N, N+B>D4, N3, E, N\nHexe 2: D7 | N+M, E, N5\n"
            "Hexe 3: E7 | N+K, N4, W2, N",
        },
    ),
}


def pairing(game: str) -> View:
    text, orders = GAMES[game]
    state = new_state(["anna", "bert"], [text])
    given = {seat: read(state, seat, order) for seat, order in orders.items()}
    after = GAME.resolve(state, given, random.Random(0), frozenset()).state
    assert after.last is not None
    return view(after.last, after.lot_seed, "anna", "bert", trace=True)


@pytest.mark.parametrize("game", list(GAMES))
def test_marks_on_the_board_never_overlap_each_other_or_a_field_letter(game: str) -> None:
    v = pairing(game)
    top = 100
    boxes = picture.mark_boxes(v, top)
    assert len(boxes) == len(picture.mark_labels(v, top)) > 2
    letters = [box for _, box in picture._field_letters(v.board, top)]
    named = {f"{i}": box for i, box in enumerate([*boxes, *letters])}
    assert clashes(named) == []
    board = (
        picture.MARGIN,
        top,
        picture.MARGIN + v.board.width * picture.CELL,
        top + v.board.height * picture.CELL,
    )
    assert all(inside(box, board) for box in boxes)


def test_marks_that_would_cover_each_other_at_one_offset_get_places_of_their_own() -> None:
    """Drawn at a fixed offset from their fields (as before), some of Kreuz's marks cover
    each other; laid out, none does."""
    v = pairing("kreuz")
    labels = picture.mark_labels(v, 0)
    boxes = picture.mark_boxes(v, 0)
    naive = [label_box(text, picture.MARK_SIZE, (x - 4, y + 12)) for text, (x, y), _ in labels]
    crowded = [
        (a, b)
        for a in range(len(labels))
        for b in range(a + 1, len(labels))
        if overlap(naive[a], naive[b])
    ]
    assert crowded  # the case that used to overlap
    assert not any(overlap(boxes[a], boxes[b]) for a, b in crowded)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_long_caption_is_wrapped_whole_never_cut(lang: str) -> None:
    board = parse_board(KREUZ)
    title = say(lang, "cmd_title", n=1, name="Kreuz", a="Maximiliane Schwarzenberg-Weißenfels",
                b="Zoë Weiß-Öztürk", score="1:1")  # fmt: skip
    lines = picture.caption(board, title)
    assert len(lines) > 1 and " ".join(lines) == " ".join(title.split())
    assert lines[-1].endswith("1:1")
    width = picture.width_of(board)
    assert all(8 + font(picture.SIZE).getlength(line) <= width - 8 for line in lines)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("game", list(GAMES))
def test_the_legend_names_both_colours_and_exactly_the_marks_shown(lang: str, game: str) -> None:
    v = pairing(game)
    texts = picture.legend_texts(v, ("Jörg Müller", "Zoë Weiß-Öztürk"), lang)
    assert texts[0] == say(lang, "picture_you", name="Jörg Müller")
    assert texts[1] == "Zoë Weiß-Öztürk"
    hows = {how for path in v.outcome.paths.values() for _, _, how in path[1:]}
    assert (say(lang, "picture_jump") in texts) == ("~" in hows)
    assert (say(lang, "picture_banned") in texts) == ("b" in hows)
    ends = {f.kind for f in [*v.mine.values(), *v.theirs.values()]}
    shown = {k for k in picture._END_MARK if say(lang, f"picture_end_{k}") in texts}
    assert shown == ends


@pytest.mark.parametrize("game", list(GAMES))
def test_the_pairing_picture_is_big_enough_for_a_phone(game: str) -> None:
    v = pairing(game)
    png = picture.pairing_png(v, "Runde 1", ("Anna", "Bert"), "de")
    image = Image.open(io.BytesIO(png))
    assert image.width >= 300 and image.width <= 1000
    assert picture.SIZE >= 14 and picture.MARK_SIZE >= 14 and picture.CELL >= 48
