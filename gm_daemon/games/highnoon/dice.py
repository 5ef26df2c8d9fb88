"""Where the d100 rolls of the duels come from.

The resolver asks a ``Dice`` for every shot. In play the dice are the seeded ``random.Random``
of the phase; in tests they are a script of rolls per shot, so a rule scenario states its
dice exactly as the rules text does: "Müller@15 = 1".
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Protocol


class Dice(Protocol):
    def roll(self, shooter: str, opponent: str, position: int) -> int:
        """A d100 result (1..100) for ``shooter``'s shot at ``opponent`` from ``position``."""
        ...


class RngDice:
    """Rolls from the phase's generator; the resolver calls it in the fixed order of §1.3."""

    def __init__(self, rng: random.Random):
        self._rng = rng

    def roll(self, shooter: str, opponent: str, position: int) -> int:
        return self._rng.randint(1, 100)


class ScriptedDice:
    """Rolls given per shot, keyed (shooter, opponent, position); an unscripted shot is an
    error, and ``unused`` shows scripted shots that were never fired."""

    def __init__(self, rolls: Mapping[tuple[str, str, int], int]):
        self._rolls = dict(rolls)
        self._used: set[tuple[str, str, int]] = set()

    def roll(self, shooter: str, opponent: str, position: int) -> int:
        key = (shooter, opponent, position)
        if key not in self._rolls:
            raise LookupError(f"no roll scripted for {shooter}@{position} against {opponent}")
        self._used.add(key)
        return self._rolls[key]

    def unused(self) -> list[tuple[str, str, int]]:
        return sorted(set(self._rolls) - self._used)
