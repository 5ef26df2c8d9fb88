"""The acknowledgement's simulation (A-10, E4): warn, never reject; and the NMR defaults."""

from __future__ import annotations

from gm_daemon.games.primtraktor import GAME
from gm_daemon.games.protocol import Line, ProblemKind
from tests.primtraktor.support import make_state

BOARD = {
    "tractors": [
        {"seat": "T", "name": "Theo", "at": [20, 20], "speed": 2, "dir": "E",
         "trail": [[18, 20], [19, 20]]},
        {"seat": "U", "name": "Uschi", "at": [25, 14], "speed": 3, "dir": "S",
         "trail": [[25, 11], [25, 12], [25, 13]]},
    ],
}  # fmt: skip


def accept(text: str, seat: str = "T", lang: str = "de", scenario=BOARD):
    state = make_state(scenario)
    lines = [Line(no, t) for no, t in enumerate(text.split("\n"), start=1)]
    return GAME.read_orders(lines, state, seat, lang)


def test_e4_speed_below_two_is_accepted_with_a_warning():
    accepted = accept("Süd-")
    assert [leg.change for leg in accepted.orders.legs] == ["-"]
    (warning,) = accepted.warnings
    assert warning.message == (
        "WARNUNG: Teilzug 1 (Süd-): Geschwindigkeit fiele auf 0 (<2) → Ausscheiden bei Ausführung"
    )
    assert warning.line == 1 and warning.kind == ProblemKind.ILLEGAL and warning.hint


def test_reversing_into_the_own_trail_warns_naming_cell_and_leg():
    (warning,) = accept("O=\nS=, W=, N=", lang="en").warnings
    # legs: E to (22,20); S to (22,22); W to (20,22); N reaches (20,21) then (20,20): own trail
    assert warning.message == (
        "WARNING: leg 4 (North=) would run into your own trail at (20,20) "
        "→ eliminated when executed"
    )
    assert warning.line == 2


def test_running_into_another_trail_names_its_owner():
    (warning,) = accept("N+, N=, O+", lang="de").warnings
    # N+ (3): (20,19..17); N= (3): (20,16..14); O+ (5): (21..25,14) -> (25,14) is Uschi's
    assert "Teilzug 3 (Ost+)" in warning.message
    assert "(25,14)" in warning.message and "die Spur von Uschi" in warning.message


def test_a_leg_crossing_an_earlier_leg_of_the_same_order_is_warned():
    (warning,) = accept("N=, O=, S=, W=", lang="en").warnings
    assert "leg 4" in warning.message and "own trail" in warning.message


def test_a_clean_order_has_no_warnings_and_is_described_leg_by_leg():
    accepted = accept("O+, O=, N+")
    assert accepted.warnings == []
    state = make_state(BOARD)
    described = GAME.describe_orders(state, "T", accepted.orders, "de")
    assert described == "Ost+ (3) → (23,20), Ost= (3) → (26,20), Nord+ (5) → (26,15)"


def test_nmr_default_is_the_pt14_leg_and_is_described():
    state = make_state(BOARD)
    orders = GAME.default_orders(state, "T")
    assert [(leg.direction.value, leg.change) for leg in orders.legs] == [("E", "=")]
    assert GAME.describe_orders(state, "T", orders, "en") == "East= (2) → (22,20)"


def test_round_one_nmr_default_eliminates_and_says_so():
    state = make_state({"round": 1, "tractors": [{"seat": "A", "at": [3, 3]},
                                                 {"seat": "B", "at": [30, 30]}]})  # fmt: skip
    orders = GAME.default_orders(state, "A")
    assert orders.legs == []
    assert GAME.describe_orders(state, "A", orders, "de") == (
        "kein Teilzug: in Runde 1 scheidet ein Traktor ohne Zug aus"
    )


def test_first_leg_of_the_game_without_plus_is_warned():
    scenario = {"round": 1, "tractors": [{"seat": "A", "at": [3, 3]},
                                         {"seat": "B", "at": [30, 30]}]}  # fmt: skip
    (warning,) = accept("O=", seat="A", lang="en", scenario=scenario).warnings
    assert "speed would drop to 0" in warning.message
