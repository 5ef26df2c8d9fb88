"""Properties over random games: no cell is ever occupied twice; scores are cells plus bonus;
a resolution replays identically; the integer tick clock agrees with exact fractions.

The default runs are small; ``pytest -m slow`` runs the same properties on many more games.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm_daemon.games.primtraktor import GAME
from gm_daemon.games.primtraktor.events import GameEnded, LegDriven, load_events
from gm_daemon.games.primtraktor.model import Direction, Leg, Options, Orders, State
from gm_daemon.games.primtraktor.phase import Move, simulate_phase
from gm_daemon.games.primtraktor.scoring import survival_bonus
from gm_daemon.games.primtraktor.torus import path
from gm_daemon.games.protocol import Seat

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CHANGES = ["+", "+", "=", "=", "=", "-"]  # mostly sensible drivers, some braking
legs_st = st.lists(
    st.builds(Leg, direction=st.sampled_from(list(Direction)), change=st.sampled_from(CHANGES)),
    min_size=1,
    max_size=5,
)
# One player in eight sends nothing (None: NMR).
orders_st = st.tuples(st.integers(0, 7), legs_st).map(lambda t: None if t[0] == 0 else t[1])
game_st = st.tuples(
    st.integers(7, 15),  # board
    st.integers(2, 8),  # players
    st.integers(0, 2**32),  # seed
    st.lists(st.lists(orders_st, min_size=8, max_size=8), min_size=1, max_size=13),
)


def new_game(board: int, players: int, seed: int) -> State:
    seats = [Seat(f"p{i}", f"Player {i}") for i in range(players)]
    options = Options(board=board, start_min_dist=2, max_rounds=13)
    return GAME.start(options, seats, random.Random(seed))


def round_orders(state: State, plan: list[list[Leg] | None]) -> dict[str, Orders]:
    orders = {}
    for index, tractor in enumerate(state.tractors):
        if not tractor.active:
            continue
        legs = plan[index]
        if legs is not None and tractor.speed == 0:  # start as the rules demand (PT-6)
            legs = [Leg(direction=legs[0].direction, change="+"), *legs[1:]]
        orders[tractor.seat] = (
            Orders(legs=legs) if legs is not None else GAME.default_orders(state, tractor.seat)
        )
    return orders


def play(game: tuple, check) -> None:
    """Play the random game round by round, calling
    ``check(before, orders, defaulted, resolution)``."""
    board, players, seed, rounds = game
    state = new_game(board, players, seed)
    for plan in rounds:
        orders = round_orders(state, plan)
        pairs = zip(state.tractors, plan, strict=False)
        defaulted = frozenset(t.seat for t, legs in pairs if t.active and legs is None)
        resolution = GAME.resolve(state, orders, random.Random(seed), defaulted)
        check(state, orders, defaulted, resolution)
        state = resolution.state
        if state.finished:
            break


def check_cells_once(before, orders, defaulted, resolution) -> None:
    counts = Counter(cell for t in resolution.state.tractors for cell in t.trail)
    assert max(counts.values()) == 1
    for old, new in zip(before.tractors, resolution.state.tractors, strict=True):
        assert new.trail[: old.cells] == old.trail  # nothing is ever taken away
        if not old.active:
            assert new == old  # an eliminated tractor never moves again


def check_legs_are_path_prefixes(before, orders, defaulted, resolution) -> None:
    """Each leg's new cells are the first cells of its path, in order (PT-9, PT-11)."""
    size = before.options.board
    trails = {t.seat: t.trail for t in resolution.state.tractors}
    taken = {t.seat: t.cells for t in before.tractors}
    for event in load_events(resolution.events):
        if isinstance(event, LegDriven):
            gained = trails[event.seat][taken[event.seat] : taken[event.seat] + event.gained]
            assert gained == path(event.start, event.direction, event.speed, size)[: event.gained]
            taken[event.seat] += event.gained


def check_scores(before, orders, defaulted, resolution) -> None:
    """PT-17: score = occupied cells + bonus; the bonus follows PT-18 exactly."""
    if not resolution.finished:
        return
    state = resolution.state
    (end,) = [e for e in load_events(resolution.events) if isinstance(e, GameEnded)]
    bonus = survival_bonus(state.tractors, state.options.bonus)
    for score in end.scores:
        tractor = state.tractor(score.seat)
        assert score.cells == tractor.cells == len(set(tractor.trail))
        assert score.total == score.cells + score.bonus
        assert score.bonus == bonus[score.seat]
    assert sum(s.bonus for s in end.scores) <= sum(state.options.bonus)
    ranked = [seat for group in resolution.ranking for seat in group]
    assert sorted(ranked) == sorted(t.seat for t in state.tractors)


def check_replay(before, orders, defaulted, resolution) -> None:
    """The same state (also after a JSON round trip, as the daemon stores it) and orders give
    the same resolution, byte for byte."""
    stored = State.model_validate_json(before.model_dump_json())
    stored_orders = {s: Orders.model_validate_json(o.model_dump_json()) for s, o in orders.items()}
    again = GAME.resolve(stored, stored_orders, random.Random(1), defaulted)
    assert again.state.model_dump_json() == resolution.state.model_dump_json()
    assert again.events == resolution.events
    assert again.ranking == resolution.ranking


def check_all(before, orders, defaulted, resolution) -> None:
    for check in (check_cells_once, check_legs_are_path_prefixes, check_scores, check_replay):
        check(before, orders, defaulted, resolution)


@FAST
@given(game_st)
def test_random_games_keep_every_invariant(game):
    play(game, check_all)


@pytest.mark.slow
@SLOW
@given(game_st)
def test_random_games_keep_every_invariant_long_run(game):
    play(game, check_all)


def reference_phase(moves: list[Move], occupied: dict, size: int) -> dict[str, list]:
    """PT-11 written the plain way, with Fraction times: the engine must agree with it."""
    arrivals = defaultdict(list)
    for move in moves:
        for j, cell in enumerate(path(move.start, move.direction, move.speed, size), start=1):
            arrivals[Fraction(j, move.speed)].append((cell, move.seat))
    taken, crashed, cells = {}, set(), defaultdict(list)
    for time in sorted(arrivals):
        here = defaultdict(list)
        for cell, seat in arrivals[time]:
            if seat not in crashed:
                here[cell].append(seat)
        for cell, seats in here.items():
            if cell in occupied or cell in taken or len(seats) > 1:
                crashed.update(seats)
            else:
                taken[cell] = seats[0]
                cells[seats[0]].append(cell)
    return {m.seat: cells[m.seat] for m in moves}


SPEEDS = [2, 3, 5, 7, 11, 13, 17, 19]


@FAST
@given(
    st.integers(0, 2**32),
    st.lists(
        st.tuples(
            st.integers(1, 15), st.integers(1, 15), st.sampled_from(list(Direction)),
            st.sampled_from(SPEEDS),
        ),
        min_size=2, max_size=8, unique_by=lambda m: (m[0], m[1]),
    ),
)  # fmt: skip
def test_integer_ticks_order_arrivals_exactly_like_fractions(seed, raw_moves):
    moves = [Move(f"t{i}", (x, y), d, s) for i, (x, y, d, s) in enumerate(raw_moves)]
    rng = random.Random(seed)
    occupied = {(rng.randint(1, 15), rng.randint(1, 15)): "x" for _ in range(10)}
    for move in moves:
        occupied[move.start] = move.seat
    outcomes = simulate_phase(moves, occupied, 15)
    expected = reference_phase(moves, occupied, 15)
    assert {seat: o.cells for seat, o in outcomes.items()} == expected
