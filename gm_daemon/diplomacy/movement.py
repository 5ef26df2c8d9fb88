"""A movement phase, from written orders to the new board, with a reason for every order.

The stages, in order:
1. legality (``legality.judge``): illegal orders become holds with a reason (DATC 4.E.1);
   a unit with two different legal orders holds, both orders void (4.D.3, choice c);
2. convoy intent: an army with a land route goes by convoy only if ordered ``via convoy``
   or convoyed by a fleet of its own power (4.A.3); the 2000 rules fall back to the land
   route when no complete chain of convoy orders exists;
3. matching: a support or convoy that does not match its unit's order is void;
4. the resolver (Kruijswijk's algorithm with the Szykman rule);
5. the new board: moves, dislodgements, retreat options, provinces left empty by a standoff.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

from gm_daemon.diplomacy.board import ARMY, Board
from gm_daemon.diplomacy.convoys import route_exists
from gm_daemon.diplomacy.legality import Illegal, Legal, Situation, judge
from gm_daemon.diplomacy.orders import (
    Order,
    Unit,
    UnitRef,
    order_text,
)
from gm_daemon.diplomacy.resolver import CONVOY, HOLD, MOVE, SUPPORT, Resolver
from gm_daemon.diplomacy.results import (
    FAILS,
    INVALID,
    SUCCEEDS,
    Dislodgement,
    Outcome,
)
from gm_daemon.diplomacy.retreats import retreat_options
from gm_daemon.diplomacy.rules import STANDARD, Rules


@dataclass(frozen=True, slots=True)
class MovementResult:
    outcomes: tuple[Outcome, ...]
    units: tuple[Unit, ...]  # after the phase, dislodged units excluded
    dislodged: tuple[Dislodgement, ...]
    contested: frozenset[int]  # provinces left empty by a standoff


def adjudicate_movement(
    board: Board,
    units: Sequence[Unit],
    orders: Sequence[tuple[str, Order]],
    rules: Rules = STANDARD,
) -> MovementResult:
    """Adjudicate one movement phase. ``orders`` are (power, order) in the order given."""
    phase = _Phase(board, units, orders, rules)
    return phase.run()


class _Phase:
    """One adjudication: the stages of the module docstring, sharing the unit tables."""

    def __init__(
        self,
        board: Board,
        units: Sequence[Unit],
        orders: Sequence[tuple[str, Order]],
        rules: Rules,
    ):
        self.board = board
        self.units = units
        self.orders = orders
        self.rules = rules
        self.pos = Situation(board, units, rules.convoy_fallback)
        n = len(units)
        names = board.unit_names
        self.names = [names[u.kind][u.loc] for u in units]
        self.prov = [board.province_of[u.loc] for u in units]
        self.chosen: list[Legal | None] = [None] * n
        self.source: list[int | None] = [None] * n
        self.addressed = [False] * n
        self.early: dict[int, Outcome] = {}

    def run(self) -> MovementResult:
        self._judge_orders()
        convoyed = self._convoy_intent()
        otype, dest, supported, void = self._match(convoyed)
        board = self.board
        r = Resolver(self.prov, [u.power for u in self.units], otype, dest, supported, convoyed,
                     board.n_provinces, board.sea_adj)  # fmt: skip
        r.run()
        return self._result(r, void)

    # --- 1. legality ------------------------------------------------------------------
    def _judge_orders(self) -> None:
        pos = self.pos
        chosen, source, addressed = self.chosen, self.source, self.addressed
        several: dict[int, list[tuple[int, Legal]]] = {}
        for k, (power, order) in enumerate(self.orders):
            verdict = judge(pos, power, order)
            if type(verdict) is Illegal:
                self._illegal(k, power, order, verdict)
                continue
            u = verdict.unit  # the power's own unit, so the order addresses it
            addressed[u] = True
            first = source[u]
            if first is None:
                chosen[u] = verdict
                source[u] = k
            else:
                several.setdefault(u, [(first, chosen[u])]).append((k, verdict))  # type: ignore[arg-type]
        for u, legal in several.items():
            chosen[u] = source[u] = None
            self._several_orders(u, legal)

    def _illegal(self, k: int, power: str, order: Order, verdict: Illegal) -> None:
        """An ignored order; its unit still counts as ordered if it is the power's own."""
        ref = getattr(order, "unit", None)
        if ref is not None:
            i = self.pos.at[ref.place.province]
            if i >= 0 and self.units[i].power == power:
                self.addressed[i] = True
        text = order_text(self.board, _with_kinds(self.pos, order))
        self.early[k] = Outcome(k, power, text, INVALID, verdict.reason)

    def _several_orders(self, u: int, legal: list[tuple[int, Legal]]) -> None:
        """Two different orders void each other (DATC 4.D.3 c); a repeat counts once."""
        power = self.units[u].power
        if len({v for _, v in legal}) > 1:
            reason = f"{self.names[u]} has conflicting orders"
            for k, v in legal:
                self.early[k] = Outcome(k, power, self._text(v), INVALID, reason)
            return
        self.chosen[u] = legal[0][1]
        self.source[u] = legal[0][0]
        for k, v in legal[1:]:
            self.early[k] = Outcome(k, power, self._text(v), INVALID, "repeats an earlier order")

    # --- 2. convoy intent ---------------------------------------------------------------
    def _convoy_intent(self) -> list[bool]:
        convoyed = [False] * len(self.units)
        fleets: dict[tuple[int, int], list[int]] = {}  # (army, destination) -> convoying fleets
        for c in self.chosen:
            if c is not None and c.otype == CONVOY:
                fleets.setdefault((c.target, c.dest), []).append(c.unit)
        units = self.units
        for u, legal in enumerate(self.chosen):
            if legal is None or legal.otype != MOVE or units[u].kind != ARMY:
                continue
            if not legal.land:
                convoyed[u] = True
                continue
            carriers = fleets.get((u, legal.dest), ()) if fleets else ()
            if not carriers and not legal.via:
                continue  # neither "via convoy" nor a fleet convoying it: it walks
            power = units[u].power
            intent = legal.via or any(units[f].power == power for f in carriers)
            if intent and self.rules.convoy_fallback:
                seas = {self.prov[f] for f in carriers}
                intent = route_exists(self.board, self.prov[u], legal.dest, seas)
            convoyed[u] = intent
        return convoyed

    # --- 3. matching --------------------------------------------------------------------
    def _match(self, convoyed: list[bool]) -> tuple[list[int], list[int], list[int], dict]:
        n = len(self.units)
        otype = [HOLD] * n
        dest = [-1] * n
        supported = [-1] * n
        void: dict[int, str] = {}
        for u, legal in enumerate(self.chosen):
            if legal is None:
                continue
            t = legal.otype
            if t == MOVE:
                otype[u] = MOVE
                dest[u] = legal.dest
                continue
            if t == HOLD:
                continue
            other = self.chosen[legal.target]
            moving = other is not None and other.otype == MOVE
            if t == SUPPORT and legal.dest == self.prov[legal.target]:
                ok = not moving
            elif t == SUPPORT:
                ok = (
                    moving
                    and other.dest == legal.dest
                    and (legal.coast < 0 or other.dest_loc == legal.coast)
                )
            else:
                ok = moving and other.dest == legal.dest and convoyed[legal.target]
            if ok:
                otype[u] = t
                dest[u] = legal.dest
                supported[u] = legal.target
            else:
                void[u] = self._mismatch(legal)
        return otype, dest, supported, void

    def _mismatch(self, legal: Legal) -> str:
        other = self.names[legal.target]
        if legal.otype == CONVOY:
            return f"{other} does not move to {self.board.names[legal.dest]} by convoy"
        if legal.dest == self.prov[legal.target]:
            return f"{other} does not hold"
        where = self.board.names[legal.coast if legal.coast >= 0 else legal.dest]
        return f"{other} does not move to {where}"

    # --- 5. the new board ---------------------------------------------------------------
    def _result(self, r: Resolver, void: dict[int, str]) -> MovementResult:
        """The new board: one pass over the units after the moves are known."""
        board = self.board
        units = self.units
        n = len(units)
        otype, prov, attackers = r.otype, r.prov, r.attackers
        moved = [t == MOVE and ok for t, ok in zip(otype, r.result, strict=True)]
        chosen = self.chosen
        dislodger = [-1] * n
        after: list[Unit] = []
        lost: list[int] = []  # dislodged units, in unit order
        failed: list[int] = []  # moves that failed
        for u, unit in enumerate(units):
            if moved[u]:
                legal = chosen[u]
                if legal is not None:
                    after.append(Unit(unit.power, unit.kind, legal.dest_loc))
                    continue
            else:
                if otype[u] == MOVE:
                    failed.append(u)
                for k in attackers[prov[u]]:
                    if moved[k]:
                        dislodger[u] = k
                if dislodger[u] >= 0:
                    lost.append(u)
                    continue
            after.append(unit)
        province_of = board.province_of
        occupied = {province_of[u.loc] for u in after}
        dest = r.dest
        contested = frozenset(
            dest[k] for k in failed if dest[k] not in occupied and r.prevent_strength(k) > 0
        )
        dislodged = tuple(self._dislodgement(u, dislodger[u], r, occupied, contested) for u in lost)
        outcomes = self._outcomes(r, void, dislodger)
        return MovementResult(tuple(outcomes), tuple(after), dislodged, contested)

    def _dislodgement(
        self, u: int, k: int, r: Resolver, occupied: set[int], contested: frozenset[int]
    ) -> Dislodgement:
        unit = self.units[u]
        by_convoy = bool(r.convoyed[k])
        options = retreat_options(self.board, unit, r.prov[k], by_convoy, occupied, contested)
        return Dislodgement(unit, r.prov[k], by_convoy, options)

    # --- outcomes and reasons -----------------------------------------------------------
    def _outcomes(self, r: Resolver, void: dict[int, str], dislodger: list[int]) -> list[Outcome]:
        """One outcome per order, in the order given, then the holds the engine supplies.
        Most orders succeed with no reason: that case is decided without building one."""
        result: dict[int, Outcome] = dict(self.early)
        implied: list[Outcome] = []
        chosen, source, names, text = self.chosen, self.source, self.names, self._text
        otype, succeeded = r.otype, r.result
        for u, unit in enumerate(self.units):
            legal = chosen[u]
            by = dislodger[u]
            if legal is None:
                if not self.addressed[u]:
                    if by >= 0:
                        why, ok = f"no order; dislodged by {names[by]}", FAILS
                    else:
                        why, ok = "no order", SUCCEEDS
                    implied.append(Outcome(None, unit.power, f"{names[u]} H", ok, why))
                continue
            if void and u in void:
                reason: str | None = void[u]
            elif otype[u] == HOLD or succeeded[u]:
                reason = None  # a hold (no decision), or the order's decision is "succeeds"
            else:
                reason = self._failure(u, r)
            if by >= 0:
                dislodged = f"dislodged by {names[by]}"
                reason, ok = f"{reason}; {dislodged}" if reason else dislodged, FAILS
            else:
                ok = SUCCEEDS if reason is None else FAILS
            k = source[u]
            assert k is not None
            result[k] = Outcome(k, unit.power, text(legal), ok, reason or "")
        return [result[k] for k in sorted(result)] + implied

    def _failure(self, u: int, r: Resolver) -> str:
        """Why a move, support or convoy the resolver decided "fails" failed ("" when there
        is nothing to say): the reasons joined by "; "."""
        t = r.otype[u]
        if t == MOVE:
            return "; ".join(self._why_bounced(u, r))
        if t == SUPPORT:
            return "; ".join(self._why_cut(u, r))
        return "convoy paradox: the fleet holds (Szykman rule)" if r.paradox[u] else ""

    def _why_bounced(self, u: int, r: Resolver) -> list[str]:
        names = self.names
        if not r.path(u):
            fleets = r.convoyers[u]
            if not fleets:
                return ["no convoy path"]
            if any(r.paradox[f] for f in fleets):
                return ["no convoy path: convoy paradox (Szykman rule)"]
            return ["no convoy path: convoy disrupted"]
        reasons: list[str] = []
        attack = r.attack_strength(u)
        d = r.dest[u]
        j = r.at[d]
        opp = r.opponent[u]
        if opp >= 0:
            defend = r.defend_strength(opp)
            if attack == 0:
                reasons.append(f"may not dislodge own {names[opp]}")
            elif attack <= defend:
                verb = "bounced with" if attack == defend else "beaten by"
                reasons.append(f"{verb} {names[opp]} (head-to-head)")
        elif j >= 0 and attack <= r.hold_strength(d):
            if r.otype[j] == MOVE:
                reasons.append(f"{names[j]} did not move away")
            elif attack == 0:
                reasons.append(f"may not dislodge own {names[j]}")
            else:
                reasons.append(f"bounced off {names[j]}")
        for k in r.attackers[d]:
            if k != u and attack <= r.prevent_strength(k):
                reasons.append(f"bounced with {names[k]}")
        return reasons or ["failed"]

    def _why_cut(self, u: int, r: Resolver) -> list[str]:
        cutters = [
            k
            for k in r.attackers[r.prov[u]]
            if r.power[k] != r.power[u] and r.prov[k] != r.dest[u] and r.path(k)
        ]
        return [f"support cut by {self.names[k]}" for k in cutters]

    # --- text ---------------------------------------------------------------------------
    def _text(self, legal: Legal) -> str:
        """The normalised order: actual unit types, the coast a fleet will take."""
        otype = legal.otype
        names = self.names
        me = names[legal.unit]
        if otype == HOLD:
            return f"{me} H"
        places = self.board.names
        if otype == MOVE:
            if legal.via:
                return f"{me} - {places[legal.dest_loc]} VIA"
            return f"{me} - {places[legal.dest_loc]}"
        target = legal.target
        other = names[target]
        if otype == SUPPORT:
            if legal.dest == self.prov[target]:
                return f"{me} S {other}"
            where = places[legal.coast if legal.coast >= 0 else legal.dest]
            return f"{me} S {other} - {where}"
        return f"{me} C {other} - {places[legal.dest]}"


def _with_kinds(pos: Situation, order: Order) -> Order:
    """The written order with unit types taken from the board where a unit stands."""
    changes = {}
    for f in fields(order):
        value = getattr(order, f.name)
        if isinstance(value, UnitRef):
            i = pos.at[value.place.province]
            if i >= 0:
                changes[f.name] = UnitRef(pos.units[i].kind, value.place)
    return replace(order, **changes) if changes else order
