"""Properties over random legal positions and random (often silly) orders.

* adjudication never crashes and gives every order exactly one outcome;
* no province ever holds two units, and every unit is accounted for exactly once;
* the result does not depend on the order in which the orders were given;
* retreats and adjustments keep the board consistent as well.

The default runs are small enough for the normal suite; ``-m slow`` runs many more.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm_daemon.diplomacy.adjustments import adjudicate_adjustments
from gm_daemon.diplomacy.board import ARMY, FLEET, LAND, SEA, standard_board
from gm_daemon.diplomacy.movement import MovementResult, adjudicate_movement
from gm_daemon.diplomacy.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Place,
    Remove,
    Retreat,
    Support,
    Unit,
    UnitRef,
)
from gm_daemon.diplomacy.retreats import adjudicate_retreats
from gm_daemon.diplomacy.rules import Rules

B = standard_board()
POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
LANDISH = [p for p in range(B.n_provinces) if B.terrain[p] in (LAND, "coast")]
COASTAL = [p for p in range(B.n_provinces) if B.terrain[p] == "coast"]
FLEET_LOCS = [loc for loc in range(len(B.names)) if B.can_stand(FLEET, loc)]
QUICK = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONG = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def positions(draw: st.DrawFn) -> list[Unit]:
    """Up to 34 units of 2-7 powers, one per province, each where its type may stand."""
    powers = POWERS[: draw(st.integers(2, 7))]
    count = draw(st.integers(1, 34))
    taken: set[int] = set()
    units: list[Unit] = []
    for _ in range(count):
        kind = draw(st.sampled_from([ARMY, FLEET]))
        loc = draw(st.sampled_from(LANDISH if kind == ARMY else FLEET_LOCS))
        if B.province_of[loc] in taken:
            continue
        taken.add(B.province_of[loc])
        units.append(Unit(draw(st.sampled_from(powers)), kind, loc))
    return units


def _place(draw: st.DrawFn, near: int | None = None) -> Place:
    """Mostly a neighbour of ``near``, sometimes any province, sometimes with a coast."""
    if near is not None and draw(st.integers(0, 3)):
        choices = sorted(B.any_adj[near]) or [near]
        province = draw(st.sampled_from(choices))
    else:
        province = draw(st.integers(0, B.n_provinces - 1))
    coast = draw(st.sampled_from([None, None, None, "NC", "SC", "EC"]))
    return Place(province, coast)


def _ref(unit: Unit, draw: st.DrawFn) -> UnitRef:
    kind = draw(st.sampled_from([unit.kind, unit.kind, None, ARMY, FLEET]))
    return UnitRef(kind, Place(B.province_of[unit.loc]))


@st.composite
def movement_orders(draw: st.DrawFn, units: list[Unit]) -> list[tuple[str, Order]]:
    orders: list[tuple[str, Order]] = []
    for unit in units:
        here = B.province_of[unit.loc]
        me = _ref(unit, draw)
        other = draw(st.sampled_from(units))
        there = B.province_of[other.loc]
        choice = draw(st.integers(0, 9))
        if choice == 0:
            continue  # no order
        if choice == 1:
            order: Order = Hold(me)
        elif choice <= 4:
            far = draw(st.sampled_from(COASTAL)) if draw(st.booleans()) else None
            to = Place(far) if far is not None else _place(draw, here)
            order = Move(me, to, via_convoy=draw(st.integers(0, 4)) == 0)
        elif choice <= 6:
            order = Support(me, _ref(other, draw), None)
        elif choice <= 8:
            order = Support(me, _ref(other, draw), _place(draw, there))
        else:
            order = Convoy(me, _ref(other, draw), Place(draw(st.sampled_from(COASTAL))))
        power = unit.power if draw(st.integers(0, 15)) else draw(st.sampled_from(POWERS))
        orders.append((power, order))
        if draw(st.integers(0, 20)) == 0:
            orders.append((power, order))  # the same order twice
    return orders


def _check_board(units: list[Unit] | tuple[Unit, ...]) -> None:
    provinces = [B.province_of[u.loc] for u in units]
    assert len(provinces) == len(set(provinces)), "two units in one province"
    for u in units:
        assert B.can_stand(u.kind, u.loc)


def _check_movement(units: list[Unit], orders: list, result: MovementResult) -> None:
    given = [o.index for o in result.outcomes if o.index is not None]
    assert sorted(given) == list(range(len(orders)))
    _check_board(result.units)
    after = {B.province_of[u.loc] for u in result.units}
    assert len(result.units) + len(result.dislodged) == len(units)
    for d in result.dislodged:
        assert B.province_of[d.unit.loc] in after, "a dislodged unit's province is taken"
        for option in d.retreats:
            assert B.province_of[option] not in after
            assert B.province_of[option] not in result.contested
    assert not (result.contested & after)
    moved = Counter(u.kind for u in result.units) + Counter(d.unit.kind for d in result.dislodged)
    assert moved == Counter(u.kind for u in units)


def _signature(result: MovementResult) -> tuple:
    outcomes = sorted((o.power, o.order, o.result, o.reason) for o in result.outcomes)
    units = sorted((u.power, u.kind, u.loc) for u in result.units)
    dislodged = sorted(
        (d.unit.loc, d.attacker_from, d.by_convoy, d.retreats) for d in result.dislodged
    )
    return outcomes, units, dislodged, sorted(result.contested)


def _movement_property(data: st.DataObject) -> None:
    units = data.draw(positions())
    orders = data.draw(movement_orders(units))
    rules = Rules(rulebook=data.draw(st.sampled_from(["2000", "2023"])))
    result = adjudicate_movement(B, units, orders, rules)
    _check_movement(units, orders, result)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    shuffled_orders = orders[:]
    rng.shuffle(shuffled_orders)
    shuffled_units = units[:]
    rng.shuffle(shuffled_units)
    again = adjudicate_movement(B, shuffled_units, shuffled_orders, rules)
    assert _signature(again) == _signature(result)
    _retreat_property(data, result)


def _retreat_property(data: st.DataObject, moved: MovementResult) -> None:
    orders: list[tuple[str, Order]] = []
    for d in moved.dislodged:
        ref = UnitRef(d.unit.kind, Place(B.province_of[d.unit.loc]))
        pick = data.draw(st.integers(0, 3))
        if pick == 0 or not d.retreats:
            orders.append((d.unit.power, Disband(ref)))
        elif pick <= 2:
            to = data.draw(st.sampled_from(d.retreats))
            orders.append((d.unit.power, Retreat(ref, Place(B.province_of[to], B.coast_code[to]))))
    result = adjudicate_retreats(B, moved.units, moved.dislodged, orders)
    _check_board(result.units)
    assert len(result.units) <= len(moved.units) + len(moved.dislodged)


@given(st.data())
@QUICK
def test_movement_never_breaks_the_board_and_ignores_order(data: st.DataObject) -> None:
    _movement_property(data)


@pytest.mark.slow
@given(st.data())
@LONG
def test_movement_properties_long_run(data: st.DataObject) -> None:
    _movement_property(data)


def _adjustment_property(data: st.DataObject) -> None:
    units = data.draw(positions())
    powers = sorted({u.power for u in units})
    free = sorted(B.supply_centers)
    data.draw(st.randoms()).shuffle(free)
    centers: dict[str, set[int]] = {p: set() for p in powers}
    for province in free[: data.draw(st.integers(0, len(free)))]:
        centers[data.draw(st.sampled_from(powers))].add(province)
    orders: list[tuple[str, Order]] = []
    for _ in range(data.draw(st.integers(0, 12))):
        power = data.draw(st.sampled_from(powers))
        if data.draw(st.booleans()):
            kind = data.draw(st.sampled_from([ARMY, FLEET, None]))
            orders.append((power, Build(kind, _place(data.draw))))
        else:
            unit = data.draw(st.sampled_from(units))
            orders.append((power, Remove(_ref(unit, data.draw))))
    rules = Rules(
        rulebook=data.draw(st.sampled_from(["2000", "2023"])),
        build_anywhere=data.draw(st.booleans()),
    )
    result = adjudicate_adjustments(B, units, centers, B.homes, orders, rules)
    _check_board(result.units)
    have = Counter(u.power for u in result.units)
    before = Counter(u.power for u in units)
    for power in powers:
        if len(centers[power]) <= before[power]:
            assert have[power] == len(centers[power]), "removals must reach the centre count"
        else:
            assert before[power] <= have[power] <= len(centers[power])
    assert sorted(o.index for o in result.outcomes if o.index is not None) == list(
        range(len(orders))
    )


@given(st.data())
@QUICK
def test_adjustments_reach_the_centre_count(data: st.DataObject) -> None:
    _adjustment_property(data)


def test_sea_and_land_lists_cover_the_map() -> None:
    """Guards the strategies above: every province can take some unit but Switzerland."""
    standable = {B.province_of[loc] for loc in FLEET_LOCS} | set(LANDISH)
    assert standable == set(range(B.n_provinces)) - {B.loc("SWI")}
    assert all(B.terrain[B.province_of[loc]] in (SEA, "coast") for loc in FLEET_LOCS)


@pytest.mark.slow
@given(st.data())
@LONG
def test_adjustment_properties_long_run(data: st.DataObject) -> None:
    _adjustment_property(data)
