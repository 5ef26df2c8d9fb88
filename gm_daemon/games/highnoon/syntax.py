"""Reading one order line of High Noon into the engine's own line objects.

Nothing downstream sees a parse tree: plain lines are read by ``quickread`` without the
grammar, everything else by grammars/highnoon.lark (``by_grammar``: Lark is imported with the
first such line), whose transformer turns each line into one of the small dataclasses of
``lines.py``. A line the grammar rejects raises ``LineSyntaxError`` with a label saying what
kind of mistake it resembles, so the reply can name it and show the right form.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

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
from gm_daemon.games.highnoon.quickread import grammar_file_keywords, quick_line
from gm_daemon.games.text import without_full_stop

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


def parse_line(text: str) -> OrderLine:
    """One line of an order mail as a line object; raises ``LineSyntaxError``.

    Plain lines are read by ``quickread``, everything else (and every mistake) by the
    grammar, so both give the same line object and the same error (see quickread's
    docstring)."""
    cleaned = without_full_stop(text.replace("\u00a0", " ").strip())
    read = _read(cleaned) if len(cleaned) <= _REMEMBERED_LENGTH else _read.__wrapped__(cleaned)
    if isinstance(read, _Mistake):
        raise LineSyntaxError(read.label, read.column)
    return read


# Lines up to this long have their readings remembered; an order line is far shorter, and a
# pasted wall of text must not fill the memory.
_REMEMBERED_LENGTH = 200


class _Mistake(NamedTuple):
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
    from gm_daemon.games.highnoon.by_grammar import read_line

    try:
        return read_line(cleaned)
    except LineSyntaxError as mistake:
        return _Mistake(mistake.label, mistake.column)


def parse_line_by_grammar(text: str) -> OrderLine:
    """``parse_line`` by the Lark grammar alone: the reference the quick reader must match."""
    from gm_daemon.games.highnoon.by_grammar import read_line

    return read_line(without_full_stop(text.replace("\u00a0", " ").strip()))


def warm_up() -> None:
    """Import Lark and build (or load) the grammar now, not at the first line that needs
    them: the service does this at start."""
    from gm_daemon.games.highnoon.by_grammar import order_parser

    order_parser()


def _keyword_classes() -> dict[str, str]:
    """The quick reader's keyword table (empty: quick reader off), without the parser."""
    return grammar_file_keywords()
