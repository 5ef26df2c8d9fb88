"""Random games played to the end: nothing crashes, counters stay sane, resolve is replayable.

The default run is small; ``-m slow`` plays many more games.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm_daemon.games.highnoon import GAME
from gm_daemon.games.highnoon.model import Options, Orders, State
from gm_daemon.games.highnoon.orders import describe_orders, read_orders
from gm_daemon.games.protocol import Line, Resolution, Seat
from gm_daemon.rng import phase_rng

from .support import random_orders

MAX_ROUNDS = 80
NAMES = [
    "Anna Arm",
    "Bert Bein",
    "Carl Colt",
    "Dora Dolch",
    "Emil Eisen",
    "Fritz Flinte",
    "Gerd Gurt",
    "Hans Hut",
    "Ida Iltis",
    "Jan Jolle",
]

games = st.fixed_dictionaries(
    {
        "players": st.integers(min_value=3, max_value=10),
        "seed": st.text(alphabet="abcdef0123456789", min_size=1, max_size=12),
        "round1_mode": st.sampled_from(["cycle", "random_challenges"]),
        "life": st.integers(min_value=1, max_value=12),
        "nmr_share": st.floats(min_value=0.0, max_value=0.5),
    }
)


def _echo_read_back(state: State, seat: str, orders: Orders, lang: str) -> Orders:
    """The acknowledgement of the orders, read as a new mail: the same orders again."""
    text = describe_orders(state, seat, orders, lang)
    lines = [Line(no, line) for no, line in enumerate(text.split("\n"), start=1)]
    again = read_orders(lines, state, seat, lang).orders
    assert again == orders
    return again


def _check_invariants(before: State, after: State) -> None:
    assert all(p.cartridges >= 0 for p in after.players)
    active = set(after.playing())
    assert all(p.life > 0 for p in after.players if p.active)
    assert all(x < y and {x, y} <= active for x, y in after.pairings)
    assert len(set(after.pairings)) == len(after.pairings)
    gone_before = {p.id for p in before.players if not p.active}
    assert gone_before <= {p.id for p in after.players if not p.active}
    assert after.round == before.round + 1


def _check_end(state: State) -> None:
    assert 2 * state.eliminated_count() >= state.n0
    assert sorted(seat for rank in state.ranking for seat in rank) == sorted(
        p.id for p in state.players
    )
    survivors = [p for p in state.players if p.active]
    if survivors:
        best = max(p.wins for p in survivors)
        assert all(state.player(seat).wins == best for seat in state.ranking[0])


def _play(game: dict) -> None:
    seats = [Seat(f"s{n}", NAMES[n]) for n in range(game["players"])]
    options = Options(round1_mode=game["round1_mode"], life=game["life"])
    seed = game["seed"]
    state = GAME.start(options, seats, phase_rng(seed, 0, "start"))
    players_rng = random.Random(seed)
    while not state.finished and state.round <= MAX_ROUNDS:
        orders = {}
        for seat in sorted(GAME.owed(state)):
            if players_rng.random() >= game["nmr_share"]:
                planned = random_orders(state, seat, players_rng)
                lang = players_rng.choice(["de", "en"])
                orders[seat] = _echo_read_back(state, seat, planned, lang)
        defaulted = frozenset(GAME.owed(state) - orders.keys())
        orders |= {seat: GAME.default_orders(state, seat) for seat in defaulted}
        after = GAME.resolve(state, orders, phase_rng(seed, state.round), defaulted).state
        assert after.last_round is not None and after.last_round.invalid_orders == []
        again = GAME.resolve(state, orders, phase_rng(seed, state.round), defaulted).state
        assert after == again, "resolve is deterministic"
        _check_invariants(state, after)
        for lang in ("de", "en"):
            assert GAME.report(state, Resolution(state=after), lang).public
        state = after
    if state.finished:
        _check_end(state)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_games_never_break(game: dict) -> None:
    _play(game)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_many_random_games_never_break(game: dict) -> None:
    _play(game)
