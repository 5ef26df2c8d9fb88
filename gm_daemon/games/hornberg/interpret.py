"""A written play → a ``Move`` for the variant being played and the table as it lies.

This is where the two games' forms part: a Drunter & Drüber cannon names a row, a Kreuz &
Quer cannon a cell (printed label), a neighbour (direction + cannon) or nothing on an empty
table. Printed labels become absolute cells here, so a stored move never depends on the
window again. Legality on the table is ``rules.refusal``'s job, not this module's.
"""

from __future__ import annotations

from gm_daemon.games.hornberg import cards, kq
from gm_daemon.games.hornberg.model import State
from gm_daemon.games.hornberg.play import Move, Refusal
from gm_daemon.games.hornberg.window import window
from gm_daemon.games.hornberg.written import CardRef, Written

_VALUES = {"cannon": cards.CANNON_VALUES, "beer": cards.BEER_VALUES, "duke": cards.DUKE_VALUES}


def card_code(state: State, ref: CardRef) -> str | Refusal:
    """The card code, or why no such card exists in this game."""
    if ref.kind == "cannon" and ref.colour not in state.options.colours:
        colours = list(state.options.colours)  # shown in the mail's language by the reader
        return Refusal("unknown_colour", {"written": ref.text, "colours": colours})
    if ref.value not in _VALUES[ref.kind]:
        return Refusal("no_such_card", {"written": ref.text, "kind": ref.kind})
    return ref.code


def to_move(state: State, written: Written) -> Move | Refusal:
    code = card_code(state, written.card)
    if isinstance(code, Refusal):
        return code
    if state.variant == "dd":
        return _dd_move(state, written, code)
    return _kq_move(state, written, code)


def _dd_move(state: State, written: Written, code: str) -> Move | Refusal:
    kind = written.card.kind
    if kind == "cannon":
        if written.form != "row":
            return Refusal("dd_cannon_form", {"card": code})
        return _with_row(written, Move(card=code))
    if kind == "beer":
        if written.on is None:
            return Refusal("dd_no_cells", {"card": code})
        on = card_code(state, written.on)
        return on if isinstance(on, Refusal) else Move(card=code, on=on)
    if written.form not in ("extend", "shorten"):
        return Refusal("dd_duke_form", {"card": code})
    return _with_row(written, Move(card=code, shorten=written.form == "shorten"))


def _with_row(written: Written, move: Move) -> Move | Refusal:
    if written.row not in (1, 2, 3):
        return Refusal("bad_row", {"row": written.row})
    return move.model_copy(update={"row": written.row - 1})


def _kq_move(state: State, written: Written, code: str) -> Move | Refusal:
    kind = written.card.kind
    if kind == "cannon":
        return _kq_cannon(state, written, code)
    if written.form != "on":  # only a duke can be written otherwise: "verlängert Reihe II"
        return Refusal("kq_duke_form", {"card": code})
    if written.cell is not None:
        on = _cannon_at_label(state, written.cell)
    else:
        assert written.on is not None
        on = card_code(state, written.on)
    if isinstance(on, Refusal):
        return on
    return Move(card=code, on=on, line=written.line if kind == "duke" else None)


def _kq_cannon(state: State, written: Written, code: str) -> Move | Refusal:
    if written.form == "cell":
        assert written.cell is not None
        xy = _cell(state, written.cell)
        return xy if isinstance(xy, Refusal) else Move(card=code, cell=xy)
    if written.form == "rel":
        assert written.anchor is not None
        anchor = card_code(state, written.anchor)
        if isinstance(anchor, Refusal):
            return anchor
        return Move(card=code, toward=written.toward, anchor=anchor)
    if written.form == "bare":
        return Move(card=code)
    return Refusal("kq_cannon_form", {"card": code})


def _cell(state: State, label: str) -> tuple[int, int] | Refusal:
    win = window(state.table)
    xy = win.cell(label)
    if xy is None:
        last = f"{chr(ord('A') + win.height - 1)}{win.width}"
        return Refusal("no_such_cell", {"label": label, "last": last, "turn": state.turn})
    return xy


def _cannon_at_label(state: State, label: str) -> str | Refusal:
    xy = _cell(state, label)
    if isinstance(xy, Refusal):
        return xy
    cell = kq.grid(state.table).get(xy)
    if cell is None:
        return Refusal("empty_cell", {"label": label})
    return cell.cannon
