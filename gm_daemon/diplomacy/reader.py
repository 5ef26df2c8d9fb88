"""Reading one written order with ``grammars/diplomacy.lark`` into the engine's dataclasses.

The grammar only knows structure; names are looked up here, against the board's alias table,
so an unknown name can be reported as such ("unknown province 'Pariss' — did you mean PAR?")
instead of as a bare syntax error. Whether the order makes sense on the board (a coast that
is ambiguous, a unit that is not there) is decided later, against the position.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import cache

from lark import Lark, Token, Transformer, UnexpectedInput
from lark.exceptions import VisitError

from gm_daemon.diplomacy.board import ARMY, FLEET, Board, name_key
from gm_daemon.diplomacy.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Place,
    Remove,
    Retreat,
    Support,
    UnitRef,
    Waive,
)
from gm_daemon.diplomacy.quickread import (
    CanonicalTables,
    canonical_read,
    canonical_tables,
    coast_code,
    keyword_classes,
    quick_read,
)
from gm_daemon.games.protocol import ProblemKind
from gm_daemon.grammar import build


@dataclass
class OrderError(Exception):
    """An order that could not be read; ``kind`` sorts it into the reply's sections."""

    kind: ProblemKind
    message: str
    hint: str = ""
    guess: tuple[str, str] | None = None  # (the name as written, the province it may mean)

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


# Example mistakes, by the message a player should read; matched against the parser state
# the error left it in (Lark's match_examples). Grows with every confusing mail.
_MISTAKES: dict[str, list[str]] = {
    "a move needs a destination after '-', e.g. A PAR - BUR": ["A PAR -", "A PAR - BUR -"],
    "a support names the supported unit, e.g. F LON S F NTH - ENG or A TYR S A VEN": [
        "F LON S",
        "F LON S F",
    ],
    "a support of a move needs the destination, e.g. F LON S F NTH - ENG": ["F LON S F NTH -"],
    "a convoy names the army and its destination, e.g. F NTH C A YOR - NWY": [
        "F NTH C",
        "F NTH C A YOR",
        "F NTH C A YOR -",
    ],
    "a retreat needs a destination, e.g. A MUN R BOH": ["A MUN R"],
    "an order starts with the unit, e.g. A PAR - BUR": ["- BUR", "S A PAR", "C A YOR - NWY", ""],
    "a build names the place, e.g. BUILD A PAR": ["BUILD", "BUILD A"],
    "a coast is written STP/NC or StP(nc)": ["F STP/", "F STP(", "F STP(NC"],
    "what should the unit do? e.g. A PAR H, A PAR - BUR, A PAR S A MAR, F NTH C A YOR - NWY": [
        "A PAR",
        "A PAR BUR",
    ],
}


def read_order(text: str, board: Board) -> Order:
    """One order from its text; raises OrderError (syntax or unknown name) otherwise.

    Plain orders are read by ``quickread`` (the engine's own notation at once), everything
    else (and every mistake) by the grammar, so both give the same order and the same message
    (see quickread's docstring)."""
    tables = _canonical_tables(board)
    if tables is not None:
        order = canonical_read(text, tables)
        if order is not None:
            return order
    prepared = _join_hyphenated_names(text, board)
    order = quick_read(prepared, board, _keyword_classes())
    if order is not None:
        return order
    return _read_prepared(text, prepared, board)


def read_order_by_grammar(text: str, board: Board) -> Order:
    """``read_order`` by the Lark grammar alone: the reference the quick reader must match."""
    return _read_prepared(text, _join_hyphenated_names(text, board), board)


def _read_prepared(text: str, prepared: str, board: Board) -> Order:
    try:
        tree = _parser().parse(prepared)
    except UnexpectedInput as exc:
        raise _syntax_error(text, exc) from None
    try:
        return _transformer(board).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, OrderError):
            raise exc.orig_exc from None
        raise


@cache
def _canonical_tables(board: Board) -> CanonicalTables | None:
    return canonical_tables(board, _keyword_classes())


@cache
def _keyword_classes() -> dict[str, str]:
    return keyword_classes(_parser())


@cache
def _parser() -> Lark:
    """``grammars/diplomacy.lark`` under LALR. Built here rather than with ``grammar.parser``
    to leave out position propagation, which doubles the parse time of a short order and is
    not needed: syntax errors carry their column anyway."""
    return build("diplomacy", parser="lalr", maybe_placeholders=False)


def _syntax_error(text: str, exc: UnexpectedInput) -> OrderError:
    label = exc.match_examples(_parser().parse, _MISTAKES, use_accepts=True)
    where = ""
    if getattr(exc, "column", None) not in (None, -1):
        where = f" at column {exc.column}"
    if label is None:
        return OrderError(ProblemKind.SYNTAX, f"cannot read {text.strip()!r}{where}")
    return OrderError(ProblemKind.SYNTAX, f"cannot read {text.strip()!r}{where}", label)


@cache
def _hyphen_pairs(board: Board) -> re.Pattern[str] | None:
    """Word pairs that occur inside a multi-word name, so "Mid-Atlantic" is one name while
    "PAR-BUR" stays a move."""
    pairs = set()
    for key in board.aliases:
        words = key.split()
        pairs.update(f"{a}-{b}" for a, b in itertools.pairwise(words))
    if not pairs:
        return None
    return re.compile("|".join(sorted(map(re.escape, pairs), key=len, reverse=True)), re.I)


# A letter or digit on both sides of a hyphen, as every pair in ``_hyphen_pairs`` has (with
# the same case-insensitive matching): most orders have none, and this is ten times quicker.
_HYPHEN_INSIDE = re.compile(r"[0-9a-z]-[0-9a-z]", re.I)


def _join_hyphenated_names(text: str, board: Board) -> str:
    pattern = _hyphen_pairs(board)
    if pattern is None or "-" not in text or _HYPHEN_INSIDE.search(text) is None:
        return text
    return pattern.sub(lambda m: m.group(0).replace("-", " "), text)


@cache
def _transformer(board: Board) -> _ToOrders:
    return _ToOrders(board)


class _ToOrders(Transformer):
    """Parse tree -> engine dataclasses; place names resolved against one board."""

    def __init__(self, board: Board):
        super().__init__()
        self.board = board

    # --- pieces ---------------------------------------------------------------------
    def start(self, items):
        return items[0]

    def army(self, _items):
        return ARMY

    def fleet(self, _items):
        return FLEET

    def coast(self, words: list[Token]) -> str:
        return coast_code([str(w) for w in words])

    def place(self, items) -> Place:
        words = [str(t) for t in items if isinstance(t, Token)]
        coast = items[-1] if not isinstance(items[-1], Token) else None
        name = " ".join(words)
        province = self.board.lookup(name)
        if province is None:
            raise _unknown_place(name, self.board)
        return Place(province, coast)

    def unit(self, items) -> UnitRef:
        if len(items) == 2:
            return UnitRef(items[0], items[1])
        return UnitRef(None, items[0])

    def via(self, _items):
        return True

    # --- orders ---------------------------------------------------------------------
    def hold(self, items):
        return Hold(items[0])

    def move(self, items):
        via = items[-1] is True
        places = [p for p in items[1:] if isinstance(p, Place)]
        return Move(items[0], places[-1], via)

    def support_hold(self, items):
        return Support(items[0], items[1], None)

    def support_move(self, items):
        return Support(items[0], items[1], items[2])  # a trailing "via convoy" says nothing

    def convoy(self, items):
        return Convoy(items[0], items[1], items[2])

    def retreat(self, items):
        return Retreat(items[0], items[1])

    def disband(self, items):
        return Disband(items[0])

    def build(self, items):
        ref: UnitRef = items[0]
        return Build(ref.kind, ref.place)

    def remove(self, items):
        return Remove(items[0])

    def waive(self, _items):
        return Waive()


def _unknown_place(name: str, board: Board) -> OrderError:
    key = name_key(name)
    hint = ""
    guess = None
    words = key.split()
    if len(words) > 1 and all(board.lookup(w) is not None for w in words):
        hint = "a '-' missing between two places?"
    else:
        pid = board.closest(name)
        if pid is not None:
            hint = f"did you mean {board.names[pid]} ({board.full_names[pid]})?"
            guess = (name, board.names[pid])
    return OrderError(ProblemKind.SYNTAX, f"unknown province {name!r}", hint, guess)
