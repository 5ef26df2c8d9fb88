"""Every numbered rule of the spec and every TC-HB scenario has a test.

Scenario files list the rules they exercise (``rules = [...]``); Python tests name them in
their docstrings. Both are collected here and compared with the spec's rule numbers.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.scenarios import load_scenarios, uncovered

from .test_scenarios import SCENARIO_DIR

HERE = Path(__file__).parent
RULES = (
    [f"HB-{n}" for n in range(1, 8)]
    + [f"DD-{n}" for n in range(1, 12)]
    + [f"KQ-{n}" for n in range(1, 12)]
)
ACCEPTANCE = [f"TC-HB-{n}" for n in range(1, 11)]
RULE_ID = re.compile(r"\b(?:HB|DD|KQ)-\d+\b")


def docstring_rules() -> set[str]:
    found: set[str] = set()
    for path in HERE.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                found |= set(RULE_ID.findall(ast.get_docstring(node) or ""))
    return found


def test_every_rule_has_a_test() -> None:
    missing = uncovered(RULES, load_scenarios(SCENARIO_DIR))
    assert sorted(set(missing) - docstring_rules(), key=RULES.index) == []


def test_every_acceptance_scenario_is_a_data_file() -> None:
    assert uncovered(ACCEPTANCE, load_scenarios(SCENARIO_DIR)) == []
