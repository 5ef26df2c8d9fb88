"""The Pillow base every game's pictures stand on."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from gm_daemon.games.kit.picture import (
    SEAT_COLOURS,
    canvas,
    clashes,
    font,
    inside,
    label_box,
    lay_out,
    overlap,
    png_bytes,
    seat_colour,
    text_size,
)


def test_seat_colours_start_with_the_palette_and_never_repeat() -> None:
    assert [seat_colour(i) for i in range(len(SEAT_COLOURS))] == list(SEAT_COLOURS)
    assert len({seat_colour(i) for i in range(64)}) == 64


def test_the_font_is_the_dejavu_sans_shipped_in_the_package() -> None:
    assert font(14).getname() == ("DejaVu Sans", "Book")
    assert font(14) is font(14)  # loaded once per size
    assert font(14).size == 14 and font(20).size == 20


@given(
    st.lists(
        st.tuples(st.text("AKMBXZ!0123456789", min_size=1, max_size=3),
                  st.integers(60, 240), st.integers(60, 240)),
        max_size=30,
    )
)  # fmt: skip
def test_laid_out_labels_never_overlap_and_stay_inside(
    labels: list[tuple[str, int, int]],
) -> None:
    """However many labels fall on one spot, each gets a place of its own near it."""
    bounds = (0.0, 0.0, 300.0, 300.0)
    taken = [(100.0, 100.0, 140.0, 120.0)]
    wanted = [(text, (float(x), float(y))) for text, x, y in labels]
    boxes = lay_out(wanted, 14, bounds, step=8, taken=taken)
    named = {f"{i}": box for i, box in enumerate([*taken, *boxes])}
    assert clashes(named) == []
    assert all(inside(box, bounds) for box in boxes)
    for box, (_, (x, y)) in zip(boxes, wanted, strict=True):
        assert abs((box[0] + box[2]) / 2 - x) <= 8 * 39 and abs((box[1] + box[3]) / 2 - y) <= 8 * 39


def test_a_label_goes_beside_its_point_when_there_is_room() -> None:
    first, second = lay_out([("B4", (50, 50)), ("B6", (50, 50))], 14, (0, 0, 200, 200), step=8)
    assert not overlap(first, second)
    assert first == label_box("B4", 14, (58, 50))


def test_a_label_with_no_room_anywhere_is_an_error_not_an_overlap() -> None:
    with pytest.raises(ValueError, match="no room"):
        lay_out([("WWWWWW", (5, 5))], 14, (0, 0, 10, 10), step=2)


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
