"""Realistic mid-game positions for the benchmark, made by seeded self-play.

Games start from the standard 1901 position and are played by a simple aggressive policy
(move towards centres not yet owned, support neighbours' attacks, convoy armies across the
water, hold otherwise) with our own engine for several years: movement, retreats, the centre
update and adjustments. The movement phases of the middle years (about 25-34 units on the
board) are kept, with their orders, as JSON phases in the format of ``phase.py``. The same
seed always gives the same phases, so both engines in ``bench.py`` see identical input.
"""

from __future__ import annotations

import random
from typing import Any

from gm_daemon.diplomacy import (
    ARMY,
    FLEET,
    SEA,
    Unit,
    adjudicate_adjustments,
    adjudicate_movement,
    adjudicate_retreats,
    read_order,
    standard_board,
)

B = standard_board()
START = {
    "Austria": ["A BUD", "A VIE", "F TRI"],
    "England": ["F EDI", "F LON", "A LVP"],
    "France": ["F BRE", "A MAR", "A PAR"],
    "Germany": ["F KIE", "A BER", "A MUN"],
    "Italy": ["F NAP", "A ROM", "A VEN"],
    "Russia": ["A MOS", "F SEV", "F STP/SC", "A WAR"],
    "Turkey": ["F ANK", "A CON", "A SMY"],
}


def _unit(power: str, token: str) -> Unit:
    kind, loc = token.split()
    return Unit(power, kind, B.loc(loc))


def _name(u: Unit) -> str:
    return f"{u.kind} {B.names[u.loc]}"


def _moves_of(u: Unit) -> list[int]:
    """Locations the unit can move to directly (coasts for fleets)."""
    if u.kind == ARMY:
        return sorted(B.army_adj[B.province_of[u.loc]])
    return sorted(B.fleet_adj[u.loc])


def _plan(units: list[Unit], owner: dict[int, str], rng: random.Random) -> dict[str, list[str]]:
    """One movement phase of orders for every power (about 40 % moves, 30 % supports)."""
    at = {B.province_of[u.loc]: u for u in units}
    plans: dict[int, str] = {}
    targets: dict[int, int] = {}  # unit province -> target province
    for u in rng.sample(units, len(units)):
        here = B.province_of[u.loc]
        if here in plans:
            continue
        roll = rng.random()
        if roll < 0.3 and u.kind == FLEET and B.terrain[here] == SEA:
            army = _convoy(u, at, plans, rng)
            if army is not None:
                continue
        if roll < 0.55:
            options = _moves_of(u)
            wanted = [x for x in options if owner.get(B.province_of[x]) not in (u.power, None)]
            wanted += [x for x in options if B.province_of[x] in B.supply_centers]
            to = rng.choice(wanted or options) if (wanted and rng.random() < 0.7) else None
            to = to if to is not None else rng.choice(options)
            plans[here] = f"{_name(u)} - {B.names[to]}"
            targets[here] = B.province_of[to]
    for u in units:
        here = B.province_of[u.loc]
        if here in plans:
            continue
        reach = B.army_adj[here] if u.kind == ARMY else B.fleet_reach[u.loc]
        helpable = [(p, t) for p, t in targets.items() if t in reach and p != here and t != here]
        friends = [at[p] for p in reach if p in at and at[p].power == u.power]
        roll = rng.random()
        if helpable and roll < 0.6:
            p, t = rng.choice(helpable)
            plans[here] = f"{_name(u)} S {_name(at[p])} - {B.names[t]}"
        elif friends and roll < 0.85:
            plans[here] = f"{_name(u)} S {_name(rng.choice(friends))}"
        else:
            plans[here] = f"{_name(u)} H"
    orders: dict[str, list[str]] = {}
    for u in units:
        orders.setdefault(u.power, []).append(plans[B.province_of[u.loc]])
    return orders


def _convoy(
    fleet: Unit, at: dict[int, Unit], plans: dict[int, str], rng: random.Random
) -> Unit | None:
    """Have ``fleet`` carry an adjacent army of its power to another coast it touches."""
    sea = B.province_of[fleet.loc]
    shores = [p for p in range(B.n_provinces) if sea in B.sea_adj[p] and B.is_coastal(p)]
    armies = [
        at[p] for p in shores if p in at and at[p].kind == ARMY and at[p].power == fleet.power
    ]
    armies = [a for a in armies if B.province_of[a.loc] not in plans]
    if not armies:
        return None
    army = rng.choice(armies)
    start = B.province_of[army.loc]
    dests = [p for p in shores if p != start]
    dest = rng.choice(dests)
    plans[start] = f"{_name(army)} - {B.names[dest]}" + (
        " VIA" if dest in B.army_adj[start] else ""
    )
    plans[sea] = f"{_name(fleet)} C {_name(army)} - {B.names[dest]}"
    return army


def _retreat(moved: Any, rng: random.Random) -> list[Unit]:
    orders = []
    for d in moved.dislodged:
        if d.retreats and rng.random() < 0.8:
            text = f"{_name(d.unit)} R {B.names[rng.choice(d.retreats)]}"
            orders.append((d.unit.power, read_order(text, B)))
    return list(adjudicate_retreats(B, moved.units, moved.dislodged, orders).units)


def _adjust(units: list[Unit], owner: dict[int, str], rng: random.Random) -> list[Unit]:
    for u in units:
        province = B.province_of[u.loc]
        if province in B.supply_centers:
            owner[province] = u.power
    centers: dict[str, set[int]] = {}
    for province, power in owner.items():
        centers.setdefault(power, set()).add(province)
    orders = []
    occupied = {B.province_of[u.loc] for u in units}
    for power, provinces in centers.items():
        for home in B.homes.get(power, ()):
            if home in provinces and home not in occupied:
                kind = FLEET if B.is_coastal(home) and rng.random() < 0.4 else ARMY
                place = B.names[home] + ("/NC" if B.coasts[home] else "")
                orders.append((power, read_order(f"BUILD {kind} {place}", B)))
    result = adjudicate_adjustments(B, units, centers, B.homes, orders)
    return list(result.units)


def mid_game_phases(games: int = 12, seed: int = 1901) -> list[dict[str, Any]]:
    """Movement phases of years 1904-1908 from ``games`` seeded self-played games."""
    rng = random.Random(seed)
    phases: list[dict[str, Any]] = []
    for _ in range(games):
        units = [_unit(p, t) for p, tokens in START.items() for t in tokens]
        owner = {p: power for power, ps in B.homes.items() for p in ps}
        for year in range(1901, 1909):
            for season in ("spring", "fall"):
                orders = _plan(units, owner, rng)
                if year >= 1904:
                    phases.append(_phase_json(units, orders))
                parsed = [(p, read_order(t, B)) for p, ts in orders.items() for t in ts]
                moved = adjudicate_movement(B, units, parsed)
                units = _retreat(moved, rng)
                if season == "fall":
                    units = _adjust(units, owner, rng)
    return phases


def _phase_json(units: list[Unit], orders: dict[str, list[str]]) -> dict[str, Any]:
    by_power: dict[str, list[str]] = {}
    for u in units:
        by_power.setdefault(u.power, []).append(_name(u))
    return {"phase": "movement", "units": by_power, "orders": orders}
