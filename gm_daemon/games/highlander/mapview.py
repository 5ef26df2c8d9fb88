"""What a map picture shows, apart from how it is drawn: the view the Highlander engine builds
from a board and a phase, and ``picture.render_map`` turns into a PNG.

Locations are the adjudicator's ids from ``gm_daemon/diplomacy/data/provinces.csv`` (``PAR``,
``STP/NC`` for a coast); players are 0 and 1 (their colours), ``None`` a neutral centre.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True)
class MapUnit:
    player: int
    kind: Literal["A", "F"]
    location: str


@dataclass(frozen=True)
class MapArrow:
    """One order of this phase. ``unit`` is where the ordering unit stands. For a move or
    retreat ``target`` is the destination; for a support or convoy ``target`` is the supported
    or convoyed unit's location and ``to`` where that unit goes (None: support to hold)."""

    kind: Literal["hold", "move", "support", "convoy", "retreat"]
    unit: str
    target: str
    to: str | None = None
    failed: bool = False


@dataclass(frozen=True)
class MapView:
    title: str
    players: tuple[str, str]  # names for the legend, in player order
    owners: Mapping[str, int | None]  # every supply centre (province id) → owner or None
    units: Sequence[MapUnit]
    arrows: Sequence[MapArrow] = ()
    dislodged: Sequence[MapUnit] = ()  # drawn beside their province, marked
    notes: Sequence[str] = field(default_factory=tuple)  # legend lines (e.g. "Brett A")
    lang: str = "de"  # the game's language: every word of the picture is in it
