"""Shared helpers of the Hexenhalma tests: boards, a game state, reading a mail the way the
core hands it over, and the one-line form of a fate that scenarios are written in."""

from __future__ import annotations

import random
import re
from pathlib import Path

from gm_daemon.games.hexenhalma import GAME
from gm_daemon.games.hexenhalma.board import Board
from gm_daemon.games.hexenhalma.model import Orders, State
from gm_daemon.games.hexenhalma.options import Options
from gm_daemon.games.hexenhalma.simulate import Fate
from gm_daemon.games.protocol import Line, Seat

HERE = Path(__file__).resolve().parent
BOARDS = HERE / "boards"
_GAME_LINE = re.compile(r"^\s*(spiel|game)\s*:", re.IGNORECASE)


def board_text(name: str, changes: dict[str, str] | None = None) -> str:
    text = (BOARDS / f"{name}.txt").read_text(encoding="utf-8")
    for key, value in (changes or {}).items():
        text = re.sub(rf"^{key}:.*$", f"{key}: {value}", text, flags=re.MULTILINE)
    return text


def new_state(
    players: list[str],
    boards: list[str],
    *,
    scoring: str = "arrivals",
    lot_seed: str | None = None,
    rounds: int | None = None,
) -> State:
    options = Options(boards=boards, scoring=scoring, rounds=rounds)  # type: ignore[arg-type]
    seats = [Seat(p, p.capitalize()) for p in players]
    state = GAME.start(options, seats, random.Random(7))
    return state.model_copy(update={"lot_seed": lot_seed}) if lot_seed else state


def mail_lines(text: str) -> list[Line]:
    """The order text as the core hands it to ``read_orders``: numbered as in the mail, the
    ``Spiel:``/``Game:`` line (the core's envelope) left out."""
    return [
        Line(no, line)
        for no, line in enumerate(text.strip("\n").splitlines(), 1)
        if not _GAME_LINE.match(line)
    ]


def read(state: State, seat: str, text: str, lang: str = "de") -> Orders:
    return GAME.read_orders(mail_lines(text), state, seat, lang).orders


def compact(board: Board, fate: Fate | None) -> str:
    """``bann A3@4 out A1@6``: the notes on the way, then the end, fields in the frame the
    fate is given in."""
    if fate is None:
        return "absent"
    parts = [f"{what} {board.field_name(cell)}@{t}" for what, cell, t in fate.notes]
    parts.append(f"{fate.kind} {board.field_name(fate.cell)}@{fate.t}")
    return " ".join(parts)
