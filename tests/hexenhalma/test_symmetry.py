"""HH-4's promise: a pairing simulated in X's frame and in Y's frame gives the same fates
(fields turned by 180°), on random orders with the whole spell allowance used, lots
included. And a round's result does not depend on the order the seats are listed in."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm_daemon.games.hexenhalma.board import parse_board
from gm_daemon.games.hexenhalma.simulate import LotKey, compile_team, play
from tests.hexenhalma.randomplay import random_orders
from tests.hexenhalma.support import BOARDS, HERE

BOARD_TEXTS = {
    "h1": (BOARDS / "h1.txt").read_text(encoding="utf-8"),
    "kreuz": (HERE.parents[1] / "config" / "boards" / "kreuz.txt").read_text(encoding="utf-8"),
}


@pytest.mark.parametrize("name", sorted(BOARD_TEXTS))
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_both_frames_give_the_same_fates(name: str, seed: int) -> None:
    board = parse_board(BOARD_TEXTS[name])
    rng = random.Random(seed)
    x_orders, y_orders = random_orders(board, rng), random_orders(board, rng)
    x_home, x_rot = compile_team(board, "x", x_orders)
    y_home, y_rot = compile_team(board, "y", y_orders)
    key = LotKey("sym", 1, "x", "y")
    in_x = play(board, x_home, y_rot, key)
    in_y = play(board, y_home, x_rot, key)
    assert in_x.arrivals == in_y.arrivals[::-1]
    turned = {n: f.home(board, rotated=True) for n, f in in_y.fates[1].items()}
    assert in_x.fates[0] == turned
    turned = {n: f.home(board, rotated=True) for n, f in in_y.fates[0].items()}
    assert in_x.fates[1] == turned


def test_random_orders_use_spells_and_mostly_start() -> None:
    """The generator is what the property and the benchmark rely on: it must be varied."""
    board = parse_board(BOARD_TEXTS["h1"])
    rng = random.Random(1)
    teams = [random_orders(board, rng) for _ in range(50)]
    spells = sum(1 for o in teams for w in o.starting() for s in w.steps if s.spell or s.jump)
    starting = sum(len(o.starting()) for o in teams)
    assert starting >= 60 and spells >= 150
