"""What every phase returns: one outcome per order, and the dislodged units."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from gm_daemon.diplomacy.orders import Unit

SUCCEEDS = "succeeds"
FAILS = "fails"
INVALID = "invalid"  # illegal or unreadable: ignored, the unit holds (or is disbanded)


class Outcome(NamedTuple):
    """The result of one order. ``index`` is its place in the input; None marks an order the
    engine supplied (the hold of an unordered unit, a civil-disorder removal). A NamedTuple
    rather than a dataclass: a phase makes dozens and they cost a third as much to build."""

    index: int | None
    power: str
    order: str  # normalised text
    result: str  # SUCCEEDS, FAILS or INVALID
    reason: str = ""  # printable in a result mail: "bounced with F MAO", "support cut by A TYR"


@dataclass(frozen=True, slots=True)
class Dislodgement:
    unit: Unit
    attacker_from: int  # province the dislodging unit came from
    by_convoy: bool  # then the unit may retreat there (DATC 4.A.5)
    retreats: tuple[int, ...]  # locations it may retreat to
