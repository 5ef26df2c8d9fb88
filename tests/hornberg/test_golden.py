"""Report texts compared exactly with golden files, in German and English.

Compared through tests/scenarios.check_golden. Regenerate after an intended change of
wording or layout, then read the diff:

    GM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/hornberg/test_golden.py
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gm_daemon.games.hornberg import GAME
from gm_daemon.games.hornberg.play import Orders
from gm_daemon.games.protocol import Line, OrdersRejected, Report, Resolution, Seat
from tests.scenarios import check_golden, load_scenario, load_scenarios

from .position import build
from .test_scenarios import SCENARIO_DIR, run_step

GOLDEN = Path(__file__).parent / "golden"
LANGS = ["de", "en"]


def compare(name: str, text: str) -> None:
    check_golden(GOLDEN / f"{name}.txt", text)


def report_text(report: Report) -> str:
    parts = ["=== public ===", report.public.rstrip()]
    for seat, text in sorted(report.private.items()):
        parts += [f"=== private: {seat} ===", text.rstrip()]
    parts.append("=== attachments ===")
    parts += [f"{a.filename} {a.content_type}" for a in report.attachments]
    return "\n".join(parts) + "\n"


def last_step_report(scenario_id: str, lang: str) -> Report:
    """Play a scenario's steps; report the last one as the daemon would mail it."""
    scenario = next(s for s in load_scenarios(SCENARIO_DIR) if s["id"] == scenario_id)
    state = build(scenario["position"])
    plans: dict[str, Orders] = {}
    for step in scenario["step"]:
        outcome = run_step(state, step, plans)
        before, state = state, outcome.after
    resolution = Resolution(
        state=state,
        events=outcome.events,
        finished=state.finished,
        ranking=state.ranking,
        carried=outcome.carried,
    )
    return GAME.report(before, resolution, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "scenario_id",
    ["TC-HB-2", "TC-HB-3", "TC-HB-5a-kreuzer", "TC-HB-10", "PLAN-chain", "DD-10-tie"],
)
def test_result_reports(scenario_id: str, lang: str) -> None:
    compare(
        f"report-{scenario_id.lower()}-{lang}", report_text(last_step_report(scenario_id, lang))
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", ["drunter-drueber", "kreuzer-quer"])
def test_welcome(variant: str, lang: str) -> None:
    seats = [Seat("anna", "Anna"), Seat("bert", "Bert"), Seat("carla", "Carla")]
    options = GAME.Options.model_validate({"variant": variant})
    state = GAME.start(options, seats, random.Random(11))
    report = GAME.welcome(state, state.to_move, lang)
    compare(f"welcome-{variant}-{lang}", report_text(report))


@pytest.mark.parametrize("lang", LANGS)
def test_status_of_the_abb5_position(lang: str) -> None:
    state = build(load_scenario(SCENARIO_DIR / "tc-hb-05a-kq-duke-zeile.toml")["position"])
    statuses = {seat: GAME.status(state, seat, lang) for seat in ("bert", "carla")}
    texts = [s.public + "\n" + s.private.get(seat, "") for seat, s in statuses.items()]
    compare(f"status-abb5-{lang}", "\n=== other seat ===\n".join(texts))


E5_POSITION = {
    "variant": "dd",
    "seats": ["P1", "P2", "P3"],
    "to_move": "P1",
    "rows": ["7-1: ro1 ro2/5 ro3 ro4", "5: ge1", "9: bl1"],
    "kegs": {"ro": "P1", "ge": "P2", "bl": "P3"},
    "hands": {"P1": "H3 B5 sw2"},
}


@pytest.mark.parametrize("lang", LANGS)
def test_rejection_e5(lang: str) -> None:
    """§7 E5: shortening below the cannons; the player stays on turn and sees his options."""
    state = build(E5_POSITION)
    order = ["Zug: 20", "Herzog 3 verkürzt Reihe I      # Reihe I: Länge 6, 4 Kanonen"]
    with pytest.raises(OrdersRejected) as rejected:
        GAME.read_orders([Line(i, t) for i, t in enumerate(order, 3)], state, "p1", lang)
    text = "\n".join(
        f"line {p.line} [{p.kind.value}] {p.source!r}\n  {p.message}\n  {p.hint}"
        for p in rejected.value.problems
    )
    compare(f"rejected-e5-{lang}", text + "\n")


@pytest.mark.parametrize("lang", LANGS)
def test_a_long_collected_line_breaks_between_players_not_inside_a_pile(lang: str) -> None:
    state = build(load_scenario(SCENARIO_DIR / "tc-hb-05a-kq-duke-zeile.toml")["position"])
    state.table.collected = {
        "anna": ["ge4", "B6", "ge6", "B6", "ge2", "B3", "ge1", "ge3", "B0", "ge5", "B4"],
        "bert": ["bl4", "B5", "bl5", "bl3", "B2", "bl6", "B7", "bl2", "B8"],
        "carla": ["gr6", "B2", "gr4", "ro1", "B1", "gr5", "B6", "ro6"],
    }
    text = GAME.status(state, "bert", lang).public
    head = "Gesammelt: " if lang == "de" else "Collected: "
    start = text.index(head)
    block = text[start:].split("\n")
    lines = [block[0], *(line for line in block[1:] if line.startswith(" " * len(head)))]
    assert len(lines) > 1 and all(len(line) <= 78 for line in lines)
    for line in lines:  # every pile whole on its line: its parentheses close where they open
        assert line.count("(") == line.count(")")
