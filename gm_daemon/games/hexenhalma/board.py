"""A Hexenhalma board as the GM writes it (HH-1, HH-2): parameter lines, then the grid.

Example (the spec's board "Turm")::

    name: Turm
    witches: 2
    min_steps: 6
    max_steps: 10
    sleep: 4
    spells: K2 M2 B1 I2 BZ1
    scope: team
    # Z . Z #
    . . . . .
    ...
    # S . S #

Cells are kept in a grid padded by one ``#`` ring, indexed ``row * (W + 2) + col`` with
columns and rows counted from 1. The padding makes "off the board" an ordinary cell, and it
makes the 180° rotation ``rot(c, r) = (W+1-c, H+1-r)`` simply ``size - 1 - index``, which is
what lets the simulation rotate a whole team with one subtraction per field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

WALL, FIELD, START, GOAL = "#", ".", "S", "Z"
SPELLS = ("K", "M", "B", "I", "BZ")  # the allowance keys, in the order boards list them
MAX_WIDTH = 26  # columns are single letters A..Z

_KEYS = {
    "name": "name",
    "witches": "witches",
    "hexen": "witches",
    "min_steps": "min_steps",
    "minschritte": "min_steps",
    "max_steps": "max_steps",
    "maxschritte": "max_steps",
    "sleep": "sleep",
    "muedezauber": "sleep",
    "spells": "spells",
    "zauber": "spells",
    "scope": "scope",
}
_SCOPES = {"team": "team", "witch": "witch", "hexe": "witch"}
_ALLOWANCE = re.compile(r"^(BZ|K|M|B|I)(\d+)$", re.IGNORECASE)
_FIELD_NAME = re.compile(r"^([A-Za-z])(\d+)$")


class BoardError(ValueError):
    """A board the GM must fix; the message names the offending lines or cells."""


@dataclass(frozen=True)
class Board:
    name: str
    width: int
    height: int
    cells: tuple[str, ...]  # padded grid, see the module docstring
    witches: int
    min_steps: int
    max_steps: int
    sleep: int
    allowance: tuple[tuple[str, int], ...]  # (spell, count) in SPELLS order
    scope: str  # "team" or "witch"

    @property
    def stride(self) -> int:
        return self.width + 2

    def rot(self, index: int) -> int:
        return len(self.cells) - 1 - index

    def index(self, col: int, row: int) -> int:
        return row * self.stride + col

    def field_name(self, index: int) -> str:
        row, col = divmod(index, self.stride)
        return f"{chr(ord('A') + col - 1)}{row}"

    def find(self, name: str) -> int | None:
        """The index of a field name such as ``C4`` (any case), None when not on the board."""
        match = _FIELD_NAME.match(name.strip())
        if match is None:
            return None
        col, row = ord(match[1].upper()) - ord("A") + 1, int(match[2])
        if not (1 <= col <= self.width and 1 <= row <= self.height):
            return None
        return self.index(col, row)

    def kind(self, index: int) -> str:
        return self.cells[index] if 0 <= index < len(self.cells) else WALL

    def fields_of(self, kind: str) -> list[int]:
        return [i for i, c in enumerate(self.cells) if c == kind]

    def allowed(self, spell: str) -> int:
        return dict(self.allowance).get(spell, 0)

    def allowance_text(self) -> str:
        return " ".join(f"{s}{n}" for s, n in self.allowance)

    def grid_lines(self) -> list[str]:
        """The grid with column letters and row numbers, as announced to players."""
        letters = " ".join(chr(ord("A") + c) for c in range(self.width))
        lines = [f"    {letters}"]
        for row in range(1, self.height + 1):
            cells = " ".join(self.cells[self.index(c, row)] for c in range(1, self.width + 1))
            lines.append(f"{row:>2}  {cells}")
        return lines


@cache
def parse_board(text: str) -> Board:
    """The board in ``text``; BoardError lists every problem found, with line numbers."""
    params: dict[str, str] = {}
    rows: list[tuple[int, str]] = []
    problems: list[str] = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if ":" in line:
            _read_param(no, line, params, problems)
        elif set(line.replace(" ", "")) <= set("#.SZ"):
            rows.append((no, line.replace(" ", "")))
        else:
            problems.append(f"line {no}: neither 'key: value' nor a grid row of # . S Z: {raw!r}")
    if problems:
        raise BoardError("; ".join(problems))
    return _build(params, rows)


def _read_param(no: int, line: str, params: dict[str, str], problems: list[str]) -> None:
    key, value = (part.strip() for part in line.split(":", 1))
    folded = key.lower().replace("ü", "ue").replace("-", "_").replace(" ", "_")
    canonical = _KEYS.get(folded) or _KEYS.get(folded.replace("_", ""))
    if canonical is None:
        known = ", ".join(sorted(set(_KEYS.values())))
        problems.append(f"line {no}: unknown key {key!r} (known: {known})")
    elif canonical in params:
        problems.append(f"line {no}: {key!r} given twice")
    else:
        params[canonical] = value


def _build(params: dict[str, str], rows: list[tuple[int, str]]) -> Board:
    problems: list[str] = []
    numbers = {k: _number(params, k, problems) for k in ("witches", "min_steps", "max_steps")}
    sleep = _number(params, "sleep", problems, default=0, least=0)
    allowance = _allowance(params.get("spells", ""), problems)
    scope = _SCOPES.get(params.get("scope", "team").strip().lower())
    if scope is None:
        problems.append(f"scope {params['scope']!r}: write 'team' or 'witch'")
    if not problems and numbers["min_steps"] > numbers["max_steps"]:
        problems.append(
            f"min_steps {numbers['min_steps']} exceeds max_steps {numbers['max_steps']}"
        )
    cells, width, height = _grid(rows, problems)
    if problems:
        raise BoardError("; ".join(problems))
    board = Board(
        name=params.get("name", "").strip() or "?",
        width=width,
        height=height,
        cells=cells,
        witches=numbers["witches"],
        min_steps=numbers["min_steps"],
        max_steps=numbers["max_steps"],
        sleep=sleep,
        allowance=allowance,
        scope=scope or "team",
    )
    _check_shape(board)
    return board


def _number(
    params: dict[str, str], key: str, problems: list[str], default: int | None = None, least=1
) -> int:
    raw = params.get(key)
    if raw is None:
        if default is None:
            problems.append(f"missing '{key}: <number>'")
        return default or 0
    if not raw.strip().lstrip("-").isdigit() or int(raw) < least:
        problems.append(f"{key}: {raw!r} is not a whole number of at least {least}")
        return least
    return int(raw)


def _allowance(text: str, problems: list[str]) -> tuple[tuple[str, int], ...]:
    counts = dict.fromkeys(SPELLS, 0)
    for word in text.replace(",", " ").split():
        match = _ALLOWANCE.match(word)
        if match is None:
            problems.append(f"spells: {word!r} is not one of K<n> M<n> B<n> I<n> BZ<n>")
            continue
        counts[match[1].upper()] = int(match[2])
    return tuple(counts.items())


def _grid(rows: list[tuple[int, str]], problems: list[str]) -> tuple[tuple[str, ...], int, int]:
    if not rows:
        problems.append("no grid rows (lines of # . S Z)")
        return (), 0, 0
    width = len(rows[0][1])
    for no, row in rows:
        if len(row) != width:
            problems.append(f"line {no}: {len(row)} cells, but the first grid row has {width}")
    if width > MAX_WIDTH:
        problems.append(f"the grid is {width} columns wide; at most {MAX_WIDTH} (A..Z)")
    if problems:
        return (), 0, 0
    wall = WALL * (width + 2)
    padded = [wall, *(WALL + row + WALL for _, row in rows), wall]
    return tuple("".join(padded)), width, len(rows)


def _check_shape(board: Board) -> None:
    """HH-2: 180° symmetry with S and Z swapped, and enough start fields for the witches."""
    swap = {START: GOAL, GOAL: START, FIELD: FIELD, WALL: WALL}
    wrong = []
    for i, kind in enumerate(board.cells):
        mirror = board.rot(i)
        if i < mirror and board.cells[mirror] != swap[kind]:
            wrong.append(
                f"{board.field_name(i)} is '{kind}' but {board.field_name(mirror)} is "
                f"'{board.cells[mirror]}' (expected '{swap[kind]}')"
            )
    if wrong:
        shown = "; ".join(wrong[:8]) + (f"; and {len(wrong) - 8} more" if len(wrong) > 8 else "")
        raise BoardError(f"not 180°-symmetric with S and Z swapped: {shown}")
    starts = board.fields_of(START)
    if len(starts) < board.witches:
        names = ", ".join(board.field_name(i) for i in starts) or "none"
        raise BoardError(
            f"{board.witches} witches need {board.witches} start fields (S); "
            f"the board has {len(starts)}: {names}"
        )
