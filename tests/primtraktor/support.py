"""Building states for tests from the compact scenario form used in scenarios/*.json.

A tractor is written as ``{"seat": "A", "at": [10, 20], "speed": 7, "dir": "E",
"trail": [[9, 20]], "out": {"round": 3, "phase": "b", "reason": "crash"}}``: ``trail`` lists
the cells occupied before the position (the position is appended), ``out`` marks a tractor
already eliminated. ``blocked`` cells belong to a retired tractor "X" that takes no part.
"""

from __future__ import annotations

from typing import Any

from gm_daemon.games.primtraktor import GAME
from gm_daemon.games.primtraktor.model import (
    PHASE_LETTERS,
    Direction,
    Elimination,
    Options,
    Orders,
    State,
    Tractor,
)
from gm_daemon.games.protocol import Line

BLOCKER = "X"


def _cell(raw: list[int]) -> tuple[int, int]:
    return (raw[0], raw[1])


def make_tractor(index: int, raw: dict[str, Any]) -> Tractor:
    trail = [_cell(c) for c in raw.get("trail", [])] + [_cell(raw["at"])]
    out = raw.get("out")
    elimination = None
    if out is not None:
        elimination = Elimination(
            round=out["round"],
            phase=PHASE_LETTERS.index(out["phase"]) + 1,
            reason=out.get("reason", "crash"),
        )
    return Tractor(
        seat=raw["seat"],
        name=raw.get("name", raw["seat"]),
        letter=raw.get("letter", chr(ord("A") + index)),
        trail=trail,
        speed=raw.get("speed", 0),
        direction=Direction(raw["dir"]) if raw.get("dir") else None,
        eliminated=elimination,
    )


def make_state(scenario: dict[str, Any]) -> State:
    tractors = [make_tractor(i, raw) for i, raw in enumerate(scenario["tractors"])]
    blocked = [_cell(c) for c in scenario.get("blocked", [])]
    if blocked:
        retired = Elimination(round=1, phase=1, reason="nmr")
        tractors.append(
            Tractor(seat=BLOCKER, name="Xaver", letter="X", trail=blocked, eliminated=retired)
        )
    options = Options.model_validate(scenario.get("options", {}))
    return State(options=options, round=scenario.get("round", 2), tractors=tractors)


def read(state: State, seat: str, order_text: str, lang: str = "de") -> Orders:
    """Orders as a player would write them, through the real grammar; "NMR" for none."""
    if order_text == "NMR":
        return GAME.default_orders(state, seat)
    lines = [Line(no, text) for no, text in enumerate(order_text.split("\n"), start=1)]
    return GAME.read_orders(lines, state, seat, lang).orders


def all_orders(state: State, texts: dict[str, str]) -> dict[str, Orders]:
    """Every active tractor's orders: as given, NMR for the rest (as the daemon does)."""
    return {t.seat: read(state, t.seat, texts.get(t.seat, "NMR")) for t in state.active()}


def defaulted(state: State, texts: dict[str, str]) -> frozenset[str]:
    """The seats ``all_orders`` gave the NMR default, as the daemon tells ``resolve``."""
    return frozenset(t.seat for t in state.active() if texts.get(t.seat, "NMR") == "NMR")
