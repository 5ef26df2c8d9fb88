"""One phase of a round: every moving tractor's leg at once, in exact time order (PT-9–PT-12).

A tractor with leg speed ``s`` reaches the j-th cell of its leg at t = j/s (PT-10). Times are
compared exactly as integers: with L the least common multiple of the speeds moving in this
phase, t = j/s is the tick j·(L/s). The same tick means the same instant, no floats anywhere.

The NMR variant (PT-15) is a second pass on top: the regular tractors are resolved as if the
NMR tractors were absent, and each NMR path is cut at its first contested cell.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from gm_daemon.games.primtraktor.model import Cell, Direction
from gm_daemon.games.primtraktor.torus import path


@dataclass(frozen=True)
class Move:
    """A leg about to be driven: from ``start`` in ``direction`` at ``speed`` cells."""

    seat: str
    start: Cell
    direction: Direction
    speed: int


@dataclass(frozen=True)
class Crash:
    """Where and why a leg ended early; ``others`` are the tractors it ran into."""

    cell: Cell
    reason: Literal["crash", "conflict"]
    others: tuple[str, ...]
    time: Fraction


@dataclass
class MoveOutcome:
    """What a leg achieved: the cells newly occupied, in order, and the crash if any."""

    move: Move
    cells: list[Cell] = field(default_factory=list)
    crash: Crash | None = None

    @property
    def end(self) -> Cell:
        return self.cells[-1] if self.cells else self.move.start


Occupancy = Mapping[Cell, str]  # occupied cell -> seat whose trail it is


def _arrivals_by_tick(moves: Iterable[Move], size: int) -> dict[int, list[tuple[Cell, Move]]]:
    moves = list(moves)
    ticks_per_phase = math.lcm(*(m.speed for m in moves)) if moves else 1
    arrivals: dict[int, list[tuple[Cell, Move]]] = defaultdict(list)
    for move in moves:
        ticks_per_cell = ticks_per_phase // move.speed
        for j, cell in enumerate(path(move.start, move.direction, move.speed, size), start=1):
            arrivals[j * ticks_per_cell].append((cell, move))
    return arrivals


def simulate_phase(moves: Iterable[Move], occupied: Occupancy, size: int) -> dict[str, MoveOutcome]:
    """Resolve simultaneous legs (PT-11): earliest arrival takes a cell, ties all crash."""
    outcomes: dict[str, MoveOutcome] = {}
    arrivals = _arrivals_by_tick(moves, size)
    for group in arrivals.values():
        for _, move in group:
            outcomes.setdefault(move.seat, MoveOutcome(move))
    taken: dict[Cell, str] = {}
    for tick in sorted(arrivals):
        by_cell: dict[Cell, list[Move]] = defaultdict(list)
        for cell, move in arrivals[tick]:
            if outcomes[move.seat].crash is None:
                by_cell[cell].append(move)
        for cell, arriving in by_cell.items():
            _settle_cell(cell, arriving, occupied, taken, outcomes)
    return outcomes


def _settle_cell(
    cell: Cell,
    arriving: list[Move],
    occupied: Occupancy,
    taken: dict[Cell, str],
    outcomes: dict[str, MoveOutcome],
) -> None:
    """One cell at one instant: occupied before -> Fahrfehler; taken earlier in this phase or
    reached together -> conflict; otherwise the single arrival takes it."""
    seats = [m.seat for m in arriving]
    if cell in occupied:
        crash: tuple[Literal["crash", "conflict"], list[str]] = ("crash", [occupied[cell]])
    elif cell in taken:
        crash = ("conflict", [taken[cell]])
    elif len(arriving) == 1:
        taken[cell] = seats[0]
        outcomes[seats[0]].cells.append(cell)
        return
    else:
        crash = ("conflict", seats)
    reason, involved = crash
    for move in arriving:
        others = tuple(s for s in involved if s != move.seat) or tuple(involved)
        # The crash cell is the one right after the cells already taken: j = taken + 1.
        time = Fraction(len(outcomes[move.seat].cells) + 1, move.speed)
        outcomes[move.seat].crash = Crash(cell, reason, others, time)


def simulate_phase_with_nmr(
    moves: Iterable[Move], nmr_moves: Iterable[Move], occupied: Occupancy, size: int
) -> dict[str, MoveOutcome]:
    """PT-15: an NMR leg loses every conflict. Regular legs first, as if no NMR leg existed;
    then each NMR path stops at its first cell that is occupied, contested by a regular
    tractor (taken or crashed on) or on another NMR path."""
    outcomes = simulate_phase(moves, occupied, size)
    contested: dict[Cell, list[str]] = defaultdict(list)
    for outcome in outcomes.values():
        for cell in outcome.cells:
            contested[cell].append(outcome.move.seat)
        if outcome.crash is not None:
            contested[outcome.crash.cell].append(outcome.move.seat)
    nmr_moves = list(nmr_moves)
    nmr_paths = {m.seat: path(m.start, m.direction, m.speed, size) for m in nmr_moves}
    on_nmr_path: dict[Cell, list[str]] = defaultdict(list)
    for seat, cells in nmr_paths.items():
        for cell in cells:
            on_nmr_path[cell].append(seat)
    for move in nmr_moves:
        outcomes[move.seat] = _cut_nmr_path(
            move, nmr_paths[move.seat], occupied, contested, on_nmr_path
        )
    return outcomes


def _cut_nmr_path(
    move: Move,
    cells: list[Cell],
    occupied: Occupancy,
    contested: Mapping[Cell, list[str]],
    on_nmr_path: Mapping[Cell, list[str]],
) -> MoveOutcome:
    outcome = MoveOutcome(move)
    for j, cell in enumerate(cells, start=1):
        rivals = [s for s in on_nmr_path.get(cell, []) if s != move.seat]
        if cell in occupied:
            outcome.crash = Crash(cell, "crash", (occupied[cell],), Fraction(j, move.speed))
        elif cell in contested or rivals:
            others = tuple(dict.fromkeys([*contested.get(cell, []), *rivals]))
            outcome.crash = Crash(cell, "conflict", others, Fraction(j, move.speed))
        else:
            outcome.cells.append(cell)
            continue
        break
    return outcome
