"""The table as monospace text (§6.3): D&D duke rows with their lengths, the K&Q window with
legal cells marked and finishable lines listed, kegs, dukes, collected piles, pile size.

Nothing here shows a hand: only hand sizes. Hands are printed by ``describe.hand_text``
into the private part of a mail.
"""

from __future__ import annotations

from gm_daemon.games.hornberg import cards, kq
from gm_daemon.games.hornberg.dd import ROW_NAMES, stack_text
from gm_daemon.games.hornberg.kq import XY
from gm_daemon.games.hornberg.model import Cell, Row, State
from gm_daemon.games.hornberg.texts import say
from gm_daemon.games.hornberg.window import Window, window
from gm_daemon.games.kit import layout
from gm_daemon.games.kit.layout import fold

CELL_WIDTH = 5
GAP = "  "
STACKS_PER_LINE = 8


def table_text(state: State, lang: str) -> str:
    parts = [_header(state, lang), _kegs_line(state, lang)]
    if state.variant == "dd":
        parts += _dd_rows(state, lang)
    else:
        parts += _kq_extras(state, lang)
        parts.append(kq_grid_text(state, lang))
        parts += _kq_lines(state, lang)
    return "\n".join(p for p in parts if p) + "\n"


def _header(state: State, lang: str) -> str:
    pile = say(lang, "pile")
    hands = say(lang, "cards_in_hand")
    if state.finished or state.to_move is None:
        head = say(lang, "table_heading_over", round=state.round)
    else:
        mover = state.name(state.to_move)
        head = say(lang, "table_heading", round=state.round, turn=state.turn, mover=mover)
    sizes = [f"{state.name(s)} {len(state.hands[s])}" for s in state.seat_ids]
    return "\n".join([head, *by_player(f"{hands}: ", sizes, f"  ({pile} {len(state.pile)})")])


def by_player(prefix: str, items: list[str], suffix: str = "") -> list[str]:
    """ "Punkte: Anna 3 · Bert 5": one line while it fits in a mail's width, else broken
    between players (with five long names it did not fit), never inside one's entry."""
    line = prefix + " · ".join(items) + suffix
    if len(line) <= layout.WIDTH or not items:
        return [line]
    return layout.flow([f"{item} ·" for item in items[:-1]] + [items[-1] + suffix], prefix)


def _kegs_line(state: State, lang: str) -> str:
    held: dict[str, list[str]] = {}
    for colour in state.options.colours:
        holder = state.table.kegs.get(colour)
        if holder:
            held.setdefault(holder, []).append(cards.colour_shown(colour, lang))
    owners = [f"{state.name(s)} {','.join(held[s])}" for s in state.seat_ids if s in held]
    free = [cards.colour_shown(c, lang) for c in state.options.colours if c not in state.table.kegs]
    free_text = say(lang, "still_free") + ",".join(free) + ")" if free else ""
    if not owners:
        return say(lang, "kegs") + "–" + free_text
    return "\n".join(by_player(say(lang, "kegs"), owners, free_text))


# --- Drunter & Drüber ------------------------------------------------------------------
def _dd_rows(state: State, lang: str) -> list[str]:
    lines = []
    for index, row in enumerate(state.table.rows):
        lines.append(_dd_row_head(ROW_NAMES[index], row, lang))
        lines += _dd_row_cards(row, lang)
    return lines


def _dd_row_head(name: str, row: Row, lang: str) -> str:
    dukes = f"H{row.base}" + "".join(f" +{v}" for v in row.extenders)
    dukes += "".join(f" −{v}" for v in row.shorteners)
    count = len(row.stacks)
    if row.complete:
        status = say(lang, "row_complete")
    else:
        status = say(lang, "open", free=row.length - count)
    word = say(lang, "row_heading")
    length = say(lang, "length")
    cannons = say(lang, "cannons", count=count)
    return f"  {word} {name:<4}{dukes:<12} {length} {row.length:>2}, {cannons}, {status}"


def _dd_row_cards(row: Row, lang: str) -> list[str]:
    shown = [cards.shown(stack_text(s.cannon, s.beer), lang) for s in row.stacks]
    shown += ["[ ]"] * max(0, row.length - len(row.stacks))
    if not shown:
        return []
    chunks = [shown[i : i + STACKS_PER_LINE] for i in range(0, len(shown), STACKS_PER_LINE)]
    return ["        " + GAP.join(f"{s:<{CELL_WIDTH}}" for s in chunk).rstrip() for chunk in chunks]


# --- Kreuz & Quer ----------------------------------------------------------------------
def _kq_extras(state: State, lang: str) -> list[str]:
    table = state.table
    dukes = [
        f"{state.name(s)} {' '.join(table.dukes[s])}" for s in state.seat_ids if table.dukes.get(s)
    ]
    total, limit = kq.duke_sum(table), state.options.kq_end_duke_sum
    summed = say(lang, "sum", total=total, limit=limit)
    head = say(lang, "dukes_face_up")
    lines = by_player(head, dukes, summed) if dukes else [head + "–" + summed]
    won = [
        f"{state.name(s)} {sum(cards.value(c) for c in table.collected[s])} "
        f"({cards.shown_all(table.collected[s], lang)})"
        for s in state.seat_ids
        if table.collected.get(s)
    ]
    if won:  # each player's pile stays on one line: a fold never splits its parentheses
        items = [f"{item} ·" for item in won[:-1]] + won[-1:]
        lines += layout.flow(items, prefix=say(lang, "collected_heading"))
    return lines


def kq_grid_text(state: State, lang: str) -> str:
    table = state.table
    if not table.cells:
        return say(lang, "empty_table")
    win = window(table)
    occupied = kq.grid(table)
    legal = set(kq.legal_cells(table))
    numbers = "".join(f"{i + 1:^{CELL_WIDTH}}{GAP}" for i in range(win.width))
    lines = ["      " + numbers.rstrip()]
    for j, row in enumerate(win.cells()):
        shown = [_cell_text(xy, occupied, legal, lang) for xy in row]
        lines.append(f"  {chr(ord('A') + j)}   " + GAP.join(shown).rstrip())
    lines.append(say(lang, "kq_legend"))
    return "\n".join(lines)


def _cell_text(xy: XY, occupied: dict[XY, Cell], legal: set[XY], lang: str) -> str:
    if xy in occupied:
        cell = occupied[xy]
        return f"{cards.shown(stack_text(cell.cannon, cell.beer), lang):<{CELL_WIDTH}}"
    return "[   ]" if xy in legal else f"{'.':^{CELL_WIDTH}}"


def line_name(win: Window, kind: str, index: int, lang: str) -> str:
    if kind == "zeile":
        return say(lang, "grid_row_label") + win.row_label(index)
    return say(lang, "grid_column_label") + win.column_label(index)


def _kq_lines(state: State, lang: str) -> list[str]:
    win = window(state.table)
    on = say(lang, "on")
    finishable = [
        f"{line_name(win, ln.kind, ln.index, lang)} ({on} {cards.shown(ln.free[0].cannon, lang)})"
        for ln in sorted(kq.finishable(state.table), key=lambda ln: (ln.kind != "zeile", ln.index))
    ]
    blocked = [line_name(win, ln.kind, ln.index, lang) for ln in kq.blocked(state.table)]
    lines = [say(lang, "finishable") + (", ".join(finishable) or "–")]
    if blocked:
        lines.append(say(lang, "blocked") + ", ".join(blocked))
    return [fold(line) for line in lines]
