"""Plays, hands and what a player may do, in words (German and English).

``move_text`` is the normalised form of a play used in acknowledgements and reports; it is
itself valid order syntax. ``legal_text`` groups the legal plays the way a player thinks
of them (which cards, which targets), for the turn notice and for rejections.
"""

from __future__ import annotations

from collections.abc import Sequence

from gm_daemon.games.hornberg import cards, dd, kq, rules
from gm_daemon.games.hornberg.dd import ROW_NAMES
from gm_daemon.games.hornberg.flow import lasting
from gm_daemon.games.hornberg.model import State
from gm_daemon.games.hornberg.nmr import autoplay
from gm_daemon.games.hornberg.play import Move, Orders
from gm_daemon.games.hornberg.tables import line_name
from gm_daemon.games.hornberg.texts import say
from gm_daemon.games.hornberg.window import window
from gm_daemon.games.kit.layout import fold

_EN_DIRECTIONS = {"NO": "NE", "O": "E", "SO": "SE"}


def direction(code: str, lang: str) -> str:
    return _EN_DIRECTIONS.get(code, code) if lang == "en" else code


def near_text(near: Sequence[str] | None, lang: str) -> str:
    """``["W", "ro3"]`` → "W von ro3" / "W of ro3"."""
    if not near:
        return ""
    return f"{direction(near[0], lang)} {say(lang, 'of')} {cards.shown(near[1], lang)}"


def line_word(kind: str, lang: str) -> str:
    """ "zeile" → "Zeile" / "row", "spalte" → "Spalte" / "column"."""
    if kind == "zeile":
        return say(lang, "grid_row")
    return say(lang, "grid_column")


def hand_text(state: State, seat: str, lang: str) -> str:
    hand = cards.sorted_hand(state.hands.get(seat, []), state.options.colours)
    return say(lang, "your_hand") + f" ({len(hand)}): " + (cards.shown_all(hand, lang) or "–")


# --- one play ----------------------------------------------------------------------------
def move_text(state: State, move: Move, lang: str) -> str:
    kind = cards.kind(move.card)
    value = cards.value(move.card)
    if kind == "beer":
        return say(lang, "beer_on", value=value, cannon=cards.shown(move.on or "", lang))
    if kind == "duke":
        return _duke_text(state, move, value, lang)
    return _cannon_text(state, move, lang)


def _cannon_text(state: State, move: Move, lang: str) -> str:
    word = f"{say(lang, 'cannon')} {cards.shown(move.card, lang)}"
    if move.row is not None:
        return f"{word} " + say(lang, "to_row") + ROW_NAMES[move.row]
    if move.toward is not None and move.anchor is not None:
        return f"{word} {near_text([move.toward, move.anchor], lang)}"
    if move.cell is None or not state.table.cells:
        return word
    label = window(state.table).label(move.cell)
    return f"{word} {say(lang, 'at')} {label}"


def _duke_text(state: State, move: Move, value: int, lang: str) -> str:
    word = say(lang, "duke")
    if move.row is not None:
        verb = say(lang, "shortens") if move.shorten else say(lang, "extends")
        return f"{word} {value} {verb} {say(lang, 'row')} {ROW_NAMES[move.row]}"
    text = f"{word} {value} {say(lang, 'on')} {cards.shown(move.on or '', lang)}"
    return text + (" " + line_word(move.line, lang) if move.line else "")


def orders_text(state: State, orders: Orders, lang: str) -> str:
    """The orders as the player may read them back (acknowledgement, the daemon's NMR list).
    Read orders always hold a play, so orders without one are the NMR default of
    ``nmr_policy = "skip"``: the turn passes. A K&Q cell is named by its neighbour: the NMR
    list stands in the result mail, under a new print whose labels differ."""
    if not orders.moves:
        return say(lang, "turn_passes")
    orders = orders.model_copy(update={"moves": [lasting(state, m) for m in orders.moves]})
    if orders.plan != "none":
        head = say(lang, "standing_plan_head") if orders.plan == "standing" else "PLAN:"
        return "\n".join(
            [head, *(f"{i}. {move_text(state, m, lang)}" for i, m in enumerate(orders.moves, 1))]
        )
    return move_text(state, orders.moves[0], lang)


def example_orders(state: State, seat: str, lang: str) -> str:
    """What this seat could send now: on turn, the play the NMR rule would make (it is always
    legal); otherwise a one-line PLAN with a card of his hand in a form that outlives the
    turn (no cell labels). "" for a seat that may not write (out, game over, plans off)."""
    if state.finished or seat in state.out or not state.hands.get(seat):
        return ""
    if seat == state.to_move:
        move = autoplay(state, seat)
        return move_text(state, move, lang) if move else ""
    if not state.options.plans:
        return ""
    moves = [lasting(state, m) for m in rules.legal_moves(state, seat)]
    move = moves[0] if moves else _waiting_play(state, seat)
    return "PLAN: " + move_text(state, move, lang) if move else ""


def _waiting_play(state: State, seat: str) -> Move | None:
    """A plan for a hand with no play legal now (a full grid): the first card that can be
    written at all; the plan waits for a table on which it is legal."""
    cannons = [s.cannon for r in state.table.rows for s in r.stacks]
    cannons += [c.cannon for c in sorted(state.table.cells, key=lambda c: kq.reading_order(c.xy))]
    anchor = cannons[0] if cannons else None
    for card in cards.sorted_hand(state.hands[seat], state.options.colours):
        kind = cards.kind(card)
        if state.variant == "dd" and kind != "beer":
            return Move(card=card, row=0)
        if kind == "cannon":
            return Move(card=card, toward="O", anchor=anchor) if anchor else Move(card=card)
        if anchor is not None:
            return Move(card=card, on=anchor)
    return None


# --- what a player may do ------------------------------------------------------------------
def legal_text(state: State, seat: str, lang: str) -> str:
    """The legal plays grouped by card kind, with one ready-to-send example."""
    moves = rules.legal_moves(state, seat)
    if not moves:
        return say(lang, "no_legal_play")
    lines = (
        _dd_groups(state, moves, lang) if state.variant == "dd" else _kq_groups(state, moves, lang)
    )
    example = autoplay(state, seat)
    if example is not None:
        lines.append(say(lang, "example") + move_text(state, example, lang))
    return "\n".join(fold(line) for line in lines)


def _cards_of(state: State, moves: list[Move], kind: str) -> list[str]:
    """The distinct cards of one kind among the moves, listed in hand order."""
    found = {m.card for m in moves if cards.kind(m.card) == kind}
    return cards.sorted_hand(found, state.options.colours)


def _targets(moves: list[Move], card: str, attr: str) -> list[str]:
    seen: list[str] = []
    for m in moves:
        value = getattr(m, attr)
        if m.card == card and value is not None and str(value) not in seen:
            seen.append(str(value))
    return seen


def _dd_groups(state: State, moves: list[Move], lang: str) -> list[str]:
    lines = []
    cannons = _cards_of(state, moves, "cannon")
    if cannons:
        rows = [ROW_NAMES[int(r)] for r in _targets(moves, cannons[0], "row")]
        word = say(lang, "cannon_heading")
        shown = cards.shown_all(cannons, lang, ", ")
        lines.append(f"  {word} {shown} → {say(lang, 'row')} " + ", ".join(rows))
    beers = _cards_of(state, moves, "beer")
    if beers:
        free = [cards.shown(c, lang) for c in dd.free_cannons(state.table)]
        lines.append(
            f"  {say(lang, 'beer_heading')} {', '.join(beers)} → "
            f"{say(lang, 'on')} {', '.join(free)}"
        )
    for duke in _cards_of(state, moves, "duke"):
        lines.append(_dd_duke_line(moves, duke, lang))
    return lines


def _dd_duke_line(moves: list[Move], duke: str, lang: str) -> str:
    longer = [
        ROW_NAMES[m.row] for m in moves if m.card == duke and not m.shorten and m.row is not None
    ]
    shorter = [
        ROW_NAMES[m.row] for m in moves if m.card == duke and m.shorten and m.row is not None
    ]
    text = f"  {say(lang, 'duke_heading')} {duke} → {say(lang, 'extends')} "
    text += ", ".join(longer)
    if shorter:
        text += f"; {say(lang, 'shortens')} " + ", ".join(shorter)
    return text


def _kq_groups(state: State, moves: list[Move], lang: str) -> list[str]:
    lines = []
    cannons = _cards_of(state, moves, "cannon")
    if cannons:
        lines.append(
            f"  {say(lang, 'cannon_heading')} {cards.shown_all(cannons, lang, ', ')} → "
            + _cells_text(state, lang)
        )
    beers = _cards_of(state, moves, "beer")
    if beers:
        free = [cards.shown(c, lang) for c in _targets(moves, beers[0], "on")]
        lines.append(
            f"  {say(lang, 'beer_heading')} {', '.join(beers)} → "
            f"{say(lang, 'on')} {', '.join(free)}"
        )
    dukes = _cards_of(state, moves, "duke")
    if dukes:
        lines.append(
            f"  {say(lang, 'duke_heading')} {', '.join(dukes)} → "
            f"{say(lang, 'on')} " + _finish_text(state, lang)
        )
    return lines


def _cells_text(state: State, lang: str) -> str:
    if not state.table.cells:
        return say(lang, "anywhere")
    win = window(state.table)
    labels = [win.label(xy) for xy in kq.legal_cells(state.table)]
    return say(lang, "cells", count=len(labels), labels=", ".join(labels))


def _finish_text(state: State, lang: str) -> str:
    """Each free cannon that finishes a line, with the line(s); two lines ask for a choice."""
    win = window(state.table)
    by_cannon: dict[str, list[str]] = {}
    for line in kq.finishable(state.table):
        name = line_name(win, line.kind, line.index, lang)
        by_cannon.setdefault(cards.shown(line.free[0].cannon, lang), []).append(name)
    parts = []
    for cannon, names in by_cannon.items():
        if len(names) == 1:
            parts.append(f"{cannon} ({names[0]})")
        else:
            choose = say(lang, "say_row_or_column")
            parts.append(f"{cannon} ({' / '.join(names)}: {choose})")
    return ", ".join(parts)
