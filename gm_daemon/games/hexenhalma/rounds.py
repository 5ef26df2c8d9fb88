"""A round: every pair of teams simulated once (HH-4), scores summed (HH-16).

Each team is compiled once per round in both frames, so the 19,900 pairings of a
200-player round cost only the simulations. A pairing is always simulated in the frame of
the lower seat id. Its fates go into the resolution's events (``pairing_event``), and the
result mails read them from there (``views_of``): the round is simulated once. Only
BILD/PICTURE re-runs one pairing (``view``), for its step log and paths (the fates are the
same in either frame, see tests/hexenhalma/test_symmetry.py).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from gm_daemon.games.hexenhalma.board import Board, parse_board
from gm_daemon.games.hexenhalma.model import (
    Orders,
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
) -> tuple[RoundRecord, dict[str, Totals], list[dict[str, Any]]]:
    """The record of the current round, each seat's figures in it and one event per
    pairing (its score and fates, see ``pairing_event``)."""
    board = state.board()
    if board is None:
        raise ValueError(f"round {state.round} has no board yet")
    fielded = {
        seat: Orders() if seat in defaulted else orders.get(seat, Orders())
        for seat in state.playing()
    }
    teams = {seat: compile_team(board, seat, o) for seat, o in fielded.items()}
    pairings: list[dict[str, Any]] = []
    lots: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    for a, b in seat_order(list(fielded)):
        outcome = play(board, teams[a][0], teams[b][1], LotKey(state.lot_seed, state.round, a, b))
        score_a, score_b = outcome.arrivals
        pairings.append({"a": a, "b": b, "score_a": score_a, "score_b": score_b})
        events.append(pairing_event(a, b, outcome))
        lots += [_lot(a, b, *drawn) for drawn in outcome.lots]
    record = RoundRecord(
        round=state.round,
        board=state.boards[state.round - 1],
        orders=fielded,
        defaulted=sorted(defaulted),
        pairings=pairings,  # as dicts: validated at once, quicker than 19,900 models made
        lots=lots,  # the same
    )
    return record, figures(record), events


def pairing_event(a: str, b: str, outcome: Outcome) -> dict[str, Any]:
    """A pairing as the phase record keeps it: seats, score and every witch's fate, so that
    the result mails (also those rendered again by ``gm-daemon show`` and the site) need no
    second simulation. ``fates`` holds team ``a``'s witches, then ``b``'s, each as
    ``[number, kind, cell, step, notes]`` with ``notes`` a list of ``[what, cell, step]``;
    cells are indexes of the padded grid (``board.py``) in ``a``'s frame, the frame of the
    simulation, since a witch running off the board ends on a cell no field name names."""
    return {
        "event": "pairing",
        "a": a,
        "b": b,
        "score_a": outcome.arrivals[0],
        "score_b": outcome.arrivals[1],
        "fates": tuple(tuple((n, *f) for n, f in side.items()) for side in outcome.fates),
    }


def _lot(
    a: str, b: str, t: int, field: str, winner: Caster, casters: tuple[Caster, ...]
) -> dict[str, Any]:
    """A ``Lot`` as the data the round record validates (at once with all the others)."""

    def cast(caster: Caster) -> dict[str, Any]:
        team, number, spell = caster
        return {"seat": (a, b)[team], "witch": number, "spell": SPELL_LETTERS.get(spell, "?")}

    return {"a": a, "b": b, "step": t, "field": field, "winner": cast(winner),
            "casters": list(map(cast, casters))}  # fmt: skip


def figures(record: RoundRecord) -> dict[str, Totals]:
    """Arrivals, conceded, won, drawn and lost pairings per seat (counted in plain ints:
    19,900 pairings would make 80,000 models on the way)."""
    counts = {seat: [0, 0, 0, 0, 0] for seat in record.orders}
    for p in record.pairings:
        for me, mine, theirs in ((p.a, p.score_a, p.score_b), (p.b, p.score_b, p.score_a)):
            c = counts[me]
            c[0] += mine
            c[1] += theirs
            c[2 if mine > theirs else 3 if mine == theirs else 4] += 1
    return {
        seat: Totals(arrivals=a, conceded=c, wins=w, draws=d, losses=lost)
        for seat, (a, c, w, d, lost) in counts.items()
    }


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
    names = state.names()
    for seat in sorted(totals, key=lambda s: (tuple(-v for v in key(s)), names.get(s, s))):
        groups.setdefault(key(seat), []).append(seat)
    return list(groups.values())


@dataclass(frozen=True)
class View:
    """One pairing seen from ``me``: fates by witch number, fields in my frame; the
    simulation's ``outcome`` (step log, paths) only where it was re-run for a picture."""

    board: Board
    me: str
    other: str
    mine: dict[int, Fate]
    theirs: dict[int, Fate]
    outcome: Outcome | None = None

    @property
    def traced(self) -> Outcome:
        """The re-run simulation with its log and paths (``view(..., trace=True)``)."""
        if self.outcome is None:
            raise ValueError(f"the pairing {self.me}-{self.other} was not simulated again")
        return self.outcome


def view(record: RoundRecord, lot_seed: str, me: str, other: str, trace: bool = False) -> View:
    """Re-simulate one pairing of a stored round in ``me``'s frame."""
    board = parse_board(record.board)
    mine = compile_team(board, me, record.orders.get(me, Orders()))[0]
    theirs = compile_team(board, other, record.orders.get(other, Orders()))[1]
    low, high = sorted((me, other))
    outcome = play(board, mine, theirs, LotKey(lot_seed, record.round, low, high), trace=trace)
    return View(board, me, other, outcome.fates[0], outcome.fates[1], outcome)


# One team's fates in a ``pairing`` event, as ``pairing_event`` writes them (hashable).
FateRow = tuple[int, str, int, int, tuple[tuple[str, int, int], ...]]


# A named tuple made by tuple.__new__, without its Python __new__: 40,000 a round of 200.
_new_tuple = tuple.__new__


class Side(NamedTuple):
    """One pairing as ``me`` reads it, straight from its event: the other seat, both
    scores, both teams' fates as the event holds them (in the simulation's frame), and
    whether they must be turned into ``me``'s frame (``me`` is the event's ``b``)."""

    other: str
    score_mine: int
    score_theirs: int
    mine: tuple[FateRow, ...]
    theirs: tuple[FateRow, ...]
    turned: bool


class Played:
    """A round's ``pairing`` events (``pairing_event``) by seat: a result rendered in one
    language writes the pairings of that language's readers only, each read as the event
    holds it (``sides``; ``views`` turns them into ``View``s). Nothing is simulated again."""

    def __init__(self, record: RoundRecord, events: Sequence[Mapping[str, Any]]):
        self.board = parse_board(record.board)
        self.seats = list(record.orders)
        self.events = events
        self._sides: dict[str, list[Side]] | None = None
        self._events_of: dict[str, list[Mapping[str, Any]]] | None = None

    def sides(self, seat: str) -> list[Side]:
        """``seat``'s pairings in the order of the events, as ``Side``s (all seats' made at
        the first call: one pass over the round)."""
        if self._sides is None:
            self._sides = {seat: [] for seat in self.seats}
            new, sides = _new_tuple, self._sides
            for event in self.events:
                if event.get("event") == "pairing" and "fates" in event:
                    a, b, score_a, score_b = (
                        event["a"],
                        event["b"],
                        event["score_a"],
                        event["score_b"],
                    )
                    fa, fb = _hashable(event["fates"])
                    sides[a].append(new(Side, (b, score_a, score_b, fa, fb, False)))
                    sides[b].append(new(Side, (a, score_b, score_a, fb, fa, True)))
        return self._sides.get(seat, [])

    def views(self, seat: str) -> list[View]:
        if self._events_of is None:
            self._events_of = {seat: [] for seat in self.seats}
            for event in self.events:
                if event.get("event") == "pairing":
                    self._events_of[event["a"]].append(event)
                    self._events_of[event["b"]].append(event)
        board, result = self.board, []
        for event in self._events_of.get(seat, []):
            mine, theirs = event["fates"]
            if event["a"] == seat:
                result.append(
                    View(board, seat, event["b"], _fates(board, mine), _fates(board, theirs))
                )
            else:  # the simulation ran in a's frame: turned round for b
                turned = board.rot
                result.append(
                    View(
                        board,
                        seat,
                        event["a"],
                        _fates(board, theirs, turned),
                        _fates(board, mine, turned),
                    )
                )
        return result


def views_of(record: RoundRecord, events: Sequence[Mapping[str, Any]]) -> dict[str, list[View]]:
    """Every seat's pairings of a round from its events (``Played``), all at once."""
    played = Played(record, events)
    return {seat: played.views(seat) for seat in record.orders}


def has_fates(events: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a round's events carry the fates: a record written before they did has
    only the scores, and its mails (``gm-daemon show``) are rendered by ``all_views``."""
    return all("fates" in e for e in events if e.get("event") == "pairing")


def _hashable(fates: Any) -> tuple[tuple[FateRow, ...], tuple[FateRow, ...]]:
    """The fates of an event as tuples: as ``pairing_event`` made them, or read back from
    the phase record's JSON (lists)."""
    if isinstance(fates, tuple):
        return fates  # type: ignore[return-value]
    a, b = (
        tuple((n, kind, cell, t, tuple(map(tuple, notes))) for n, kind, cell, t, notes in side)
        for side in fates
    )
    return a, b  # type: ignore[return-value]


def _same(cell: int) -> int:
    return cell


def _fates(
    board: Board, side: Sequence[Sequence[Any]], turn: Callable[[int], int] = _same
) -> dict[int, Fate]:
    """One team's fates of a ``pairing`` event, fields turned by ``turn`` (``board.rot``
    for the player whose frame the simulation did not run in)."""
    return {
        number: Fate(kind, turn(cell), t, tuple((what, turn(c), s) for what, c, s in notes))
        for number, kind, cell, t, notes in side
    }


def all_views(record: RoundRecord, lot_seed: str) -> dict[str, list[View]]:
    """Every seat's pairings of a stored round, each simulated once (in the lower id's
    frame) and turned round for the other player: for the records of rounds resolved
    before the events carried the fates (``has_fates``), never for a new round."""
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
