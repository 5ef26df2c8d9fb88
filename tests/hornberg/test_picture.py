"""The PNG of the table attached to every report: a readable image of the right size."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from gm_daemon.games.hornberg.picture import _title, table_png
from gm_daemon.games.kit.picture import text_size
from tests.scenarios import load_scenario

from .position import build
from .test_scenarios import SCENARIO_DIR


def image_of(scenario_file: str) -> Image.Image:
    spec = load_scenario(SCENARIO_DIR / scenario_file)
    return Image.open(io.BytesIO(table_png(build(spec["position"]))))


@pytest.mark.parametrize(
    ("scenario_file", "columns", "rows"),
    [
        ("tc-hb-05a-kq-duke-zeile.toml", 6, 3),  # the §6.3 window: 6 x 3
        ("kq-cells-and-labels.toml", 4, 3),  # a 2-wide line, widened on every side
    ],
)
def test_kq_picture_shows_the_printed_window(scenario_file: str, columns: int, rows: int) -> None:
    image = image_of(scenario_file)
    assert image.format == "PNG"
    assert image.width == max(16 * 2 + 40 + 56 * columns, title_width(scenario_file))
    assert image.height == 16 * 2 + 40 + 74 * rows


def title_width(scenario_file: str) -> int:
    """A small table is widened to its title, which must never be clipped."""
    spec = load_scenario(SCENARIO_DIR / scenario_file)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    return 16 * 2 + text_size(probe, _title(build(spec["position"]), "de"), 14)[0]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_title_fits_even_the_empty_table(lang: str) -> None:
    spec = load_scenario(SCENARIO_DIR / "kq-empty-table.toml")
    state = build(spec["position"])
    image = Image.open(io.BytesIO(table_png(state, lang)))
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    assert image.width >= 16 * 2 + text_size(probe, _title(state, lang), 14)[0]


def test_dd_picture_has_three_rows_as_long_as_the_longest() -> None:
    image = image_of("tc-hb-02-dd-round-end.toml")  # row III: length 9
    assert image.height == 16 * 2 + 20 + 74 * 3
    assert image.width == 16 * 2 + 40 + 56 * (9 + 2)


def test_empty_table_still_draws() -> None:
    image = image_of("kq-empty-table.toml")
    assert image.size[0] > 0 and image.getpixel((1, 1)) == (246, 241, 228)
