"""The data of a Primtraktorrennen: options, tractors, orders and the stored state.

Everything here is a pydantic model because the daemon stores state and orders as JSON and
hands them back whole. A tractor's ``trail`` is the list of every cell it has occupied, start
cell first, in the order it drove them: the cell count, the position (the last cell) and the
board's occupancy all follow from it, so there is nothing that could disagree.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gm_daemon.games.protocol import empty_list

Cell = tuple[int, int]
Change = Literal["+", "-", "="]

PHASE_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def phase_letter(phase: int) -> str:
    """Phase 1 is "a", phase 5 is "e" (the seed's "Spielverlauf")."""
    return PHASE_LETTERS[phase - 1]


class Direction(StrEnum):
    """Compass directions in clockwise order (PT-1, A-9); the value is the English letter."""

    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"

    def clockwise(self) -> Direction:
        order = list(Direction)
        return order[(order.index(self) + 1) % 4]

    @property
    def delta(self) -> Cell:
        """One step on the board: north is y-1, east is x+1 (PT-1)."""
        return _DELTAS[self]


_DELTAS: dict[Direction, Cell] = {
    Direction.NORTH: (0, -1),
    Direction.EAST: (1, 0),
    Direction.SOUTH: (0, 1),
    Direction.WEST: (-1, 0),
}


class Options(BaseModel):
    """``[games.options]`` of a primtraktor game (rules section 6)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    board: int = Field(
        51,
        ge=5,
        le=2000,
        description="The edge of the square board (a torus: leaving one edge enters the "
        "opposite one).",
        examples=[31],
    )
    max_rounds: int = Field(
        13, ge=1, description="The game ends after this round at the latest.", examples=[10]
    )
    max_legs: int = Field(
        5,
        ge=1,
        le=26,
        description="The most legs (partial moves) a player may order in a round.",
        examples=[3],
    )
    bonus: list[int] = Field(
        default_factory=lambda: [19, 13, 7],
        description="The survival bonus in cells: the first value for the tractor "
        "eliminated last (or surviving), the next for the one before, and so on; players "
        "out at the same moment share their places' bonuses.",
        examples=[[20, 10, 5]],
    )
    start_min_dist: int = Field(
        5,
        ge=0,
        description="The least distance between two start cells (counted in king's moves "
        "across the torus); the start cells are drawn at random.",
        examples=[8],
    )
    round1_nmr: Literal["eliminate", "north_plus"] = Field(
        "eliminate",
        description="A player without orders in round 1: `eliminate` (the rules: his tractor "
        "never moved, so it is out) or `north_plus` (it drives `N+`: north at speed 2).",
        examples=["north_plus"],
    )
    nmr_conflict: Literal["always_lose", "normal"] = Field(
        "always_lose",
        description="A tractor driven without orders (NMR): `always_lose` — its leg loses "
        "every conflict over a cell; `normal` — it meets others like any leg.",
        examples=["normal"],
    )
    tiebreak: list[Literal["later_elimination"]] = Field(
        default_factory=lambda: ["later_elimination"],
        description='How equal scores are separated: `["later_elimination"]` puts the '
        "player eliminated later first; `[]` shares the place.",
        examples=[[]],
    )


class Leg(BaseModel):
    """One partial move (Teilzug): a direction and a speed change; ``=`` when none was given."""

    model_config = ConfigDict(frozen=True)

    direction: Direction
    change: Change = "="


class Orders(BaseModel):
    """A round's orders: 1 to ``max_legs`` legs as read, or the NMR default.

    For a defaulted seat ``legs`` holds the leg the NMR procedure chose against the board at
    the start of the round (empty when the procedure eliminates the tractor); the resolution
    recomputes it from the state, so a stored NMR order can never disagree with the rules.
    """

    legs: list[Leg] = Field(default_factory=empty_list)


EliminationReason = Literal["speed", "crash", "conflict", "nmr", "left"]


class Elimination(BaseModel):
    """When and why a tractor left the race (PT-3, PT-20).

    ``speed``: the player's own order took the speed below 2 (PT-5).
    ``crash``: Fahrfehler, drove onto a cell occupied before this phase (``others`` = owner).
    ``conflict``: lost a cell to ``others`` in the same phase, or arrived with them at once.
    ``nmr``: the NMR procedure found no possible leg (or round-1 NMR, PT-14).
    ``left``: the player resigned or the GM removed him; out after the round he left in.
    """

    round: int
    phase: int
    reason: EliminationReason
    cell: Cell | None = None
    others: list[str] = Field(default_factory=empty_list)

    @property
    def time(self) -> tuple[int, int]:
        """Elimination time for the survival bonus (PT-18): later is better."""
        return (self.round, self.phase)


class Tractor(BaseModel):
    """One player's tractor (PT-3)."""

    seat: str
    name: str
    letter: str
    trail: list[Cell]
    speed: int = 0
    direction: Direction | None = None
    eliminated: Elimination | None = None

    @property
    def position(self) -> Cell:
        return self.trail[-1]

    @property
    def cells(self) -> int:
        return len(self.trail)

    @property
    def active(self) -> bool:
        return self.eliminated is None


class State(BaseModel):
    """The whole game between two resolutions.

    ``round`` is the round whose orders are awaited; once ``finished`` it stays at the last
    round played, and ``ended_phase`` is the phase after which the game ended (PT-16).
    """

    options: Options
    round: int = 1
    tractors: list[Tractor]
    finished: bool = False
    ended_phase: int | None = None
    leaving: list[str] = Field(default_factory=empty_list)  # seats out once this round is played

    @model_validator(mode="after")
    def _seats_unique(self) -> State:
        seats = [t.seat for t in self.tractors]
        if len(set(seats)) != len(seats):
            raise ValueError("two tractors share a seat id")
        return self

    def tractor(self, seat: str) -> Tractor:
        for tractor in self.tractors:
            if tractor.seat == seat:
                return tractor
        raise KeyError(seat)

    def active(self) -> list[Tractor]:
        return [t for t in self.tractors if t.active]

    def playing(self) -> list[str]:
        """The seats whose tractors still drive; one who leaves drives the round now running."""
        return [t.seat for t in self.active()]
