"""The deterministic auto-play for a missed turn (§6.4).

The rules allow no pass, and a skipped turn would let an absent player stall the table, so
the GM plays for him: (1) the lowest cannon, else (2) the lowest beer, else (3) the lowest
duke; lowest value first, ties by the game's colour order; cells and cannons in reading order.
Whenever the player can play at all one of the steps finds a legal play: in D&D any duke may
extend, and in K&Q each kind of card has exactly one kind of target.
"""

from __future__ import annotations

from gm_daemon.games.hornberg import cards, dd, kq
from gm_daemon.games.hornberg.cards import CardKind
from gm_daemon.games.hornberg.model import State
from gm_daemon.games.hornberg.play import Move

_ORDER: tuple[CardKind, ...] = ("cannon", "beer", "duke")


def autoplay(state: State, seat: str) -> Move | None:
    hand = state.hands.get(seat, [])
    target = _dd_target if state.variant == "dd" else _kq_target
    for kind in _ORDER:
        code = cards.lowest((c for c in hand if cards.kind(c) == kind), state.options.colours)
        move = target(state, kind, code) if code else None
        if move is not None:
            return move
    return None


def _dd_target(state: State, kind: CardKind, code: str) -> Move | None:
    """Cannon: the first row (I→III) with room. Beer: the first free cannon (I→III, left to
    right). Duke: extending the first incomplete row."""
    rows = state.table.rows
    if kind == "cannon":
        open_rows = [i for i, r in enumerate(rows) if len(r.stacks) < r.length]
        return Move(card=code, row=open_rows[0]) if open_rows else None
    if kind == "beer":
        free = dd.free_cannons(state.table)
        return Move(card=code, on=free[0]) if free else None
    incomplete = [i for i, r in enumerate(rows) if not r.complete]
    if not incomplete or not dd.has_cannon(state.table):
        return None
    return Move(card=code, row=incomplete[0])


def _kq_target(state: State, kind: CardKind, code: str) -> Move | None:
    """Cannon: the first legal cell. Beer: the first free cannon. Duke: the first finishable
    line, by its free cannon's reading position, Zeile before Spalte."""
    table = state.table
    if kind == "cannon":
        cells = kq.legal_cells(table)
        return Move(card=code, cell=cells[0]) if cells else None
    if kind == "beer":
        free = [c for c in sorted(table.cells, key=lambda c: kq.reading_order(c.xy)) if not c.beer]
        return Move(card=code, on=free[0].cannon) if free else None
    lines = kq.finishable(table)
    if not lines:
        return None
    return Move(card=code, on=lines[0].free[0].cannon, line=lines[0].kind)
