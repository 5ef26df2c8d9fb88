"""The three phases of a Highlander year on one board, handed to the adjudicator (HL-9).

Orders arrive as the canonical texts ``reading.py`` stored; they are read again with the
adjudicator's own reader, which gives back exactly what was accepted. Every order ends up in
the board's ``BoardRecord`` with its result and reason, and orders the engine supplies (the
hold of a unit without orders, a civil-disorder removal) are listed too (HL-13).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gm_daemon.diplomacy import (
    Dislodgement,
    Order,
    Outcome,
    adjudicate_adjustments,
    adjudicate_movement,
    adjudicate_retreats,
    read_order,
)
from gm_daemon.games.highlander import boards
from gm_daemon.games.highlander.boards import RULES
from gm_daemon.games.highlander.model import BoardRecord, BoardState, OrderLine, Retreating

Given = Mapping[str, Sequence[str]]  # seat -> canonical order texts for this board


def _orders(given: Given, seats: Sequence[str]) -> list[tuple[str, Order]]:
    b = boards.board()
    return [(seat, read_order(text, b)) for seat in seats for text in given.get(seat, ())]


def _lines(outcomes: Sequence[Outcome]) -> list[OrderLine]:
    return [
        OrderLine(seat=o.power, text=o.order, result=o.result, reason=o.reason) for o in outcomes
    ]


def movement(state: BoardState, given: Given, seats: Sequence[str]) -> BoardRecord:
    """Adjudicate; dislodged units wait in ``state.dislodged`` (none when they cannot
    retreat anywhere: they are disbanded at once, nobody having anything to decide)."""
    b = boards.board()
    result = adjudicate_movement(b, boards.units_of(state), _orders(given, seats), RULES)
    boards.store_units(state, result.units, seats)
    state.dislodged = [
        Retreating(
            seat=d.unit.power,
            unit=boards.unit_token(d.unit),
            attacker=b.names[d.attacker_from],
            by_convoy=d.by_convoy,
            options=[b.names[loc] for loc in d.retreats],
        )
        for d in result.dislodged
    ]
    record = BoardRecord(name=state.name, orders=_lines(result.outcomes), dislodged=state.dislodged)
    state.dislodged = [d for d in state.dislodged if d.options]
    return record


def retreats(state: BoardState, given: Given, seats: Sequence[str]) -> BoardRecord:
    b = boards.board()
    dislodged = [
        Dislodgement(
            unit=boards.parse_unit(d.seat, d.unit),
            attacker_from=b.loc(d.attacker),
            by_convoy=d.by_convoy,
            retreats=tuple(b.loc(x) for x in d.options),
        )
        for d in state.dislodged
    ]
    result = adjudicate_retreats(b, boards.units_of(state), dislodged, _orders(given, seats))
    boards.store_units(state, result.units, seats)
    state.dislodged = []
    return BoardRecord(name=state.name, orders=_lines(result.outcomes))


def adjustments(state: BoardState, given: Given, seats: Sequence[str]) -> BoardRecord:
    b = boards.board()
    result = adjudicate_adjustments(
        b,
        boards.units_of(state),
        boards.centre_ids(state),
        boards.homes(state),
        _orders(given, seats),
        RULES,
    )
    boards.store_units(state, result.units, seats)
    return BoardRecord(name=state.name, orders=_lines(result.outcomes))


def needs_adjustment(state: BoardState, seat: str) -> bool:
    """HL-11: a build is possible or a removal is due (phase skipped otherwise)."""
    balance = boards.balance(state, seat)
    return balance < 0 or (balance > 0 and bool(boards.free_sites(state, seat)))


def wiped_out(state: BoardState, seat: str) -> bool:
    """HL-12: no units and no centres left."""
    return not state.units.get(seat) and not boards.owned(state, seat)
