"""One order line as the player wrote it: the grammar's Transformer and its result types.

Nothing here looks at the table. ``interpret.py`` turns a ``Written`` play into a ``Move``
for the current state (printed labels into cells, colour words into colour codes …).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from lark import Token, Transformer, v_args

from gm_daemon.games.hornberg import cards
from gm_daemon.games.hornberg.cards import CardKind
from gm_daemon.games.hornberg.play import Direction, LineKind

Form = Literal["cell", "rel", "row", "bare", "on", "extend", "shorten"]

_DIRECTIONS: dict[str, Direction] = {}
for _words, _dir in (
    ("n nord north ueber oberhalb above", "N"),
    ("no ne nordost northeast", "NO"),
    ("o e ost east rechts right", "O"),
    ("so se suedost southeast", "SO"),
    ("s sued south unter unterhalb below", "S"),
    ("sw suedwest southwest", "SW"),
    ("w west links left", "W"),
    ("nw nordwest northwest", "NW"),
):
    _DIRECTIONS.update(dict.fromkeys(_words.split(), _dir))

_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9}


@dataclass(frozen=True)
class CardRef:
    """A card as written: kind, value and (cannons) the colour code."""

    kind: CardKind
    value: int
    colour: str | None = None
    text: str = ""  # as written, for messages

    @property
    def code(self) -> str:
        return cards.Card(self.kind, self.value, self.colour).code


@dataclass(frozen=True)
class Written:
    """One play as written, before the table is consulted."""

    card: CardRef
    form: Form
    cell: str | None = None  # a printed label: the cannon's cell, or the cell a card lies on
    row: int | None = None  # D&D row as written (1..3 when valid)
    toward: Direction | None = None
    anchor: CardRef | None = None  # relative placement: the cannon the direction starts from
    on: CardRef | None = None  # the cannon a beer or a duke is laid on
    line: LineKind | None = None

    @property
    def uses_labels(self) -> bool:
        """Printed labels are valid for one turn only: plans must not use them (§6.3)."""
        return self.cell is not None


@dataclass(frozen=True)
class PlanHead:
    standing: bool  # DAUERPLAN


@dataclass(frozen=True)
class Ignored:
    """A line that is read and ignored: FERTIG/DONE, a ``Spiel:`` or ``Zug:`` header (the
    daemon takes those out before the engine reads, through ``read_header``; a pasted one
    that reaches the reader anyway does no harm)."""


Item = Written | PlanHead | Ignored


@v_args(inline=True)
class ToWritten(Transformer[Token, list[Item]]):
    """Parse tree → the items of one line (a plan head may carry its first play)."""

    def play_line(self, play: Written) -> list[Item]:
        return [play]

    def plan_line(self, head: PlanHead, play: Written | None = None) -> list[Item]:
        return [head] if play is None else [head, play]

    def plan_head(self, word: Token) -> PlanHead:
        return PlanHead(standing=str(word).lower().startswith(("dauer", "standing")))

    def turn_head(self, _number: Token) -> Ignored:
        return Ignored()

    def turn_play_line(self, _head: Ignored, play: Written) -> list[Item]:
        """ "Zug 2: Bier 5 auf ws1": the turn is the daemon's to check (``read_header``
        leaves such a line to the game only when it names the current turn)."""
        return [play]

    def game_head(self, _name: Token) -> Ignored:
        return Ignored()

    def done(self, _word: Token) -> list[Item]:
        return [Ignored()]

    def start(self, item: Item) -> list[Item]:
        return [item]

    # --- plays ---------------------------------------------------------------------
    def cannon_at(self, cannon: CardRef, cell: str) -> Written:
        return Written(cannon, "cell", cell=cell)

    def cannon_rel(self, cannon: CardRef, direction: Token, anchor: CardRef) -> Written:
        return Written(cannon, "rel", toward=_DIRECTIONS[str(direction).lower()], anchor=anchor)

    def cannon_row(self, cannon: CardRef, row: int) -> Written:
        return Written(cannon, "row", row=row)

    def cannon_bare(self, cannon: CardRef) -> Written:
        return Written(cannon, "bare")

    def beer_on(self, value: Token, target: CardRef | str) -> Written:
        return _on(CardRef("beer", int(value), text=f"B{value}"), target, None)

    def duke_on(self, value: Token, target: CardRef | str, kind: Token | None = None) -> Written:
        line: LineKind | None = None
        if kind is not None:
            line = "zeile" if str(kind).lower() in ("zeile", "row") else "spalte"
        return _on(CardRef("duke", int(value), text=f"H{value}"), target, line)

    def duke_extends(self, value: Token, _word: Token, row: int) -> Written:
        return Written(CardRef("duke", int(value), text=f"H{value}"), "extend", row=row)

    def duke_shortens(self, value: Token, _word: Token, row: int) -> Written:
        return Written(CardRef("duke", int(value), text=f"H{value}"), "shorten", row=row)

    # --- pieces --------------------------------------------------------------------
    def cannon(self, colour: Token, value: Token) -> CardRef:
        code = cards.colour_code(str(colour)) or str(colour).lower()
        return CardRef("cannon", int(value), code, text=f"{colour}{value}")

    def cell(self, label: Token) -> str:
        return str(label).upper()

    def row(self, token: Token) -> int:
        text = str(token).lower()
        return _ROMAN[text] if text in _ROMAN else int(text)


def _on(card: CardRef, target: CardRef | str, line: LineKind | None) -> Written:
    if isinstance(target, str):
        return Written(card, "on", cell=target, line=line)
    return Written(card, "on", on=target, line=line)
