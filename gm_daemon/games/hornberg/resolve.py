"""One resolution: the play of the seat on turn, then every plan that is ready (§6.2).

The daemon calls ``resolve`` as soon as the player on turn has sent a legal play (or, at the
turn's deadline, with ``default_orders``). After that play the turn passes on; if the next
player has a PLAN on file, its first candidate that is legal now is played at once, and so
on. The chain stops at the first player without a usable plan: he is now on turn and gets
the usual turn notice. Plans of the others stay on file (``carried``). A plan is used for
one turn (a DAUERPLAN stays until withdrawn); all plans lapse at the end of a round, since
they were written for a hand that is gone. A DAUERPLAN that finds no legal play when its
turn comes is dropped, too: the player is on turn and must write anyway, and keeping it on
file would make the daemon believe the turn's orders were already in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Set

from gm_daemon.games.hornberg import flow, rules
from gm_daemon.games.hornberg.flow import Event
from gm_daemon.games.hornberg.model import State
from gm_daemon.games.hornberg.play import Move, Orders


def first_legal(state: State, seat: str, moves: list[Move]) -> Move | None:
    candidates = (placed for m in moves for placed in flow.placements(state, m))
    return next((m for m in candidates if rules.refusal(state, seat, m) is None), None)


def resolve(
    before: State, orders: Mapping[str, Orders], rng: random.Random, defaulted: Set[str]
) -> tuple[State, list[Event], dict[str, Orders]]:
    """The seat on turn plays his orders; when ``defaulted`` names him (or, defensively, he
    has none) they are the NMR auto-play of §6.4 and announced as such."""
    state = State.model_validate(before.model_dump())  # a deep copy, 4x faster than deepcopy
    events: list[Event] = []
    if state.finished or state.to_move is None:
        return state, events, {}
    seat = state.to_move
    plans = {s: o for s, o in orders.items() if s != seat and o.plan != "none" and o.moves}
    own = orders.get(seat) or Orders()
    _play_own(state, seat, own, seat in defaulted or seat not in orders, events, rng)
    if own.plan == "standing":
        plans[seat] = own
    _play_plans(state, plans, events, rng, round_before=before.round)
    return state, events, plans


def _play_own(
    state: State, seat: str, own: Orders, nmr: bool, events: list[Event], rng: random.Random
) -> None:
    if seat in state.left:  # left on turn with nobody else able to play: the turn passes
        events.append(flow.skip_turn(state, seat))
        flow.hand_on(state, events, rng)
        return
    move = first_legal(state, seat, own.moves)
    how = "nmr" if nmr else ("plan" if own.plan != "none" else "direct")
    if move is None and nmr and not own.moves and state.options.nmr_policy == "skip":
        events.append(flow.skip_turn(state, seat))
        _note_streak(state, seat, events)
        flow.hand_on(state, events, rng)
        return
    if move is None:
        # Nothing usable on file (cannot happen with orders from read_orders): play for him.
        move, how = nmr.autoplay(state, seat), "nmr"
        assert move is not None, "a seat on turn always has a legal play"
    events.append(flow.take_turn(state, seat, move, how))
    _note_streak(state, seat, events)
    flow.hand_on(state, events, rng)


def _play_plans(
    state: State,
    plans: dict[str, Orders],
    events: list[Event],
    rng: random.Random,
    round_before: int,
) -> None:
    while not state.finished and state.round == round_before:
        seat = state.to_move
        assert seat is not None
        plan = plans.pop(seat, None)
        if plan is None:
            return
        move = first_legal(state, seat, plan.moves)
        if move is None:
            events.append({"event": "plan_failed", "seat": seat, "turn": state.turn})
            return
        events.append(flow.take_turn(state, seat, move, "plan"))
        if plan.plan == "standing":
            plans[seat] = plan
        flow.hand_on(state, events, rng)
    for seat in sorted(plans):
        events.append({"event": "plan_lapsed", "seat": seat})
    plans.clear()


def _note_streak(state: State, seat: str, events: list[Event]) -> None:
    if state.nmr_streak.get(seat, 0) == flow.NMR_FLAG_AFTER:
        events.append({"event": "nmr_flag", "seat": seat, "streak": flow.NMR_FLAG_AFTER})
