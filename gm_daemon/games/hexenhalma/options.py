"""``[games.options]`` of a Hexenhalma game.

``boards`` holds one board text per round, in order: the config loader has already replaced
each ``{ file = "boards/turm.txt" }`` by that file's text, so a board may also be written
inline. Every board is parsed here, so ``gm-daemon check`` names a broken board and its
cells before the game ever sees it. The GM may give fewer boards than ``rounds`` and add the
rest later (the round then waits, see ``engine.waiting_for``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from gm_daemon.games.hexenhalma.board import Board, BoardError, parse_board
from gm_daemon.games.protocol import empty_list


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    boards: list[str] = Field(
        default_factory=empty_list,
        description="One board per round, in order: each a board text (see "
        "docs/games/hexenhalma.md), usually kept in its own file and written as "
        '`{ file = "boards/turm.txt" }` (relative to the config file). Boards for later '
        "rounds may be added while the game runs; a round without its board waits, and the "
        "GM is told.",
        examples=[[{"file": "boards/turm.txt"}, {"file": "boards/kreuz.txt"}]],
    )
    rounds: int | None = Field(
        None,
        ge=1,
        description="How many rounds the game has. Unset: as many as `boards` holds. May "
        "be more than the boards given so far.",
        examples=[4],
    )
    scoring: Literal["arrivals", "league"] = Field(
        "arrivals",
        description="How the standings are ranked: `arrivals` by the witches brought into "
        "the goal over all pairings, then the difference to those conceded, then pairings "
        "won; `league` by 2 points for a pairing won and 1 for a draw, then arrivals.",
        examples=["league"],
    )

    @field_validator("boards")
    @classmethod
    def _boards_parse(cls, boards: list[str]) -> list[str]:
        problems = []
        for i, text in enumerate(boards, 1):
            try:
                parse_board(text)
            except BoardError as exc:
                problems.append(f"board {i} (round {i}): {exc}")
        if problems:
            raise ValueError("; ".join(problems))
        return boards

    @model_validator(mode="after")
    def _enough_rounds(self) -> Options:
        if self.rounds is None and not self.boards:
            raise ValueError("give 'rounds' when no board is given yet")
        if self.rounds is not None and len(self.boards) > self.rounds:
            raise ValueError(f"{len(self.boards)} boards for only {self.rounds} rounds")
        return self

    def round_count(self) -> int:
        return self.rounds if self.rounds is not None else len(self.boards)

    def parsed(self) -> list[Board]:
        return [parse_board(text) for text in self.boards]
