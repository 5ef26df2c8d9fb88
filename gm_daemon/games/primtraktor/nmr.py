"""The NMR procedure (PT-14): the leg a tractor drives when its player sent no orders.

The search looks only at the cells occupied at the start of the round ("ein vor dem Zug
vorhandenes Hindernis"); what other tractors do in the same phase is settled by PT-15 in
``phase.simulate_phase_with_nmr``.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass

from gm_daemon.games.primtraktor.model import Cell, Change, Direction, Leg, Options, Tractor
from gm_daemon.games.primtraktor.speeds import MIN_SPEED, step_down
from gm_daemon.games.primtraktor.torus import path


@dataclass(frozen=True)
class NmrChoice:
    """The leg chosen, or None with the reason the tractor is out instead."""

    leg: Leg | None
    speed: int
    why_none: str = ""  # "first_round", "speed", "blocked"


def choose_nmr_leg(tractor: Tractor, occupied: Container[Cell], options: Options) -> NmrChoice:
    """Last direction and speed, clockwise; then one step slower, once (PT-14)."""
    if tractor.speed == 0 or tractor.direction is None:
        if options.round1_nmr == "north_plus":
            return NmrChoice(Leg(direction=Direction.NORTH, change="+"), MIN_SPEED)
        return NmrChoice(None, 0, "first_round")
    tries: tuple[tuple[int, Change], ...] = ((tractor.speed, "="), (step_down(tractor.speed), "-"))
    for speed, change in tries:
        if speed < MIN_SPEED:
            return NmrChoice(None, speed, "speed")
        direction = _first_free_direction(tractor, speed, occupied, options.board)
        if direction is not None:
            return NmrChoice(Leg(direction=direction, change=change), speed)
    return NmrChoice(None, tractor.speed, "blocked")


def _first_free_direction(
    tractor: Tractor, speed: int, occupied: Container[Cell], size: int
) -> Direction | None:
    direction = tractor.direction
    assert direction is not None
    for _ in range(4):
        if not any(c in occupied for c in path(tractor.position, direction, speed, size)):
            return direction
        direction = direction.clockwise()
    return None
