"""The adjustment phase: builds, removals, waivers and civil-disorder removals.

A power with more centres than units may build the difference, in its empty home centres
that it owns (in any owned empty centre with ``build_anywhere``); one with fewer must remove
the difference. Orders are executed top to bottom and those that cannot be carried out are
skipped (DATC 4.D.4-4.D.6, 6.I.1, 6.J.1): extra builds and removals fail. A build without a
unit type builds an army inland and a fleet where a coast is named (4.C.3); a fleet needs a
coast on a split coast (4.B.7). Removals not ordered are made by the civil disorder rule of
the rulebook (4.D.8): farthest unit first, fleets before armies, then alphabetical.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from gm_daemon.diplomacy.board import ARMY, FLEET, LAND, Board
from gm_daemon.diplomacy.legality import Illegal
from gm_daemon.diplomacy.orders import (
    Build,
    Disband,
    Order,
    Remove,
    Unit,
    Waive,
    order_text,
    unit_text,
)
from gm_daemon.diplomacy.results import FAILS, INVALID, SUCCEEDS, Outcome
from gm_daemon.diplomacy.rules import STANDARD, Rules
from gm_daemon.games.protocol import ProblemKind

_FAR = 1 << 20  # the distance of a unit that cannot reach any target centre


@dataclass(frozen=True, slots=True)
class AdjustmentResult:
    outcomes: tuple[Outcome, ...]
    units: tuple[Unit, ...]


def adjudicate_adjustments(
    board: Board,
    units: Sequence[Unit],
    centers: Mapping[str, Collection[int]],
    homes: Mapping[str, Collection[int]],
    orders: Sequence[tuple[str, Order]],
    rules: Rules = STANDARD,
) -> AdjustmentResult:
    """Builds and removals for every power; ``centers`` are the centres each one owns now."""
    powers = list(dict.fromkeys([*(u.power for u in units), *centers, *(p for p, _ in orders)]))
    outcomes: dict[int, Outcome] = {}
    implied: list[Outcome] = []
    built: list[Unit] = []
    removed: set[int] = set()  # indexes into ``units``
    for power in powers:
        mine = [(k, o) for k, (p, o) in enumerate(orders) if p == power]
        own = [i for i, u in enumerate(units) if u.power == power]
        owned = set(centers.get(power, ()))
        balance = len(owned) - len(own)
        if balance > 0:
            sites = owned if rules.build_anywhere else owned & set(homes.get(power, ()))
            built += _builds(board, units, power, balance, sites, mine, outcomes)
        elif balance < 0:
            gone = _removals(board, units, power, -balance, mine, outcomes)
            removed |= gone
            missing = -balance - len(gone)
            if missing:
                targets = owned if rules.distance_to == "owned" else set(homes.get(power, ()))
                rest = [i for i in own if i not in gone]
                for i in _civil_disorder(board, units, rest, targets, rules)[:missing]:
                    removed.add(i)
                    text = f"REMOVE {unit_text(board, units[i])}"
                    implied.append(Outcome(None, power, text, SUCCEEDS, "civil disorder"))
        else:
            for k, order in mine:
                text = order_text(board, order)
                outcomes[k] = Outcome(k, power, text, INVALID, f"{power} has nothing to adjust")
    after = [u for i, u in enumerate(units) if i not in removed] + built
    ordered = [outcomes[k] for k in sorted(outcomes)] + implied
    return AdjustmentResult(tuple(ordered), tuple(after))


def _builds(
    board: Board,
    units: Sequence[Unit],
    power: str,
    allowed: int,
    sites: set[int],
    orders: list[tuple[int, Order]],
    outcomes: dict[int, Outcome],
) -> list[Unit]:
    occupied = {board.province_of[u.loc] for u in units}
    built: list[Unit] = []
    used = 0
    for k, order in orders:
        text = order_text(board, order)
        if isinstance(order, Waive):
            ok = used < allowed
            used += ok
            why = "build waived" if ok else "no builds left"
            outcomes[k] = Outcome(k, power, text, SUCCEEDS if ok else FAILS, why)
            continue
        if not isinstance(order, Build):
            outcomes[k] = Outcome(k, power, text, INVALID, f"{power} builds, it removes nothing")
            continue
        unit = build_site(board, power, order, sites)
        if isinstance(unit, Illegal):
            outcomes[k] = Outcome(k, power, text, INVALID, unit.reason)
            continue
        text = f"BUILD {unit_text(board, unit)}"
        where = board.province_of[unit.loc]
        if where in occupied:
            outcomes[k] = Outcome(k, power, text, FAILS, f"{board.names[where]} is occupied")
        elif used >= allowed:
            outcomes[k] = Outcome(k, power, text, FAILS, "no builds left")
        else:
            used += 1
            occupied.add(where)
            built.append(unit)
            outcomes[k] = Outcome(k, power, text, SUCCEEDS)
    return built


def build_site(board: Board, power: str, order: Build, sites: Collection[int]) -> Unit | Illegal:
    """The unit a build order makes, or why it cannot be made (occupation is not checked)."""
    province = order.place.province
    name = board.names[province]
    if province not in board.supply_centers:
        return Illegal(f"{name} is not a supply centre")
    if province not in sites:
        return Illegal(f"{power} cannot build in {name}")
    inland = board.terrain[province] == LAND
    coast = board.coast_of(province, order.place.coast) if order.place.coast else None
    kind = order.kind
    if kind is None:
        if inland:
            kind = ARMY
        elif coast is not None or (order.place.coast and not board.coasts[province]):
            kind = FLEET
        else:
            return Illegal(f"army or fleet in {name}?", ProblemKind.AMBIGUOUS)
    if kind == ARMY:
        return Unit(power, ARMY, province)
    if inland:
        return Illegal(f"a fleet cannot be built in {name}: no coast")
    if board.coasts[province]:
        if coast is None:
            choices = " or ".join(board.names[c] for c in board.coasts[province])
            return Illegal(f"which coast of {name}: {choices}?", ProblemKind.AMBIGUOUS)
        return Unit(power, FLEET, coast)
    return Unit(power, FLEET, province)


def _removals(
    board: Board,
    units: Sequence[Unit],
    power: str,
    required: int,
    orders: list[tuple[int, Order]],
    outcomes: dict[int, Outcome],
) -> set[int]:
    at = {board.province_of[u.loc]: i for i, u in enumerate(units)}
    gone: set[int] = set()
    for k, order in orders:
        text = order_text(board, order)
        if not isinstance(order, Remove | Disband):
            outcomes[k] = Outcome(k, power, text, INVALID, f"{power} must remove, not build")
            continue
        i = at.get(order.unit.place.province, -1)
        if i < 0 or units[i].power != power:
            where = board.names[order.unit.place.province]
            why = f"no unit of {power} in {where}"
            outcomes[k] = Outcome(k, power, text, INVALID, why)
            continue
        text = f"REMOVE {unit_text(board, units[i])}"
        if i in gone:
            outcomes[k] = Outcome(k, power, text, FAILS, "already removed")
        elif len(gone) >= required:
            outcomes[k] = Outcome(k, power, text, FAILS, "no more removals needed")
        else:
            gone.add(i)
            outcomes[k] = Outcome(k, power, text, SUCCEEDS)
    return gone


def _civil_disorder(
    board: Board, units: Sequence[Unit], candidates: list[int], targets: set[int], rules: Rules
) -> list[int]:
    """Candidates in the order the civil disorder rule removes them."""

    def key(i: int) -> tuple[int, int, str]:
        unit = units[i]
        province = board.province_of[unit.loc]
        distance = _distance(board, unit, targets, by_unit=rules.paths == "by_unit")
        label = (
            board.names[province]
            if rules.disorder_tiebreak == "abbr"
            else board.full_names[province]
        )
        return (-distance, 0 if unit.kind == FLEET else 1, label.casefold())

    return sorted(candidates, key=key)


def _distance(board: Board, unit: Unit, targets: set[int], by_unit: bool) -> int:
    """Moves from ``unit`` to the nearest target centre. Armies (and, unless ``by_unit``,
    fleets) may cross land and sea alike; with ``by_unit`` a fleet follows its own coasts."""
    if not targets:
        return _FAR
    if by_unit and unit.kind == FLEET:
        start, step, where = unit.loc, board.fleet_adj, board.province_of
    else:
        start, step, where = board.province_of[unit.loc], board.any_adj, None
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        node, dist = queue.popleft()
        if (where[node] if where else node) in targets:
            return dist
        for nxt in step[node]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, dist + 1))
    return _FAR
