"""The engine on the daemon's protocol: phase facts, options, JSON state, texts."""

from __future__ import annotations

import json
import random

import pytest
from pydantic import ValidationError

from gm_daemon.games import find_game
from gm_daemon.games.primtraktor import GAME
from gm_daemon.games.primtraktor.model import Options, Orders, State
from gm_daemon.games.protocol import Header, Line, Seat
from tests.kit.header_line import check

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
    resolution = GAME.resolve(state, orders, random.Random(1), frozenset("bc"))
    assert resolution.finished  # b and c were round-1 NMRs: only a is left (PT-16)
    assert GAME.owed(resolution.state) == set()
    assert resolution.ranking == [["a"], ["b", "c"]]


def test_round_number_advances_until_the_last_round():
    state = started()
    orders = {s: Orders.model_validate({"legs": [{"direction": d, "change": "+"}]})
              for s, d in zip("abc", "NES", strict=True)}  # fmt: skip
    state = GAME.resolve(state, orders, random.Random(1), frozenset()).state
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


def test_defaulted_seats_drive_the_nmr_procedure_whatever_their_orders_say():
    """``defaulted`` decides, not the orders' shape: a round-2 NMR leg loses its conflict."""
    state = started()
    orders = {s: Orders.model_validate({"legs": [{"direction": d, "change": "+"}]})
              for s, d in zip("abc", "NES", strict=True)}  # fmt: skip
    state = GAME.resolve(state, orders, random.Random(1), frozenset()).state
    defaults = {s: GAME.default_orders(state, s) for s in "abc"}
    resolution = GAME.resolve(state, defaults, random.Random(1), frozenset("abc"))
    nmr = [e for e in resolution.events if e["event"] == "nmr"]
    assert sorted(e["seat"] for e in nmr) == ["a", "b", "c"]
    assert all(e["nmr"] for e in resolution.events if e["event"] == "leg")
    as_read = GAME.resolve(state, defaults, random.Random(1), frozenset())
    assert not any(e["event"] == "nmr" for e in as_read.events)


def test_missing_orders_are_played_as_nmr_by_the_engine_too():
    state = started()
    resolution = GAME.resolve(state, {}, random.Random(1), frozenset("abc"))
    assert all(t.eliminated and t.eliminated.reason == "nmr" for t in resolution.state.tractors)
    assert resolution.ranking == [["a", "b", "c"]]


def test_status_shows_the_seat_and_attaches_the_board():
    status = GAME.status(started(), "b", "en")
    assert "You drive tractor B (Bert)" in status.public and "Board 51×51" in status.public
    [picture] = status.attachments
    assert picture.content_type == "image/png" and picture.data.startswith(b"\x89PNG")
    assert picture.filename == "status-before-round-01.png"
    assert "The picture of the board is attached." in status.public


@pytest.mark.parametrize("max_legs", [1, 3, 5])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_help_and_welcome_quote_an_example_the_seat_can_send(max_legs: int, lang: str):
    state = GAME.start(Options(max_legs=max_legs), SEATS, random.Random(11))
    for _ in range(3):
        for seat in sorted(GAME.owed(state)):
            example = GAME.example(state, seat, lang)
            accepted = GAME.read_orders([Line(1, example)], state, seat, lang)
            assert 1 <= len(accepted.orders.legs) <= max_legs and not accepted.warnings
            assert example in GAME.help(state, seat, lang)
            assert example in GAME.welcome(state, seat, lang).public
        legs = f"1–{max_legs}" if lang == "de" else f"1–{max_legs} legs"
        assert legs in GAME.help(state, "a", lang)
        orders = {s: GAME.read_orders([Line(1, GAME.example(state, s, lang))], state, s, lang)
                  .orders for s in GAME.owed(state)}  # fmt: skip
        state = GAME.resolve(state, orders, random.Random(1), frozenset()).state


@pytest.mark.parametrize(
    ("line", "expected"),
    [("Runde: 1", Header.CURRENT), ("Round 2", Header.OTHER), ("Nord+, Ost=", None)],
)
def test_the_round_header(line: str, expected: Header | None):
    assert GAME.read_header(line, started()) == expected


@pytest.mark.parametrize(
    ("lang", "mail", "expected"),
    [
        ("de", "Runde 1: N+, O+", "Runde 1\nN+, O+"),
        ("de", "Runde: 1 – Anna: Nord+, Nord=", "Anna: Nord+, Nord="),
        ("en", "Round 1 - North+", "North+"),
        ("en", "Round 1 of 13: Moves: North+, East=", "Moves: North+, East="),
        ("de", "Runde 1 (Anna)\nNord+", "Nord+"),
        ("de", "Runde 1: Zug: 3", "line 1: „3“: Zahlen gehören nicht in den Zug"),
        ("de", "Nord+\nRunde 1: Nord=, Nrod=", "line 2: „Nrod=“ ist keine Richtung"),
        ("de", "Runde 2: N+, O+", "stale"),
    ],
)
def test_orders_on_the_round_header_line(lang: str, mail: str, expected: str):
    check(GAME, started(), "a", lang, mail, expected)


def test_the_result_tells_each_player_where_his_tractor_is_until_the_race_is_over():
    state = started()
    orders = {s: Orders.model_validate({"legs": [{"direction": d, "change": "+"}]})
              for s, d in zip("abc", "NES", strict=True)}  # fmt: skip
    resolution = GAME.resolve(state, orders, random.Random(1), frozenset())
    report = GAME.report(state, resolution, "de")
    after = resolution.state
    assert report.private == {
        t.seat: f"Sie fahren Traktor {t.letter} ({t.name}), zurzeit bei "
        f"({t.position[0]},{t.position[1]}), Tempo 2."
        for t in after.tractors
    }
    short = GAME.start(Options(max_rounds=1), SEATS, random.Random(11))
    last = GAME.resolve(short, orders, random.Random(1), frozenset())
    assert last.finished and GAME.report(short, last, "en").private == {}
