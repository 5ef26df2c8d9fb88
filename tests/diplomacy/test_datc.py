"""DATC v3.0 chapter 6: every case in ``datc/*.toml``, under each rulebook it holds for.

A case gives the position, the orders with the result each must get, the units after the
phase, the dislodged units with their retreat options, the provinces left empty by a standoff
and, for the 6.H cases, the retreat orders that follow and the board after them. Each case
runs through the JSON phase surface, so the runner also covers order reading and output.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from gm_daemon.diplomacy.phase import run_phase

DATA = Path(__file__).parent / "datc"
RULEBOOKS = ("2000", "2023")
SECTION_SIZES = {
    "A": 12,
    "B": 15,
    "C": 9,
    "D": 34,
    "E": 15,
    "F": 25,
    "G": 20,
    "H": 16,
    "I": 7,
    "J": 11,
}


def _load() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for path in sorted(DATA.glob("*.toml")):
        cases += tomllib.loads(path.read_text(encoding="utf-8"))["case"]
    return cases


CASES = _load()


def _params() -> list[Any]:
    params = []
    seen: Counter[str] = Counter()
    for case in CASES:
        for rulebook in [case["rulebook"]] if "rulebook" in case else RULEBOOKS:
            name = f"{case['id']}[{rulebook}]"
            seen[name] += 1
            suffix = f"-{seen[name]}" if seen[name] > 1 else ""
            params.append(pytest.param(case, rulebook, id=name + suffix))
    return params


def _phase(case: dict[str, Any], kind: str, orders_key: str, rulebook: str) -> dict[str, Any]:
    orders = {p: [text for text, _ in rows] for p, rows in case.get(orders_key, {}).items()}
    return {"phase": kind, "orders": orders, "rules": {"rulebook": rulebook}}


def _check_orders(out: dict[str, Any], expected_rows: dict[str, list[list[str]]]) -> None:
    given = [(o["power"], o["order"], o["result"]) for o in out["orders"] if o["order"] is not None]
    expected = [(p, text, result) for p, rows in expected_rows.items() for text, result in rows]
    assert given == expected


def _by_power(units: dict[str, list[str]]) -> dict[str, set[str]]:
    return {p: set(us) for p, us in units.items() if us}


@pytest.mark.parametrize(("case", "rulebook"), _params())
def test_datc_case(case: dict[str, Any], rulebook: str) -> None:
    phase = _phase(case, case["phase"], "orders", rulebook)
    phase["units"] = case["units"]
    if "centers" in case:
        phase["centers"] = case["centers"]
    out = run_phase(phase)
    _check_orders(out, case.get("orders", {}))
    assert _by_power(out["units"]) == _by_power(case["after"])
    expected_dislodged = {
        p: [(d["unit"], d["attacker_from"], d["retreats"]) for d in ds]
        for p, ds in case.get("dislodged", {}).items()
    }
    got_dislodged = {
        p: [(d["unit"], d["attacker_from"], d["retreats"]) for d in ds]
        for p, ds in out["dislodged"].items()
    }
    assert got_dislodged == expected_dislodged
    assert out["contested"] == case.get("contested", [])
    supplied_removals = {}
    for o in out["orders"]:
        if o["order"] is None and o["normalized"].startswith("REMOVE "):
            supplied_removals.setdefault(o["power"], []).append(o["normalized"][len("REMOVE ") :])
    assert supplied_removals == case.get("remove", {})
    if "retreat_orders" in case:
        retreat = _phase(case, "retreat", "retreat_orders", rulebook)
        retreat.update(units=out["units"], dislodged=out["dislodged"], contested=out["contested"])
        after = run_phase(retreat)
        _check_orders(after, case["retreat_orders"])
        assert _by_power(after["units"]) == _by_power(case["after_retreat"])


def test_every_datc_case_is_transcribed() -> None:
    ids = {case["id"] for case in CASES}
    sizes = Counter(i.split(".")[1] for i in ids)
    assert dict(sizes) == SECTION_SIZES
    assert len(ids) == 164
    for section, size in SECTION_SIZES.items():
        assert ids >= {f"6.{section}.{n}" for n in range(1, size + 1)}


def test_cases_that_differ_by_rulebook_are_given_for_both() -> None:
    per_id: dict[str, set[str]] = {}
    for case in CASES:
        if "rulebook" in case:
            per_id.setdefault(case["id"], set()).add(case["rulebook"])
    assert all(books == set(RULEBOOKS) for books in per_id.values())
    assert set(per_id) == {"6.G.8", "6.J.6", "6.J.10", "6.J.11"}
