"""A play and the orders that carry it; and why a play is refused.

A ``Move`` is one card and where it goes, in a form that does not depend on the printed
window: Kreuz & Quer cells are absolute grid coordinates (``cell``) or relative to a cannon
on the table (``toward`` + ``anchor``), so a stored plan stays meaningful while the table
changes. Printed labels (``B4``) are turned into coordinates when the order is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field

from gm_daemon.games.protocol import empty_list

Direction = Literal["N", "NO", "O", "SO", "S", "SW", "W", "NW"]
LineKind = Literal["zeile", "spalte"]
PlanKind = Literal["none", "once", "standing"]

STEP: dict[str, tuple[int, int]] = {
    "N": (0, -1),
    "NO": (1, -1),
    "O": (1, 0),
    "SO": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}


class Move(BaseModel):
    card: str  # "ro4", "B5", "H7"
    row: int | None = None  # D&D: 0, 1, 2 for rows I, II, III
    shorten: bool = False  # D&D duke: True lays it "drunter" (shortens)
    on: str | None = None  # the cannon a beer or a K&Q duke is laid on
    cell: tuple[int, int] | None = None  # K&Q cannon: absolute grid cell
    toward: Direction | None = None  # K&Q cannon: direction from the anchor …
    anchor: str | None = None  # … a cannon on the table
    line: LineKind | None = None  # K&Q duke: which line to finish when both would be


class Orders(BaseModel):
    """What a player sent for a turn: one play, or a plan of candidates (§6.2)."""

    moves: list[Move] = Field(default_factory=empty_list)
    plan: PlanKind = "none"  # "once": PLAN, "standing": DAUERPLAN


@dataclass(frozen=True)
class Refusal:
    """Why a play is not allowed: a text key (see ``texts.py``) and its parameters."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
