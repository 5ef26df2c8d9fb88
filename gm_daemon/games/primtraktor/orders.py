"""Reading a player's order mail: the Lark grammar per line, the name check, the leg count.

Each line is parsed on its own so that a submission reports every problem at once. Names may
precede the legs with a colon ("Kurt Kurz: O+") or, as in the seed's example, without one
("Ralf Raser Nord+"); the latter is recognised only when the words name a registered player.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from lark import Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

from gm_daemon.games.kit import names
from gm_daemon.games.primtraktor.model import Direction, Leg, State
from gm_daemon.games.primtraktor.texts import say
from gm_daemon.games.protocol import Line, Problem, ProblemKind, Seat
from gm_daemon.games.text import fold, introduces_orders, without_full_stop
from gm_daemon.grammar import parser

COMMAND_WORDS = {"fertig", "done", "ende", "end"}  # daemon commands that may reach us
MOVES_LABELS = {"zuege", "zuge", "moves", "zug", "order", "orders"}
_DIAGONALS = {
    "nordost", "nordwest", "suedost", "suedwest", "sudost", "sudwest",
    "northeast", "northwest", "southeast", "southwest",
    "no", "nw", "so", "sw", "ne", "se",
}  # fmt: skip


class LineProblem(Exception):
    """A problem found in one line, raised out of the line reader."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


@dataclass
class ReadLine:
    """One order line as understood: the names it was labelled with and its legs."""

    line: Line
    names: list[str] = field(default_factory=list)
    legs: list[Leg] = field(default_factory=list)


class _ToLegs(Transformer[Token, tuple[list[str], list[Leg]]]):
    """Parse tree -> the engine's own ``Leg`` objects (nothing downstream sees a tree)."""

    def north(self, _: list[Token]) -> Direction:
        return Direction.NORTH

    def east(self, _: list[Token]) -> Direction:
        return Direction.EAST

    def south(self, _: list[Token]) -> Direction:
        return Direction.SOUTH

    def west(self, _: list[Token]) -> Direction:
        return Direction.WEST

    def faster(self, _: list[Token]) -> str:
        return "+"

    def slower(self, _: list[Token]) -> str:
        return "-"

    def same(self, _: list[Token]) -> str:
        return "="

    def leg(self, items: list[object]) -> Leg:
        direction = items[0]
        change = items[1] if len(items) > 1 else "="
        return Leg.model_validate({"direction": direction, "change": change})

    def label(self, items: list[Token]) -> str:
        return str(items[0]).rstrip(":").strip()

    def start(self, items: list[object]) -> tuple[list[str], list[Leg]]:
        return (
            [i for i in items if isinstance(i, str)],
            [i for i in items if isinstance(i, Leg)],
        )


def is_command_word(line: Line) -> bool:
    return fold(line.text).strip(" .!") in COMMAND_WORDS


def _problem(line: Line, kind: ProblemKind, message: str, hint: str) -> LineProblem:
    return LineProblem(Problem(line.no, line.text, kind, message, hint))


_DIRECTION_WORD = re.compile(
    r"(norden|nord|north|n|osten|ost|east|o|e|süden|sueden|suden|süd|sued|sud|south|s|westen|west|w)"
    r"(?!\w)",
    re.I,
)


def _strip_bare_name(line: Line, seats: Sequence[Seat]) -> tuple[str, str]:
    """("Ralf Raser", " Nord+, …") when the line starts with a registered name, no colon.

    The longest run of leading words that names a player wins; a run that starts with a
    direction word is never a name, so "Ost N+" stays two legs whatever the players are called.
    """
    words = list(re.finditer(r"\S+", line.text))
    if ":" in line.text or not words or _DIRECTION_WORD.match(words[0].group(0)):
        return "", line.text  # a colon label is the grammar's business
    players = names.of_seats(seats)
    for count in range(len(words) - 1, 0, -1):
        end = words[count - 1].end()
        candidate = line.text[words[0].start() : end]
        if players.find(candidate):
            return candidate, line.text[end:]
    return "", line.text


_LABEL = re.compile(r"\s*([^\W\d_][^:,;+=\n]*):")


def read_line(line: Line, seats: Sequence[Seat], lang: str) -> ReadLine:
    """The legs of one line, or LineProblem explaining in the player's language.

    A line the grammar refuses is read again piece by piece (the label, then each part
    between commas or semicolons), so a diagonal in the first leg does not hide a wrong name
    or a leg too many: every bad piece becomes its own problem (``LineProblems``).
    """
    name, rest = _strip_bare_name(line, seats)
    rest = without_full_stop(rest)
    try:
        tree = parser("primtraktor").parse(rest)
    except UnexpectedInput as exc:
        first = _syntax_problem(line, rest, exc, lang)
        raise _piecewise(line, name, rest, lang, first) from None
    names, legs = _ToLegs().transform(tree)
    return ReadLine(line, ([name] if name else []) + names, legs)


class LineProblems(LineProblem):
    """Several problems in one line, with what could be read of it (names, good legs and
    the number of pieces that were meant as legs but could not be read)."""

    def __init__(self, problems: list[Problem], read: ReadLine, unread: int):
        super().__init__(problems[0])
        self.problems = problems
        self.read = read
        self.unread = unread


def _piecewise(line: Line, name: str, rest: str, lang: str, first: LineProblem) -> LineProblem:
    names = [name] if name else []
    while label := _LABEL.match(rest):
        names.append(label.group(1).strip())
        rest = rest[label.end() :]
    pieces = [piece for piece in re.split(r"[,;]", rest) if piece.strip()]
    if len(pieces) < 2 and not names:
        return first
    read, problems, unread = ReadLine(line, names), [], 0
    for piece in pieces:
        try:
            _, legs = _ToLegs().transform(parser("primtraktor").parse(piece))
        except UnexpectedInput as exc:
            problems.append(_syntax_problem(line, piece, exc, lang).problem)
            unread += 1
            continue
        read.legs += legs
    return LineProblems(problems or [first.problem], read, unread)


def _offending_word(source: str, column: int) -> str:
    match = re.match(r"[^\s,;:]+", source[column - 1 :])
    return match.group(0) if match else source[column - 1 : column]


_DOUBLED = re.compile(r"([^\W\d_]+)\s*((?:[+\-=–−]\s*){2,})")


def _doubled_change(source: str, column: int) -> re.Match[str] | None:
    """ "Süd++" where the reader stopped: two steps at once, which are two legs."""
    for match in _DOUBLED.finditer(source):
        if match.start() < column <= match.end():
            return match
    return None


def _syntax_problem(line: Line, source: str, exc: UnexpectedInput, lang: str) -> LineProblem:
    """Turn Lark's complaint into what a player understands: which word, and what instead."""
    hint = say(lang, "directions_hint")
    if isinstance(exc, UnexpectedEOF) or not isinstance(exc, UnexpectedCharacters):
        word = source.strip() or line.text
        message = say(lang, "err_no_leg_after_name", word=word)
        return _problem(line, ProblemKind.SYNTAX, message, hint)
    word = _offending_word(source, exc.column)
    letters = fold(word).strip("+-=–−")
    doubled = _doubled_change(source, exc.column)
    if doubled is not None:
        direction, signs = doubled.group(1), re.sub(r"\s", "", doubled.group(2))
        legs = ", ".join(direction + sign for sign in signs)
        message = say(lang, "err_double_change", word=doubled.group(0))
        fixed = line.text.strip().replace(doubled.group(0).strip(), legs, 1)
        return _problem(line, ProblemKind.SYNTAX, message, fixed)
    if word[0] in "+-=–−":
        key, hint = "err_lonely_change", say(lang, "hint_lonely_change")
    elif any(ch.isdigit() for ch in word):
        key, hint = "err_number", say(lang, "hint_number")
    elif letters in _DIAGONALS:
        key, hint = "err_diagonal", say(lang, "hint_diagonal", word=word)
    elif word[0].isalpha():
        key = "err_word"
    else:
        key = "err_char"
    return _problem(line, ProblemKind.SYNTAX, say(lang, key, word=word), hint)


def check_names(read: ReadLine, seats: Sequence[Seat], seat: str, lang: str) -> list[Problem]:
    """A label must be the player's own name or a "Züge:"/"Moves:" keyword."""
    problems = []
    own = next((s for s in seats if s.id == seat), None)
    own_name = own.name if own else seat
    players = names.of_seats(seats)
    for name in read.names:
        if fold(name).replace(" ", "") in MOVES_LABELS or introduces_orders(name):
            continue  # "Züge:", "Meine Züge:", "Korrektur:"
        matches = players.find(name)
        if seat in matches:
            continue
        key = "err_other_name" if matches else "err_unknown_name"
        kind = ProblemKind.ILLEGAL if matches else ProblemKind.SYNTAX
        message = say(lang, key, word=name, own=own_name)
        hint = say(lang, "hint_name", own=own_name)
        if not matches and players.guess(name, among=[seat]) == seat:
            message += ". " + names.did_you_mean(lang, own_name)  # a typo of his own name
            hint = names.put_in(read.line.text.strip(), name, own_name)
        problems.append(_problem(read.line, kind, message, hint))
    return [found.problem for found in problems]


def seats_of(state: State) -> list[Seat]:
    return [Seat(t.seat, t.name) for t in state.tractors]


def count_problems(
    read: Sequence[ReadLine], max_legs: int, lang: str, unread: Mapping[int, int] | None = None
) -> list[Problem]:
    """PT-7: more than ``max_legs`` legs is an error on the line holding the first extra leg.
    ``unread`` counts, per line number, the legs written but not understood: they were
    meant as legs, so six legs with a typo in one are still six."""
    unread = unread or {}
    total = sum(len(one.legs) + unread.get(one.line.no, 0) for one in read)
    if total <= max_legs:
        return []
    seen = 0
    for one in read:
        seen += len(one.legs) + unread.get(one.line.no, 0)
        if seen > max_legs:
            message = say(lang, "err_too_many", count=total, max=max_legs)
            hint = say(lang, "hint_too_many", max=max_legs)
            return [Problem(one.line.no, one.line.text, ProblemKind.ILLEGAL, message, hint)]
    return []


def no_legs_problem(max_legs: int, lang: str) -> Problem:
    """An order without legs is refused: the previous orders (or else NMR) stay in force."""
    hint = say(lang, "hint_no_legs", max=max_legs)
    return Problem(None, "", ProblemKind.SYNTAX, say(lang, "err_no_legs"), hint)
