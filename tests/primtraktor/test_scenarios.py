"""Rule scenarios as data: every file in scenarios/ is one round resolved through the engine.

Each file names the spec rules it exercises ("rules") and the TC-PT acceptance case ("id");
orders go through the real grammar (tests.primtraktor.support.read). Keys under "expect" are
checked only where given, so a scenario states exactly what its rule is about.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from gm_daemon.games.primtraktor import GAME
from gm_daemon.games.primtraktor.events import Eliminated, GameEnded, NmrApplied, load_events
from gm_daemon.games.primtraktor.model import PHASE_LETTERS, State, Tractor
from tests.primtraktor.support import all_orders, defaulted, make_state
from tests.scenarios import load_scenarios, scenario_params

FOLDER = Path(__file__).parent / "scenarios"


def _tractor_facts(before: Tractor, after: Tractor, events: list[Any]) -> dict[str, Any]:
    """Everything a scenario may expect of one tractor, in the scenario's own terms."""
    out = after.eliminated
    nmr = [e for e in events if isinstance(e, NmrApplied) and e.seat == after.seat]
    crash = [e for e in events if isinstance(e, Eliminated) and e.seat == after.seat]
    return {
        "status": out.reason if out else "active",
        "cell": list(out.cell) if out and out.cell else None,
        "others": sorted(out.others) if out else [],
        "phase": PHASE_LETTERS[out.phase - 1] if out else None,
        "round": out.round if out else None,
        "time": crash[0].time if crash else None,
        "at": list(after.position),
        "speed": after.speed,
        "dir": after.direction.value if after.direction else None,
        "cells": after.cells,
        "gained": after.cells - before.cells,
        "trail_added": [list(c) for c in after.trail[before.cells :]],
        "nmr_leg": (f"{nmr[0].leg.direction.value}{nmr[0].leg.change}" if nmr[0].leg else None)
        if nmr
        else "no NMR",
    }


def _check_tractors(scenario: dict[str, Any], before: State, after: State, events: list[Any]):
    for seat, expected in scenario.get("expect", {}).items():
        facts = _tractor_facts(before.tractor(seat), after.tractor(seat), events)
        for key, value in expected.items():
            wanted = sorted(value) if key == "others" else value
            assert facts[key] == wanted, f"{seat}.{key}: {facts[key]!r} != {wanted!r}"


def _check_game(scenario: dict[str, Any], after: State, events: list[Any], ranking: Any):
    assert after.finished == scenario["finished"]
    if "ended_phase" in scenario:
        assert after.ended_phase is not None
        assert PHASE_LETTERS[after.ended_phase - 1] == scenario["ended_phase"]
    end = next((e for e in events if isinstance(e, GameEnded)), None)
    scores = {s.seat: s for s in end.scores} if end else {}
    for seat, bonus in scenario.get("bonus", {}).items():
        assert scores[seat].bonus == bonus, seat
    for seat, total in scenario.get("scores", {}).items():
        assert scores[seat].total == total == scores[seat].cells + scores[seat].bonus, seat
    if "ranking" in scenario:
        assert [sorted(group) for group in ranking] == scenario["ranking"]


def _check_board(scenario: dict[str, Any], after: State):
    counts = Counter(cell for t in after.tractors for cell in t.trail)
    assert all(n == 1 for n in counts.values()), "a cell is occupied twice"
    for cell in scenario.get("free", []):
        assert tuple(cell) not in counts, f"{cell} should be free"


@pytest.mark.parametrize("scenario", scenario_params(FOLDER))
def test_scenario(scenario: dict[str, Any]):
    before = make_state(scenario)
    texts = scenario.get("orders", {})
    resolution = GAME.resolve(
        before, all_orders(before, texts), random.Random(0), defaulted(before, texts)
    )
    events = load_events(resolution.events)
    _check_tractors(scenario, before, resolution.state, events)
    _check_game(scenario, resolution.state, events, resolution.ranking)
    _check_board(scenario, resolution.state)


def test_every_acceptance_scenario_of_the_spec_is_here():
    ids = {s["id"].split("-normal")[0] for s in load_scenarios(FOLDER)}
    wanted = {"TC-PT-1", "TC-PT-2", "TC-PT-3a", "TC-PT-3b", "TC-PT-4", "TC-PT-7"}
    wanted |= {f"TC-PT-5{c}" for c in "abcdef"} | {f"TC-PT-6{c}" for c in "abc"}
    wanted |= {f"TC-PT-8{c}" for c in "abc"}
    assert wanted <= ids, sorted(wanted - ids)
