"""A quick reader for the order shapes nearly every mail uses, in front of the Lark grammar.

Lark's LALR parser costs 35-85 us for a short order, which made reading six times dearer than
adjudicating a whole phase. Most orders are plain ("A PAR - BUR", "F LON S F NTH - ENG"), so
they are read here by a small hand-written parser over a regular-expression tokenizer.

The quick reader only ever *accepts*. Whenever it is not certain to read exactly what the
grammar reads (a character outside its alphabet, a keyword where the grammar's lexer would
see a name, an unknown name, anything that does not parse), it returns None and the grammar
reads the text, so what is accepted or rejected, and every message, stay the grammar's.

Why the two agree on what the quick reader accepts: Lark's contextual lexer turns a word that
equals a keyword into that keyword exactly when the keyword may follow at that point of the
parse, and keeps it a ``NAME`` otherwise. The quick reader takes every keyword word as its
keyword, so a parse it completes has each keyword where the grammar allows it, and each
name word is one no lexer state turns into a keyword. The only places it reads a keyword
word as a name are those where the grammar accepts nothing but ``NAME`` (right after the
coast's "/" and inside its parentheses). The grammar is unambiguous, so the same tokens give
the same tree. ``tests/diplomacy/test_quickread.py`` checks this on many spellings.

The keyword table is taken from the compiled grammar itself; a changed grammar file turns the
quick reader off (``GRAMMAR_SHA256``) until it has been reviewed against the change.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from functools import cache

from lark import Lark
from lark.lexer import PatternStr

from gm_daemon.games.highlander.diplomacy.board import ARMY, FLEET, Board, name_key
from gm_daemon.games.highlander.diplomacy.orders import (
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

# The grammars/diplomacy.lark this reader was checked against (see the module docstring).
GRAMMAR_SHA256 = "7d29850d56c49a6337fb1a27dc86a7e1573db32d92587d54204ae589d93a3a00"

NAME = "name"
_KEYWORD_RULES = (
    "army", "fleet", "_to", "_hold", "_support", "_convoy", "_retreat", "_disband", "_build",
    "_remove", "_waive", "_via",
)  # fmt: skip
_COAST_SYMBOLS = {"SLASH": "/", "LPAR": "(", "RPAR": ")"}

_LETTER = "A-Za-zÄÖÜäöüß"  # the part of the grammar's NAME alphabet read here
_WS = "[ \t\f\r\n]*"  # the grammar's WS, and nothing Python's \s adds
_TOKEN = re.compile(rf"{_WS}(?:([{_LETTER}][{_LETTER}.']*)|(->|=>|[-–—>/()]))")
_TAIL = re.compile(rf"{_WS}(?:[.,;]+{_WS})?")  # the grammar ignores trailing punctuation
_PLAIN = re.compile(r"[A-Za-z]+(?: [A-Za-z]+)*")  # name_key of these is just lower()

Token = tuple[str, str]  # (class, text): class is a keyword rule, a symbol's or NAME


def quick_read(text: str, board: Board, classes: dict[str, str]) -> Order | None:
    """The order the grammar reads from ``text`` (already hyphen-joined), or None when only
    the grammar can tell. ``classes`` is ``keyword_classes`` of the grammar in use."""
    tokens = _tokens(text, classes)
    if not tokens:
        return None
    return _Reader(tokens, board).order()


@cache
def keyword_classes(parser: Lark) -> dict[str, str]:
    """Lower-case keyword words and exact symbols -> their grammar rule ("_to", "army", ...);
    empty (quick reader off) when the grammar is not the one this module was checked against."""
    if not grammar_matches(parser):
        return {}
    wanted = {*_KEYWORD_RULES, "coast"}
    terminals = {t.name: t for t in parser.terminals}
    classes: dict[str, str] = {}
    for rule in parser.rules:
        if rule.origin.name not in wanted:
            continue
        for symbol in rule.expansion:
            term = terminals.get(symbol.name)
            if term is None or not isinstance(term.pattern, PatternStr):
                continue
            value = term.pattern.value
            word = value.lower() if "i" in term.pattern.flags else value
            classes[word] = _COAST_SYMBOLS.get(symbol.name, str(rule.origin.name))
    return classes


def grammar_matches(parser: Lark) -> bool:
    """Whether the parser was built from the grammar text this reader was checked against."""
    digest = hashlib.sha256(parser.source_grammar.encode("utf-8")).hexdigest()
    return digest == GRAMMAR_SHA256


def _tokens(text: str, classes: dict[str, str]) -> list[Token] | None:
    """The tokens the grammar's lexer produces, or None for anything outside the plain
    alphabet (other letters, other spaces, punctuation inside the order)."""
    tokens: list[Token] = []
    pos = 0
    match = _TOKEN.match
    while (m := match(text, pos)) is not None:
        word, symbol = m.groups()
        if word is not None:
            tokens.append((classes.get(word.lower(), NAME), word))
        else:
            tokens.append((classes.get(symbol, NAME), symbol))
        pos = m.end()
    if not classes or _TAIL.fullmatch(text, pos) is None:
        return None
    return tokens


class _Reader:
    """Recursive descent over the tokens; every method returns None when unsure."""

    __slots__ = ("board", "pos", "tokens")

    def __init__(self, tokens: list[Token], board: Board):
        self.tokens = tokens
        self.board = board
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos][0] if self.pos < len(self.tokens) else None

    def take(self, cls: str) -> bool:
        if self.peek() == cls:
            self.pos += 1
            return True
        return False

    def done(self, order: Order | None) -> Order | None:
        return order if self.pos == len(self.tokens) else None

    def order(self) -> Order | None:
        first = self.peek()
        if first == "_waive":
            self.pos += 1
            self.take("_build")
            return self.done(Waive())
        prefixed = _PREFIXED.get(first or "")
        if prefixed is not None:
            self.pos += 1
            unit = self.unit()
            return self.done(prefixed(unit)) if unit is not None else None
        unit = self.unit()
        if unit is None:
            return None
        tail = _TAILS.get(self.peek() or "")
        return tail(self, unit) if tail is not None else None

    # --- the rest of an order that starts with its unit -------------------------------
    def hold(self, unit: UnitRef) -> Order | None:
        self.pos += 1
        return self.done(Hold(unit))

    def move(self, unit: UnitRef) -> Order | None:
        """A path "A LON - NTH - BEL" keeps only its end, as in the grammar."""
        to: Place | None = None
        while self.take("_to"):
            to = self.place()
            if to is None:
                return None
        return self.done(Move(unit, to, self.via())) if to is not None else None

    def support(self, unit: UnitRef) -> Order | None:
        self.pos += 1
        supported = self.unit()
        if supported is None:
            return None
        if not self.take("_to"):
            self.take("_hold")
            return self.done(Support(unit, supported, None))
        to = self.place()
        if to is None:
            return None
        self.via()  # a trailing "via convoy" says nothing
        return self.done(Support(unit, supported, to))

    def convoy(self, unit: UnitRef) -> Order | None:
        self.pos += 1
        army = self.unit()
        if army is None or not self.take("_to"):
            return None
        to = self.place()
        if to is None:
            return None
        self.via()
        return self.done(Convoy(unit, army, to))

    def retreat(self, unit: UnitRef) -> Order | None:
        self.pos += 1
        to = self.place()
        return self.done(Retreat(unit, to)) if to is not None else None

    def suffixed(self, unit: UnitRef) -> Order | None:
        """Orders like "A MUN D" or "F KIE REMOVE": the same as with the word in front."""
        make = _PREFIXED[self.tokens[self.pos][0]]
        self.pos += 1
        return self.done(make(unit))

    # --- pieces -------------------------------------------------------------------------
    def via(self) -> bool:
        if not self.take("_via"):
            return False
        self.take("_convoy")
        return True

    def unit(self) -> UnitRef | None:
        kind = None
        if self.take("army"):
            kind = ARMY
        elif self.take("fleet"):
            kind = FLEET
        place = self.place()
        return UnitRef(kind, place) if place is not None else None

    def place(self) -> Place | None:
        """Name words, then perhaps a coast. A keyword as the first word is left to the
        grammar (its lexer reads a name there, which then is unknown)."""
        words = self.names(0)
        province = _lookup(self.board, " ".join(words)) if words else None
        if province is None:
            return None  # the grammar's path names the unknown word and suggests one
        coast: str | None = None
        if self.take("/"):
            coast = self.coast(self.names(1))
        elif self.take("("):
            coast = self.coast(self.names(len(self.tokens)))
            if not self.take(")"):
                return None
        return Place(province, coast) if coast != "" else None

    def names(self, forced: int) -> list[str]:
        """Name words from here: the first ``forced`` words are names even when they are
        keywords (where the grammar accepts nothing but a name), the rest stop at one."""
        words: list[str] = []
        tokens = self.tokens
        while self.pos < len(tokens):
            cls, text = tokens[self.pos]
            if cls != NAME and not (len(words) < forced and text[0].isalpha()):
                break
            words.append(text)
            self.pos += 1
        return words

    @staticmethod
    def coast(words: list[str]) -> str:
        return coast_code(words) if words else ""


def coast_code(words: list[str]) -> str:
    """A written coast as the engine's code: "nc", "north coast", "Nordküste" -> "NC"."""
    written = name_key(" ".join(words))
    return _COASTS.get(written, written.upper().replace(" ", ""))


def _lookup(board: Board, name: str) -> int | None:
    """``board.lookup`` without folding plain ASCII names, whose key is their lower case."""
    if _PLAIN.fullmatch(name):
        return board.aliases.get(name.lower())
    return board.lookup(name)


_COASTS = {
    "nc": "NC", "n": "NC", "north": "NC", "north coast": "NC", "nk": "NC", "nord": "NC",
    "nordkueste": "NC",
    "sc": "SC", "s": "SC", "south": "SC", "south coast": "SC", "sk": "SC", "sued": "SC",
    "suedkueste": "SC",
    "ec": "EC", "e": "EC", "east": "EC", "east coast": "EC", "ok": "EC", "ost": "EC",
    "ostkueste": "EC",
}  # fmt: skip

_PREFIXED: dict[str, Callable[[UnitRef], Order]] = {
    "_disband": Disband,
    "_build": lambda unit: Build(unit.kind, unit.place),
    "_remove": Remove,
}
_TAILS: dict[str, Callable[[_Reader, UnitRef], Order | None]] = {
    "_hold": _Reader.hold,
    "_to": _Reader.move,
    "_support": _Reader.support,
    "_convoy": _Reader.convoy,
    "_retreat": _Reader.retreat,
    "_disband": _Reader.suffixed,
    "_build": _Reader.suffixed,
    "_remove": _Reader.suffixed,
}
