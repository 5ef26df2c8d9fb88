"""The retreat phase: dislodged units retreat or are disbanded.

A dislodged unit may retreat to an adjacent province that is empty, was not left empty by a
standoff, and is not the one its attacker came from, unless the attacker came by convoy
(DATC 4.A.5, 6.H.11). Two or more units retreating to the same province are all disbanded
(6.H.7, 6.H.8); a unit without a (valid) retreat order is disbanded. Only retreat and disband
orders exist in this phase (6.H.1 to 6.H.4).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from gm_daemon.diplomacy.board import ARMY, Board
from gm_daemon.diplomacy.legality import Illegal, fleet_target
from gm_daemon.diplomacy.orders import (
    Disband,
    Move,
    Order,
    Place,
    Retreat,
    Unit,
    order_text,
    unit_text,
)
from gm_daemon.diplomacy.results import (
    FAILS,
    INVALID,
    SUCCEEDS,
    Dislodgement,
    Outcome,
)


@dataclass(frozen=True, slots=True)
class RetreatResult:
    outcomes: tuple[Outcome, ...]
    units: tuple[Unit, ...]  # the board after the phase


def retreat_options(
    board: Board,
    unit: Unit,
    attacker_from: int,
    by_convoy: bool,
    occupied: Collection[int],
    contested: Collection[int],
) -> tuple[int, ...]:
    """Locations ``unit`` may retreat to, sorted by name."""
    here = board.province_of[unit.loc]

    def open_(province: int) -> bool:
        if province in occupied or province in contested:
            return False
        return by_convoy or province != attacker_from

    if unit.kind == ARMY:
        options = [q for q in board.army_adj[here] if open_(q)]
    else:
        options = [x for x in board.fleet_adj[unit.loc] if open_(board.province_of[x])]
    return tuple(sorted(options, key=lambda x: board.names[x]))


def adjudicate_retreats(
    board: Board,
    units: Sequence[Unit],
    dislodged: Sequence[Dislodgement],
    orders: Sequence[tuple[str, Order]],
) -> RetreatResult:
    """Resolve the retreats; ``units`` are the units that were not dislodged."""
    by_province = {board.province_of[d.unit.loc]: d for d in dislodged}
    standing = {board.province_of[u.loc] for u in units}
    outcomes: dict[int, Outcome] = {}
    plans: dict[int, list[tuple[int, int | None]]] = {}  # province -> [(order, dest loc)]
    for k, (power, order) in enumerate(orders):
        verdict = _judge(board, by_province, standing, power, order)
        if isinstance(verdict, Illegal):
            outcomes[k] = Outcome(k, power, order_text(board, order), INVALID, verdict.reason)
        else:
            plans.setdefault(verdict[0], []).append((k, verdict[1]))
    chosen: dict[int, tuple[int, int | None]] = {}
    for province, given in plans.items():
        d = by_province[province]
        if len({dest for _, dest in given}) > 1:
            for k, dest in given:
                text = _text(board, d.unit, dest)
                reason = f"{unit_text(board, d.unit)} has conflicting orders; disbanded"
                outcomes[k] = Outcome(k, d.unit.power, text, INVALID, reason)
            continue
        chosen[province] = given[0]
        for k, dest in given[1:]:
            text = _text(board, d.unit, dest)
            outcomes[k] = Outcome(k, d.unit.power, text, INVALID, "repeats an earlier order")
    targets: dict[int, list[int]] = {}
    for province, (_, dest) in chosen.items():
        if dest is not None:
            targets.setdefault(board.province_of[dest], []).append(province)
    after = list(units)
    implied: list[Outcome] = []
    for province, d in by_province.items():
        name = unit_text(board, d.unit)
        if province not in chosen:
            text = f"{name} D"
            implied.append(Outcome(None, d.unit.power, text, SUCCEEDS, "no order: disbanded"))
            continue
        k, dest = chosen[province]
        text = _text(board, d.unit, dest)
        if dest is None:
            outcomes[k] = Outcome(k, d.unit.power, text, SUCCEEDS, "disbanded")
            continue
        rivals = [p for p in targets[board.province_of[dest]] if p != province]
        if rivals:
            bounced = "; ".join(
                f"bounced with {unit_text(board, by_province[p].unit)}" for p in rivals
            )
            outcomes[k] = Outcome(k, d.unit.power, text, FAILS, f"{bounced}; disbanded")
            continue
        outcomes[k] = Outcome(k, d.unit.power, text, SUCCEEDS)
        after.append(Unit(d.unit.power, d.unit.kind, dest))
    return RetreatResult(tuple([outcomes[k] for k in sorted(outcomes)] + implied), tuple(after))


def _judge(
    board: Board,
    by_province: dict[int, Dislodgement],
    standing: set[int],
    power: str,
    order: Order,
) -> tuple[int, int | None] | Illegal:
    """(province of the dislodged unit, destination loc or None for disband) or why not."""
    match order:
        case Retreat(ref, to) | Move(ref, to):
            pass
        case Disband(ref):
            to = None
        case _:
            return Illegal("only retreats and disbands are possible in the retreat phase")
    province = ref.place.province
    d = by_province.get(province)
    if d is None:
        where = board.names[province]
        if province in standing:
            return Illegal(f"the unit in {where} was not dislodged")
        return Illegal(f"no dislodged unit in {where}")
    if d.unit.power != power:
        return Illegal(f"{unit_text(board, d.unit)} belongs to {d.unit.power}")
    if to is None:
        return province, None
    dest = _destination(board, d.unit, to)
    if isinstance(dest, Illegal):
        return dest
    if dest not in d.retreats:
        return Illegal(_why_not(board, d, dest, standing))
    return province, dest


def _destination(board: Board, unit: Unit, to: Place) -> int | Illegal:
    if unit.kind == ARMY:
        return to.province
    return fleet_target(board, unit.loc, to)


def _why_not(board: Board, d: Dislodgement, dest: int, standing: set[int]) -> str:
    name = unit_text(board, d.unit)
    province = board.province_of[dest]
    where = board.names[dest]
    here = board.province_of[d.unit.loc]
    adjacent = (
        province in board.army_adj[here]
        if d.unit.kind == ARMY
        else dest in board.fleet_adj[d.unit.loc]
    )
    if not adjacent:
        return f"{name} cannot reach {where}"
    if province in standing:
        return f"{name} cannot retreat to {where}: occupied"
    if province == d.attacker_from and not d.by_convoy:
        return f"{name} cannot retreat to {where}: the attack came from there"
    return f"{name} cannot retreat to {where}: left empty by a standoff"


def _text(board: Board, unit: Unit, dest: int | None) -> str:
    name = unit_text(board, unit)
    return f"{name} D" if dest is None else f"{name} R {board.names[dest]}"
