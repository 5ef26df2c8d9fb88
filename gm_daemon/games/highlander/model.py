"""Highlander's stored data: the options, the state of a game or match, and a seat's orders.

Everything is plain JSON: places are the adjudicator's tokens (``LON``, ``STP/SC``), units
``"A LON"``, players their seat ids. The adjudicator's int-based board is rebuilt from this
at every resolution (``boards.py``), so the stored state never depends on its numbering.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

# The steps of a game. "grace" is not a step: a set-up step given a second deadline keeps its
# step and sets ``State.grace`` (phase type "grace").
Step = Literal["ballot", "setup", "movement", "retreats", "adjustments", "over"]
PHASE_TYPES = ("ballot", "setup", "grace", "movement", "retreats", "adjustments")
BALLOT_SIZES = (15, 10, 5)  # HL-3, HL-5
FIRST_YEAR = 1901
VICTORY = 18  # HL-12


class Options(BaseModel):
    """``[games.options]`` of a Highlander game (spec §6). The grace extension's length is
    the deadline length of the phase type ``grace`` in ``[games.deadlines]``."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    rules_edition: Literal["hasbro2000"] = Field(
        "hasbro2000",
        description="The Diplomacy rulebook adjudicated: the Hasbro 2000 edition (the only one).",
        examples=["hasbro2000"],
    )
    datc_prefs: Literal["2.4"] = Field(
        "2.4",
        description="How the rulebook's unclear cases are decided: the DATC 2.4 preferences "
        "(Szykman rule for convoy paradoxes; the only choice).",
        examples=["2.4"],
    )
    opt_3A: bool = Field(
        False,
        description="Option 3A: the first centre ballot must name at least one home centre "
        "of each of the seven great powers.",
        examples=[True],
    )
    opt_3B: bool = Field(
        False,
        description="Option 3B: no ballot and no unit set-up; the game starts from `fixed_setup`.",
        examples=[True],
    )
    # Two unit lists, the first seat's first: ["A LON", "F EDI", …]; the centres the units
    # stand on are that seat's starting centres (HL-7, and after a third identical ballot).
    fixed_setup: list[list[str]] | None = Field(
        None,
        description="A set-up imposed by the GM: two unit lists, the first player's (in "
        "config order) first; each unit stands on a supply centre, which becomes that "
        "player's starting centre. Needed for `opt_3B`, and used when the ballot fails three "
        "times (identical lists).",
        examples=[[["A LON", "F EDI", "F STP/NC"], ["A MOS", "F SEV", "A WAR"]]],
    )
    tournament: bool = Field(
        False,
        description="The tournament match: two boards at once, board B being board A with "
        "the owners swapped; the first player to win a board wins the match.",
        examples=[True],
    )
    max_year: int | None = Field(
        default=None,
        ge=FIRST_YEAR,
        description="Single game: the game ends in a draw after this year's adjustments. "
        "Unset: no limit (a draw only by agreement).",
        examples=[1920],
    )
    match_max_year: int | None = Field(
        default=None,
        ge=FIRST_YEAR,
        description="Tournament only: when no board is decided after this year's "
        "adjustments, the player with more centres on both boards together wins, then the "
        "one with more units, else sudden death. Unset: no limit.",
        examples=[1915],
    )
    min_start_scs: int | None = Field(
        default=None,
        ge=1,
        le=15,
        description="When the two ballot lists would give each player fewer starting "
        "centres than this, the ballot is held again as for identical lists. Unset: any "
        "overlap stands.",
        examples=[3],
    )
    cd_home: Literal["starting_scs"] = Field(
        "starting_scs",
        description="Civil disorder removes the units farthest from the player's starting "
        "centres (the only choice).",
        examples=["starting_scs"],
    )

    @model_validator(mode="after")
    def _consistent(self) -> Options:
        if self.opt_3B and self.fixed_setup is None:
            raise ValueError("opt_3B needs fixed_setup (two unit lists, the first seat's first)")
        if self.fixed_setup is not None:
            from gm_daemon.games.highlander.setup import check_fixed_setup

            check_fixed_setup(self.fixed_setup)
        if self.match_max_year is not None and not self.tournament:
            raise ValueError("match_max_year applies to tournament = true only")
        return self


class Retreating(BaseModel):
    """A dislodged unit waiting for its retreat order (or disbanded when ``options`` is
    empty)."""

    seat: str
    unit: str  # "A SIL"
    attacker: str  # the province the dislodging unit came from
    by_convoy: bool = False
    options: list[str] = []


class BoardState(BaseModel):
    name: str  # "A" (the only board of a single game) or "B"
    owners: dict[str, str] = {}  # centre -> seat; a centre not listed is neutral
    units: dict[str, list[str]] = {}  # seat -> ["A LON", "F STP/SC"]
    starting: dict[str, list[str]] = {}  # seat -> starting centres (HL-13 civil disorder)
    dislodged: list[Retreating] = []
    winner: str | None = None  # the seat that decided this board (HL-12, HL-17)


class OrderLine(BaseModel):
    seat: str
    text: str  # canonical English form, as the adjudicator writes it
    result: str  # succeeds / fails / invalid
    reason: str = ""  # the adjudicator's English reason; reports translate it


class BoardRecord(BaseModel):
    name: str
    orders: list[OrderLine] = []
    dislodged: list[Retreating] = []
    changes: list[tuple[str, str | None, str]] = []  # centre, old owner, new owner


class Record(BaseModel):
    """What the last resolution did, stored so that a report can be rendered again later."""

    step: Step
    year: int
    ballot: int = 1
    grace: bool = False
    boards: list[BoardRecord] = []
    ballots: dict[str, list[str]] = {}  # revealed lists of the ballot just resolved
    placements: dict[str, list[str]] = {}
    defaulted: list[str] = []
    offers: list[str] = []  # seats that offered a draw in that phase
    events: list[str] = []  # keys of what happened: "identical", "grace", "forfeit", …


class Result(BaseModel):
    """How the game (or match) ended."""

    winner: str | None = None
    reason: str  # a phrase key: "won_centres", "draw_agreed", "forfeit", …


class State(BaseModel):
    options: Options
    seats: list[str]  # the two seat ids, in config order (player 0 and 1 of the map)
    names: list[str]
    phase: int = 1
    step: Step = "ballot"
    grace: bool = False
    late: list[str] = []  # seats the grace phase waits for
    year: int = FIRST_YEAR
    ballot: int = 1  # 1, 2, 3: the round of the centre ballot (HL-5)
    excluded: list[str] = []  # centres no later ballot may name
    sealed: dict[str, list[str]] = {}  # lists handed in on time while the other is in grace
    boards: list[BoardState] = []
    sudden_death: bool = False  # HL-18 step 4
    last: Record | None = None
    result: Result | None = None

    def name(self, seat: str | None) -> str:
        return self.names[self.seats.index(seat)] if seat in self.seats else "–"

    def other(self, seat: str) -> str:
        return self.seats[1 - self.seats.index(seat)]

    def board(self, name: str) -> BoardState:
        return next(b for b in self.boards if b.name == name)

    @property
    def ballot_size(self) -> int:
        return BALLOT_SIZES[self.ballot - 1]


class Orders(BaseModel):
    """One seat's orders for the current phase, as accepted; what is not used is empty."""

    centres: list[str] = []  # ballot: "LON", …
    placement: list[str] = []  # set-up: "A LON", "F STP/SC"
    boards: dict[str, list[str]] = {}  # board name -> canonical order texts
    draw: bool = False  # REMIS / DRAW (HL-14)
