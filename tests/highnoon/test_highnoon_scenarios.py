"""Rule scenarios from tests/highnoon/scenarios/*.json, with scripted dice.

A "start" scenario sets up a game (injected shuffle) and checks round 1; any other scenario
resolves one round: orders are mail texts read by the real order reader (or stored orders
as JSON), every d100 roll is scripted per shot, and every scripted roll must be used.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from gm_daemon.games.highnoon.model import Options, Orders, State
from gm_daemon.games.highnoon.pairings import duel_counts, pair
from gm_daemon.games.highnoon.report import duel_lines
from gm_daemon.games.highnoon.rules import resolve_round, start_state
from gm_daemon.games.protocol import OrdersRejected, Seat
from tests.scenarios import load_scenarios, scenario_params, uncovered

from .support import HERE, FixedShuffle, build_state, compact, read, scripted_dice, squash

FOLDER = HERE / "scenarios"
ALL_RULES = [f"HN-{n}" for n in range(1, 19)] + [f"TC-HN-{n}" for n in range(1, 6)]


def _pairs(written: list[str]) -> list[tuple[str, str]]:
    return sorted(pair(*duel.split()) for duel in written)


def _check_rejected(state: State, cases: list[dict[str, Any]]) -> None:
    for case in cases:
        with pytest.raises(OrdersRejected) as caught:
            read(state, case["seat"], case["text"], case.get("lang", "de"))
        messages = " | ".join(p.message for p in caught.value.problems)
        for expected in case["messages"]:
            assert expected in messages


def _orders(state: State, data: dict[str, Any]) -> dict[str, Orders]:
    """Read every scenario order; warnings named in the scenario must be among those given."""
    orders: dict[str, Orders] = {}
    for seat, given in data.get("orders", {}).items():
        if isinstance(given, str):
            given = {"text": given}
        if "text" not in given:
            orders[seat] = Orders.model_validate(given)
            continue
        accepted = read(state, seat, given["text"], given.get("lang", "de"))
        warnings = [p.message for p in accepted.warnings]
        assert warnings == given.get("warnings", []), f"warnings for {seat}"
        orders[seat] = accepted.orders
    for seat, expected in data.get("expect_orders", {}).items():
        assert orders[seat] == Orders.model_validate(expected), f"orders of {seat}"
    return orders


def _check_players(state: State, expected: dict[str, str]) -> None:
    actual = {seat: compact(state.player(seat)) for seat in expected}
    assert actual == expected


def run_start(data: dict[str, Any]) -> None:
    seats = [Seat(seat, name) for seat, name in data["seats"].items()]
    options = Options.model_validate(data.get("options", {}))
    expect = data["expect"]
    rng = FixedShuffle(data["shuffle"])
    if "error" in expect:
        with pytest.raises(ValueError, match=re.escape(expect["error"])):
            start_state(options, seats, rng)
        return
    state = start_state(options, seats, rng)
    assert state.pairings == _pairs(expect["pairings"])
    _check_players(state, expect["players"])
    counts = duel_counts(state.pairings, state.playing())
    assert all(p.cartridges == options.p_per_duel * counts[p.id] for p in state.players)
    _check_rejected(state, data.get("rejected", []))


def run_round(data: dict[str, Any]) -> None:
    state = build_state(data)
    before = state.model_copy(deep=True)
    _check_rejected(state, data.get("rejected", []))
    orders = _orders(state, data)
    dice = scripted_dice(data["rolls"])
    after = resolve_round(state, orders, dice)
    assert state == before, "resolve must not change the state it was given"
    assert dice.unused() == [], "every scripted roll is fired"
    assert after.round == state.round + 1
    _check_round(after, data["expect"])


def _check_round(after: State, expect: dict[str, Any]) -> None:
    record = after.last_round
    assert record is not None
    if "published" in expect:
        assert [squash(line) for line in duel_lines(after, record.duels)] == expect["published"]
    if "players" in expect:
        _check_players(after, expect["players"])
    if "pairings" in expect:
        assert after.pairings == _pairs(expect["pairings"])
    if "challenges" in expect:
        assert [f"{x} {y}" for x, y in record.challenges] == expect["challenges"]
    for key in ("penalties", "eliminated", "duel_counts", "invalid_orders"):
        if key in expect:
            actual = getattr(record, key)
            if key == "duel_counts":
                actual = {seat: actual[seat] for seat in expect[key]}
            assert actual == expect[key], key
    assert after.finished == expect.get("finished", False)
    if "ranking" in expect:
        assert after.ranking == expect["ranking"]
    assert all(p.cartridges >= 0 for p in after.players)


@pytest.mark.parametrize("data", scenario_params(FOLDER))
def test_scenario(data: dict[str, Any]) -> None:
    if data.get("type") == "start":
        run_start(data)
    else:
        run_round(data)


def test_every_numbered_rule_and_acceptance_case_has_a_scenario() -> None:
    assert uncovered(ALL_RULES, load_scenarios(FOLDER)) == []
