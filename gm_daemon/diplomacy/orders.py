"""Orders as written: what the grammar returns and what the adjudicator reads.

An order names places as ``Place(province, coast)``: the province id from the board and the
coast exactly as written ("NC", or None). Whether a coast matters, is wrong or is missing is
decided against the position (``interpret``), never here, because the same text can be fine
for an army and ambiguous for a fleet.

The phase decides how an order is read: ``A MUN - BOH`` is a move in spring and a retreat
after it; ``A MUN D`` disbands a dislodged unit or removes one in the adjustments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from gm_daemon.diplomacy.board import ARMY, FLEET, Board


@dataclass(frozen=True, slots=True)
class Place:
    """A province as written, with the coast if one was given ("NC", "SC", "EC", ...)."""

    province: int
    coast: str | None = None


@dataclass(frozen=True, slots=True)
class UnitRef:
    """A unit as written: its type may be left out (None) and its coast may be wrong."""

    kind: str | None
    place: Place


@dataclass(frozen=True, slots=True)
class Hold:
    unit: UnitRef


@dataclass(frozen=True, slots=True)
class Move:
    unit: UnitRef
    to: Place
    via_convoy: bool = False


@dataclass(frozen=True, slots=True)
class Support:
    """Support to hold (``to`` is None) or support of a move to ``to``."""

    unit: UnitRef
    supported: UnitRef
    to: Place | None = None


@dataclass(frozen=True, slots=True)
class Convoy:
    unit: UnitRef
    army: UnitRef
    to: Place


@dataclass(frozen=True, slots=True)
class Retreat:
    unit: UnitRef
    to: Place


@dataclass(frozen=True, slots=True)
class Disband:
    unit: UnitRef


@dataclass(frozen=True, slots=True)
class Build:
    kind: str | None
    place: Place


@dataclass(frozen=True, slots=True)
class Remove:
    unit: UnitRef


@dataclass(frozen=True, slots=True)
class Waive:
    pass


Order = Hold | Move | Support | Convoy | Retreat | Disband | Build | Remove | Waive


class Unit(NamedTuple):
    """A unit on the board: its power, type ("A"/"F") and location (a coast for fleets).
    A NamedTuple because every phase builds one per moving unit."""

    power: str
    kind: str
    loc: int


# --- writing orders back -----------------------------------------------------------------


def place_text(board: Board, place: Place) -> str:
    """The standard token of a written place: "SPA/NC", "LON" (unknown coasts are kept)."""
    name = board.names[place.province]
    return f"{name}/{place.coast}" if place.coast else name


def unit_text(board: Board, unit: Unit) -> str:
    return board.unit_names[unit.kind][unit.loc]


def ref_text(board: Board, ref: UnitRef) -> str:
    place = place_text(board, ref.place)
    return f"{ref.kind} {place}" if ref.kind else place


def order_text(board: Board, order: Order) -> str:
    """The canonical one-line form of an order, as result mails and the JSON output show it."""
    match order:
        case Hold(unit):
            return f"{ref_text(board, unit)} H"
        case Move(unit, to, via):
            via_text = " VIA" if via else ""
            return f"{ref_text(board, unit)} - {place_text(board, to)}{via_text}"
        case Support(unit, supported, None):
            return f"{ref_text(board, unit)} S {ref_text(board, supported)}"
        case Support(unit, supported, to) if to is not None:
            target = place_text(board, to)
            return f"{ref_text(board, unit)} S {ref_text(board, supported)} - {target}"
        case Convoy(unit, army, to):
            return f"{ref_text(board, unit)} C {ref_text(board, army)} - {place_text(board, to)}"
        case Retreat(unit, to):
            return f"{ref_text(board, unit)} R {place_text(board, to)}"
        case Disband(unit):
            return f"{ref_text(board, unit)} D"
        case Build(kind, place):
            return f"BUILD {kind + ' ' if kind else ''}{place_text(board, place)}"
        case Remove(unit):
            return f"REMOVE {ref_text(board, unit)}"
        case Waive():
            return "WAIVE"
    raise TypeError(f"not an order: {order!r}")


def kind_name(kind: str) -> str:
    return {ARMY: "army", FLEET: "fleet"}[kind]
