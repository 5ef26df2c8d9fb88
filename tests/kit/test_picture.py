"""The Pillow base every game's pictures stand on."""

from __future__ import annotations

import io

from PIL import Image

from gm_daemon.games.kit.picture import (
    SEAT_COLOURS,
    canvas,
    font,
    latin1,
    png_bytes,
    seat_colour,
    text_size,
)


def test_seat_colours_start_with_the_palette_and_never_repeat() -> None:
    assert [seat_colour(i) for i in range(len(SEAT_COLOURS))] == list(SEAT_COLOURS)
    assert len({seat_colour(i) for i in range(64)}) == 64


def test_latin1_keeps_umlauts_and_replaces_what_the_font_cannot_draw() -> None:
    assert latin1("Jörg Straße ▸ Zug") == "Jörg Straße ? Zug"


def test_png_bytes_are_a_deterministic_png() -> None:
    def draw() -> bytes:
        image, pen = canvas(40, 20)
        pen.text((2, 2), "Bär", fill=(0, 0, 0), font=font(10))
        return png_bytes(image)

    first = draw()
    assert first == draw()
    assert Image.open(io.BytesIO(first)).size == (40, 20)


def test_text_size_grows_with_the_text() -> None:
    _, pen = canvas(10, 10)
    assert text_size(pen, "Bert Bär")[0] > text_size(pen, "Bert")[0] > 0
