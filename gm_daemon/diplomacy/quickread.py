"""A quick reader for the order shapes nearly every mail uses, in front of the Lark grammar.

Lark's LALR parser costs 35-85 us for a short order, which made reading six times dearer than
adjudicating a whole phase. Most orders are plain ("A PAR - BUR", "F LON S F NTH - ENG"), so
they are read here by a small hand-written parser over a regular-expression tokenizer.

The quick reader only ever *accepts*. Whenever it is not certain to read exactly what the
grammar reads (a character outside its alphabet, a keyword where the grammar's lexer would
see a name, an unknown name, anything that does not parse), it returns None and the grammar
reads the text, so what is accepted or rejected, and every message, stay the grammar's.

Why the two agree on what the quick reader accepts: Lark's contextual lexer turns a word that
equals a keyword into that keyword whenever the parser state accepts the keyword (with LALR
that can be more places than the grammar allows it), and keeps it a ``NAME`` otherwise. The
quick reader takes every keyword word as its keyword, so a parse it completes has each
keyword where the grammar allows it, and each name word is one no lexer state turns into a
keyword. The only places it reads a keyword word as a name are those where the state
accepts nothing but ``NAME`` (right after a coast's "/" or "("). The grammar is unambiguous,
so the same tokens give the same tree. ``tests/diplomacy/test_quickread.py`` checks this on
many spellings (hypothesis found the parentheses case).

The keyword table is taken from the compiled grammar itself; a changed grammar file turns the
quick reader off (``GRAMMAR_SHA256``) until it has been reviewed against the change.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache

from lark import Lark

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
from gm_daemon.grammar import built_from, literal_terminals

# The grammars/diplomacy.lark this reader was checked against (see the module docstring).
GRAMMAR_SHA256 = "7d29850d56c49a6337fb1a27dc86a7e1573db32d92587d54204ae589d93a3a00"

_KEYWORD_RULES = {
    "army": "a", "fleet": "f", "_to": "t", "_hold": "h", "_support": "s", "_convoy": "c",
    "_retreat": "r", "_disband": "d", "_build": "b", "_remove": "x", "_waive": "w", "_via": "v",
}  # fmt: skip
NAME = "n"  # a word that is no keyword; keyword words are the letters above
_SYMBOLS = {"_to": "-", "SLASH": "/", "LPAR": "(", "RPAR": ")"}  # symbols: no letters

_LETTER = "A-Za-zÄÖÜäöüß"  # the part of the grammar's NAME alphabet read here
_WS = "[ \t\f\r\n]*"  # the grammar's WS, and nothing Python's \s adds
_WORD = rf"[{_LETTER}][{_LETTER}.']*"  # greedy, as the grammar's NAME
_TOKEN = re.compile(rf"{_WORD}|->|=>|[-–—>/()]")  # "->" before "-", as the grammar's lexer
# Only tokens and spaces, the end perhaps punctuation, which the grammar ignores there. A word
# must end where the greedy _TOKEN ends it, so the two cut the text alike and the check is
# linear.
_SHAPE = re.compile(rf"(?:{_WS}(?:{_WORD}(?![{_LETTER}.'])|->|=>|[-–—>/()]))+{_WS}(?:[.,;]+{_WS})?")
_PLAIN = re.compile(r"[A-Za-z]+(?: [A-Za-z]+)*")  # name_key of these is just lower()

_CACHE_LIMIT = 4096  # entries per table: mail is untrusted, so the tables cannot grow forever


PLACE = "place"  # Span.kind of a bare place (a destination), not a unit


@dataclass(frozen=True, slots=True)
class Span:
    """Where one unit or place stands among the tokens: the name, then the coast's words."""

    kind: str | None  # ARMY / FLEET / None for a unit; PLACE for a bare place
    name: tuple[int, int]
    coast: tuple[int, int] | None


Plan = tuple[str, bool, tuple[Span, ...]]  # the order's form, "via convoy", its pieces


def quick_read(text: str, board: Board, classes: dict[str, str]) -> Order | None:
    """The order the grammar reads from ``text`` (already hyphen-joined), or None when only
    the grammar can tell. ``classes`` is ``keyword_classes`` of the grammar in use."""
    words = _words(text) if classes else None
    if words is None:
        return None
    signature = "".join([classes.get(w.lower(), NAME) for w in words])
    plan = _plan(signature)
    if plan is None:
        return None
    return _build(plan, words, _tables(board))


@cache
def keyword_classes(parser: Lark) -> dict[str, str]:
    """Lower-case keyword words and exact symbols -> one letter or symbol for their grammar
    rule ("to" -> "t", "-" -> "-"); empty (quick reader off) when the grammar is not the one
    this module was checked against."""
    if not grammar_matches(parser):
        return {}
    classes: dict[str, str] = {}
    for rule_name, name, value in literal_terminals(parser, {*_KEYWORD_RULES, "coast"}):
        if value.isalpha():
            classes[value.lower()] = _KEYWORD_RULES[rule_name]
        else:
            classes[value] = _SYMBOLS.get(name) or _SYMBOLS[rule_name]
    return classes


def grammar_matches(parser: Lark) -> bool:
    """Whether the parser was built from the grammar text this reader was checked against."""
    return built_from(parser, GRAMMAR_SHA256)


def _words(text: str) -> list[str] | None:
    """The tokens the grammar's lexer produces, or None for anything outside the plain
    alphabet (other letters, other spaces, punctuation inside the order)."""
    if _SHAPE.fullmatch(text) is None:
        return None
    return _TOKEN.findall(text)


# --- the engine's own notation, read at once ----------------------------------------------

_TOKEN_RE = r"[A-Z]{3}(?:/[A-Z]{2})?"
_CANONICAL_KEYWORDS = {"a": "a", "f": "f", "h": "h", "s": "s", "c": "c", "via": "v", "-": "-"}


@dataclass(frozen=True, slots=True)
class CanonicalTables:
    """ "A PAR" -> its UnitRef, "PAR" -> its Place, for every location token of one board
    that ``quick_read`` reads as a name, each as ``quick_read`` reads it."""

    units: dict[str, UnitRef]
    places: dict[str, Place]


def canonical_tables(board: Board, classes: dict[str, str]) -> CanonicalTables | None:
    """The tables of ``canonical_read``, or None (the notation left to ``quick_read``) when
    the grammar's keywords are not the notation's. A token that is a keyword is not read by
    ``quick_read`` as a place, so it is not in the tables either."""
    if any(classes.get(word) != letter for word, letter in _CANONICAL_KEYWORDS.items()):
        return None
    units: dict[str, UnitRef] = {}
    places: dict[str, Place] = {}
    for token in board.names:
        for kind in (ARMY, FLEET):
            order = quick_read(f"{kind} {token} H", board, classes)
            if re.fullmatch(_TOKEN_RE, token) and isinstance(order, Hold):
                units[f"{kind} {token}"] = order.unit
                places[token] = order.unit.place
    return CanonicalTables(units, places)


def canonical_read(text: str, tables: CanonicalTables) -> Order | None:
    """The order of a text in the engine's own notation ("A PAR - BUR", "F LON S F NTH -
    ENG"), or None for any other text. The words between single spaces, their number and
    keywords giving the form, and a table lookup per unit and place, where ``quick_read``
    tokenizes, classifies and parses: a third of its cost. The parts are read as
    ``quick_read`` reads them (``canonical_tables``: only tokens of the shape ``_TOKEN_RE``,
    units only as "A " or "F " and such a token) and put together as its parser does, so both
    give the same order. What it takes is what one regular expression over the same tables
    takes (tests/diplomacy/test_quickread.py holds the two equal)."""
    words = text.split(" ")
    size = len(words)
    if size < 3:
        return None
    unit = tables.units.get(f"{words[0]} {words[1]}")
    if unit is None:
        return None
    key = words[2]
    places = tables.places
    if key == "-":
        if size == 4:
            via = False
        elif size == 5 and words[4] == "VIA":
            via = True
        else:
            return None
        place = places.get(words[3])
        return None if place is None else Move(unit, place, via)
    if key == "S":
        if size == 5:
            ref = tables.units.get(f"{words[3]} {words[4]}")
            return None if ref is None else Support(unit, ref, None)
        if size != 7 or words[5] != "-":
            return None
        ref, place = tables.units.get(f"{words[3]} {words[4]}"), places.get(words[6])
        return None if ref is None or place is None else Support(unit, ref, place)
    if key == "C":
        if size != 7 or words[3] != "A" or words[5] != "-":
            return None
        ref, place = tables.units.get(f"A {words[4]}"), places.get(words[6])
        return None if ref is None or place is None else Convoy(unit, ref, place)
    return Hold(unit) if key == "H" and size == 3 else None


# --- the grammar, over the signature of the tokens ----------------------------------------


@lru_cache(maxsize=_CACHE_LIMIT)
def _plan(signature: str) -> Plan | None:
    """The order's form and pieces for a signature such as "an-n" ("A PAR - BUR"). The same
    signature always parses the same way, and mail uses few, hence the cache."""
    return _Parser(signature).order()


class _Parser:
    """Recursive descent over the signature; every method gives None when unsure."""

    __slots__ = ("pos", "sig")

    def __init__(self, signature: str):
        self.sig = signature
        self.pos = 0

    def take(self, classes: str) -> bool:
        if self.pos < len(self.sig) and self.sig[self.pos] in classes:
            self.pos += 1
            return True
        return False

    def done(self, form: str, *spans: Span | None, via: bool = False) -> Plan | None:
        if self.pos != len(self.sig) or None in spans:
            return None
        return form, via, tuple(s for s in spans if s is not None)

    def order(self) -> Plan | None:
        if self.take("w"):
            self.take("b")
            return self.done("waive")
        for letter, form in (("d", "disband"), ("b", "build"), ("x", "remove")):
            if self.take(letter):
                return self.done(form, self.unit())
        unit = self.unit()
        if unit is None or self.pos == len(self.sig):
            return None
        action = self.sig[self.pos]
        self.pos += 1
        return self.action(action, unit)

    def action(self, action: str, unit: Span) -> Plan | None:
        """What follows the unit: "h", "-" or "t" (a move), "s", "c", "r", "d", "b", "x"."""
        simple = {"h": "hold", "d": "disband", "b": "build", "x": "remove"}
        if action in simple:
            return self.done(simple[action], unit)
        if action in "-t":
            self.pos -= 1
            return self.move(unit)
        if action == "r":
            return self.done("retreat", unit, self.place())
        if action == "s":
            return self.support(unit)
        if action == "c":
            return self.convoy(unit)
        return None

    def move(self, unit: Span) -> Plan | None:
        """A path "A LON - NTH - BEL" keeps only its end, as in the grammar, but every
        place on it must be a known name, as there."""
        path: list[Span | None] = []
        while self.take("-t"):
            path.append(self.place())
        return self.done("move", unit, *path, via=self.via())

    def support(self, unit: Span) -> Plan | None:
        supported = self.unit()
        if not self.take("-t"):
            self.take("h")
            return self.done("support", unit, supported)
        to = self.place()
        self.via()  # a trailing "via convoy" says nothing
        return self.done("support", unit, supported, to)

    def convoy(self, unit: Span) -> Plan | None:
        army = self.unit()
        if not self.take("-t"):
            return None
        to = self.place()
        self.via()
        return self.done("convoy", unit, army, to)

    def via(self) -> bool:
        if not self.take("v"):
            return False
        self.take("c")
        return True

    def unit(self) -> Span | None:
        kind = ARMY if self.take("a") else FLEET if self.take("f") else None
        place = self.place()
        return Span(kind, place.name, place.coast) if place is not None else None

    def place(self) -> Span | None:
        """Name words, then perhaps a coast. A keyword as the first word is left to the
        grammar (its lexer reads a name there, which then is unknown)."""
        name = self.names(0)
        if name[0] == name[1]:
            return None
        if self.take("/"):
            coast = self.names(1)
        elif self.take("("):
            coast = self.names(1)
            if not self.take(")"):
                return None
        else:
            return Span(PLACE, name, None)
        return Span(PLACE, name, coast) if coast[0] < coast[1] else None

    def names(self, forced: int) -> tuple[int, int]:
        """Name words from here: the first ``forced`` words are names even when they are
        keywords (right after "/" or "(" the grammar accepts nothing but a name), the rest
        stop at one. Even inside parentheses: LALR merges the name-word state of a coast with
        that of a place, so its lexer reads "Spa(north S coast)" with S the keyword."""
        start = self.pos
        sig = self.sig
        while self.pos < len(sig) and (
            sig[self.pos] == NAME or (self.pos - start < forced and sig[self.pos].isalpha())
        ):
            self.pos += 1
        return start, self.pos


# --- from the plan to the engine's dataclasses --------------------------------------------


_FORMS: dict[str, Callable[..., Order]] = {
    "waive": lambda via: Waive(),
    "hold": lambda via, unit: Hold(unit),
    "move": lambda via, unit, *path: Move(unit, path[-1], via),
    "support": lambda via, unit, supported, to=None: Support(unit, supported, to),
    "convoy": lambda via, unit, army, to: Convoy(unit, army, to),
    "retreat": lambda via, unit, to: Retreat(unit, to),
    "disband": lambda via, unit: Disband(unit),
    "build": lambda via, unit: Build(unit.kind, unit.place),
    "remove": lambda via, unit: Remove(unit),
}


def _build(plan: Plan, words: list[str], tables: _Tables) -> Order | None:
    form, via, spans = plan
    pieces: list[UnitRef | Place] = []
    for span in spans:
        piece = tables.piece(words, span)
        if piece is None:
            return None  # an unknown name: the grammar's path explains it
        pieces.append(piece)
    return _FORMS[form](via, *pieces)


@dataclass(slots=True)
class _Tables:
    """Units and places already read on one board, by how they were written: only those
    that exist, and not unboundedly. They are frozen, so orders may share them."""

    board: Board
    pieces: dict[tuple[str | None, str, str | None], UnitRef | Place] = field(default_factory=dict)

    def piece(self, words: list[str], span: Span) -> UnitRef | Place | None:
        lo, hi = span.name
        name = words[lo] if hi - lo == 1 else " ".join(words[lo:hi])
        coast = None if span.coast is None else " ".join(words[slice(*span.coast)])
        key = (span.kind, name, coast)
        piece = self.pieces.get(key)
        if piece is None:
            piece = self._read(span.kind, name, coast)
            if piece is not None:
                _remember(self.pieces, key, piece)
        return piece

    def _read(self, kind: str | None, name: str, coast: str | None) -> UnitRef | Place | None:
        province = _lookup(self.board, name)
        if province is None:
            return None
        place = Place(province, None if coast is None else coast_code([coast]))
        return place if kind == PLACE else UnitRef(kind, place)


@cache
def _tables(board: Board) -> _Tables:
    return _Tables(board)


def _remember(table: dict, key: object, value: object) -> None:
    if len(table) < _CACHE_LIMIT:
        table[key] = value


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
