"""The stored state of a Hornberg game: seats, hands, pile, table, scores.

Everything is a pydantic model so the daemon can keep the state as JSON. Hands and the pile
are secret; ``public_view`` in ``engine.py`` decides what leaves the state in public.
Seats are referred to by their id everywhere; ``to_move`` and ``dealer`` are ids, too.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from gm_daemon.games.hornberg.options import Options
from gm_daemon.games.protocol import empty_dict, empty_list


class SeatInfo(BaseModel):
    id: str
    name: str


class Stack(BaseModel):
    """Drunter & Drüber: one cannon in a duke row and the beer on it, if any."""

    cannon: str
    beer: str | None = None


class Row(BaseModel):
    """Drunter & Drüber: a duke row (DD-1, DD-2). Cannons are appended on the right."""

    base: int
    extenders: list[int] = Field(default_factory=empty_list)
    shorteners: list[int] = Field(default_factory=empty_list)
    stacks: list[Stack] = Field(default_factory=empty_list)

    @property
    def length(self) -> int:
        return self.base + sum(self.extenders) - sum(self.shorteners)

    @property
    def complete(self) -> bool:
        """DD-7: as many cannons as the length allows, and every one covered by a beer."""
        return len(self.stacks) == self.length and all(s.beer for s in self.stacks)


class Cell(BaseModel):
    """Kreuz & Quer: a cannon in the grid at (x, y), x eastward, y southward (KQ-2)."""

    x: int
    y: int
    cannon: str
    beer: str | None = None

    @property
    def xy(self) -> tuple[int, int]:
        return (self.x, self.y)


class Table(BaseModel):
    rows: list[Row] = Field(default_factory=empty_list)  # D&D: rows I, II, III
    cells: list[Cell] = Field(default_factory=empty_list)  # K&Q: the grid
    kegs: dict[str, str] = Field(default_factory=empty_dict)  # colour -> seat holding the keg
    collected: dict[str, list[str]] = Field(default_factory=empty_dict)  # K&Q: seat -> cards won
    dukes: dict[str, list[str]] = Field(default_factory=empty_dict)  # K&Q: seat -> dukes face up


ScoreWhat = Literal["complete", "incomplete", "collected", "dukes", "table"]


class ScoreItem(BaseModel):
    """One line of a round's scoring: what, which cards, how many points (signed)."""

    what: ScoreWhat
    colour: str | None = None
    cards: list[str] = Field(default_factory=empty_list)  # "ro2/3" = cannon ro2 with beer 3
    points: int = 0
    doubled: bool = False  # Kreuzer & Quer: the colour's 1-cannon was still on the table


class SeatScore(BaseModel):
    seat: str
    items: list[ScoreItem] = Field(default_factory=empty_list)
    total: int = 0


RoundEnd = Literal["two_rows", "nobody_can_play", "duke_sum", "cannot_play"]


class RoundResult(BaseModel):
    round: int
    dealer: str
    reason: RoundEnd
    stuck: str | None = None  # K&Q: the player who could not play
    scores: list[SeatScore]
    totals: dict[str, int]  # running totals after this round


class State(BaseModel):
    options: Options
    seats: list[SeatInfo]
    round: int = 1
    dealer: str
    start_player: str
    turn: int = 1  # the global turn number (Zug): the daemon's phase number
    to_move: str | None = None  # None once the game is over
    hands: dict[str, list[str]]
    pile: list[str]  # top of the pile is the end of the list
    out_of_game: list[str] = Field(default_factory=empty_list)  # D&D: unused base dukes
    table: Table = Field(default_factory=Table)
    out: list[str] = Field(default_factory=empty_list)  # D&D: seats out this round, hands shown
    totals: dict[str, int]
    history: list[RoundResult] = Field(default_factory=empty_list)
    nmr_streak: dict[str, int] = Field(default_factory=empty_dict)
    redeals: int = 0  # re-deals this round because the start player held no cannon
    finished: bool = False
    ranking: list[list[str]] | None = None
    left: list[str] = Field(default_factory=empty_list)  # seats that left the game: skipped
    # The hands of who left, out of play face down (hidden like the pile); a new deal
    # takes them back into the deck.
    discarded: list[str] = Field(default_factory=empty_list)

    @property
    def variant(self) -> str:
        return self.options.variant

    @property
    def seat_ids(self) -> list[str]:
        return [s.id for s in self.seats]

    def name(self, seat: str) -> str:
        return next((s.name for s in self.seats if s.id == seat), seat)

    def left_of(self, seat: str) -> str:
        """HB-1: "links" is the next seat in the fixed seating order."""
        ids = self.seat_ids
        for step in range(1, len(ids) + 1):
            after = ids[(ids.index(seat) + step) % len(ids)]
            if after not in self.left:  # a seat that left the game is skipped
                return after
        return seat

    @property
    def playing_ids(self) -> list[str]:
        return [s for s in self.seat_ids if s not in self.left]
