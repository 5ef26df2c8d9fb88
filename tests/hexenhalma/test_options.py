"""The GM's side: options as the config gives them (board texts), boards added while the
game runs (``take_options``), a round waiting for its board, and the phrase catalogue."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from gm_daemon.games.hexenhalma import GAME
from gm_daemon.games.hexenhalma.options import Options
from gm_daemon.games.hexenhalma.words import say
from tests.hexenhalma.support import HERE, board_text, new_state

KREUZ = (HERE.parents[1] / "config" / "boards" / "kreuz.txt").read_text(encoding="utf-8")


def test_a_broken_board_is_refused_naming_round_and_cells() -> None:
    broken = board_text("h1").replace("# S . S #", "# S . . #")
    with pytest.raises(ValidationError) as caught:
        Options(boards=[board_text("h1"), broken])
    text = str(caught.value)
    assert "board 2 (round 2)" in text and "B1 is 'Z' but D7 is '.' (expected 'S')" in text


def test_rounds_and_boards_must_fit() -> None:
    with pytest.raises(ValidationError, match="give 'rounds'"):
        Options(boards=[])
    with pytest.raises(ValidationError, match="2 boards for only 1 rounds"):
        Options(boards=[board_text("h1"), KREUZ], rounds=1)
    assert Options(boards=[board_text("h1")]).round_count() == 1


def test_a_board_added_later_is_taken_and_ends_the_wait() -> None:
    state = new_state(["anna", "bert"], [board_text("h1")], rounds=2)
    orders = {s: GAME.default_orders(state, s) for s in ("anna", "bert")}
    after = GAME.resolve(state, orders, random.Random(0), frozenset(orders)).state
    assert GAME.waiting_for(after, "en") == "the board for round 2"
    assert GAME.take_options(after, Options(boards=[board_text("h1")], rounds=2)) is after
    fed = GAME.take_options(after, Options(boards=[board_text("h1"), KREUZ], rounds=2))
    assert GAME.waiting_for(fed, "de") is None
    assert "Brett „Kreuz“" in GAME.status(fed, "anna", "de").public


def test_a_board_in_play_cannot_change() -> None:
    state = new_state(["anna", "bert"], [board_text("h1"), KREUZ], rounds=3)
    changed = board_text("h1").replace("max_steps: 10", "max_steps: 12")
    with pytest.raises(ValueError, match="board of round 1 is already in play"):
        GAME.take_options(state, Options(boards=[changed, KREUZ], rounds=3))
    with pytest.raises(ValueError, match="restore board 1"):
        GAME.take_options(state, Options(boards=[], rounds=3))
    later = GAME.take_options(state, Options(boards=[board_text("h1")], rounds=3))
    assert later.boards == [board_text("h1")]  # round 2's board not yet in play: may go


def test_two_players_at_least() -> None:
    with pytest.raises(ValueError, match="at least two players"):
        new_state(["anna"], [board_text("h1")])


def test_the_phrase_catalogue_is_complete() -> None:
    assert say.check() == []
