"""Playing one round: plans from orders and NMR, phases a … e, the end check (PT-8 – PT-16)."""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from typing import Literal

from gm_daemon.games.primtraktor.events import (
    Eliminated,
    Event,
    GameEnded,
    LegDriven,
    NmrApplied,
)
from gm_daemon.games.primtraktor.model import (
    Cell,
    Elimination,
    EliminationReason,
    Leg,
    Orders,
    State,
    Tractor,
)
from gm_daemon.games.primtraktor.nmr import choose_nmr_leg
from gm_daemon.games.primtraktor.phase import (
    Move,
    MoveOutcome,
    simulate_phase,
    simulate_phase_with_nmr,
)
from gm_daemon.games.primtraktor.scoring import final_scores
from gm_daemon.games.primtraktor.speeds import MIN_SPEED, apply_change


def occupancy(state: State) -> dict[Cell, str]:
    """Every occupied cell and whose trail it belongs to."""
    return {cell: t.seat for t in state.tractors for cell in t.trail}


@dataclass
class RoundPlay:
    """The working data of one round: the state being changed and what happened."""

    state: State
    occupied: dict[Cell, str]
    plans: dict[str, list[Leg]] = field(default_factory=dict)
    nmr_seats: set[str] = field(default_factory=set)
    events: list[Event] = field(default_factory=list)

    def eliminate(
        self,
        tractor: Tractor,
        phase: int,
        reason: EliminationReason,
        cell: Cell | None = None,
        others: tuple[str, ...] = (),
        time: str | None = None,
    ) -> None:
        elimination = Elimination(
            round=self.state.round, phase=phase, reason=reason, cell=cell, others=list(others)
        )
        tractor.eliminated = elimination
        self.events.append(Eliminated(seat=tractor.seat, elimination=elimination, time=time))


def play_round(
    state: State, orders: Mapping[str, Orders], defaulted: Set[str]
) -> tuple[State, list[Event]]:
    """The new state and the events of the round; ``state`` itself is left untouched.
    Defaulted seats (and, defensively, seats without orders) drive the NMR procedure."""
    play = RoundPlay(state.model_copy(deep=True), occupancy(state))
    _make_plans(play, orders, defaulted)
    last_phase = 0
    for phase in range(1, state.options.max_legs + 1):
        movers = [t for t in play.state.active() if len(play.plans.get(t.seat, [])) >= phase]
        if phase > 1 and not movers:
            break
        _play_phase(play, phase, movers)
        last_phase = phase
        if len(play.state.active()) <= 1:
            _finish(play, last_phase, "last_tractor")
            return play.state, play.events
    if _let_leave(play, max(last_phase, 1)):
        return play.state, play.events
    if state.round >= state.options.max_rounds:
        _finish(play, last_phase, "round_limit")
    else:
        play.state.round += 1
    return play.state, play.events


def _let_leave(play: RoundPlay, phase: int) -> bool:
    """Who left during the round drove it (his orders or the NMR leg) and is out now, his
    trail and cells kept (the game's ``leave``); True when that leaves one tractor."""
    for seat in play.state.leaving:
        tractor = play.state.tractor(seat)
        if tractor.active:
            play.eliminate(tractor, phase, "left")
    play.state.leaving = []
    if len(play.state.active()) <= 1:
        _finish(play, phase, "last_tractor")
        return True
    return False


def _make_plans(play: RoundPlay, orders: Mapping[str, Orders], defaulted: Set[str]) -> None:
    """Each active tractor's legs; NMR tractors get the PT-14 leg or are out in phase a."""
    options = play.state.options
    for tractor in play.state.active():
        order = orders.get(tractor.seat)
        if order is not None and tractor.seat not in defaulted:
            play.plans[tractor.seat] = list(order.legs[: options.max_legs])
            continue
        choice = choose_nmr_leg(tractor, play.occupied, options)
        play.events.append(
            NmrApplied(
                seat=tractor.seat, leg=choice.leg, speed=choice.speed, why_none=choice.why_none
            )
        )
        if choice.leg is None:
            play.eliminate(tractor, 1, "nmr")
        else:
            play.plans[tractor.seat] = [choice.leg]
            play.nmr_seats.add(tractor.seat)


def _play_phase(play: RoundPlay, phase: int, movers: list[Tractor]) -> None:
    """PT-5 speed errors first (the tractor never moves), then every leg at once."""
    moves: list[Move] = []
    for tractor in movers:
        leg = play.plans[tractor.seat][phase - 1]
        speed = apply_change(tractor.speed, leg.change)
        if speed < MIN_SPEED:
            play.eliminate(tractor, phase, "speed")
        else:
            moves.append(Move(tractor.seat, tractor.position, leg.direction, speed))
    outcomes = _simulate(play, phase, moves)
    for tractor in movers:
        if tractor.seat in outcomes:
            leg = play.plans[tractor.seat][phase - 1]
            _apply_outcome(play, phase, tractor, leg, outcomes[tractor.seat])


def _simulate(play: RoundPlay, phase: int, moves: list[Move]) -> dict[str, MoveOutcome]:
    size = play.state.options.board
    nmr_loses = phase == 1 and play.state.options.nmr_conflict == "always_lose"
    if not nmr_loses:
        return simulate_phase(moves, play.occupied, size)
    regular = [m for m in moves if m.seat not in play.nmr_seats]
    nmr = [m for m in moves if m.seat in play.nmr_seats]
    return simulate_phase_with_nmr(regular, nmr, play.occupied, size)


def _apply_outcome(
    play: RoundPlay, phase: int, tractor: Tractor, leg: Leg, outcome: MoveOutcome
) -> None:
    """PT-13: the tractor keeps every cell it took; a crash ends its race (PT-11)."""
    start = tractor.position
    tractor.trail.extend(outcome.cells)
    for cell in outcome.cells:
        play.occupied[cell] = tractor.seat
    tractor.speed = outcome.move.speed
    tractor.direction = leg.direction
    play.events.append(
        LegDriven(
            seat=tractor.seat,
            phase=phase,
            direction=leg.direction,
            change=leg.change,
            speed=outcome.move.speed,
            start=start,
            end=tractor.position,
            gained=len(outcome.cells),
            nmr=tractor.seat in play.nmr_seats,
            crashed=outcome.crash is not None,
        )
    )
    crash = outcome.crash
    if crash is not None:
        time = f"{crash.time.numerator}/{crash.time.denominator}"
        play.eliminate(tractor, phase, crash.reason, crash.cell, crash.others, time)


def _finish(play: RoundPlay, phase: int, reason: Literal["last_tractor", "round_limit"]) -> None:
    state = play.state
    state.finished = True
    state.ended_phase = phase
    play.events.append(
        GameEnded(
            round=state.round,
            phase=phase,
            reason=reason,
            scores=final_scores(state),
        )
    )
