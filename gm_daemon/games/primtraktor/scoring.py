"""Survival bonus, scores and the final ranking (PT-17 – PT-19)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import groupby

from gm_daemon.games.primtraktor.events import Score
from gm_daemon.games.primtraktor.model import State, Tractor

_STILL_RUNNING = (10**9, 10**9)  # survivors count as eliminated latest of all


def survival_time(tractor: Tractor) -> tuple[int, int]:
    return tractor.eliminated.time if tractor.eliminated else _STILL_RUNNING


def _groups(tractors: Sequence[Tractor], key: Callable[[Tractor], Hashable]) -> list[list[Tractor]]:
    """Tractors in groups of equal ``key``, best (largest) key first."""
    ordered = sorted(tractors, key=key, reverse=True)  # type: ignore[arg-type]
    return [list(group) for _, group in groupby(ordered, key=key)]


def survival_bonus(tractors: Sequence[Tractor], table: Sequence[int]) -> dict[str, int]:
    """PT-18: positions by elimination time, later first; a tie group shares the bonuses of
    the positions it covers, each member getting the floor of the share."""
    bonus: dict[str, int] = {}
    position = 0
    for group in _groups(tractors, survival_time):
        covered = table[position : position + len(group)]
        for tractor in group:
            bonus[tractor.seat] = sum(covered) // len(group)
        position += len(group)
    return bonus


def final_scores(state: State) -> list[Score]:
    """Occupied cells plus survival bonus (PT-17), in seat order."""
    bonus = survival_bonus(state.tractors, state.options.bonus)
    return [
        Score(seat=t.seat, cells=t.cells, bonus=bonus[t.seat], total=t.cells + bonus[t.seat])
        for t in state.tractors
    ]


def ranking(state: State, scores: Sequence[Score]) -> list[list[str]]:
    """PT-19: highest score first; ties broken by later elimination if configured, then shared."""
    total = {s.seat: s.total for s in scores}
    later = "later_elimination" in state.options.tiebreak

    def key(tractor: Tractor) -> tuple[int, tuple[int, int]]:
        return (total[tractor.seat], survival_time(tractor) if later else (0, 0))

    return [[t.seat for t in group] for group in _groups(state.tractors, key)]
