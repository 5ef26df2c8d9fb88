"""The spec's acceptance scenarios (TC-HL-1 … TC-HL-7) and the rule scenarios, as data files
in ``scenarios/``, run through the engine as the daemon would: mails read by
``read_orders``, silent seats defaulted, phases resolved one after the other.

A scenario has an optional ``[position]`` (else a new game), ``[options]``, and ``[[step]]``s.
A step either reads one mail (``seat`` + ``mail``; ``expect.rejected`` / ``expect.warnings``)
or resolves the phase with ``mails`` per seat; a seat owing orders and sending none is NMR.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gm_daemon.games.highlander import GAME, boards
from gm_daemon.games.highlander.model import Orders, State
from gm_daemon.games.protocol import OrdersRejected
from tests.scenarios import scenario_params

from .support import new_game, play, position, read

FOLDER = Path(__file__).parent / "scenarios"


@pytest.mark.parametrize("scenario", scenario_params(FOLDER))
def test_scenario(scenario: dict[str, Any]) -> None:
    options = scenario.get("options", {})
    state = position(scenario["position"], options) if "position" in scenario else new_game(options)
    carried: dict[str, Orders] = {}
    for number, step in enumerate(scenario["step"], start=1):
        where = f"{scenario['id']} step {number}"
        if "mail" in step:
            _check_mail(state, step, where)
            continue
        resolution = play(state, step.get("mails", {}), carried)
        carried = resolution.carried
        state = resolution.state
        _check_state(state, step.get("expect", {}), where)
        _check_report(state, where)


def _check_mail(state: State, step: dict[str, Any], where: str) -> None:
    expect = step.get("expect", {})
    lang = step.get("lang", "de")
    try:
        accepted = read(state, step["seat"], step["mail"], lang)
    except OrdersRejected as exc:
        kinds = sorted({p.kind.value for p in exc.problems})
        assert "rejected" in expect, f"{where}: rejected: {exc.problems}"
        assert kinds == [expect["rejected"]], f"{where}: {exc.problems}"
        text = " ".join(f"{p.message} {p.hint}" for p in exc.problems)
        for part in expect.get("says", []):
            assert part in text, f"{where}: {part!r} not in {text!r}"
        for part in expect.get("not_says", []):  # each line its own fault, not another's
            assert part not in text, f"{where}: {part!r} in {text!r}"
        return
    assert "rejected" not in expect, f"{where}: accepted: {accepted.orders}"
    assert len(accepted.warnings) == expect.get("warnings", 0), f"{where}: {accepted.warnings}"
    text = " ".join(f"{p.message} {p.hint}" for p in accepted.warnings)
    for part in expect.get("says", []):
        assert part in text, f"{where}: {part!r} not in {text!r}"
    if "stored" in expect:
        described = GAME.describe_orders(state, step["seat"], accepted.orders, "en")
        described = described.replace(",\n", ", ")  # a long list is wrapped for the mail
        assert described.splitlines() == expect["stored"], where


def _check_state(state: State, expect: dict[str, Any], where: str) -> None:
    for key in ("step", "year", "ballot", "grace", "sudden_death"):
        if key in expect:
            assert getattr(state, key) == expect[key], f"{where}: {key} = {getattr(state, key)}"
    if "phase_type" in expect:
        assert GAME.phase_type(state) == expect["phase_type"], where
    if "owed" in expect:
        assert sorted(GAME.owed(state)) == expect["owed"], where
    if "winner" in expect:
        assert state.result is not None, f"{where}: the game goes on"
        assert state.result.winner == (expect["winner"] or None), f"{where}: {state.result}"
    if "reason" in expect:
        assert state.result is not None and state.result.reason == expect["reason"], where
    if "excluded" in expect:
        assert state.excluded == sorted(expect["excluded"].split()), where
    record = state.last
    assert record is not None
    for event in expect.get("events", []):
        assert event in record.events, f"{where}: {event} not in {record.events}"
    for name in ("A", "B"):
        suffix = "" if name == "A" else "_B"
        if not any(b.name == name for b in state.boards):
            continue
        board = state.board(name)
        for seat, centres in expect.get(f"owned{suffix}", {}).items():
            assert boards.owned(board, seat) == sorted(centres.split()), f"{where}: {seat}"
        if f"neutral{suffix}" in expect:
            assert boards.neutral(board) == sorted(expect[f"neutral{suffix}"].split()), where
        for seat, units in expect.get(f"units{suffix}", {}).items():
            wanted = sorted(u.strip() for u in units.split(",") if u.strip())
            assert sorted(board.units.get(seat, [])) == wanted, f"{where}: {seat} {board.units}"
        for seat, count in expect.get(f"counts{suffix}", {}).items():
            found = [len(boards.owned(board, seat)), len(board.units.get(seat, []))]
            assert found == count, f"{where}: {seat} centres, units = {found}"
        found_lines = [
            f"{o.text} {o.result}" for b in record.boards if b.name == name for o in b.orders
        ]
        for line in expect.get(f"results{suffix}", []):
            assert line in found_lines, f"{where}: {line!r} not in {found_lines}"


def _check_report(state: State, where: str) -> None:
    """Every resolution renders in both languages, no prose line beyond 78 characters."""
    for lang in ("de", "en"):
        text = GAME.report(state, _resolution(state), lang).public
        long = [line for line in text.splitlines() if len(line) > 78]
        assert not long, f"{where}: {lang} lines too long: {long}"


def _resolution(state: State):  # type: ignore[no-untyped-def]
    from gm_daemon.games.protocol import Resolution

    return Resolution(state=state, finished=state.result is not None)
