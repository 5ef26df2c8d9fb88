"""One board between the stored JSON and the adjudicator: units, centres, counts.

The adjudicator works on ints and "powers"; here the powers are the seat ids, and the rules
are Highlander's: the 2000 rulebook with the DATC v2.4 preferences (HL-1, A-14), builds in any
owned empty centre (HL-11) and civil disorder measured to the starting centres through any
province, ties by abbreviation (HL-13, A-9, A-11).
"""

from __future__ import annotations

from collections.abc import Iterable

from gm_daemon.diplomacy import Board, Rules, Unit, standard_board, unit_text
from gm_daemon.games.highlander.model import BoardState

RULES = Rules(
    rulebook="2000",
    build_anywhere=True,
    disorder_distance_to="homes",
    disorder_paths="any",
    disorder_tiebreak="abbr",
)


def board() -> Board:
    return standard_board()


def centres() -> list[str]:
    """The 34 supply centres, alphabetical."""
    b = board()
    return sorted(b.names[p] for p in b.supply_centers)


def parse_unit(seat: str, text: str) -> Unit:
    """``"F STP/SC"`` of a seat as the adjudicator's unit (the text is a stored token)."""
    kind, loc = text.split()
    return Unit(seat, kind, board().loc(loc))


def unit_token(unit: Unit) -> str:
    return unit_text(board(), unit)


def units_of(state: BoardState) -> list[Unit]:
    return [parse_unit(seat, u) for seat, units in state.units.items() for u in units]


def store_units(state: BoardState, units: Iterable[Unit], seats: Iterable[str]) -> None:
    """Write units back, every seat listed (an empty list for a seat without units)."""
    by_seat: dict[str, list[str]] = {seat: [] for seat in seats}
    for u in units:
        by_seat.setdefault(u.power, []).append(unit_token(u))
    state.units = {seat: sorted(found, key=_province_key) for seat, found in by_seat.items()}


def _province_key(unit: str) -> str:
    return unit.split()[1]


def province(token: str) -> str:
    """``"STP/SC"`` -> ``"STP"``; ``"A STP"`` -> ``"STP"``."""
    return token.split()[-1].split("/")[0]


def occupant(state: BoardState, centre: str) -> str | None:
    for seat, units in state.units.items():
        if any(province(u) == centre for u in units):
            return seat
    return None


def owned(state: BoardState, seat: str) -> list[str]:
    return sorted(c for c, s in state.owners.items() if s == seat)


def neutral(state: BoardState) -> list[str]:
    return [c for c in centres() if c not in state.owners]


def centre_update(state: BoardState) -> list[tuple[str, str | None, str]]:
    """HL-10: an occupied centre becomes its occupant's; returns (centre, old, new)."""
    changes = []
    for centre in centres():
        seat = occupant(state, centre)
        if seat is not None and state.owners.get(centre) != seat:
            changes.append((centre, state.owners.get(centre), seat))
            state.owners[centre] = seat
    return changes


def balance(state: BoardState, seat: str) -> int:
    """Centres minus units: builds when positive, removals when negative (HL-11)."""
    return len(owned(state, seat)) - len(state.units.get(seat, []))


def homes(state: BoardState) -> dict[str, list[int]]:
    """The starting centres as the adjudicator's civil-disorder targets (A-9)."""
    b = board()
    return {seat: [b.loc(c) for c in found] for seat, found in state.starting.items()}


def centre_ids(state: BoardState) -> dict[str, list[int]]:
    b = board()
    result: dict[str, list[int]] = {}
    for centre, seat in state.owners.items():
        result.setdefault(seat, []).append(b.loc(centre))
    return result


def free_sites(state: BoardState, seat: str) -> list[str]:
    """Owned centres without a unit: where ``seat`` may build (HL-11, A-8)."""
    return [c for c in owned(state, seat) if occupant(state, c) is None]


def swapped(state: BoardState, seats: list[str], name: str) -> BoardState:
    """HL-15: the same board with every centre and unit owner swapped."""
    other = {seats[0]: seats[1], seats[1]: seats[0]}
    return BoardState(
        name=name,
        owners={c: other[s] for c, s in state.owners.items()},
        units={other[s]: list(u) for s, u in state.units.items()},
        starting={other[s]: list(c) for s, c in state.starting.items()},
    )
