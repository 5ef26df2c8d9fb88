"""What the daemon stores for a Hexenhalma game: the orders of one team and the game state.

Orders keep each witch in the player's home frame and in the canonical relative form
(HH-5); an invalid witch (HH-6) is stored with the reason she does not start, so the
acknowledgement, the NMR note and the result all tell the same story.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from gm_daemon.games.hexenhalma.board import Board, parse_board
from gm_daemon.games.protocol import empty_dict, empty_list

Direction = Literal["N", "E", "S", "W"]
Spell = Literal["K", "M", "I", "B"]


class StepOrder(BaseModel):
    """One step: a walk or a Beelzebub jump, optionally with a spell (a Bann has a target)."""

    model_config = ConfigDict(frozen=True)

    walk: Direction | None = None
    jump: str | None = None  # target field in the home frame
    spell: Spell | None = None
    bann: str | None = None  # Bann target in the home frame


class Void(BaseModel):
    """Why a witch does not start: a phrase key of the catalogue and its values."""

    model_config = ConfigDict(frozen=True)

    reason: str
    values: dict[str, str | int] = Field(default_factory=empty_dict)


class WitchOrder(BaseModel):
    number: int
    start: str
    steps: list[StepOrder]
    line: int | None = None  # where the player wrote her, for messages
    void: Void | None = None


class Orders(BaseModel):
    """One team's orders for the current round; no witches = the team fields none (HH-7)."""

    witches: list[WitchOrder] = Field(default_factory=empty_list)

    def starting(self) -> list[WitchOrder]:
        return [w for w in self.witches if w.void is None]


class SeatInfo(BaseModel):
    id: str
    name: str


class Totals(BaseModel):
    """One player's figures over some pairings (a round, or the game so far)."""

    arrivals: int = 0
    conceded: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, other: Totals) -> Totals:
        return Totals(**{k: getattr(self, k) + getattr(other, k) for k in Totals.model_fields})

    @property
    def difference(self) -> int:
        return self.arrivals - self.conceded

    @property
    def league(self) -> int:
        return 2 * self.wins + self.draws


class Pairing(BaseModel):
    """One pairing's result: ``a`` and ``b`` are seat ids with ``a < b``."""

    a: str
    b: str
    score_a: int
    score_b: int


class Cast(BaseModel):
    """One witch's spell in a lot: her team's seat, her number, the spell letter."""

    seat: str
    witch: int
    spell: str


class Lot(BaseModel):
    """HH-15: a lot drawn in pairing ``a``–``b`` at ``step`` on ``field`` (as ``a`` sees the
    board), who won it and every witch that cast there."""

    a: str
    b: str
    step: int
    field: str
    winner: Cast
    casters: list[Cast]


class RoundRecord(BaseModel):
    """The last resolved round, whole: enough to re-simulate any pairing for BILD/PICTURE
    and to re-render the result mail from stored data alone."""

    round: int
    board: str
    orders: dict[str, Orders]
    defaulted: list[str] = Field(default_factory=empty_list)
    pairings: list[Pairing] = Field(default_factory=empty_list)
    lots: list[Lot] = Field(default_factory=empty_list)


class State(BaseModel):
    seats: list[SeatInfo]
    round: int = 1  # the round now open (or waiting for its board)
    rounds: int
    scoring: Literal["arrivals", "league"] = "arrivals"
    boards: list[str] = Field(default_factory=empty_list)  # board texts, round 1 first
    lot_seed: str  # drawn at the start from the game's seed; the ``game`` of HH-15's key
    history: list[dict[str, Totals]] = Field(default_factory=empty_list)  # per round, per seat
    last: RoundRecord | None = None
    finished: bool = False
    lots_drawn: int = 0  # in every round so far: the final result says what decided them
    leaving: list[str] = Field(default_factory=empty_list)  # out once this round is played (leave)
    left: list[str] = Field(default_factory=empty_list)  # out: no more pairings, figures stay

    def playing(self) -> list[str]:
        """Seats that still field teams (everyone but who left)."""
        return [s.id for s in self.seats if s.id not in self.left]

    def name(self, seat: str) -> str:
        return next((s.name for s in self.seats if s.id == seat), seat)

    def names(self) -> dict[str, str]:
        """Every seat's name by id: what a text naming many players looks up (``name``
        walks the seats, and a round of 200 players names them 80,000 times)."""
        return {s.id: s.name for s in self.seats}

    def board(self) -> Board | None:
        """The current round's board, None while the GM has not given it yet."""
        if self.round > len(self.boards):
            return None
        return parse_board(self.boards[self.round - 1])

    def board_of(self, round_no: int) -> Board | None:
        return parse_board(self.boards[round_no - 1]) if round_no <= len(self.boards) else None

    def totals(self) -> dict[str, Totals]:
        result = {s.id: Totals() for s in self.seats}
        for record in self.history:
            for seat, figures in record.items():
                result[seat] = result.get(seat, Totals()).add(figures)
        return result
