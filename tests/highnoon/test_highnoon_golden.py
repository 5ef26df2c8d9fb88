"""Texts players read, compared exactly with tests/highnoon/golden/*.txt (de and en).

Compared through tests/scenarios.check_golden: regenerate after an intended change with
GM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/highnoon and review the diff before committing.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gm_daemon.games.highnoon import GAME
from gm_daemon.games.highnoon.model import Options, State
from gm_daemon.games.highnoon.rules import resolve_round, start_state
from gm_daemon.games.protocol import Report, Resolution, Seat
from tests.scenarios import check_golden

from .support import HERE, FixedShuffle, build_state, load_json, read, scripted_dice

GOLDEN = HERE / "golden"
LANGS = ["de", "en"]


def _played(scenario: str) -> tuple[State, State]:
    """Before and after the round of a scenario file."""
    data = load_json(f"scenarios/{scenario}.json")
    before = build_state(data)
    orders = {}
    for seat, given in data["orders"].items():
        text = given if isinstance(given, str) else given["text"]
        lang = "de" if isinstance(given, str) else given.get("lang", "de")
        orders[seat] = read(before, seat, text, lang).orders
    return before, resolve_round(before, orders, scripted_dice(data["rolls"]))


def _first_round() -> State:
    seats = [
        Seat("anna", "Anna Arm"),
        Seat("bert", "Bert Bein"),
        Seat("carl", "Carl Colt"),
        Seat("dora", "Dora Dolch"),
        Seat("emil", "Emil Eisen"),
    ]
    return start_state(Options(), seats, FixedShuffle(["carl", "anna", "emil", "bert", "dora"]))


def _with_private(report: Report) -> str:
    parts = [report.public]
    for seat, text in sorted(report.private.items()):
        parts.append(f"=== private: {seat} ===\n{text}")
    return "\n".join(parts)


def _report(scenario: str, lang: str) -> str:
    before, after = _played(scenario)
    return _with_private(GAME.report(before, Resolution(state=after), lang))


def _status(scenario: str, seat: str, lang: str, after: bool) -> str:
    before, later = _played(scenario)
    return GAME.status(later if after else before, seat, lang).public


RENDERINGS: dict[str, Callable[[str], str]] = {
    "report-tc-hn-1": lambda lang: _report("tc-hn-1-worked-example", lang),
    "report-tc-hn-2-final": lambda lang: _report("tc-hn-2-penalty-elimination-end", lang),
    "report-tc-hn-3-eliminated": lambda lang: _report("tc-hn-3-challenges", lang),
    "welcome": lambda lang: _with_private(GAME.welcome(_first_round(), "anna", lang)),
    "help": lambda lang: GAME.help(_first_round(), "anna", lang),
    "status-tc-hn-1": lambda lang: _status("tc-hn-1-worked-example", "e-mueller", lang, False),
    "status-final": lambda lang: _status("tc-hn-2-penalty-elimination-end", "B", lang, True),
    "status-eliminated": lambda lang: _status("tc-hn-3-challenges", "D", lang, True),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(RENDERINGS))
def test_golden(name: str, lang: str) -> None:
    check_golden(GOLDEN / f"{name}.{lang}.txt", RENDERINGS[name](lang))


def test_the_worked_example_publishes_the_seed_lines() -> None:
    """The seed's own result lines, as published (the golden file shows the alignment), with
    the names as the standings write them and "(–)" for no shot."""
    text = (GOLDEN / "report-tc-hn-1.de.txt").read_text(encoding="utf-8")
    assert "E. Müller (19, 15+) --- H. Glück (16, 15+)\n" in text
    assert "E. Müller (12, 4+)  --- V. Pech (12, 10, 8, 6, 4)\n" in text
    assert "A. Langsam (–)      --- B. Schnell (–)\n" in text  # the names of the standings
    assert "E. Müller   D=3  L=7  P=11\n" in text
    assert (
        "Herausforderungen: E. Müller→H. Glück; A. Langsam→E. Müller; B. Schnell→E. Müller" in text
    )
