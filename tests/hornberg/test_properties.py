"""Random legal games of both variants, played to the end through the protocol.

Every resolution is followed by a look at the whole state (``randomplay.check_invariants``):
cards conserved (hands + pile + table + collected + out of game = the box), hands never
above 10, the player on turn able to play, kegs held for every colour on the table, D&D rows
within their length, the K&Q grid within 6 x 3 and below 30 duke points.

By default 200 games run (about 8 s). The long run plays thousands:

    .venv/bin/pytest tests/hornberg/test_properties.py -m slow
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from .randomplay import GameStats, play_game

DEFAULT_GAMES = 100  # per variant
SLOW_GAMES = 2000  # per variant, under -m slow

OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "dd": [{}, {"no_cannon_start": "next"}, {"nmr_policy": "skip"}, {"hand_size": 8}],
    "kq": [
        {},
        {"kq_double_negative": True},
        {"kq_keg_reclaim": True, "nmr_policy": "skip"},
        {"beer_counts": [2, 2, 2, 3, 3, 3, 2, 2, 2], "kq_max_rounds": 3},
    ],
}


def play_many(variant: str, count: int, first_seed: int = 0) -> tuple[GameStats, Counter[str]]:
    total = GameStats()
    reasons: Counter[str] = Counter()
    for seed in range(first_seed, first_seed + count):
        players = 2 + seed % 4
        options = OPTION_SETS[variant][seed // 4 % len(OPTION_SETS[variant])]
        state, stats = play_game(variant, players, seed, **options)
        _check_game_end(state, players, options)
        reasons.update(r.reason for r in state.history)
        for name in ("turns", "rounds", "nmr", "read_back", "plan_plays"):
            setattr(total, name, getattr(total, name) + getattr(stats, name))
    return total, reasons


def _check_game_end(state: Any, players: int, options: dict[str, Any]) -> None:
    """DD-10: as many rounds as players. KQ-10: someone reached 100 (or the round cap)."""
    assert state.finished and len(state.history) == state.round
    if state.variant == "dd":
        assert state.round == players
    elif not options.get("kq_max_rounds") or state.round < options["kq_max_rounds"]:
        assert max(state.totals.values()) >= state.options.kq_target
    best = max(state.totals.values())
    assert state.ranking[0] == [s for s, t in state.totals.items() if t == best]


@pytest.mark.parametrize("variant", ["dd", "kq"])
def test_random_games_end_without_an_illegal_state(variant: str) -> None:
    stats, reasons = play_many(variant, DEFAULT_GAMES)
    ends = {"dd": {"two_rows", "nobody_can_play"}, "kq": {"duke_sum", "cannot_play"}}
    assert set(reasons) == ends[variant], "every way a round can end was played"
    assert stats.nmr and stats.read_back and stats.plan_plays


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["dd", "kq"])
def test_thousands_of_random_games(variant: str) -> None:
    stats, _ = play_many(variant, SLOW_GAMES, first_seed=100_000)
    assert stats.turns > SLOW_GAMES * 50
