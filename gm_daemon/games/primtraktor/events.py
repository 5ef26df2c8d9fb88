"""Structured record of a round, kept in ``Resolution.events`` and read back by the report.

Every event is a dict whose ``"event"`` key names it (the one convention of all games)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from gm_daemon.games.primtraktor.model import Cell, Change, Direction, Elimination, Leg


class LegDriven(BaseModel):
    """A leg that was driven (also one that crashed on its first cell: ``gained`` 0)."""

    event: Literal["leg"] = "leg"
    seat: str
    phase: int
    direction: Direction
    change: Change
    speed: int
    start: Cell
    end: Cell
    gained: int
    nmr: bool = False
    crashed: bool = False


class Eliminated(BaseModel):
    """A tractor left the race; ``time`` is the instant within the phase (e.g. "4/7")."""

    event: Literal["eliminated"] = "eliminated"
    seat: str
    elimination: Elimination
    time: str | None = None


class NmrApplied(BaseModel):
    """The NMR procedure ran for ``seat``: the leg it chose, or why there was none."""

    event: Literal["nmr"] = "nmr"
    seat: str
    leg: Leg | None
    speed: int
    why_none: str = ""


class Score(BaseModel):
    seat: str
    cells: int
    bonus: int
    total: int


class GameEnded(BaseModel):
    """``phase`` is the last phase played; ``reason`` tells which end condition (PT-16)."""

    event: Literal["end"] = "end"
    round: int
    phase: int
    reason: Literal["last_tractor", "round_limit"]
    scores: list[Score]


Event = Annotated[LegDriven | Eliminated | NmrApplied | GameEnded, Field(discriminator="event")]
_EVENTS = TypeAdapter(list[Event])


def dump_events(events: list[Event]) -> list[dict[str, Any]]:
    return [event.model_dump(mode="json") for event in events]


def load_events(raw: list[dict[str, Any]]) -> list[Event]:
    return _EVENTS.validate_python(raw)
