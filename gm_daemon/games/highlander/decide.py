"""Who has won: a board (HL-12), a single game, and a tournament match (HL-17 … HL-19).

Called at two points of a year: after the centre update that follows a movement phase and its
retreats, and after the adjustments (the "nothing left" loss, A-10). Each function sets
``state.result`` when the game or match is over and returns the event keys for the report.
"""

from __future__ import annotations

from collections.abc import Callable

from gm_daemon.games.highlander import boards
from gm_daemon.games.highlander.model import VICTORY, BoardState, Result, State
from gm_daemon.games.highlander.year import wiped_out


def board_winner(board: BoardState, seats: list[str]) -> tuple[str, str] | None:
    """(winner, reason key) when HL-12 decides the board: 18 centres, or the opponent has
    neither units nor centres."""
    for seat in seats:
        if len(boards.owned(board, seat)) >= VICTORY:
            return seat, "won_centres"
    for i, seat in enumerate(seats):
        if wiped_out(board, seat):
            return seats[1 - i], "won_wipeout"
    return None


def check(state: State, after_movement: bool) -> list[str]:
    """Decide the game or match at one of the two check points; the event keys."""
    if not state.options.tournament:
        found = board_winner(state.boards[0], state.seats)
        if found is not None:
            state.result = Result(winner=found[0], reason=found[1])
            state.boards[0].winner = found[0]
            return [found[1]]
        return []
    if state.sudden_death:
        return _sudden_death(state) if after_movement else []
    return _match(state)


def _match(state: State) -> list[str]:
    """HL-17 and HL-18: boards decided now; the first decision wins the match."""
    decided = {}
    for board in state.boards:
        found = board_winner(board, state.seats)
        if found is not None:
            board.winner = found[0]
            decided[board.name] = found[0]
    if not decided:
        return []
    winners = set(decided.values())
    if len(decided) == 1 or len(winners) == 1:
        return _win(state, decided[min(decided)], "match_board")
    units = _totals(state, _units)
    if units[0] != units[1]:
        return _win(state, state.seats[units.index(max(units))], "match_units")
    own = [_units(state.board(name), seat) for name, seat in sorted(decided.items())]
    if own[0] != own[1]:
        best = sorted(decided.items())[own.index(max(own))][1]
        return _win(state, best, "match_victory_board")
    state.sudden_death = True
    return ["sudden_death"]


def _sudden_death(state: State) -> list[str]:
    """HL-18 step 4 (A-12): units on both boards, then centres; the first inequality wins."""
    for count, key in ((_units, "sudden_units"), (_centres, "sudden_centres")):
        totals = _totals(state, count)
        if totals[0] != totals[1]:
            return _win(state, state.seats[totals.index(max(totals))], key)
    return ["sudden_tie"]


def max_year(state: State) -> list[str]:
    """After a year's adjustments: HL-14 (single game) and HL-19 (match)."""
    options = state.options
    if not options.tournament and options.max_year == state.year:
        state.result = Result(winner=None, reason="draw_max_year")
        return ["draw_max_year"]
    if options.tournament and options.match_max_year == state.year and not state.sudden_death:
        for count, key in ((_centres, "match_max_centres"), (_units, "match_max_units")):
            totals = _totals(state, count)
            if totals[0] != totals[1]:
                return _win(state, state.seats[totals.index(max(totals))], key)
        state.sudden_death = True
        return ["match_max_tie"]
    return []


def _win(state: State, seat: str, reason: str) -> list[str]:
    state.result = Result(winner=seat, reason=reason)
    return [reason]


def _units(board: BoardState, seat: str) -> int:
    return len(board.units.get(seat, []))


def _centres(board: BoardState, seat: str) -> int:
    return len(boards.owned(board, seat))


def _totals(state: State, count: Callable[[BoardState, str], int]) -> list[int]:
    return [sum(count(b, seat) for b in state.boards) for seat in state.seats]


def totals(state: State, what: str) -> list[int]:
    """Units or centres of each seat on all boards, in seat order (for reports)."""
    return _totals(state, _units if what == "units" else _centres)
