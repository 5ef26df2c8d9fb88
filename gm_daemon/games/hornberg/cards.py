"""Cards as short codes: cannons ``ro4``, beers ``B5``, dukes ``H7``.

A code is the card's whole identity. Cannons and dukes exist once each; beers of the same
value are interchangeable, so ``B5`` names any of them. Hands, the pile and the table hold
plain codes, which keeps the stored state small, readable and easy to compare.

Colours are stored with two-letter German codes (rot → ``ro``), the state's and the
config's one spelling. A mail shows them in its language (``shown``): an English game
writes ``re4``, ``ye2``, ``bk3``; blue and green are ``bl`` and ``gr`` in both languages. The
order grammar reads every spelling of either language. The rule text names only red, yellow
and blue (A-3); the other three are placeholders, so the colour set is configurable from a
small palette.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

CardKind = Literal["cannon", "beer", "duke"]

CANNON_VALUES = range(1, 7)
BEER_VALUES = range(0, 9)
DUKE_VALUES = range(1, 10)
DD_DUKES = (1, 2, 3)  # the dukes played from hand in Drunter & Drüber
DD_BASE_DUKES = (4, 5, 6, 7, 8, 9)  # the dukes drawn as row bases in Drunter & Drüber

DEFAULT_COLOURS = ("ro", "ge", "bl", "gr", "sw", "ws")
DEFAULT_BEER_COUNTS = (1, 2, 3, 3, 3, 3, 3, 2, 1)  # values 0..8, A-2 (a)


@dataclass(frozen=True)
class Colour:
    code: str
    de: str
    en: str
    en_code: str  # the two letters an English mail shows
    spellings: tuple[str, ...]  # every written form the grammar accepts, folded


PALETTE: dict[str, Colour] = {
    c.code: c
    for c in (
        Colour("ro", "rot", "red", "re", ("ro", "rot", "re", "red")),
        Colour("ge", "gelb", "yellow", "ye", ("ge", "gelb", "ye", "yel", "yellow")),
        Colour("bl", "blau", "blue", "bl", ("bl", "blau", "blu", "blue")),
        Colour("gr", "grün", "green", "gr", ("gr", "gruen", "grn", "green")),
        Colour("sw", "schwarz", "black", "bk", ("sw", "schwarz", "bk", "blk", "black")),
        Colour("ws", "weiß", "white", "wh", ("ws", "weiss", "wh", "wht", "white")),
        Colour("li", "lila", "purple", "pu", ("li", "lila", "pu", "pur", "purple")),
        Colour("or", "orange", "orange", "or", ("or", "orange", "ora")),
        Colour("br", "braun", "brown", "br", ("br", "braun", "brn", "brown")),
    )
}

_SPELLING_TO_CODE = {spelling: c.code for c in PALETTE.values() for spelling in c.spellings}


def colour_code(written: str) -> str | None:
    """The palette code for a written colour (already folded), or None."""
    return _SPELLING_TO_CODE.get(written.lower())


def colour_shown(colour: str, lang: str) -> str:
    """A colour code as a mail in ``lang`` shows it: ``ro`` → ``re`` in English."""
    found = PALETTE.get(colour)
    return found.en_code if found is not None and lang == "en" else colour


def shown(code: str, lang: str) -> str:
    """A card code (or a stack ``ro3/2``) as a mail in ``lang`` shows it; beers and dukes
    keep the letters printed on the cards (B, H)."""
    head, slash, beer = code.partition("/")
    if len(head) >= 3 and head[:-1] in PALETTE and head[-1].isdigit():
        head = colour_shown(head[:-1], lang) + head[-1]
    return head + slash + beer


def shown_all(codes: Iterable[str], lang: str, sep: str = " ") -> str:
    return sep.join(shown(code, lang) for code in codes)


@dataclass(frozen=True)
class Card:
    kind: CardKind
    value: int
    colour: str | None = None  # cannons only

    @property
    def code(self) -> str:
        if self.kind == "cannon":
            return f"{self.colour}{self.value}"
        return f"{'B' if self.kind == 'beer' else 'H'}{self.value}"


@cache
def card(code: str) -> Card:
    """Parse a stored card code; raises ValueError for anything that is not one."""
    if len(code) == 2 and code[0] in "BH" and code[1].isdigit():
        return Card("beer" if code[0] == "B" else "duke", int(code[1]))
    if len(code) >= 3 and code[:-1] in PALETTE and code[-1].isdigit():
        return Card("cannon", int(code[-1]), code[:-1])
    raise ValueError(f"not a card code: {code!r}")


def cannon(colour: str, value: int) -> str:
    return f"{colour}{value}"


def beer(value: int) -> str:
    return f"B{value}"


def duke(value: int) -> str:
    return f"H{value}"


def kind(code: str) -> CardKind:
    return card(code).kind


def value(code: str) -> int:
    return card(code).value


def colour(code: str) -> str:
    """The colour of a cannon code (``"ro4"`` → ``"ro"``)."""
    found = card(code).colour
    if found is None:
        raise ValueError(f"{code} is not a cannon")
    return found


def cannons(colours: Sequence[str]) -> list[str]:
    return [cannon(c, v) for c in colours for v in CANNON_VALUES]


def beers(counts: Sequence[int]) -> list[str]:
    return [beer(v) for v, n in zip(BEER_VALUES, counts, strict=True) for _ in range(n)]


def full_deck(colours: Sequence[str], beer_counts: Sequence[int]) -> list[str]:
    """Every card of the box: the 66 cards of Kreuz & Quer (and of the whole game)."""
    return [*cannons(colours), *beers(beer_counts), *(duke(v) for v in DUKE_VALUES)]


def dd_deck(colours: Sequence[str], beer_counts: Sequence[int]) -> list[str]:
    """The Drunter & Drüber hand deck: cannons, beers and dukes 1–3 (60 cards by default)."""
    return [*cannons(colours), *beers(beer_counts), *(duke(v) for v in DD_DUKES)]


def sort_key(code: str, colours: Sequence[str]) -> tuple[int, int, int]:
    """The NMR tie-break order (§6.4): lowest value first, then colour order ro, ge, bl …"""
    c = card(code)
    rank = colours.index(c.colour) if c.colour in colours else len(colours)
    return (c.value, rank, 0)


def hand_order(code: str, colours: Sequence[str]) -> tuple[int, int, int]:
    """How a hand is listed: cannons by colour then value, then beers, then dukes."""
    c = card(code)
    group = {"cannon": 0, "beer": 1, "duke": 2}[c.kind]
    rank = colours.index(c.colour) if c.colour in colours else 0
    return (group, rank, c.value)


def sorted_hand(codes: Iterable[str], colours: Sequence[str]) -> list[str]:
    return sorted(codes, key=lambda code: hand_order(code, colours))


def lowest(codes: Iterable[str], colours: Sequence[str]) -> str | None:
    ordered = sorted(codes, key=lambda code: sort_key(code, colours))
    return ordered[0] if ordered else None
