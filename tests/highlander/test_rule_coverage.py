"""Every rule (HL-1 … HL-19), every decided ambiguity (A-1 … A-16 that changes play) and
every acceptance scenario (TC-HL-1 … TC-HL-7) of the spec is named by a scenario file."""

from __future__ import annotations

from pathlib import Path

from tests.scenarios import load_scenarios, uncovered

SCENARIOS = load_scenarios(Path(__file__).parent / "scenarios")
RULES = [f"HL-{n}" for n in range(1, 20)]
ACCEPTANCE = [f"TC-HL-{n}" for n in range(1, 8)]
# A-15 (press is free, the GM relays nothing) changes nothing the engine does.
AMBIGUITIES = [f"A-{n}" for n in range(1, 17) if n != 15]


def test_every_rule_is_named_by_a_scenario() -> None:
    assert uncovered(RULES, SCENARIOS) == []


def test_every_acceptance_scenario_is_a_data_file() -> None:
    assert uncovered(ACCEPTANCE, SCENARIOS) == []


def test_every_decided_ambiguity_is_named_by_a_scenario() -> None:
    assert uncovered(AMBIGUITIES, SCENARIOS) == []
