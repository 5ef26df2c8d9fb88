"""Reading a team's order mail: every line through ``grammars/hexenhalma.lark``, every
problem at once.

Two levels, as HH-6 and A-16 want them: a line that cannot be read (or names a witch the
board does not have) rejects the whole mail, because nobody can tell what the player meant;
a readable witch whose plan breaks a rule only keeps *that* witch at home, and the
acknowledgement says why while the rest of the team plays.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer, UnexpectedInput
from lark.exceptions import UnexpectedToken, VisitError

from gm_daemon.games.hexenhalma.board import Board
from gm_daemon.games.hexenhalma.check import check_orders, ends_in_goal
from gm_daemon.games.hexenhalma.guide import format_lines
from gm_daemon.games.hexenhalma.model import Orders, StepOrder, WitchOrder
from gm_daemon.games.hexenhalma.words import say
from gm_daemon.games.protocol import (
    Accepted,
    Fix,
    Lang,
    Line,
    OrdersRejected,
    Problem,
    ProblemKind,
)
from gm_daemon.games.text import without_full_stop
from gm_daemon.grammar import parser

_DIRECTIONS = {"n": "N", "o": "E", "e": "E", "s": "S", "w": "W"}


@cache
def order_parser() -> Lark:
    return parser("hexenhalma", parser_kind="lalr")


class NotAPath(Exception):
    """A readable line that still describes no path (``B5-E3`` is no walk)."""

    def __init__(self, key: str, **values: Any):
        super().__init__(key)
        self.key = key
        self.values = values


def field_name(token: str) -> str:
    return f"{token[0].upper()}{int(token[1:])}"


class _Build(Transformer[Token, Any]):
    """Parse tree → (witch number, start field, steps)."""

    def start(self, items: list[Any]) -> tuple[int, str, list[StepOrder]]:
        number, (start, steps) = int(items[1]), items[-1]
        return number, start, steps

    def relative(self, items: list[Any]) -> tuple[str, list[StepOrder]]:
        return field_name(items[0]), [s for run in items[1:] for s in run]

    def absolute(self, items: list[Any]) -> tuple[str, list[StepOrder]]:
        start = field_name(items[0])
        return start, _from_legs(start, items[1:])

    def step(self, items: list[Any]) -> list[StepOrder]:
        move, spell = items[0], (items[1] if len(items) > 1 else (None, None))
        if move[0] == "jump":
            return [StepOrder(jump=move[1], spell=spell[0], bann=spell[1])]
        count = move[2]
        if count < 1:
            raise NotAPath("read_count_zero", dir=move[1])
        runs = [StepOrder(walk=move[1]) for _ in range(count - 1)]
        return [*runs, StepOrder(walk=move[1], spell=spell[0], bann=spell[1])]

    def walk(self, items: list[Token]) -> tuple[str, str, int]:
        count = int(items[1]) if len(items) > 1 else 1
        return "walk", _DIRECTIONS[str(items[0])[0].lower()], count

    def jump(self, items: list[Token]) -> tuple[str, str]:
        return "jump", field_name(items[-1])

    def spell(self, items: list[Any]) -> tuple[str, str | None]:
        return items[0]

    def box(self, items: list[Any]) -> tuple[str, str | None]:
        return items[0]

    def lightning(self, _: list[Token]) -> tuple[str, None]:
        return "K", None

    def sleep(self, _: list[Token]) -> tuple[str, None]:
        return "M", None

    def immune(self, _: list[Token]) -> tuple[str, None]:
        return "I", None

    def bann(self, items: list[Token]) -> tuple[str, str]:
        return "B", field_name(items[-1])

    def leg(self, items: list[Any]) -> tuple[str, str, tuple[str | None, str | None]]:
        spell = items[2] if len(items) > 2 else (None, None)
        return str(items[0]), field_name(items[1]), spell


def _from_legs(start: str, legs: list[tuple[str, str, tuple[str | None, str | None]]]):
    """Absolute notation to canonical steps: each "-" pair must be orthogonal neighbours."""
    steps, here = [], start
    for sep, there, (spell, bann) in legs:
        if sep == "~":
            steps.append(StepOrder(jump=there, spell=spell, bann=bann))
        else:
            steps.append(StepOrder(walk=_direction(here, there), spell=spell, bann=bann))
        here = there
    return steps


def _direction(here: str, there: str) -> str:
    dx = ord(there[0]) - ord(here[0])
    dy = int(there[1:]) - int(here[1:])
    moves = {(0, -1): "N", (0, 1): "S", (1, 0): "E", (-1, 0): "W"}
    if (dx, dy) not in moves:
        raise NotAPath("read_not_adjacent", here=here, there=there)
    return moves[(dx, dy)]


def parse_line(text: str) -> tuple[int, str, list[StepOrder]]:
    """One witch line; raises UnexpectedInput or NotAPath."""
    tree = order_parser().parse(without_full_stop(text))
    try:
        return _Build().transform(tree)
    except VisitError as exc:
        raise exc.orig_exc from None


def read_orders(lines: Sequence[Line], board: Board, lang: Lang) -> Accepted[Orders]:
    """The team's orders, every witch checked (HH-6); OrdersRejected when a line cannot be
    read or names no witch of this board."""
    witches, problems = [], []
    for line in lines:
        if not line.text.strip():
            continue
        try:
            number, start, steps = parse_line(line.text)
        except (UnexpectedInput, NotAPath) as exc:
            problems.append(_unreadable(line, exc, board, lang))
            continue
        problem = _numbering(line, number, witches, board, lang)
        if problem:
            problems.append(problem)
            continue
        witches.append(WitchOrder(number=number, start=start, steps=steps, line=line.no))
    if not witches and not problems:
        problems.append(
            Problem(
                None, "", ProblemKind.SYNTAX, say(lang, "read_empty"), _format_hint(board, lang)
            )
        )
    if problems:  # the witches that could be read are checked too: every problem at once
        raise OrdersRejected(problems + _void_witches(board, witches, lines, lang))
    orders = check_orders(board, Orders(witches=witches))
    return Accepted(orders, warnings(board, orders, lines, lang))


def _void_witches(
    board: Board, witches: list[WitchOrder], lines: Sequence[Line], lang: Lang
) -> list[Problem]:
    """Why each readable witch of a rejected mail would stay at home (HH-6)."""
    if not witches:
        return []
    orders = check_orders(board, Orders(witches=witches))
    void = {w.line for w in orders.witches if w.void is not None}
    return [p for p in warnings(board, orders, lines, lang) if p.line in void]


def _format_hint(board: Board, lang: Lang) -> str:
    """The forms, shown with lines of this board's example (on "Kreuz", B7 is no field)."""
    return say(lang, "read_format_hint", **format_lines(board, lang))


# a relative step written where an absolute path goes on: "N6", "O", "s2"
_STEP_WRITTEN = re.compile(r"[nosweNOSWE][0-9]*")


def _off_board(line: Line, here: str, there: str, board: Board, lang: Lang) -> Problem:
    """ "Hexe 1: B7 - N6": the field after "-" is none of this board's. Where it reads as a
    relative step after the start, the line with "|" for the "-" is what would be right (a
    jump there, as for two fields apart, would be to no field either)."""
    columns = f"A–{chr(ord('A') + board.width - 1)}"
    message = say(lang, "read_off_board", there=there, columns=columns, rows=f"1–{board.height}")
    written = re.fullmatch(
        rf"(?P<head>.*?{re.escape(here)})\s*[-–]\s*(?P<tail>{re.escape(there)})\s*",
        without_full_stop(line.text),
        re.IGNORECASE,
    )
    if written is None or not _STEP_WRITTEN.fullmatch(there):
        return Problem(line.no, line.text, ProblemKind.SYNTAX, message, _format_hint(board, lang))
    right = f"{written['head']} | {written['tail']}"
    hint = say(lang, "read_off_board_relative", line=right)
    return Problem(line.no, line.text, ProblemKind.SYNTAX, message, hint, Fix(right))


def _unreadable(line: Line, exc: Exception, board: Board, lang: Lang) -> Problem:
    if isinstance(exc, NotAPath) and exc.key == "read_not_adjacent":
        here, there = exc.values["here"], exc.values["there"]
        if board.find(there) is None:
            return _off_board(line, here, there, board, lang)
    if isinstance(exc, NotAPath):
        message = say(lang, exc.key, **exc.values)
        return Problem(
            line.no,
            line.text,
            ProblemKind.SYNTAX,
            message,
            say(lang, exc.key + "_hint", **exc.values),
        )
    column = getattr(exc, "column", 0) or 0
    ended = isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
    rest = line.text[column - 1 :].strip() if column > 0 and not ended else ""
    where = say(lang, "read_at", column=column, rest=rest[:20]) if rest else say(lang, "read_end")
    message = say(lang, "read_unreadable", where=where)
    right = _with_bar(line.text)
    if right is not None:
        hint = say(lang, "read_off_board_relative", line=right)
        return Problem(line.no, line.text, ProblemKind.SYNTAX, message, hint, Fix(right))
    return Problem(line.no, line.text, ProblemKind.SYNTAX, message, _format_hint(board, lang))


# "Hexe 1 B7 N6", "Hexe 1: B7, N6": the start field and the steps without the "|" between
_NO_BAR = re.compile(
    r"^\s*(?P<witch>[^\W\d_]+\s*\d+)\s*:?\s*(?P<start>[a-z]\d+)\s*[,\s]\s*(?P<steps>.+)$", re.I
)


def _with_bar(text: str) -> str | None:
    """The line with its start field and steps apart by "|", when that reads."""
    found = _NO_BAR.match(without_full_stop(text))
    if found is None:
        return None
    right = f"{found['witch']}: {found['start']} | {found['steps']}"
    try:
        parse_line(right)
    except (UnexpectedInput, NotAPath):
        return None
    return right


def _numbering(
    line: Line, number: int, witches: list[WitchOrder], board: Board, lang: Lang
) -> Problem | None:
    if not 1 <= number <= board.witches:
        message = say(lang, "read_no_such_witch", number=number, count=board.witches)
        hint = say(lang, "read_witch_numbers", count=board.witches)
        return Problem(line.no, line.text, ProblemKind.ILLEGAL, message, hint)
    if any(w.number == number for w in witches):
        earlier = next(w.line for w in witches if w.number == number)
        message = say(lang, "read_twice", number=number, line=earlier)
        return Problem(
            line.no, line.text, ProblemKind.AMBIGUOUS, message, say(lang, "read_twice_hint")
        )
    return None


def warnings(board: Board, orders: Orders, lines: Sequence[Line], lang: Lang) -> list[Problem]:
    """What the acknowledgement must say besides the paths: void witches (with the reason
    and that the rest plays), witches without a path, paths that end outside the goal."""
    source = {line.no: line.text for line in lines}
    found = []
    for witch in orders.witches:
        text = source.get(witch.line or 0, "")
        if witch.void is not None:
            message = say(
                lang,
                "void_witch",
                number=witch.number,
                reason=say(lang, witch.void.reason, **witch.void.values),
            )
            hint = say(lang, witch.void.reason + "_hint", **witch.void.values)
            found.append(Problem(witch.line, text, ProblemKind.ILLEGAL, message, hint))
        elif not ends_in_goal(board, witch):
            message = say(lang, "warn_no_goal", number=witch.number)
            found.append(
                Problem(
                    witch.line, text, ProblemKind.ILLEGAL, message, say(lang, "warn_no_goal_hint")
                )
            )
    given = {w.number for w in orders.witches}
    for number in range(1, board.witches + 1):
        if number not in given:
            found.append(
                Problem(
                    None,
                    "",
                    ProblemKind.ILLEGAL,
                    say(lang, "warn_missing", number=number),
                    say(lang, "warn_missing_hint", number=number),
                )
            )
    return found
