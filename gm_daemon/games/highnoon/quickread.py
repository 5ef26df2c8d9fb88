"""A quick reader for the High Noon order lines nearly every mail holds, in front of the Lark
grammar (the same pattern as ``gm_daemon/diplomacy/quickread.py``).

Lark's LALR parser costs 30-80 us for one short line ("Herausforderungen: keine",
"H. Glück 19, 15, 8, 4"), which made it the largest single cost of taking an order mail in.
The lines are read here by a small hand-written parser over a regular-expression tokenizer.

The quick reader only ever *accepts*. Whenever it is not certain to read exactly what the
grammar reads (a character outside its alphabet, a keyword where the grammar's lexer might
see a name, anything that does not parse), it returns None and the grammar reads the line, so
what is accepted or rejected, and every message, stay the grammar's.

Why the two agree on what the quick reader accepts: Lark's contextual lexer turns a word that
equals a keyword (ignoring case) into that keyword whenever the parser state accepts the
keyword, and keeps it a ``WORD`` otherwise. The quick reader takes every keyword word as its
keyword, so a parse it completes has each keyword where the grammar allows it, and each name
word is one that no lexer state turns into a keyword. Its words are cut by the grammar's own
``WORD`` pattern restricted to a plain alphabet (in which ``str.lower`` and the regular
expression's IGNORECASE agree: no "ſ", no Kelvin sign), its spaces are the grammar's
``WS_INLINE``. The grammar has no LALR conflict, so the same tokens give the same tree.
``tests/highnoon/test_highnoon_quickread.py`` checks this on many spellings and on hypothesis'
texts.

The keyword table is the compiled grammar's (``keyword_classes``), written out here
(``KEYWORDS``) so that a line this reader takes needs neither the parser nor Lark: importing
Lark and loading the parser was ~20 ms (90 M instructions) of the first mail of a
``run --once``, for mails whose every line is a plain one. A test holds the table equal to
the compiled grammar's. A changed grammar file turns the quick reader off
(``GRAMMAR_SHA256``, compared with the file's digest) until it has been reviewed against the
change.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from typing import TYPE_CHECKING

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
from gm_daemon.grammar import built_from, grammar_path, literal_terminals

if TYPE_CHECKING:
    from lark import Lark

# The grammars/highnoon.lark this reader was checked against (see the module docstring).
GRAMMAR_SHA256 = "e0a03f87c076b45a7c7491091c281416661f021214f102028cb7f0f3e7f72e5b"

# Keyword rules of the grammar -> the letter they have in a line's signature.
_KEYWORD_RULES = {
    "_versus": "v", "_duels": "d", "_challenges": "c", "_and": "a", "_none": "k",
    "_done": "f", "_player": "p", "_budget": "b", "_planned": "l",
}  # fmt: skip
# That grammar's keyword words by the letter of their rule: ``keyword_classes`` of its parser
# (tests/highnoon/test_highnoon_quickread.py compares the two).
_KEYWORD_WORDS = {
    "v": "vs vs. gegen versus against",
    "d": "duelle duell duels duel schüsse schuesse schuss shots shot",
    "c": "herausforderungen herausforderung fordere fordern challenges challenge",
    "a": "und and",
    "k": "keine kein none nichts",
    "f": "fertig done",
    "p": "spieler player",
    "b": "patronen cartridges",
    "l": "verplant planned",
}
KEYWORDS = {word: letter for letter, words in _KEYWORD_WORDS.items() for word in words.split()}
NAME = "n"  # a word that is no keyword
NUMBER = "i"
# Symbols stand for themselves in the signature, but "&" is a word of _and.
_SYMBOLS = frozenset(":-=–,;./")

_LETTER = "A-Za-zÄÖÜäöüß"  # the part of the grammar's WORD alphabet read here
# The grammar's WORD, on that alphabet: letters, inner . ' ’ -, a final dot.
_WORD = rf"[{_LETTER}]+(?:[.'’\-][{_LETTER}]+)*\.?"
_TOKEN = re.compile(rf"[ \t]*(?:({_WORD})|([0-9]+)|([:\-=–,;./&]))")


def quick_line(text: str, classes: dict[str, str]) -> OrderLine | None:
    """The line object the grammar reads from ``text`` (already stripped, no-break spaces
    made spaces, as ``parse_line`` does), or None when only the grammar can tell.
    ``classes`` is ``keyword_classes`` of the grammar in use."""
    if not classes or not text:
        return None
    tokens = _tokens(text)
    if tokens is None:
        return None
    signature = "".join(
        classes.get(t.lower(), NAME) if kind == NAME else kind for kind, t in tokens
    )
    return _Reader(signature, [t for _, t in tokens]).line()


def _tokens(text: str) -> list[tuple[str, str]] | None:
    """(kind, text) of each token as the grammar's lexer cuts them, or None for anything
    outside the plain alphabet."""
    found: list[tuple[str, str]] = []
    pos, end = 0, len(text)
    while pos < end:
        match = _TOKEN.match(text, pos)
        if match is None:
            return None
        word, number, symbol = match.groups()
        if word is not None:
            found.append((NAME, word))
        elif number is not None:
            found.append((NUMBER, number))
        else:
            found.append(("a" if symbol == "&" else symbol, symbol))
        pos = match.end()
    return found


@cache
def grammar_file_keywords() -> dict[str, str]:
    """``KEYWORDS`` when grammars/highnoon.lark is the grammar this reader was checked
    against, else empty (quick reader off), as ``keyword_classes`` of a parser built from
    that file gives: the file's digest is compared, so no parser is needed."""
    text = grammar_path("highnoon").read_text(encoding="utf-8")
    matches = hashlib.sha256(text.encode("utf-8")).hexdigest() == GRAMMAR_SHA256
    return KEYWORDS if matches else {}


@cache
def keyword_classes(parser: Lark) -> dict[str, str]:
    """Lower-case keyword words -> the letter of their grammar rule ("keine" -> "k"); empty
    (quick reader off) when the grammar is not the one this module was checked against."""
    if not grammar_matches(parser):
        return {}
    return {
        value.lower(): _KEYWORD_RULES[rule_name]
        for rule_name, _name, value in literal_terminals(parser, _KEYWORD_RULES)
        if value != "&"
    }


def grammar_matches(parser: Lark) -> bool:
    """Whether the parser was built from the grammar text this reader was checked against."""
    return built_from(parser, GRAMMAR_SHA256)


# --- the grammar, over the signature of the tokens ----------------------------------------


class _Reader:
    """Recursive descent over the signature (one letter or symbol per token); every method
    gives None, or False, when the line is not one of the grammar's forms."""

    __slots__ = ("pos", "sig", "texts")

    def __init__(self, signature: str, texts: list[str]):
        self.sig = signature
        self.texts = texts
        self.pos = 0

    def peek(self) -> str:
        return self.sig[self.pos] if self.pos < len(self.sig) else ""

    def take(self, classes: str) -> bool:
        if self.pos < len(self.sig) and self.sig[self.pos] in classes:
            self.pos += 1
            return True
        return False

    def at_end(self) -> bool:
        return self.pos == len(self.sig)

    def line(self) -> OrderLine | None:
        first = self.peek()
        if first == "d":
            self.pos += 1
            self.take(":")
            if self.at_end():
                return DuelsHeading()
            self.take("v")
            return self.duel()
        if first == "c":
            return self.challenges()
        if first == "v":
            self.pos += 1
            return self.duel()
        if first == NAME:
            return self.duel_or_names()
        if first == "p":
            self.pos += 1
            if not self.take(":"):
                return None
            name = self.name()
            return PlayerLine(name) if name is not None and self.at_end() else None
        if first == "f":
            self.pos += 1
            return Done() if self.at_end() else None
        if first in ("k", "-", "–"):
            self.pos += 1
            return Nothing() if self.at_end() else None
        if first == "b":
            return self.budget()
        return None

    def name(self) -> str | None:
        start = self.pos
        while self.take(NAME):
            pass
        if self.pos == start:
            return None
        return " ".join(self.texts[start : self.pos])

    def duel(self) -> DuelLine | None:
        """``name _sep? shots`` to the end of the line."""
        name = self.name()
        if name is None:
            return None
        return self.shots_for(name)

    def shots_for(self, name: str) -> DuelLine | None:
        start = self.pos
        shots = self.shots()
        if shots is not None and self.at_end():
            return DuelLine(name, shots)
        self.pos = start
        if self.take(":-=–"):
            shots = self.shots()
            if shots is not None and self.at_end():
                return DuelLine(name, shots)
        return None

    def shots(self) -> tuple[int, ...] | None:
        if self.peek() == NUMBER:
            return self.positions()
        if self.take("k-–"):
            return ()
        return None

    def positions(self) -> tuple[int, ...] | None:
        numbers = []
        if not self.take(NUMBER):
            return None
        numbers.append(int(self.texts[self.pos - 1]))
        while True:
            mark = self.pos
            self.take(",;a")  # the separator is optional
            if not self.take(NUMBER):
                self.pos = mark
                break
            numbers.append(int(self.texts[self.pos - 1]))
        self.take(",.")
        return tuple(numbers)

    def duel_or_names(self) -> OrderLine | None:
        name = self.name()
        if name is None:
            return None
        if self.at_end() or self.peek() in (",", ";", "a"):
            return self.names_from(name)
        return self.shots_for(name)

    def names_from(self, first: str) -> NameList | None:
        names = [first]
        while not self.at_end():
            if not self.take(",;a"):
                return None
            if self.at_end() and self.sig[self.pos - 1] == ",":
                break  # a final comma
            name = self.name()
            if name is None:
                return None
            names.append(name)
        return NameList(tuple(names))

    def challenges(self) -> ChallengesHeading | None:
        self.pos += 1
        self.take(":")
        if self.at_end():
            return ChallengesHeading()
        if self.take("k-–"):
            return ChallengesHeading() if self.at_end() else None
        name = self.name()
        if name is None:
            return None
        names = self.names_from(name)
        return ChallengesHeading(names.names) if names is not None else None

    def budget(self) -> BudgetNote | None:
        self.pos += 1
        self.take("l")
        self.take(":")
        ok = self.take(NUMBER) and self.take("/") and self.take(NUMBER) and self.at_end()
        return BudgetNote() if ok else None
