"""Report texts (PT-20: map, per-player table, NMR legs) compared exactly with golden files,
German and English.

Compared through tests/scenarios.check_golden: regenerate after an intended change with
``GM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/primtraktor/test_golden.py`` and review the diff
before committing.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from gm_daemon.games.primtraktor import GAME
from gm_daemon.games.primtraktor.model import Options
from gm_daemon.games.protocol import Seat
from tests.primtraktor.support import all_orders, defaulted, make_state
from tests.scenarios import check_golden

HERE = Path(__file__).parent
GOLDEN = HERE / "golden"
SEATS = [Seat("kurt", "Kurt Kurz"), Seat("ralf", "Ralf Raser"), Seat("bert", "Bert Bremser")]


def _scenario(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def result_of(path: Path, lang: str) -> str:
    scenario = _scenario(path)
    before = make_state(scenario)
    texts = scenario["orders"]
    orders = all_orders(before, texts)
    resolution = GAME.resolve(before, orders, random.Random(0), defaulted(before, texts))
    return GAME.report(before, resolution, lang).public


def started_game():
    return GAME.start(Options(), SEATS, random.Random(2026))


CASES = {
    "result_round1_seed_example": lambda lang: result_of(
        HERE / "scenarios" / "tc_pt_1_seed_example.json", lang
    ),
    "result_mixed_round": lambda lang: result_of(GOLDEN / "mixed_round.json", lang),
    "result_final_mid_round": lambda lang: result_of(
        HERE / "scenarios" / "tc_pt_8b_bonus_end_mid_round.json", lang
    ),
    "result_final_round13": lambda lang: result_of(
        HERE / "scenarios" / "tc_pt_8a_bonus_survivors_share.json", lang
    ),
    "welcome": lambda lang: (
        GAME.welcome(started_game(), "ralf", lang).public
        + "\n--- private ---\n"
        + GAME.welcome(started_game(), "ralf", lang).private["ralf"]
    ),
    "status": lambda lang: GAME.status(started_game(), "bert", lang).public,
    "help": lambda lang: GAME.help(started_game(), "bert", lang),
}


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_report_text_matches_golden_file(case: str, lang: str):
    check_golden(GOLDEN / f"{case}.{lang}.txt", CASES[case](lang))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_standings_stay_narrow_and_say_why_each_tractor_is_out(lang: str) -> None:
    """Four eliminations in one round: the table stays within 90 columns, each reason is
    said once under it, folded to the mail width."""
    text = result_of(GOLDEN / "mixed_round.json", lang)
    heading = "Stand nach Runde 4" if lang == "de" else "Standings after round 4"
    block = text[text.index(heading) :].split("\n\n")[0:2]
    table, reasons = block[0].splitlines(), block[1].splitlines()
    assert max(map(len, table)) <= 90
    assert reasons[0] == ("Warum ausgeschieden:" if lang == "de" else "Why out:")
    assert len(reasons) == 5 and max(map(len, reasons)) <= 78
    assert reasons[1].startswith("  A Anna Alt: ")
