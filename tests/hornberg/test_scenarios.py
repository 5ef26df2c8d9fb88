"""Runs every rule scenario in ``scenarios/*.toml`` (TC-HB-1 … TC-HB-10 and one per rule).

A scenario is a position (see ``position.py``) and steps. A step is a mail from a seat
(``order``), a missed deadline (``auto = true``: the daemon's ``default_orders``) or only a
look at the position (neither). Orders from seats not on turn are kept as plans and handed
to ``resolve`` with the next play, as the daemon does. After every step every card of the box
must still be somewhere exactly once.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from gm_daemon.games.hornberg import GAME, cards
from gm_daemon.games.hornberg.model import State
from gm_daemon.games.hornberg.play import Orders
from gm_daemon.games.hornberg.rules import all_cards
from gm_daemon.games.protocol import Line, OrdersRejected
from tests.scenarios import load_scenarios, scenario_params

from .checks import CHECKS, Outcome
from .position import build, seat_id

SCENARIO_DIR = Path(__file__).parent / "scenarios"


def assert_conserved(state: State) -> None:
    box = cards.full_deck(state.options.colours, state.options.beer_counts)
    assert Counter(all_cards(state)) == Counter(box)


def run_step(state: State, step: dict[str, Any], plans: dict[str, Orders]) -> Outcome:
    seat = seat_id(step.get("seat", state.to_move or ""))
    lang = step.get("lang", "de")
    if step.get("auto"):
        orders = {**plans, seat: GAME.default_orders(state, seat)}
        return resolve(state, orders, step, plans, lang, defaulted=frozenset({seat}))
    if "order" not in step:
        return Outcome(before=state, after=state, lang=lang)
    lines = [Line(i, text) for i, text in enumerate(step["order"].splitlines(), 1)]
    try:
        accepted = GAME.read_orders(lines, state, seat, lang)
    except OrdersRejected as rejected:
        return Outcome(before=state, after=state, problems=rejected.problems, lang=lang)
    if seat != state.to_move:
        plans[seat] = accepted.orders
        return Outcome(before=state, after=state, warnings=accepted.warnings, lang=lang)
    outcome = resolve(state, {**plans, seat: accepted.orders}, step, plans, lang)
    outcome.warnings = accepted.warnings
    return outcome


def resolve(
    state: State,
    orders: dict[str, Orders],
    step: dict[str, Any],
    plans: dict[str, Orders],
    lang: str,
    defaulted: frozenset[str] = frozenset(),
) -> Outcome:
    rng = random.Random(step.get("seed", 0))
    resolution = GAME.resolve(state, orders, rng, defaulted)
    plans.clear()
    plans.update(resolution.carried)
    return Outcome(
        before=state,
        after=resolution.state,
        events=resolution.events,
        carried=dict(resolution.carried),
        lang=lang,
    )


@pytest.mark.parametrize("scenario", scenario_params(SCENARIO_DIR))
def test_scenario(scenario: dict[str, Any]) -> None:
    state = build(scenario["position"])
    assert_conserved(state)
    plans: dict[str, Orders] = {}
    for number, step in enumerate(scenario["step"], 1):
        outcome = run_step(state, step, plans)
        expected = step.get("expect", {})
        if "rejected" not in expected:
            assert not outcome.problems, f"step {number}: {outcome.problems}"
        for key, value in expected.items():
            CHECKS[key](outcome, value)
        if outcome.problems:
            assert outcome.after == state, "a rejected order must not change the state"
        state = outcome.after
        assert_conserved(state)


def test_every_check_key_is_known() -> None:
    for scenario in load_scenarios(SCENARIO_DIR):
        for step in scenario["step"]:
            unknown = set(step.get("expect", {})) - CHECKS.keys()
            assert not unknown, f"{scenario['id']}: unknown checks {unknown}"
