"""The PNG board picture: valid, deterministic, every player in his colour."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from PIL import Image

from gm_daemon.games.kit.picture import font
from gm_daemon.games.kit.picture import seat_colour as colour
from gm_daemon.games.primtraktor import GAME
from gm_daemon.games.primtraktor.model import Options
from gm_daemon.games.primtraktor.picture import _MARGIN, cell_pixels, legend_lines, render_png
from gm_daemon.games.protocol import Seat
from tests.primtraktor.support import all_orders, defaulted, make_state

SEED_EXAMPLE = Path(__file__).parent / "scenarios" / "tc_pt_1_seed_example.json"


def after_seed_example():
    scenario = json.loads(SEED_EXAMPLE.read_text(encoding="utf-8"))
    state = make_state(scenario)
    orders = all_orders(state, scenario["orders"])
    nmr = defaulted(state, scenario["orders"])
    return state, GAME.resolve(state, orders, random.Random(0), nmr)


def pixel_of_cell(image: Image.Image, cell: tuple[int, int], size: int) -> tuple[int, int, int]:
    px = cell_pixels(size)
    x = _MARGIN + (cell[0] - 1) * px + px // 2
    y = _MARGIN + (cell[1] - 1) * px + px // 2
    return image.getpixel((x, y))  # type: ignore[return-value]


def test_result_report_attaches_a_png_of_the_board():
    before, resolution = after_seed_example()
    report = GAME.report(before, resolution, "de")
    (attachment,) = report.attachments
    assert attachment.content_type == "image/png"
    assert attachment.filename == "runde-01.png"  # the daemon puts the game's id in front
    assert "Das Bild des Spielplans hängt an." in report.public
    image = Image.open(io.BytesIO(attachment.data))
    assert image.format == "PNG"


def test_positions_solid_and_trails_pale_in_the_players_colour():
    _, resolution = after_seed_example()
    image = Image.open(io.BytesIO(render_png(resolution.state)))
    ralf = resolution.state.tractor("ralf")  # the second tractor: colour(1)
    assert pixel_of_cell(image, ralf.position, 51) == colour(1)
    trail = pixel_of_cell(image, (30, 27), 51)
    assert trail != colour(1) and trail != (255, 255, 255)
    assert pixel_of_cell(image, (1, 1), 51) == (255, 255, 255)


def test_rendering_is_deterministic():
    _, resolution = after_seed_example()
    assert render_png(resolution.state, "en") == render_png(resolution.state, "en")


def test_large_board_renders_at_a_bounded_size():
    seats = [Seat(f"p{i}", f"P {i}") for i in range(64)]
    state = GAME.start(Options(board=255), seats, random.Random(5))
    image = Image.open(io.BytesIO(render_png(state)))
    assert max(image.size) < 1200
    assert len({colour(i) for i in range(64)}) == 64


def test_legend_names_keep_their_umlauts():
    """The toolkit's font draws every letter: "Bär" is not the same picture as "Bar"."""
    state = GAME.start(
        Options(board=21), [Seat("a", "Bert Bär"), Seat("b", "Cora")], random.Random(1)
    )
    plain = state.model_copy(deep=True)
    plain.tractors[0].name = "Bert Bar"
    assert render_png(state) != render_png(plain)


def test_a_long_name_widens_the_picture_instead_of_being_cut():
    name = "Maximiliane Schwarzenberg-Weißenfels"
    state = GAME.start(Options(board=21), [Seat("a", name), Seat("b", "Cora")], random.Random(1))
    image = Image.open(io.BytesIO(render_png(state)))
    (line, _) = legend_lines(state, "de")
    assert name in line
    assert image.width >= _MARGIN + 20 + font(14).getlength(line)
