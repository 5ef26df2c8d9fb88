"""The one scenario and golden runner of the test suite, for every game and the core.

Scenarios are data files (TOML or JSON), one per file, each naming the rule ids it
exercises (``rules = ["HH-8", "A-7"]``); ``scenario_params`` turns a folder of them into
pytest parameters named after the files, and ``uncovered`` tells which rule ids of a game's
spec no scenario names. Golden files (result mails, reports) are compared by
``check_golden``; the one update switch for all of them is ``GM_UPDATE_GOLDEN=1``::

    GM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/hexenhalma   # then review the diff
"""

from __future__ import annotations

import difflib
import json
import os
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

UPDATE = os.environ.get("GM_UPDATE_GOLDEN") == "1"


def load_scenario(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    data.setdefault("id", path.stem)
    return data


def load_scenarios(folder: Path) -> list[dict[str, Any]]:
    return [load_scenario(p) for p in sorted(folder.iterdir()) if p.suffix in {".toml", ".json"}]


def scenario_params(folder: Path) -> list[Any]:
    """One ``pytest.param`` per scenario file, with the file's stem as test id."""
    return [pytest.param(s, id=str(s["id"])) for s in load_scenarios(folder)]


def uncovered(rule_ids: Iterable[str], scenarios: Iterable[dict[str, Any]]) -> list[str]:
    """The rule ids no scenario names in its ``rules``."""
    covered = {rule for s in scenarios for rule in s.get("rules", [])}
    return sorted(set(rule_ids) - covered)


def check_golden(path: Path, actual: str | bytes) -> None:
    """Compare with the golden file, or write it when GM_UPDATE_GOLDEN=1."""
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(actual, bytes):
            path.write_bytes(actual)
        else:
            path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), f"no golden file {path}; run with GM_UPDATE_GOLDEN=1 and review it"
    if isinstance(actual, bytes):
        assert path.read_bytes() == actual, f"{path} differs (binary)"
        return
    expected = path.read_text(encoding="utf-8")
    if expected != actual:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                str(path),
                "actual",
            )
        )
        pytest.fail(f"golden file differs; GM_UPDATE_GOLDEN=1 updates it\n{diff}", pytrace=False)
