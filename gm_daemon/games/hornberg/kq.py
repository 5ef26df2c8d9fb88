"""Kreuz & Quer: a floating 6×3 grid of cannons; dukes finish Zeilen and Spalten.

Geometry (KQ-2, KQ-3, A-5): cells are absolute (x, y) that never move; the 6×3 frame is
only a limit on the bounding box. Lines (KQ-5, A-4) are whole grid rows and columns, gaps
included. The printed window and its labels are in ``window.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from gm_daemon.games.hornberg import cards
from gm_daemon.games.hornberg.dd import stack_text, stack_value
from gm_daemon.games.hornberg.model import Cell, ScoreItem, SeatScore, State, Table
from gm_daemon.games.hornberg.play import STEP, LineKind, Move, Refusal

WIDTH, HEIGHT = 6, 3
XY = tuple[int, int]


def grid(table: Table) -> dict[XY, Cell]:
    return {c.xy: c for c in table.cells}


def bbox(cells: list[XY]) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1) of the cells, inclusive; None for none."""
    if not cells:
        return None
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return min(xs), min(ys), max(xs), max(ys)


def reading_order(xy: XY) -> tuple[int, int]:
    return (xy[1], xy[0])


def find(table: Table, cannon: str) -> Cell | None:
    return next((c for c in table.cells if c.cannon == cannon), None)


# --- where a cannon may go -----------------------------------------------------------
def cell_refusal(table: Table, xy: XY) -> Refusal | None:
    """KQ-3: empty, 8-adjacent to a card, bounding box at most 6 wide and 3 high."""
    occupied = grid(table)
    if not occupied:
        return None
    if xy in occupied:
        return Refusal("occupied", {"cannon": occupied[xy].cannon})
    x, y = xy
    if not any((x + dx, y + dy) in occupied for dx, dy in STEP.values()):
        return Refusal("not_adjacent")
    box = bbox(list(occupied))
    assert box is not None
    if max(box[2], x) - min(box[0], x) + 1 > WIDTH:
        return Refusal("too_wide")
    if max(box[3], y) - min(box[1], y) + 1 > HEIGHT:
        return Refusal("too_high")
    return None


def legal_cells(table: Table) -> list[XY]:
    """Every cell a cannon may go to now, in reading order (top to bottom, left to right).
    On an empty table any cell is legal; (0, 0) stands for "anywhere"."""
    occupied = grid(table)
    if not occupied:
        return [(0, 0)]
    x0, y0, x1, y1 = bbox(list(occupied))  # type: ignore[misc]
    neighbours = {(x + dx, y + dy) for x, y in occupied for dx, dy in STEP.values()}
    inside = (
        (x, y)
        for x, y in neighbours - occupied.keys()
        if max(x1, x) - min(x0, x) < WIDTH and max(y1, y) - min(y0, y) < HEIGHT
    )
    return sorted(inside, key=reading_order)


def target_cell(table: Table, move: Move) -> XY | Refusal:
    """The cell a cannon move names: absolute, relative to a cannon, or none (empty table)."""
    if move.anchor is not None and move.toward is not None:
        anchor = find(table, move.anchor)
        if anchor is None:
            return Refusal("anchor_missing", {"cannon": move.anchor})
        dx, dy = STEP[move.toward]
        return (anchor.x + dx, anchor.y + dy)
    if move.cell is not None:
        return move.cell
    if not table.cells:
        return (0, 0)
    return Refusal("kq_need_cell")


# --- lines ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    kind: LineKind
    index: int  # y of a Zeile, x of a Spalte
    cells: tuple[Cell, ...]

    @property
    def free(self) -> list[Cell]:
        return [c for c in self.cells if c.beer is None]

    @property
    def finishable(self) -> bool:
        """KQ-5: a Zeile of >= 2 cannons, a Spalte of exactly 3, with exactly one free."""
        needed = len(self.cells) >= 2 if self.kind == "zeile" else len(self.cells) == HEIGHT
        return needed and len(self.free) == 1

    @property
    def blocked(self) -> bool:
        """KQ-7: long enough to finish, but every cannon covered."""
        needed = len(self.cells) >= 2 if self.kind == "zeile" else len(self.cells) == HEIGHT
        return needed and not self.free


def lines(table: Table) -> list[Line]:
    zeilen: dict[int, list[Cell]] = {}
    spalten: dict[int, list[Cell]] = {}
    for c in table.cells:
        zeilen.setdefault(c.y, []).append(c)
        spalten.setdefault(c.x, []).append(c)
    result = [Line("zeile", y, tuple(sorted(cs, key=lambda c: c.x))) for y, cs in zeilen.items()]
    result += [Line("spalte", x, tuple(sorted(cs, key=lambda c: c.y))) for x, cs in spalten.items()]
    return result


def finishable(table: Table) -> list[Line]:
    """Ordered as the NMR rule wants: by the free cannon's reading position, Zeile first."""
    found = [line for line in lines(table) if line.finishable]
    return sorted(found, key=lambda ln: (reading_order(ln.free[0].xy), ln.kind != "zeile"))


def blocked(table: Table) -> list[Line]:
    found = [line for line in lines(table) if line.blocked]
    return sorted(found, key=lambda ln: (ln.kind != "zeile", ln.index))


def lines_through(table: Table, cannon: str) -> list[Line]:
    """The finishable lines whose single free cannon is this one."""
    return [ln for ln in finishable(table) if ln.free[0].cannon == cannon]


# --- legality ------------------------------------------------------------------------
def refusal(state: State, move: Move) -> Refusal | None:
    kind = cards.kind(move.card)
    table = state.table
    if kind == "cannon":
        target = target_cell(table, move)
        return target if isinstance(target, Refusal) else cell_refusal(table, target)
    if move.on is None:
        return Refusal("beer_needs_cannon" if kind == "beer" else "duke_needs_cannon")
    cell = find(table, move.on)
    if cell is None:
        return Refusal("not_on_table", {"cannon": move.on})
    if cell.beer is not None:
        return Refusal("covered", {"cannon": move.on, "beer": cell.beer})
    return None if kind == "beer" else _duke_refusal(table, move)


def _duke_refusal(table: Table, move: Move) -> Refusal | None:
    assert move.on is not None
    through = lines_through(table, move.on)
    if not through:
        return Refusal("not_finishable", {"cannon": move.on})
    if move.line is None and len(through) > 1:
        return Refusal("which_line", {"cannon": move.on})
    if move.line is not None and all(ln.kind != move.line for ln in through):
        return Refusal("line_not_finishable", {"cannon": move.on, "line": move.line})
    return None


def chosen_line(table: Table, move: Move) -> Line:
    through = lines_through(table, move.on or "")
    return next(ln for ln in through if move.line in (None, ln.kind))


def legal_moves(state: State, hand: list[str]) -> list[Move]:
    """Every distinct legal play of this hand; dukes always name their line."""
    table = state.table
    moves: list[Move] = []
    distinct = sorted(set(hand), key=lambda c: cards.sort_key(c, state.options.colours))
    cells = legal_cells(table)
    free = [c for c in sorted(table.cells, key=lambda c: reading_order(c.xy)) if not c.beer]
    done = finishable(table)
    for code in distinct:
        kind = cards.kind(code)
        if kind == "cannon":
            moves += [Move(card=code, cell=xy) for xy in cells]
        elif kind == "beer":
            moves += [Move(card=code, on=c.cannon) for c in free]
        else:
            moves += [Move(card=code, on=ln.free[0].cannon, line=ln.kind) for ln in done]
    return moves


def can_play(state: State, hand: list[str]) -> bool:
    table = state.table
    kinds = {cards.kind(c) for c in hand}
    if "beer" in kinds and any(c.beer is None for c in table.cells):
        return True
    if "cannon" in kinds and legal_cells(table):
        return True
    return "duke" in kinds and bool(finishable(table))


# --- applying ------------------------------------------------------------------------
def apply(state: State, seat: str, move: Move) -> dict[str, object]:
    kind = cards.kind(move.card)
    if kind == "cannon":
        return _place_cannon(state, seat, move)
    table = state.table
    cell = find(table, move.on or "")
    assert cell is not None
    if kind == "beer":
        cell.beer = move.card
        return {"xy": list(cell.xy)}
    return _finish_line(state, seat, move)


def _place_cannon(state: State, seat: str, move: Move) -> dict[str, object]:
    table = state.table
    target = target_cell(table, move)
    assert not isinstance(target, Refusal)
    colour = cards.colour(move.card)
    keg = None
    if colour not in table.kegs or (
        state.options.kq_keg_reclaim
        and table.kegs[colour] != seat
        and not any(cards.colour(c.cannon) == colour for c in table.cells)
    ):
        table.kegs[colour] = seat  # HB-5; with kq_keg_reclaim also after a clearing (A-6 b)
        keg = colour
    table.cells.append(Cell(x=target[0], y=target[1], cannon=move.card))
    return {"keg": keg, "xy": list(target)}


def _finish_line(state: State, seat: str, move: Move) -> dict[str, object]:
    """KQ-6: the duke goes face up to the player; every cannon of the line, with its beer,
    goes to its colour's keg holder; the cells become empty."""
    table = state.table
    line = chosen_line(table, move)
    table.dukes.setdefault(seat, []).append(move.card)
    cleared = []
    for cell in line.cells:
        holder = table.kegs[cards.colour(cell.cannon)]
        won = [cell.cannon] + ([cell.beer] if cell.beer else [])
        table.collected.setdefault(holder, []).extend(won)
        cleared.append({"stack": stack_text(cell.cannon, cell.beer), "to": holder})
    gone = {c.xy for c in line.cells}
    table.cells = [c for c in table.cells if c.xy not in gone]
    return {"line": line.kind, "index": line.index, "cleared": cleared}


def duke_sum(table: Table) -> int:
    return sum(cards.value(d) for ds in table.dukes.values() for d in ds)


def round_over(state: State) -> bool:
    """KQ-8 (a): the dukes face up in all players' areas add up to 30 or more."""
    return duke_sum(state.table) >= state.options.kq_end_duke_sum


# --- scoring -------------------------------------------------------------------------
def score(state: State) -> list[SeatScore]:
    """KQ-9 (and KQ-11): collected cards + own dukes − own colours still on the table."""
    table = state.table
    result = []
    for seat in state.seat_ids:
        items = []
        won = table.collected.get(seat, [])
        if won:
            points = sum(cards.value(c) for c in won)
            items.append(ScoreItem(what="collected", cards=list(won), points=points))
        dukes = table.dukes.get(seat, [])
        if dukes:
            points = sum(cards.value(d) for d in dukes)
            items.append(ScoreItem(what="dukes", cards=list(dukes), points=points))
        for colour in state.options.colours:
            if table.kegs.get(colour) == seat:
                items += _left_on_table(state, colour)
        result.append(SeatScore(seat=seat, items=items, total=sum(i.points for i in items)))
    return result


def _left_on_table(state: State, colour: str) -> list[ScoreItem]:
    left = sorted(
        (c for c in state.table.cells if cards.colour(c.cannon) == colour),
        key=lambda c: reading_order(c.xy),
    )
    if not left:
        return []
    points = sum(stack_value(c.cannon, c.beer) for c in left)
    doubled = state.options.kq_double_negative and any(cards.value(c.cannon) == 1 for c in left)
    return [
        ScoreItem(
            what="table",
            colour=colour,
            cards=[stack_text(c.cannon, c.beer) for c in left],
            points=-points * (2 if doubled else 1),
            doubled=doubled,
        )
    ]
