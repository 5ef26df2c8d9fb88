"""PT-1 (the torus), PT-2 (start cells by lot), PT-3 (a tractor's initial facts), PT-4 (speeds)."""

from __future__ import annotations

import random

import pytest

from gm_daemon.games.primtraktor import GAME
from gm_daemon.games.primtraktor.model import Direction, Options
from gm_daemon.games.primtraktor.speeds import apply_change, step_down, step_up
from gm_daemon.games.primtraktor.start import draw_start_cells
from gm_daemon.games.primtraktor.torus import distance, path, step, wrap
from gm_daemon.games.protocol import Seat


def test_pt4_speed_ladder_is_zero_then_the_primes():
    ladder = [0]
    for _ in range(16):
        ladder.append(step_up(ladder[-1]))
    assert ladder == [0, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53]


def test_pt4_one_step_down_and_nothing_below_zero():
    assert [step_down(s) for s in (53, 11, 3, 2, 0)] == [47, 7, 2, 0, 0]
    assert apply_change(5, "+") == 7
    assert apply_change(5, "-") == 3
    assert apply_change(5, "=") == 5


def test_pt1_coordinates_wrap_into_one_to_size():
    assert [wrap(v, 51) for v in (0, 1, 51, 52, -50)] == [51, 1, 51, 1, 1]
    assert step((51, 1), Direction.EAST, 1, 51) == (1, 1)
    assert step((1, 1), Direction.NORTH, 1, 51) == (1, 51)
    assert step((10, 10), Direction.SOUTH, 3, 51) == (10, 13)  # south is y+1


def test_pt1_clockwise_is_north_east_south_west():
    assert [d.clockwise() for d in Direction] == [
        Direction.EAST,
        Direction.SOUTH,
        Direction.WEST,
        Direction.NORTH,
    ]


def test_pt9_path_lists_every_traversed_cell_start_excluded():
    assert path((50, 1), Direction.EAST, 3, 51) == [(51, 1), (1, 1), (2, 1)]


def test_pt2_torus_chebyshev_distance():
    assert distance((1, 1), (51, 51), 51) == 1
    assert distance((1, 1), (6, 3), 51) == 5


def test_pt2_start_cells_distinct_and_far_enough_apart():
    cells = draw_start_cells(20, 51, 5, random.Random(7))
    assert len(set(cells)) == 20
    assert all(distance(a, b, 51) >= 5 for i, a in enumerate(cells) for b in cells[i + 1 :])


def test_pt2_start_cells_follow_the_rng_only():
    assert draw_start_cells(8, 51, 5, random.Random(3)) == draw_start_cells(
        8, 51, 5, random.Random(3)
    )
    assert draw_start_cells(8, 51, 5, random.Random(3)) != draw_start_cells(
        8, 51, 5, random.Random(4)
    )


def test_pt2_a_crowded_board_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="do not fit"):
        draw_start_cells(30, 10, 5, random.Random(1))


def test_pt2_crowded_but_possible_still_finds_cells():
    cells = draw_start_cells(4, 10, 5, random.Random(1))  # only a few cells remain allowed
    assert all(distance(a, b, 10) >= 5 for i, a in enumerate(cells) for b in cells[i + 1 :])


def test_pt3_start_state_of_every_tractor():
    seats = [Seat("a", "Anna"), Seat("b", "Bert"), Seat("c", "Cora")]
    state = GAME.start(Options(), seats, random.Random(1))
    assert [t.letter for t in state.tractors] == ["A", "B", "C"]
    for tractor in state.tractors:
        assert tractor.speed == 0 and tractor.direction is None
        assert tractor.cells == 1 and tractor.active
    assert state.round == 1


def test_start_needs_two_players():
    with pytest.raises(ValueError, match="at least 2"):
        GAME.start(Options(), [Seat("a", "Anna")], random.Random(1))


def test_letters_beyond_z_for_big_games():
    seats = [Seat(f"p{i}", f"P {i}") for i in range(30)]
    state = GAME.start(Options(board=101), seats, random.Random(1))
    assert [t.letter for t in state.tractors[24:28]] == ["Y", "Z", "AA", "AB"]
