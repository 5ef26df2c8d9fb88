"""High Noon's stored data: options, state and orders (pydantic, stored whole as JSON).

The state carries its options because ``resolve`` receives only state, orders and rng, and
the record of the last round because a report must be renderable again from stored data.
"""

from typing import Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from gm_daemon.games.protocol import empty_dict, empty_list

FIRST_POSITION = 19
LAST_POSITION = 1
Pair = tuple[str, str]  # a duel: the two seat ids, lower id first


class Options(BaseModel):
    """``[games.options]`` of a High Noon game (rules §6); unknown keys are config errors."""

    model_config = ConfigDict(extra="forbid")

    life: int = Field(
        default=12,
        ge=1,
        validation_alias=AliasChoices("life", "start_L"),
        description="Life points (L) every gunslinger starts with (also accepted as "
        "`start_L`, the rules' name).",
        examples=[10],
    )
    p_per_duel: int = Field(
        default=2,
        ge=0,
        description="Cartridges (P) a player gets for every duel announced for the next round.",
        examples=[3],
    )
    penalty_0_duels: int = Field(
        default=4,
        ge=0,
        description="Life points an active player loses in a round in which he fought no duel.",
        examples=[3],
    )
    penalty_1_duel: int = Field(
        default=2,
        ge=0,
        description="Life points an active player loses in a round in which he fought only "
        "one duel.",
        examples=[1],
    )
    round1_mode: Literal["cycle", "random_challenges"] = Field(
        "cycle",
        description="How the first round's duels are drawn: `cycle` seats the players in a "
        "random circle and each duels his two neighbours (two duels each); "
        "`random_challenges` challenges two random opponents for every player, as if he "
        "had sent the challenges himself.",
        examples=["random_challenges"],
    )
    min_players: int = Field(
        default=3,
        ge=3,
        description="A game with fewer players does not start. At least 3.",
        examples=[6],
    )
    tiebreak: list[Literal["L", "P"]] = Field(
        default_factory=lambda: ["L", "P"],
        description="Who wins when several have won the same number of duels (D): first the "
        "one with more life points (`L`), then more cartridges (`P`), in the order listed. "
        "`[]`: such a tie is a shared win.",
        examples=[["L"]],
    )

    @field_validator("tiebreak")
    @classmethod
    def _distinct(cls, keys: list[str]) -> list[str]:
        if len(set(keys)) != len(keys):
            raise ValueError("tiebreak names each of L and P at most once")
        return keys


class Player(BaseModel):
    """One gunslinger: D (wins), L (life) and P (cartridges) as published."""

    id: str
    name: str
    wins: int = 0
    life: int
    cartridges: int = 0
    eliminated_in_round: int | None = None

    @property
    def active(self) -> bool:
        return self.eliminated_in_round is None


class Roll(BaseModel):
    """One d100 draw, kept for the game log (HN-11)."""

    shooter: str
    position: int
    roll: int
    hit: bool


class DuelResult(BaseModel):
    """What happened in one duel: fired shots in firing order and who hit."""

    a: str
    b: str
    fired_a: list[int] = Field(default_factory=empty_list)
    fired_b: list[int] = Field(default_factory=empty_list)
    hit_a: bool = False
    hit_b: bool = False
    unfired_a: list[int] = Field(default_factory=empty_list)  # listed, not fired (duel ended)
    unfired_b: list[int] = Field(default_factory=empty_list)
    rolls: list[Roll] = Field(default_factory=empty_list)

    def winner(self) -> str | None:
        """The one who hit when the other did not; None for a double hit or no hit."""
        if self.hit_a != self.hit_b:
            return self.a if self.hit_a else self.b
        return None


class RoundRecord(BaseModel):
    """The published result of one round, kept in the state for rendering the report."""

    round: int
    duels: list[DuelResult] = Field(default_factory=empty_list)
    duel_counts: dict[str, int] = Field(default_factory=empty_dict)  # scheduled duels per player
    penalties: dict[str, int] = Field(default_factory=empty_dict)  # L taken under HN-15
    eliminated: list[str] = Field(default_factory=empty_list)
    challenges: list[Pair] = Field(default_factory=empty_list)  # (challenger, target) that count
    invalid_orders: list[str] = Field(default_factory=empty_list)  # stored orders unusable -> NMR


class State(BaseModel):
    """The whole game between two rounds; ``round`` is the round now being played."""

    options: Options
    round: int = 1
    n0: int
    players: list[Player]
    pairings: list[Pair] = Field(default_factory=empty_list)
    last_round: RoundRecord | None = None
    finished: bool = False
    ranking: list[list[str]] = Field(default_factory=empty_list)  # set when finished
    leaving: list[str] = Field(default_factory=empty_list)  # out once this round is played (leave)

    def player(self, seat: str) -> Player:
        for player in self.players:
            if player.id == seat:
                return player
        raise KeyError(seat)

    def playing(self) -> list[str]:
        """Who is not eliminated; one who leaves plays out the round now running."""
        return [p.id for p in self.players if p.active]

    def opponents(self, seat: str) -> list[str]:
        """This round's opponents of a seat, in pairing order."""
        return [b if a == seat else a for a, b in self.pairings if seat in (a, b)]

    def eliminated_count(self) -> int:
        return sum(1 for p in self.players if not p.active)


class Orders(BaseModel):
    """One player's orders for a round, already checked and normalised.

    ``shots`` maps an opponent's id to distinct positions, highest first; an opponent not
    listed gets no shots. ``challenges`` are target ids in the player's order of priority,
    void and excess names already dropped.
    """

    shots: dict[str, list[int]] = Field(default_factory=empty_dict)
    challenges: list[str] = Field(default_factory=empty_list)

    def planned(self) -> int:
        return sum(len(positions) for positions in self.shots.values())
