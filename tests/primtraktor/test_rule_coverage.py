"""Traceability: every numbered rule PT-1 … PT-20 of the spec is exercised somewhere here,
either by a scenario file ("rules") or by a test module that names it."""

from __future__ import annotations

import json
import re
from pathlib import Path

HERE = Path(__file__).parent
RULES = {f"PT-{n}" for n in range(1, 21)}


def named_rules() -> set[str]:
    found: set[str] = set()
    for scenario in (HERE / "scenarios").glob("*.json"):
        found |= set(json.loads(scenario.read_text(encoding="utf-8"))["rules"])
    for module in HERE.glob("test_*.py"):
        if module.name != Path(__file__).name:
            found |= set(re.findall(r"PT-\d+", module.read_text(encoding="utf-8")))
    return found


def test_every_numbered_rule_has_a_test():
    assert sorted(RULES - named_rules()) == []
