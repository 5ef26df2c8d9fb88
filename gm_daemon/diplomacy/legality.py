"""Which movement orders are legal, judged on the board before any other order is known.

DATC 4.E.1: an order that could not be valid whatever the other orders are is *illegal* and
ignored (the unit holds and may be supported to hold); it gets the result "invalid" with a
reason a player understands. What survives is turned into a ``Legal`` record of ints for the
resolver. Poorly written but unambiguous orders are followed (4.B.2, 4.B.5, 4.B.6, 4.C.2):
a wrong unit type, a wrong coast of the ordered unit and an irrelevant coast are ignored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from gm_daemon.diplomacy.board import ARMY, FLEET, SEA, Board
from gm_daemon.diplomacy.convoys import necessary_seas, route_exists
from gm_daemon.diplomacy.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    Place,
    Support,
    Unit,
    UnitRef,
    unit_text,
)
from gm_daemon.diplomacy.resolver import CONVOY, HOLD, MOVE, SUPPORT
from gm_daemon.games.protocol import ProblemKind


class Legal(NamedTuple):
    """A legal movement order, in the resolver's terms (a tuple: cheap to make, to compare)."""

    otype: int
    unit: int  # index of the ordered unit
    dest: int = -1  # target province (move, supported move, convoyed army)
    dest_loc: int = -1  # where a moving unit ends (the coast for a fleet)
    target: int = -1  # index of the supported or convoyed unit
    coast: int = -1  # coast a support names for a fleet move (-1: any)
    via: bool = False  # the order says "via convoy"
    land: bool = False  # an army move with a land route


@dataclass(frozen=True, slots=True)
class Illegal:
    """Why an order is ignored; ``kind`` tells a mail reader which section it belongs in."""

    reason: str
    kind: ProblemKind = ProblemKind.ILLEGAL


class Situation:
    """The position as the legality checks need it: who stands where, which seas hold fleets."""

    __slots__ = ("_necessary", "at", "board", "convoy_fallback", "fleet_seas", "units")

    def __init__(self, board: Board, units: Sequence[Unit], convoy_fallback: bool):
        self.board = board
        self.units = units
        at = [-1] * board.n_provinces
        seas: list[int] = []
        province_of, terrain = board.province_of, board.terrain
        for i, u in enumerate(units):
            province = province_of[u.loc]
            at[province] = i
            if u.kind == FLEET and terrain[province] == SEA:
                seas.append(province)
        self.at = at
        self.fleet_seas = frozenset(seas)
        self.convoy_fallback = convoy_fallback
        self._necessary: dict[tuple[int, int], set[int]] = {}

    def province(self, i: int) -> int:
        return self.board.province_of[self.units[i].loc]

    def necessary(self, origin: int, dest: int) -> set[int]:
        key = (origin, dest)
        if key not in self._necessary:
            self._necessary[key] = necessary_seas(self.board, origin, dest, self.fleet_seas)
        return self._necessary[key]


def judge(pos: Situation, power: str, order: Order) -> Legal | Illegal:
    """The legal reading of one movement order of ``power``, or why it is illegal."""
    kind = type(order)
    if kind not in _MOVEMENT_ORDERS:
        return Illegal("not an order for the movement phase")
    ref = order.unit  # type: ignore[union-attr]
    found = pos.at[ref.place.province]
    if found < 0 or pos.units[found].power != power:
        return _not_own(pos, ref)
    if kind is Move:
        return _move(pos, found, order.to, order.via_convoy)  # type: ignore[union-attr]
    if kind is Support:
        return _support(pos, found, order.supported, order.to)  # type: ignore[union-attr]
    if kind is Convoy:
        return _convoy(pos, found, order.army, order.to)  # type: ignore[union-attr]
    return Legal(HOLD, found)


_MOVEMENT_ORDERS = frozenset({Hold, Move, Support, Convoy})


def _not_own(pos: Situation, ref: UnitRef) -> Illegal:
    """Why an order names no unit of ``power`` (``judge`` looks for the unit itself)."""
    i = pos.at[ref.place.province]
    if i < 0:
        return Illegal(f"no unit in {pos.board.names[ref.place.province]}")
    unit = pos.units[i]
    return Illegal(f"{unit_text(pos.board, unit)} belongs to {unit.power}")


def _text(pos: Situation, i: int) -> str:
    return unit_text(pos.board, pos.units[i])


def _province(pos: Situation, i: int) -> int:
    return pos.board.province_of[pos.units[i].loc]


def fleet_target(board: Board, loc: int, to: Place) -> int | Illegal:
    """Where a fleet at ``loc`` ends when ordered to ``to``: the only reachable coast when
    none is given (4.B.2), the given coast if reachable, illegal if it is not (4.B.3) or if
    two coasts are reachable (4.B.1). Coasts the province does not have are ignored (4.B.6)."""
    province = to.province
    coasts = board.coasts[province]
    if not coasts:
        return province if province in board.fleet_adj[loc] else _unreachable(board, loc, to)
    named = board.coast_of(province, to.coast) if to.coast else None
    if named is not None:
        return named if named in board.fleet_adj[loc] else _unreachable(board, loc, to)
    reachable = [c for c in coasts if c in board.fleet_adj[loc]]
    if len(reachable) == 1:
        return reachable[0]
    if not reachable:
        return _unreachable(board, loc, to)
    choices = " or ".join(board.names[c] for c in reachable)
    return Illegal(f"which coast of {board.names[province]}: {choices}?", ProblemKind.AMBIGUOUS)


def _unreachable(board: Board, loc: int, to: Place) -> Illegal:
    named = board.coast_of(to.province, to.coast) if to.coast else None
    target = board.names[named if named is not None else to.province]
    return Illegal(f"F {board.names[loc]} cannot reach {target}")


def _move(pos: Situation, i: int, to: Place, via: bool) -> Legal | Illegal:
    board = pos.board
    unit = pos.units[i]
    here = board.province_of[unit.loc]
    dest = to.province
    if dest == here:
        return Illegal(f"{_text(pos, i)} cannot move to its own province")
    if unit.kind == FLEET:
        target = fleet_target(board, unit.loc, to)
        if isinstance(target, Illegal):
            return target
        return Legal(MOVE, i, dest, target)
    land = dest in board.army_adj[here]
    if land and not via:
        return Legal(MOVE, i, dest, dest, land=True)
    by_sea = (
        board.is_coastal(here)
        and board.is_coastal(dest)
        and route_exists(board, here, dest, pos.fleet_seas)
    )
    if not land and not by_sea:
        if board.is_coastal(here) and board.is_coastal(dest):
            return Illegal(f"no fleets to convoy {_text(pos, i)} to {board.names[dest]}")
        return Illegal(f"{_text(pos, i)} cannot reach {board.names[dest]}")
    if via and not by_sea:
        if not pos.convoy_fallback:
            return Illegal(f"no fleets to convoy {_text(pos, i)} to {board.names[dest]}")
        via = False  # 2000 rules: "via convoy" means nothing without a convoy route
    return Legal(MOVE, i, dest, dest, via=via, land=land)


def _support(pos: Situation, i: int, ref: UnitRef, to: Place | None) -> Legal | Illegal:
    board = pos.board
    j = pos.at[ref.place.province]
    if j < 0:
        return Illegal(f"no unit in {board.names[ref.place.province]} to support")
    if j == i:
        return Illegal(f"{_text(pos, i)} cannot support itself")
    helped = _province(pos, j) if to is None else to.province
    if helped == _province(pos, i):
        return Illegal(f"{_text(pos, i)} cannot support a move into its own province")
    if not _can_enter(pos, i, helped):
        return Illegal(f"{_text(pos, i)} cannot reach {board.names[helped]}")
    if to is None:
        return Legal(SUPPORT, i, helped, target=j)
    coast = -1
    supported = pos.units[j]
    if supported.kind == FLEET:
        named = board.coast_of(to.province, to.coast) if to.coast else None
        if named is not None:
            coast = named
        if not _fleet_can_enter(board, supported.loc, to.province, named):
            return Illegal(f"{_text(pos, j)} cannot reach {board.names[named or to.province]}")
    elif not _army_can_move(pos, j, to.province, helper=i):
        return Illegal(f"{_text(pos, j)} cannot reach {board.names[to.province]}")
    return Legal(SUPPORT, i, helped, target=j, coast=coast)


def _can_enter(pos: Situation, i: int, province: int) -> bool:
    """Whether unit ``i`` could move into ``province`` itself (support needs that)."""
    board = pos.board
    unit = pos.units[i]
    if unit.kind == ARMY:
        return province in board.army_adj[board.province_of[unit.loc]]
    return province in board.fleet_reach[unit.loc]


def _fleet_can_enter(board: Board, loc: int, province: int, coast: int | None) -> bool:
    if coast is not None:
        return coast in board.fleet_adj[loc]
    return province in board.fleet_reach[loc]


def _army_can_move(pos: Situation, j: int, dest: int, helper: int) -> bool:
    """Whether army ``j`` could legally move to ``dest`` while fleet ``helper`` supports it:
    the helper cannot also be one of the convoying fleets (6.D.31)."""
    board = pos.board
    here = _province(pos, j)
    if dest == here:
        return False
    if dest in board.army_adj[here]:
        return True
    if not (board.is_coastal(here) and board.is_coastal(dest)):
        return False
    seas = pos.fleet_seas - {_province(pos, helper)}
    return route_exists(board, here, dest, seas)


def _convoy(pos: Situation, i: int, ref: UnitRef, to: Place) -> Legal | Illegal:
    board = pos.board
    here = _province(pos, i)
    if pos.units[i].kind != FLEET or not board.is_sea(here):
        return Illegal("only a fleet at sea can convoy")
    j = pos.at[ref.place.province]
    if j < 0:
        return Illegal(f"no unit in {board.names[ref.place.province]} to convoy")
    if pos.units[j].kind != ARMY:
        return Illegal("only armies can be convoyed")
    origin = _province(pos, j)
    dest = to.province
    if dest == origin or not (board.is_coastal(origin) and board.is_coastal(dest)):
        return Illegal(f"{_text(pos, j)} cannot be convoyed to {board.names[dest]}")
    if here not in pos.necessary(origin, dest):
        return Illegal(
            f"{_text(pos, i)} is on no convoy route from {board.names[origin]} "
            f"to {board.names[dest]}"
        )
    return Legal(CONVOY, i, dest, target=j)
