"""Traceability: every numbered rule PT-1 … PT-20 of the spec is exercised somewhere here,
either by a scenario file ("rules") or by a test module that names it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.scenarios import load_scenarios, uncovered

HERE = Path(__file__).parent
RULES = {f"PT-{n}" for n in range(1, 21)}


def module_rules() -> set[str]:
    found: set[str] = set()
    for module in HERE.glob("test_*.py"):
        if module.name != Path(__file__).name:
            found |= set(re.findall(r"PT-\d+", module.read_text(encoding="utf-8")))
    return found


def test_every_numbered_rule_has_a_test():
    missing = uncovered(RULES, load_scenarios(HERE / "scenarios"))
    assert sorted(set(missing) - module_rules()) == []
