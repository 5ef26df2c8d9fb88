"""High Noon's order lines read by the Lark grammar (grammars/highnoon.lark): the lines the
quick reader leaves to it, every mistake with its label, and the reference the quick reader
is held to. A module of its own so that Lark is imported with the first such line, not with
``syntax``: a mail of plain lines never needs it.
"""

from __future__ import annotations

from functools import cache

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
from gm_daemon.games.highnoon.syntax import LineSyntaxError
from gm_daemon.grammar import parser


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


def order_parser() -> Lark:
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
                order_parser().parse(example)
            except UnexpectedInput as error:
                state = _state_of(error)
                if state is not None:
                    labels.setdefault(state, label)
            else:
                raise AssertionError(f"mistake example {example!r} parses")
    return labels


def read_line(cleaned: str) -> OrderLine:
    """The line object the grammar reads from ``cleaned`` (``parse_line`` prepared it), or
    ``LineSyntaxError`` with the label of the mistake it resembles."""
    try:
        tree = order_parser().parse(cleaned)
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
