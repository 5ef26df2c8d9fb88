"""Helpers of the Highlander tests: positions written as data, mails read as the core reads
them, and one scenario step run through the engine."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from gm_daemon.games.highlander import GAME, boards
from gm_daemon.games.highlander.model import BoardState, Options, Orders, Retreating, State
from gm_daemon.games.protocol import Accepted, Header, Line, OrdersRejected, Resolution, Seat

SEATS = [Seat("P1", "Anna"), Seat("P2", "Bert")]
ENVELOPE = ("spiel:", "game:", "code:")


def new_game(options: Mapping[str, Any] | None = None) -> State:
    return GAME.start(Options(**(options or {})), SEATS, random.Random(0))


def _words(value: str | list[str]) -> list[str]:
    """ "LON EDI, LVP" -> ["LON", "EDI", "LVP"]."""
    text = " ".join(value) if isinstance(value, list) else value
    return [w for w in re.split(r"[,\s]+", text) if w]


def _units(value: str) -> list[str]:
    """ "A LON, F STP/SC" -> ["A LON", "F STP/SC"]."""
    return [u.strip().upper() for u in value.split(",") if u.strip()]


def board_of(name: str, data: Mapping[str, Any]) -> BoardState:
    owners = {c.upper(): seat for seat, cs in data.get("owners", {}).items() for c in _words(cs)}
    units = {seat: _units(u) for seat, u in data.get("units", {}).items()}
    starting = {s: [c.upper() for c in _words(v)] for s, v in data.get("starting", {}).items()}
    for seat in ("P1", "P2"):
        units.setdefault(seat, [])
        starting.setdefault(seat, sorted(c for c, s in owners.items() if s == seat))
    board = BoardState(name=name, owners=owners, starting=starting)
    boards.store_units(board, [boards.parse_unit(s, u) for s, us in units.items() for u in us],
                       ["P1", "P2"])  # fmt: skip
    board.dislodged = [Retreating(**d) for d in data.get("dislodged", [])]
    return board


def position(data: Mapping[str, Any], options: Mapping[str, Any] | None = None) -> State:
    """A state from a scenario's ``[position]`` table."""
    state = new_game(options)
    state.step = data.get("step", "movement")
    state.year = data.get("year", 1901)
    state.phase = data.get("phase", 5)
    state.ballot = data.get("ballot", 1)
    state.excluded = [c.upper() for c in _words(data.get("excluded", ""))]
    state.sudden_death = data.get("sudden_death", False)
    state.boards = [board_of(name, data[name]) for name in ("A", "B") if name in data]
    return state


def lines_of(text: str, state: State) -> list[Line]:
    """The mail body as the core hands it over: envelope lines and the current phase header
    left out, line numbers those of the mail."""
    kept = []
    for no, line in enumerate(text.splitlines(), start=1):
        if line.strip().lower().startswith(ENVELOPE):
            continue
        if GAME.read_header(line, state) is Header.CURRENT:
            continue
        kept.append(Line(no, line))
    return kept


def read(state: State, seat: str, text: str, lang: str = "de",
         on_file: Orders | None = None) -> Accepted[Orders]:  # fmt: skip
    return GAME.read_orders(lines_of(text, state), state, seat, lang, on_file)


def rejected(state: State, seat: str, text: str, lang: str = "de") -> OrdersRejected:
    try:
        read(state, seat, text, lang)
    except OrdersRejected as exc:
        return exc
    raise AssertionError(f"accepted: {text!r}")


def play(
    state: State, mails: Mapping[str, str], carried: Mapping[str, Orders] | None = None
) -> Resolution[State, Orders]:
    """Read every mail, give each owed seat without orders the default ones (NMR), resolve:
    what the core does at a deadline."""
    orders = dict(carried or {})
    for seat, text in mails.items():
        orders[seat] = read(state, seat, text).orders
    nmr = frozenset(GAME.owed(state) - orders.keys())
    for seat in nmr:
        orders[seat] = GAME.default_orders(state, seat)
    return GAME.resolve(state, orders, random.Random(GAME.phase_number(state)), nmr)
