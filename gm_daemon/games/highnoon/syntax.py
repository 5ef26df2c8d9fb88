"""Reading one order line with grammars/highnoon.lark into the engine's own line objects.

Nothing downstream sees a parse tree: the transformer turns each line into one of the small
dataclasses of ``lines.py``; plain lines are read by ``quickread`` without the grammar. A
line the grammar rejects raises ``LineSyntaxError`` with a label saying what kind of mistake
it resembles, so the reply can name it and show the right form.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from lark import Lark, Token, Transformer, UnexpectedInput

from gm_daemon.games.highnoon.lines import (
    BudgetNote,
    ChallengesHeading,
    Done,
    DuelLine,
    DuelsHeading,
    NameList,
    Nothing,
    OrderLine,
    PlayerLine,
)
from gm_daemon.games.highnoon.quickread import keyword_classes, quick_line
from gm_daemon.grammar import parser

__all__ = [
    "BudgetNote",
    "ChallengesHeading",
    "Done",
    "DuelLine",
    "DuelsHeading",
    "LineSyntaxError",
    "NameList",
    "Nothing",
    "OrderLine",
    "PlayerLine",
    "parse_line",
    "parse_line_by_grammar",
]


class LineSyntaxError(ValueError):
    """A line the grammar does not accept; ``label`` classifies the mistake."""

    def __init__(self, label: str, column: int | None):
        super().__init__(label)
        self.label = label
        self.column = column


class _ToLine(Transformer[Token, OrderLine]):
    def start(self, children: list[OrderLine]) -> OrderLine:
        return children[0]

    def name(self, words: list[Token]) -> str:
        return " ".join(str(word) for word in words)

    def names(self, names: list[str]) -> NameList:
        return NameList(tuple(names))

    def positions(self, numbers: list[Token]) -> tuple[int, ...]:
        return tuple(int(number) for number in numbers)

    def shot_list(self, children: list[tuple[int, ...]]) -> tuple[int, ...]:
        return children[0]

    def no_shots(self, _: list[object]) -> tuple[int, ...]:
        return ()

    def duel(self, children: list[object]) -> DuelLine:
        name, positions = children
        assert isinstance(name, str) and isinstance(positions, tuple)
        return DuelLine(name, positions)

    def duels_heading(self, _: list[object]) -> DuelsHeading:
        return DuelsHeading()

    def challenges_heading(self, children: list[object]) -> ChallengesHeading:
        found = [child for child in children if isinstance(child, NameList)]
        return ChallengesHeading(found[0].names if found else ())

    def player(self, children: list[str]) -> PlayerLine:
        return PlayerLine(children[0])

    def done(self, _: list[object]) -> Done:
        return Done()

    def nothing(self, _: list[object]) -> Nothing:
        return Nothing()

    def budget(self, _: list[object]) -> BudgetNote:
        return BudgetNote()


# Typical mistakes, by kind. A faulty line gets the label of the example that failed in the
# same LALR state. (``UnexpectedInput.match_examples`` also compares the depth of the parse
# stack, so "12 4 1 x" would not match "19, 15, x"; lists need the state alone.)
_MISTAKES: dict[str, list[str]] = {
    "positions": [
        "Glück: 19, 15, acht",
        "Glück: 19/15",
        "Glück 19 15 x",
        "Glück: 19, 15, 8, 4 Schuss",
        "Glück 19, 15, 8, 4 Schuss",
        "vs Glück: 3 2 a",
        "Glück: 19,,15",
    ],
    "no_positions": ["Glück:", "vs Glück", "Glück -:"],
    "missing_name": ["19, 15, 8", "12 4 1", ": 19, 15"],
    "challenge_names": [
        "Herausforderungen: Glück 5",
        "Herausforderungen: Glück: 5",
        "Fordere: Glück, 5",
        "Fordere Glück, 5",
        "Herausforderungen: Glück,, Pech",
    ],
    "player": ["Spieler:", "Spieler: 5", "Spieler Müller"],
}


def _parser() -> Lark:
    return parser("highnoon", parser_kind="lalr")


def _state_of(error: UnexpectedInput) -> int | None:
    state = getattr(error, "state", None)
    return getattr(state, "position", None)


@cache
def _labels_by_state() -> dict[int, str]:
    """LALR state -> label, from the examples; the first label to claim a state keeps it."""
    labels: dict[int, str] = {}
    for label, examples in _MISTAKES.items():
        for example in examples:
            try:
                _parser().parse(example)
            except UnexpectedInput as error:
                state = _state_of(error)
                if state is not None:
                    labels.setdefault(state, label)
            else:
                raise AssertionError(f"mistake example {example!r} parses")
    return labels


def parse_line(text: str) -> OrderLine:
    """One line of an order mail as a line object; raises ``LineSyntaxError``.

    Plain lines are read by ``quickread``, everything else (and every mistake) by the
    grammar, so both give the same line object and the same error (see quickread's
    docstring)."""
    cleaned = text.replace("\u00a0", " ").strip()
    read = _read(cleaned) if len(cleaned) <= _REMEMBERED_LENGTH else _read.__wrapped__(cleaned)
    if isinstance(read, _Mistake):
        raise LineSyntaxError(read.label, read.column)
    return read


# Lines up to this long have their readings remembered; an order line is far shorter, and a
# pasted wall of text must not fill the memory.
_REMEMBERED_LENGTH = 200


@dataclass(frozen=True)
class _Mistake:
    """A refused line as ``_read`` remembers it: a fresh ``LineSyntaxError`` is raised from
    it each time (an exception object kept would hold its traceback's frames)."""

    label: str
    column: int | None


@lru_cache(maxsize=4096)
def _read(cleaned: str) -> OrderLine | _Mistake:
    """The line object or the mistake, remembered by the line's text: players send the same
    lines again and again ("Herausforderungen: keine", "Duelle:", a greeting, the duel line
    of last round), the grammar is fixed for the process's life, and line objects are
    frozen, so a remembered answer is the answer."""
    quick = quick_line(cleaned, _keyword_classes())
    if quick is not None:
        return quick
    try:
        return _by_grammar(cleaned)
    except LineSyntaxError as mistake:
        return _Mistake(mistake.label, mistake.column)


def parse_line_by_grammar(text: str) -> OrderLine:
    """``parse_line`` by the Lark grammar alone: the reference the quick reader must match."""
    return _by_grammar(text.replace("\u00a0", " ").strip())


def warm_up() -> None:
    """Build the grammar and the quick reader's keyword table now, not at the first line."""
    _keyword_classes()


@cache
def _keyword_classes() -> dict[str, str]:
    return keyword_classes(_parser())


def _by_grammar(cleaned: str) -> OrderLine:
    try:
        tree = _parser().parse(cleaned)
    except UnexpectedInput as error:
        raise LineSyntaxError(_classify(error), getattr(error, "column", None)) from None
    return _ToLine().transform(tree)


def _classify(error: UnexpectedInput) -> str:
    """The label of an example failing in the same state, else a guess from what the parser
    expected next: inside a list of positions it expects more numbers or a comma."""
    state = _state_of(error)
    if state is not None and state in _labels_by_state():
        return _labels_by_state()[state]
    expected = set(getattr(error, "accepts", None) or getattr(error, "expected", None) or ())
    expected |= set(getattr(error, "allowed", None) or ())
    if {"INT", "COMMA"} <= expected and "WORD" not in expected:
        return "positions"
    if "INT" in expected and "KEINE" in expected:
        return "no_positions"
    return "general"
