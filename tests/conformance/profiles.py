"""What the conformance suite needs to know of each kind: options and players to start a
game with, the rule ids of its spec, and where its rule scenarios live.

A kind registered in ``gm_daemon.games`` without a profile here fails the suite: a new kind
is not done before it passes (see docs/protocol.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Profile:
    options: dict[str, Any] = field(default_factory=dict)
    players: int = 3
    rules: tuple[str, ...] = ()  # every rule id of the spec, each must be named by a scenario
    scenarios: tuple[Path, ...] = ()
    max_phases: int = 60  # enough to see a game end, or at least many phases of it


def _board(name: str) -> str:
    return (TESTS.parent / "config" / "boards" / f"{name}.txt").read_text(encoding="utf-8")


def _ids(prefix: str, last: int) -> tuple[str, ...]:
    return tuple(f"{prefix}-{n}" for n in range(1, last + 1))


PROFILES: dict[str, Profile] = {
    "guess": Profile(options={"rounds": 3}),
    "hooks": Profile(options={"years": 2, "fields": ["Acker", "Wiese"]}),
    "rounds": Profile(options={"rounds": 4}, players=4),
    "highnoon": Profile(
        players=4,
        rules=_ids("HN", 18) + _ids("TC-HN", 5),
        scenarios=(TESTS / "highnoon" / "scenarios",),
    ),
    "primtraktor": Profile(
        rules=_ids("PT", 20),
        scenarios=(TESTS / "primtraktor" / "scenarios",),
    ),
    "hexenhalma": Profile(
        options={"boards": [_board("turm"), _board("kreuz")]},
        rules=_ids("HH", 16) + _ids("TC-HH", 6),
        scenarios=(TESTS / "hexenhalma" / "scenarios",),
    ),
    "hornberg": Profile(
        options={"variant": "kq"},
        rules=_ids("HB", 7) + _ids("DD", 11) + _ids("KQ", 11) + _ids("TC-HB", 10),
        scenarios=(TESTS / "hornberg" / "scenarios",),
        max_phases=40,
    ),
    "highlander": Profile(
        players=2,
        rules=_ids("HL", 19) + _ids("TC-HL", 7),
        scenarios=(TESTS / "highlander" / "scenarios",),
        max_phases=12,
    ),
}
