"""The spec's acceptance scenarios TC-HH-1 … TC-HH-6 and further rule cases, as data files in
``scenarios/`` run by tests/scenarios.py. Three kinds: ``round`` (orders through
``read_orders``, one resolution, fates per pairing in the first-named player's frame),
``orders`` (what HH-6 makes of each witch on receipt) and ``board`` (boards the GM must fix).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from gm_daemon.games.hexenhalma import GAME
from gm_daemon.games.hexenhalma.board import BoardError, parse_board
from gm_daemon.games.hexenhalma.rounds import ranking, view
from gm_daemon.games.hexenhalma.words import say
from tests.hexenhalma.support import HERE, board_text, compact, mail_lines, new_state, read
from tests.scenarios import load_scenarios, scenario_params, uncovered

SCENARIOS = HERE / "scenarios"
RULE_IDS = [f"HH-{n}" for n in range(1, 17)] + [f"TC-HH-{n}" for n in range(1, 7)]


@pytest.mark.parametrize("scenario", scenario_params(SCENARIOS))
def test_scenario(scenario: dict[str, Any]) -> None:
    runners = {"round": _run_round, "orders": _run_orders, "board": _run_boards}
    runners[scenario["kind"]](scenario)


def test_every_rule_is_named_by_a_scenario() -> None:
    assert uncovered(RULE_IDS, load_scenarios(SCENARIOS)) == []


def _run_round(s: dict[str, Any]) -> None:
    board = board_text(s["board"], s.get("board_changes"))
    state = new_state(
        s["players"], [board], scoring=s.get("scoring", "arrivals"), lot_seed=s.get("lot_seed")
    )
    orders = {seat: read(state, seat, text) for seat, text in s.get("orders", {}).items()}
    defaulted = frozenset(s.get("defaulted", []))
    for seat in set(s["players"]) - set(orders):
        orders[seat] = GAME.default_orders(state, seat)
    after = GAME.resolve(state, orders, random.Random(0), defaulted).state
    assert after.last is not None
    stored = {(p.a, p.b): (p.score_a, p.score_b) for p in after.last.pairings}
    for expected in s.get("pairings", []):
        me, other = expected["players"]
        v = view(after.last, after.lot_seed, me, other, trace=True)
        low_first = stored[tuple(sorted((me, other)))]
        assert list(v.outcome.arrivals) == list(low_first if me < other else low_first[::-1])
        if "score" in expected:
            assert list(v.outcome.arrivals) == expected["score"], (me, other)
        fates = dict(expected.get("fates", {}))
        if "fates_if" in expected:
            fates.update(expected["fates_if"][_lot_winner(s, after.lot_seed)])
        for who, text in fates.items():
            seat, number = who.split()
            mine = v.mine if seat == me else v.theirs
            assert compact(v.board, mine.get(int(number))) == text, who
        for cast in expected.get("no_cast", []):
            who, t = cast.split("@")
            seat, number = who.split()
            team = 0 if seat == me else 1
            log = v.outcome.log or []
            assert not [e for e in log if e[:3] == (int(t), team, int(number)) and e[3] == "cast"]
    _check_standings(s.get("standings"), after)
    _check_lots(s, after)


def _check_lots(s: dict[str, Any], after: Any) -> None:
    """The record keeps each lot with what it decided (the result mail lists them)."""
    if "lot" not in s:
        assert after.last.lots == [] and after.lots_drawn == 0
        return
    (lot,) = after.last.lots
    cast = [f"{c.seat} {c.witch}" for c in lot.casters]
    winner = f"{lot.winner.seat} {lot.winner.witch}"
    assert (lot.step, lot.field, cast) == (s["lot"]["t"], s["lot"]["field"], s["lot"]["candidates"])
    assert winner == _lot_winner(s, after.lot_seed) and after.lots_drawn == 1


def _check_standings(expected: dict[str, Any] | None, after: Any) -> None:
    if not expected:
        return
    assert ranking(after) == expected["ranking"]
    totals = after.totals()
    for figure in ("arrivals", "difference", "league"):
        for seat, value in expected.get(figure, {}).items():
            assert getattr(totals[seat], figure) == value, (figure, seat)


def _lot_winner(s: dict[str, Any], lot_seed: str) -> str:
    """HH-15 written out independently of the engine: key, SHA-256, first 8 bytes."""
    lot = s["lot"]
    low, high = sorted(s["players"])
    key = f"{lot_seed}|1|{low}|{high}|{lot['t']}|{lot['field']}"
    seed = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")
    candidates = sorted(lot["candidates"], key=lambda c: (c.split()[0], int(c.split()[1])))
    return random.Random(seed).choice(candidates)


def _run_orders(s: dict[str, Any]) -> None:
    state = new_state(["anna", "bert"], [board_text(s["board"])])
    for case in s["cases"]:
        accepted = GAME.read_orders(mail_lines(case["text"]), state, "anna", "de")
        voids = {w.number: w.void.reason for w in accepted.orders.witches if w.void}
        assert voids == {int(k): v for k, v in case["void"].items()}, case["text"]
        messages = [w.message for w in accepted.warnings]
        for number in voids:
            assert any(m.startswith(f"Hexe {number} startet nicht:") for m in messages)
            assert any("Die übrigen Hexen Ihres Teams spielen." in m for m in messages)
        for key in case.get("warnings", []):
            assert say("de", key, number=1) in messages


def _run_boards(s: dict[str, Any]) -> None:
    for case in s["cases"]:
        with pytest.raises(BoardError) as caught:
            parse_board(case["text"])
        for fragment in case["errors"]:
            assert fragment in str(caught.value)
