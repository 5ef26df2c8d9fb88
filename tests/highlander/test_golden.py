"""The result mails of the whole single game and the whole match, German and English, as
golden files (``GM_UPDATE_GOLDEN=1`` rewrites them for review); and STATUS and HILFE of one
state of each step."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm_daemon.games.highlander import GAME
from tests.scenarios import check_golden, load_scenario

from .support import play, position

HERE = Path(__file__).parent
GOLDEN = HERE / "golden"


def _replay(name: str):  # type: ignore[no-untyped-def]
    scenario = load_scenario(HERE / "scenarios" / f"{name}.toml")
    state = (
        position(scenario["position"], scenario.get("options", {}))
        if "position" in scenario
        else None
    )
    from .support import new_game

    state = state or new_game(scenario.get("options", {}))
    carried = {}
    for step in scenario["step"]:
        if "mail" in step:
            continue
        resolution = play(state, step.get("mails", {}), carried)
        yield state, resolution
        carried = resolution.carried
        state = resolution.state


@pytest.mark.parametrize("name", ["game-single", "game-tournament"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_result_mails(name: str, lang: str) -> None:
    texts = []
    for number, (before, resolution) in enumerate(_replay(name), start=1):
        report = GAME.report(before, resolution, lang)
        texts.append(f"===== {number}: {GAME.phase_label(before, lang)} =====\n{report.public}")
    check_golden(GOLDEN / f"{name}.{lang}.txt", "\n".join(texts))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_status_and_help_of_every_step(lang: str) -> None:
    texts = []
    for before, _ in _replay("game-single"):
        for seat in ("P1", "P2"):
            status = GAME.status(before, seat, lang)
            texts.append(f"===== {GAME.phase_label(before, lang)}: {seat} =====")
            texts += [status.public, status.private.get(seat, ""), GAME.help(before, seat, lang)]
    check_golden(GOLDEN / f"status-help.{lang}.txt", "\n".join(texts))
