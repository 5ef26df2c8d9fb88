"""Golden texts in German and English: the acknowledgement (paths with step numbers, the
spell budget, an invalid witch with her reason), the result mail of TC-HH-3 (matrix,
standings, one player's fate lists), the welcome and the BILD/PICTURE answer.
``GM_UPDATE_GOLDEN=1`` rewrites them (then review the diff)."""

from __future__ import annotations

import random

import pytest

from gm_daemon.games.hexenhalma import GAME
from gm_daemon.games.hexenhalma.engine import PICTURE
from gm_daemon.games.hexenhalma.model import Orders, State
from gm_daemon.games.protocol import Problem, Resolution
from tests.hexenhalma.support import HERE, board_text, mail_lines, new_state, read
from tests.scenarios import check_golden

GOLDEN = HERE / "golden"
ORDERS = {
    "anna": "Hexe 1: B7 | N, N+M, N, N, N, N\nHexe 2: D7 | N+I, N5",
    "bert": "Hexe 1: B7-B6-B5[K]~E3-E2-D2-D1\nHexe 2: D7 | N, N+B>E5, N, N, W, N, N, W",
    "carla": "Hexe 1: B7 | N6\nHexe 2: D7 | N6",
}


def played(rounds: int = 2) -> tuple[State, Resolution[State, Orders]]:
    state = new_state(["anna", "bert", "carla"], [board_text("h1")], rounds=rounds)
    orders = {seat: read(state, seat, text) for seat, text in ORDERS.items()}
    return state, GAME.resolve(state, orders, random.Random(0), frozenset())


def problems_text(warnings: list[Problem]) -> str:
    return "".join(f"{p.line}: {p.message}\n   → {p.hint}\n" for p in warnings)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_acknowledgement(lang: str) -> None:
    state, _ = played()
    text = "Hexe 1: B7 | N, N, N, @A2, O, N\nHexe 2: D7 | N, N+B>E5, N, N, W, N, N, W"
    accepted = GAME.read_orders(mail_lines(text), state, "bert", lang)
    good = read(state, "bert", ORDERS["bert"], lang)
    described = (
        GAME.describe_orders(state, "bert", good, lang)
        + "\n\n"
        + GAME.describe_orders(state, "bert", accepted.orders, lang)
    )
    assert all(len(line) <= 78 for line in described.splitlines())
    ack = described + "\n\n" + problems_text(accepted.warnings)
    check_golden(GOLDEN / f"acknowledgement_{lang}.txt", ack)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_result_mail(lang: str) -> None:
    before, resolution = played()
    report = GAME.report(before, resolution, lang)
    check_golden(GOLDEN / f"result_{lang}.txt", report.public + "\n" + report.private["anna"])
    assert report.attachments == []  # round 2 has no board yet: nothing to draw


@pytest.mark.parametrize("lang", ["de", "en"])
def test_final_result_and_league(lang: str) -> None:
    before, resolution = played(rounds=1)
    league = before.model_copy(update={"scoring": "league"})
    after = resolution.state.model_copy(update={"scoring": "league"})
    report = GAME.report(league, resolution.__class__(state=after, finished=True), lang)
    check_golden(GOLDEN / f"final_league_{lang}.txt", report.public)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_welcome(lang: str) -> None:
    state, _ = played()
    welcome = GAME.welcome(state, "anna", lang)
    check_golden(GOLDEN / f"welcome_{lang}.txt", welcome.public)
    assert max(len(line) for line in welcome.public.splitlines()) <= 78
    (png,) = welcome.attachments
    assert png.content_type == "image/png" and png.data.startswith(b"\x89PNG")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_picture_command(lang: str) -> None:
    _, resolution = played()
    report = PICTURE.run(resolution.state, "anna", "bert", lang)
    check_golden(GOLDEN / f"picture_{lang}.txt", report.public)
    (png,) = report.attachments
    word = "runde" if lang == "de" else "round"
    assert png.filename == f"{word}-1-anna-bert.png" and png.data.startswith(b"\x89PNG")
