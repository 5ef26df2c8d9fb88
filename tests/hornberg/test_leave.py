"""A player who leaves Hornberg (the kind's ``leave`` hook): his seat is skipped, his hand
leaves the game face down, his points stay as they were (docs/games/hornberg.md)."""

from __future__ import annotations

import pytest

from gm_daemon import games
from gm_daemon.games.hornberg import rules
from gm_daemon.games.protocol import Line, Seat
from gm_daemon.rng import phase_rng

ENGINE = games.find_game("hornberg")
SEATS = [Seat(f"s{i}", name) for i, name in enumerate(["Anna", "Bert", "Carla", "Dora"])]


def lines(text: str) -> list[Line]:
    return [Line(no, t) for no, t in enumerate(text.splitlines(), start=1) if t.strip()]


@pytest.mark.parametrize("variant", ["dd", "kq"])
@pytest.mark.parametrize("at", [0, 7])
def test_the_leaver_is_skipped_his_cards_stay_in_the_box_his_points_frozen(
    variant: str, at: int
) -> None:
    options = ENGINE.Options.model_validate({"variant": variant})
    state = ENGINE.start(options, SEATS, phase_rng("leave", 0, "start"))
    box = sorted(rules.all_cards(state))
    for number in range(120):
        if number == at:
            hand = list(state.hands["s1"])
            state = ENGINE.leave(state, "s1")
            frozen = state.totals["s1"]
            assert state.hands["s1"] == [] and set(hand) <= set(state.discarded)
            assert "s1" not in ENGINE.participants(state)
            assert "s1" not in ENGINE.public_state(state).get("revealed_hands", {})
            assert "discarded" not in ENGINE.public_state(state)  # face down: hidden
        assert sorted(rules.all_cards(state)) == box  # the whole box, always
        owed = ENGINE.owed(state)
        orders = {}
        for seat in owed:
            example = ENGINE.example(state, seat, "en")
            if example:
                orders[seat] = ENGINE.read_orders(lines(example), state, seat, "en").orders
        late = frozenset(owed - orders.keys())
        orders |= {seat: ENGINE.default_orders(state, seat) for seat in late}
        result = ENGINE.resolve(state, orders, phase_rng("leave", ENGINE.phase_number(state)), late)
        state = result.state
        if number >= at:
            assert "s1" not in ENGINE.owed(state) and state.totals["s1"] == frozen
            assert state.hands["s1"] == []
        if result.finished:
            break
    assert any(r.round > 1 for r in state.history) or state.finished  # dealt again without him
