"""The engine on the daemon's protocol: phase facts, options, JSON state, texts."""

from __future__ import annotations

import json
import random

import pytest
from pydantic import ValidationError

from gm_daemon.games import find_game
from gm_daemon.games.primtraktor import GAME
from gm_daemon.games.primtraktor.model import Options, Orders, State
from gm_daemon.games.protocol import Seat

SEATS = [Seat("a", "Anna"), Seat("b", "Bert"), Seat("c", "Cora")]


def started() -> State:
    return GAME.start(Options(), SEATS, random.Random(11))


def test_registry_finds_the_game():
    assert find_game("primtraktor") is GAME
    assert GAME.kind == "primtraktor" and GAME.resolves_on_receipt is False


def test_phase_facts_follow_the_round():
    state = started()
    assert GAME.phase_number(state) == 1 and GAME.phase_type(state) == "round"
    assert GAME.phase_label(state, "de") == "Runde 1"
    assert GAME.phase_label(state, "en") == "Round 1"
    assert GAME.owed(state) == GAME.participants(state) == {"a", "b", "c"}


def test_after_a_round_the_eliminated_owe_nothing():
    state = started()
    orders = {"a": Orders.model_validate({"legs": [{"direction": "N", "change": "+"}]})}
    orders |= {s: GAME.default_orders(state, s) for s in ("b", "c")}
    resolution = GAME.resolve(state, orders, random.Random(1))
    assert resolution.finished  # b and c were round-1 NMRs: only a is left (PT-16)
    assert GAME.owed(resolution.state) == set()
    assert resolution.ranking == [["a"], ["b", "c"]]


def test_round_number_advances_until_the_last_round():
    state = started()
    orders = {s: Orders.model_validate({"legs": [{"direction": d, "change": "+"}]})
              for s, d in zip("abc", "NES", strict=True)}  # fmt: skip
    state = GAME.resolve(state, orders, random.Random(1)).state
    assert GAME.phase_number(state) == 2 and not state.finished


def test_options_reject_unknown_keys_and_keep_defaults():
    assert Options().model_dump() == {
        "board": 51, "max_rounds": 13, "max_legs": 5, "bonus": [19, 13, 7],
        "start_min_dist": 5, "round1_nmr": "eliminate", "nmr_conflict": "always_lose",
        "tiebreak": ["later_elimination"],
    }  # fmt: skip
    with pytest.raises(ValidationError):
        Options.model_validate({"bord": 31})


def test_state_and_public_state_are_json():
    state = started()
    assert State.model_validate_json(state.model_dump_json()) == state
    public = json.loads(json.dumps(GAME.public_state(state)))
    assert public["board"] == 51 and len(public["tractors"]) == 3
    assert public["tractors"][0]["trail"] == [list(state.tractors[0].position)]


def test_nmr_orders_must_be_marked():
    with pytest.raises(ValidationError):
        Orders(legs=[])


def test_missing_orders_are_played_as_nmr_by_the_engine_too():
    state = started()
    resolution = GAME.resolve(state, {}, random.Random(1))
    assert all(t.eliminated and t.eliminated.reason == "nmr" for t in resolution.state.tractors)
    assert resolution.ranking == [["a", "b", "c"]]


def test_status_shows_the_seat_and_the_board():
    text = GAME.status(started(), "b", "en")
    assert "You drive tractor B (Bert)" in text and "Board 51×51" in text
