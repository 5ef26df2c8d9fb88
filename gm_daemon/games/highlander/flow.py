"""One resolution: the current step's orders in, the next step that has something to decide
out (HL-9). Steps nobody has anything to decide in (retreats without a dislodged unit that
can retreat, adjustments without a build or removal) are passed through inside this call,
so the daemon never sees a phase with nobody owing orders.

The set-up's NMR policy (A-11): a missing ballot or placement list gets one grace phase
(same step, ``State.grace``); the list handed in on time is kept (``Resolution.carried``
and ``State.sealed``). After the grace, a missing ballot forfeits the game (or match);
a missing placement is filled with armies (A-5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gm_daemon.games.highlander import boards, decide, setup, year
from gm_daemon.games.highlander.model import (
    FIRST_YEAR,
    BoardRecord,
    BoardState,
    Orders,
    Record,
    Result,
    State,
)


@dataclass
class Step:
    state: State
    carried: dict[str, Orders] = field(default_factory=dict)


def start(state: State) -> State:
    """The first step: the ballot, or the fixed set-up's first movement (HL-7)."""
    if state.options.opt_3B and state.options.fixed_setup:
        _fixed(state)
    return state


def resolve(state: State, orders: Mapping[str, Orders], defaulted: frozenset[str]) -> Step:
    new = state.model_copy(deep=True)
    new.phase += 1
    record = Record(step=state.step, year=state.year, ballot=state.ballot, grace=state.grace,
                    defaulted=sorted(defaulted & set(state.seats)))  # fmt: skip
    new.last = record
    step = Step(new)
    record.offers = [s for s in state.seats if s in orders and orders[s].draw]
    if state.step in ("movement", "retreats", "adjustments") and len(record.offers) == 2:
        new.result = Result(winner=None, reason="draw_agreed")
        record.events.append("draw_agreed")
    else:
        _STEPS[state.step](step, orders, defaulted)
    if new.result is not None:
        new.step = "over"
    return step


# --- set-up ------------------------------------------------------------------------------


def _given(state: State, orders: Mapping[str, Orders], defaulted: frozenset[str], attr: str):
    """Seat -> list handed in (now or sealed before the grace); seats without one."""
    lists = {}
    for seat in state.seats:
        sent = getattr(orders[seat], attr) if seat in orders and seat not in defaulted else []
        if sent or seat in state.sealed:
            lists[seat] = list(sent) or state.sealed[seat]
    return lists


def _grace(step: Step, lists: dict[str, list[str]], missing: list[str], attr: str) -> None:
    new = step.state
    new.grace = True
    new.late = missing
    new.sealed = lists
    step.carried = {seat: Orders(**{attr: found}) for seat, found in lists.items()}
    new.last.events.append("grace")  # type: ignore[union-attr]


def _end_grace(state: State) -> None:
    state.grace = False
    state.late = []
    state.sealed = {}


def _ballot(step: Step, orders: Mapping[str, Orders], defaulted: frozenset[str]) -> None:
    new = step.state
    lists = _given(new, orders, defaulted, "centres")
    missing = [s for s in new.seats if s not in lists]
    if missing and not new.grace:
        return _grace(step, lists, missing, "centres")
    _end_grace(new)
    new.last.ballots = lists  # type: ignore[union-attr]
    if missing:
        winner = None if len(missing) == 2 else new.other(missing[0])
        new.result = Result(winner=winner, reason="forfeit")
        new.last.events.append("forfeit")  # type: ignore[union-attr]
        return None
    if not setup.reballot_needed(new, lists):
        owners = setup.allocate(lists)
        starting = {s: sorted(c for c, o in owners.items() if o == s) for s in new.seats}
        new.boards = [BoardState(name="A", owners=owners, starting=starting)]
        new.step = "setup"
        return None
    new.last.events.append("reballot")  # type: ignore[union-attr]
    if not setup.next_ballot(new, lists):
        new.last.events.append("fixed_setup")  # type: ignore[union-attr]
        _fixed(new)
    return None


def _fixed(state: State) -> None:
    """HL-7 / HL-5's last resort: the GM's fixed set-up, then the first movement."""
    if not state.options.fixed_setup:
        raise ValueError(
            "the third centre ballot was identical too (HL-5): the GM must give "
            "[games.options] fixed_setup"
        )
    _first_year(state, setup.fixed_board(state.options.fixed_setup, state.seats))


def _first_year(state: State, board_a: BoardState) -> None:
    state.boards = [board_a]
    if state.options.tournament:
        state.boards.append(boards.swapped(board_a, state.seats, "B"))
    state.step = "movement"
    state.year = FIRST_YEAR


def _setup(step: Step, orders: Mapping[str, Orders], defaulted: frozenset[str]) -> None:
    new = step.state
    board = new.boards[0]
    lists = _given(new, orders, defaulted, "placement")
    owing = [s for s in new.seats if board.starting.get(s)]
    missing = [s for s in owing if s not in lists]
    if missing and not new.grace:
        return _grace(step, lists, missing, "placement")
    _end_grace(new)
    placed = {s: setup.complete(lists.get(s, []), board.starting[s]) for s in owing}
    new.last.placements = placed  # type: ignore[union-attr]
    a = BoardState(name="A", owners=board.owners, starting=board.starting,
                   units={s: placed.get(s, []) for s in new.seats})  # fmt: skip
    _first_year(new, a)
    return None


# --- the year ----------------------------------------------------------------------------


def _board_orders(orders: Mapping[str, Orders], name: str) -> dict[str, list[str]]:
    return {seat: o.boards.get(name, []) for seat, o in orders.items()}


def _movement(step: Step, orders: Mapping[str, Orders], defaulted: frozenset[str]) -> None:
    new = step.state
    for board in new.boards:
        given = _board_orders(orders, board.name)
        new.last.boards.append(year.movement(board, given, new.seats))  # type: ignore[union-attr]
    if any(b.dislodged for b in new.boards):
        new.step = "retreats"
        return
    _close_movement(new)


def _retreats(step: Step, orders: Mapping[str, Orders], defaulted: frozenset[str]) -> None:
    new = step.state
    for board in new.boards:
        if board.dislodged:
            given = _board_orders(orders, board.name)
            record = year.retreats(board, given, new.seats)
        else:
            record = BoardRecord(name=board.name)
        new.last.boards.append(record)  # type: ignore[union-attr]
    _close_movement(new)


def _close_movement(state: State) -> None:
    """HL-10 centre update, then HL-12 / HL-17 / HL-18; adjustments when any are due."""
    record = state.last
    assert record is not None
    for board in state.boards:
        changes = boards.centre_update(board)
        _record_of(record, board.name).changes = changes
    record.events += decide.check(state, after_movement=True)
    if state.result is not None:
        return
    if any(year.needs_adjustment(b, s) for b in state.boards for s in state.seats):
        state.step = "adjustments"
        return
    _end_of_year(state)


def _record_of(record: Record, name: str) -> BoardRecord:
    for found in record.boards:
        if found.name == name:
            return found
    record.boards.append(BoardRecord(name=name))
    return record.boards[-1]


def _adjustments(step: Step, orders: Mapping[str, Orders], defaulted: frozenset[str]) -> None:
    new = step.state
    for board in new.boards:
        if any(year.needs_adjustment(board, s) for s in new.seats):
            given = _board_orders(orders, board.name)
            new.last.boards.append(year.adjustments(board, given, new.seats))  # type: ignore[union-attr]
    new.last.events += decide.check(new, after_movement=False)  # type: ignore[union-attr]
    if new.result is None:
        _end_of_year(new)


def _end_of_year(state: State) -> None:
    state.last.events += decide.max_year(state)  # type: ignore[union-attr]
    if state.result is None:
        state.year += 1
        state.step = "movement"


_STEPS = {
    "ballot": _ballot,
    "setup": _setup,
    "movement": _movement,
    "retreats": _retreats,
    "adjustments": _adjustments,
}
