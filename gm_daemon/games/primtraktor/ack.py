"""What the acknowledgement tells a player about his legs, simulated on the current board.

The simulation sees only the board as it is now (A-10): other players' legs of the coming
round are unknown. A leg that would drop below speed 2 or run into an occupied cell is warned
about, never rejected: the order stands and the rules' penalty applies if it is not replaced.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gm_daemon.games.primtraktor.model import Cell, Leg, State, Tractor
from gm_daemon.games.primtraktor.speeds import MIN_SPEED, apply_change
from gm_daemon.games.primtraktor.texts import direction_name, say
from gm_daemon.games.primtraktor.torus import path
from gm_daemon.games.protocol import Line, Problem, ProblemKind


@dataclass(frozen=True)
class PlannedLeg:
    """A leg as it would run on an empty future: its speed, its end, and its first obstacle."""

    number: int  # 1-based within the order
    leg: Leg
    speed: int
    end: Cell
    blocked_at: Cell | None = None
    blocked_by: str | None = None  # seat whose trail is in the way


def plan_legs(
    tractor: Tractor, legs: Sequence[Leg], occupied: Mapping[Cell, str], size: int
) -> list[PlannedLeg]:
    """Every leg's speed and end cell, driving through obstacles so every leg can be shown;
    ``blocked_at`` marks the first cell that is occupied now or by an earlier leg."""
    taken = dict(occupied)
    position, speed = tractor.position, tractor.speed
    planned: list[PlannedLeg] = []
    for number, leg in enumerate(legs, start=1):
        speed = apply_change(speed, leg.change)
        cells = path(position, leg.direction, speed, size) if speed >= MIN_SPEED else []
        blocked = next((c for c in cells if c in taken), None)
        for cell in cells:
            taken.setdefault(cell, tractor.seat)
        end = cells[-1] if cells else position
        owner = taken[blocked] if blocked is not None else None
        planned.append(PlannedLeg(number, leg, speed, end, blocked, owner))
        position = end
    return planned


def leg_text(leg: Leg, speed: int | None, lang: str) -> str:
    """ "Nord+ (2)" — direction, modifier and, when known, the resulting speed."""
    written = f"{direction_name(leg.direction, lang)}{leg.change}"
    return written if speed is None else f"{written} ({speed})"


def first_danger(
    planned: Sequence[PlannedLeg], seat: str, names: Mapping[str, str], lang: str
) -> tuple[int, str, str] | None:
    """(leg number, warning, hint) for the first leg that would eliminate the tractor."""
    for step in planned:
        move = leg_text(step.leg, None, lang)
        if step.speed < MIN_SPEED:
            message = say(lang, "warn_speed", leg=step.number, move=move, speed=step.speed)
            return step.number, message, say(lang, "hint_speed")
        if step.blocked_at is not None:
            whose = (
                say(lang, "own_trail")
                if step.blocked_by == seat
                else say(lang, "trail_of", name=names.get(step.blocked_by or "", "?"))
            )
            x, y = step.blocked_at
            message = say(lang, "warn_crash", leg=step.number, move=move, x=x, y=y, whose=whose)
            return step.number, message, say(lang, "hint_crash")
    return None


def describe_legs(state: State, seat: str, legs: Sequence[Leg], lang: str) -> str:
    """ "Nord+ (2) → (30,28), Nord+ (3) → (30,25), …" for acknowledgements and NMR lists."""
    tractor = state.tractor(seat)
    occupied = {cell: t.seat for t in state.tractors for cell in t.trail}
    parts = []
    for step in plan_legs(tractor, legs, occupied, state.options.board):
        parts.append(f"{leg_text(step.leg, step.speed, lang)} → ({step.end[0]},{step.end[1]})")
    return ", ".join(parts)


def order_warnings(
    state: State, seat: str, legs_by_line: Sequence[tuple[Line, Sequence[Leg]]], lang: str
) -> list[Problem]:
    """At most one warning: the first leg that would eliminate the tractor, on its line."""
    legs = [leg for _, line_legs in legs_by_line for leg in line_legs]
    lines = [line for line, line_legs in legs_by_line for _ in line_legs]
    tractor = state.tractor(seat)
    occupied = {cell: t.seat for t in state.tractors for cell in t.trail}
    planned = plan_legs(tractor, legs, occupied, state.options.board)
    names = {t.seat: t.name for t in state.tractors}
    danger = first_danger(planned, seat, names, lang)
    if danger is None:
        return []
    number, message, hint = danger
    line = lines[number - 1]
    return [Problem(line.no, line.text, ProblemKind.ILLEGAL, message, hint)]
