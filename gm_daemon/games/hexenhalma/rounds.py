"""A round: every pair of teams simulated once (HH-4), scores summed (HH-16).

Each team is compiled once per round in both frames, so the 19,900 pairings of a
200-player round cost only the simulations. A pairing is always simulated in the frame of
the lower seat id; ``view`` re-runs one in either player's frame for the reports and the
picture (the fates are the same, see tests/hexenhalma/test_symmetry.py).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from gm_daemon.games.hexenhalma.board import Board, parse_board
from gm_daemon.games.hexenhalma.model import (
    Cast,
    Lot,
    Orders,
    Pairing,
    RoundRecord,
    State,
    Totals,
)
from gm_daemon.games.hexenhalma.simulate import (
    SPELL_LETTERS,
    Caster,
    Fate,
    LotKey,
    Outcome,
    compile_team,
    play,
    seat_order,
)


def play_round(
    state: State, orders: Mapping[str, Orders], defaulted: Collection[str]
) -> tuple[RoundRecord, dict[str, Totals]]:
    """The record of the current round and each seat's figures in it."""
    board = state.board()
    if board is None:
        raise ValueError(f"round {state.round} has no board yet")
    fielded = {
        s.id: Orders() if s.id in defaulted else orders.get(s.id, Orders()) for s in state.seats
    }
    teams = {seat: compile_team(board, seat, o) for seat, o in fielded.items()}
    pairings, lots = [], []
    for a, b in seat_order(list(fielded)):
        outcome = play(board, teams[a][0], teams[b][1], LotKey(state.lot_seed, state.round, a, b))
        pairings.append(Pairing(a=a, b=b, score_a=outcome.arrivals[0], score_b=outcome.arrivals[1]))
        lots += [_lot(a, b, *drawn) for drawn in outcome.lots]
    record = RoundRecord(
        round=state.round,
        board=state.boards[state.round - 1],
        orders=fielded,
        defaulted=sorted(defaulted),
        pairings=pairings,
        lots=lots,
    )
    return record, figures(record)


def _lot(a: str, b: str, t: int, field: str, winner: Caster, casters: tuple[Caster, ...]) -> Lot:
    def cast(caster: Caster) -> Cast:
        team, number, spell = caster
        return Cast(seat=(a, b)[team], witch=number, spell=SPELL_LETTERS.get(spell, "?"))

    return Lot(a=a, b=b, step=t, field=field, winner=cast(winner), casters=list(map(cast, casters)))


def figures(record: RoundRecord) -> dict[str, Totals]:
    """Arrivals, conceded, won, drawn and lost pairings per seat."""
    result = {seat: Totals() for seat in record.orders}
    for p in record.pairings:
        for me, mine, theirs in ((p.a, p.score_a, p.score_b), (p.b, p.score_b, p.score_a)):
            result[me] = result[me].add(
                Totals(
                    arrivals=mine,
                    conceded=theirs,
                    wins=int(mine > theirs),
                    draws=int(mine == theirs),
                    losses=int(mine < theirs),
                )
            )
    return result


def ranking(state: State) -> list[list[str]]:
    """HH-16: arrivals, then difference, then pairings won; or league points, then
    arrivals. Seats equal on every key share the place."""
    totals = state.totals()

    def key(seat: str) -> tuple[int, ...]:
        t = totals[seat]
        if state.scoring == "league":
            return (t.league, t.arrivals)
        return (t.arrivals, t.difference, t.wins)

    groups: dict[tuple[int, ...], list[str]] = {}
    for seat in sorted(totals, key=lambda s: (tuple(-v for v in key(s)), state.name(s))):
        groups.setdefault(key(seat), []).append(seat)
    return list(groups.values())


@dataclass(frozen=True)
class View:
    """One pairing seen from ``me``: fates by witch number, fields in my frame."""

    board: Board
    me: str
    other: str
    mine: dict[int, Fate]
    theirs: dict[int, Fate]
    outcome: Outcome


def view(record: RoundRecord, lot_seed: str, me: str, other: str, trace: bool = False) -> View:
    """Re-simulate one pairing of a stored round in ``me``'s frame."""
    board = parse_board(record.board)
    mine = compile_team(board, me, record.orders.get(me, Orders()))[0]
    theirs = compile_team(board, other, record.orders.get(other, Orders()))[1]
    low, high = sorted((me, other))
    outcome = play(board, mine, theirs, LotKey(lot_seed, record.round, low, high), trace=trace)
    return View(board, me, other, outcome.fates[0], outcome.fates[1], outcome)


def all_views(record: RoundRecord, lot_seed: str) -> dict[str, list[View]]:
    """Every seat's pairings of a stored round, each simulated once (in the lower id's
    frame) and turned round for the other player."""
    board = parse_board(record.board)
    teams = {seat: compile_team(board, seat, o) for seat, o in record.orders.items()}
    result: dict[str, list[View]] = {seat: [] for seat in record.orders}
    for a, b in seat_order(list(record.orders)):
        outcome = play(board, teams[a][0], teams[b][1], LotKey(lot_seed, record.round, a, b))
        fa, fb = outcome.fates
        result[a].append(View(board, a, b, fa, fb, outcome))
        result[b].append(View(board, b, a, _turned(board, fb), _turned(board, fa), outcome))
    return result


def _turned(board: Board, fates: dict[int, Fate]) -> dict[int, Fate]:
    return {number: fate.home(board, rotated=True) for number, fate in fates.items()}
