"""The kit's shape of a game of simultaneous rounds (``gm_daemon.games.kit.rounds``): the
phase facts it gives, the leaving it keeps, and that it offers no optional hook of its own
but ``orders_after_header`` (orders on the round's header line).
The whole protocol on a game built on it: ``tests/kit/roundgame.py`` in tests/conformance.
"""

from __future__ import annotations

import pytest

from gm_daemon import games
from gm_daemon.games.kit.rounds import RoundGame, leave_after_round
from gm_daemon.games.protocol import Header
from tests.kit.roundgame import GAME, Options, Orders, State

FACTS = (
    "phase_number",
    "phase_type",
    "phase_label",
    "read_header",
    "orders_after_header",
    "owed",
    "participants",
)
# Found by name by the daemon (loaded.py, mailer.py): a base class having one would switch
# it on for every round game.
OPTIONAL_HOOKS = (
    "take_options",
    "waiting_for",
    "warm_up",
    "commands",
    "leave",
    "leave_means",
    "final_ranking",
    "phase_noun",
    "seed_decides",
    "reports_nmr",
)


def state(round_no: int = 3, **fields: object) -> State:
    names = {"anna": "Anna Alt", "bert": "Bert Bär", "carla": "Carla Cruz"}
    return State.model_validate(
        {"round": round_no, "rounds": 5, "names": names, "scores": dict.fromkeys(names, 0)} | fields
    )


@pytest.mark.parametrize("hook", OPTIONAL_HOOKS)
def test_the_shape_switches_on_no_optional_hook(hook: str) -> None:
    assert not hasattr(RoundGame, hook)


@pytest.mark.parametrize("kind", ["highnoon", "primtraktor", "hexenhalma"])
def test_the_round_games_take_their_phase_facts_from_the_shape(kind: str) -> None:
    game = games.find_game(kind)
    assert isinstance(game, RoundGame)
    written_again = [f for f in FACTS if getattr(type(game), f) is not getattr(RoundGame, f)]
    assert written_again == []
    assert game.phase_types == ("round",) and game.resolves_on_receipt is False


def test_the_models_named_in_the_base_are_the_games_models() -> None:
    assert (GAME.Options, GAME.State, GAME.Orders) == (Options, State, Orders)


@pytest.mark.parametrize(
    ("lang", "label"), [("de", "Runde 3"), ("en", "Round 3"), ("fr", "Round 3")]
)
def test_the_label_names_the_round(lang: str, label: str) -> None:
    assert GAME.phase_label(state(), lang) == label
    assert GAME.phase_number(state()) == 3
    assert GAME.phase_type(state()) == "round"


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ("Runde: 3", Header.CURRENT),
        ("Round 3", Header.CURRENT),
        ("  runde = 3 (Anna)", Header.CURRENT),
        ("Runde 2", Header.OTHER),
        ("ROUND: 13", Header.OTHER),
        ("Runde: Nord+", None),
        ("3", None),
        ("Zug 3", None),
    ],
)
def test_the_header_is_the_numbered_round(line: str, read: Header | None) -> None:
    assert GAME.read_header(line, state()) is read


@pytest.mark.parametrize(
    ("line", "orders"),
    [
        ("Runde 3: N+, O+", "N+, O+"),
        ("Round 3 - North+", "North+"),
        ("runde=3 H. Glück 19, 15", "H. Glück 19, 15"),
        ("Runde 3 (Anna): Hexe 1: B7 | N", "Hexe 1: B7 | N"),
        ("Round 3 of 5: FERTIG", "FERTIG"),
        ("Runde 3", None),
        ("Runde 3:", None),
        ("Round 3 (Anna Alt).", None),
        ("Runde 3/5 –", None),
        ("Round 3 of 5", None),
        ("Runde 3 – meine Befehle vom 12.12.", None),  # a heading of the mail, no order
        ("Round 3: my orders", None),
        ("Runde 3: Züge: Nord+", "Züge: Nord+"),  # a game's own label before its orders
        ("Runde: Nord+", None),  # no header: the whole line is an order line
        ("Zug 3: N+", None),
    ],
)
def test_orders_on_the_header_line_are_what_follows_the_number(
    line: str, orders: str | None
) -> None:
    """Another round's number is the header's to decide (the mail is stale): the hook says
    only what follows, and the daemon asks it for the current round alone."""
    assert GAME.orders_after_header(line, state()) == orders
    assert GAME.orders_after_header(line.replace("3", "2", 1), state(2)) == orders


@pytest.mark.parametrize(
    ("fields", "owed"),
    [
        ({}, {"anna", "bert", "carla"}),
        ({"leaving": ["bert"]}, {"anna", "bert", "carla"}),  # plays out this round
        ({"left": ["bert"]}, {"anna", "carla"}),
        ({"finished": True}, set()),
    ],
)
def test_every_seat_in_play_owes_and_only_they_may_send(
    fields: dict[str, object], owed: set[str]
) -> None:
    given = state(**fields)
    assert GAME.owed(given) == owed
    assert GAME.participants(given) == owed


@pytest.mark.parametrize(
    ("fields", "seat", "leaving"),
    [
        ({}, "bert", ["bert"]),
        ({"leaving": ["anna"]}, "bert", ["anna", "bert"]),
        ({"leaving": ["bert"]}, "bert", ["bert"]),  # asked twice: listed once
        ({"left": ["bert"]}, "bert", []),  # out already
    ],
)
def test_leaving_takes_effect_after_the_round(
    fields: dict[str, object], seat: str, leaving: list[str]
) -> None:
    given = state(**fields)
    as_given = given.model_dump(mode="json")
    after = leave_after_round(given, seat)
    assert after.leaving == leaving
    assert after is not given and after.leaving is not given.leaving
    assert given.model_dump(mode="json") == as_given
    assert GAME.phase_number(after) == GAME.phase_number(given)
