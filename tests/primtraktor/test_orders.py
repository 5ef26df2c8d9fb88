"""Reading order mails (PT-7, grammar of the spec's section 3, examples E1–E5)."""

from __future__ import annotations

import pytest

from gm_daemon.games.primtraktor import GAME
from gm_daemon.games.primtraktor.model import Orders, State
from gm_daemon.games.protocol import Line, OrdersRejected, Problem, ProblemKind
from tests.primtraktor.support import make_state

SEAT_SCENARIO = {
    "round": 1,
    "tractors": [
        {"seat": "kurt", "name": "Kurt Kurz", "at": [10, 10]},
        {"seat": "ralf", "name": "Ralf Raser", "at": [30, 30]},
        {"seat": "bert", "name": "Bert Bremser", "at": [40, 5]},
    ],
}


@pytest.fixture
def state() -> State:
    return make_state(SEAT_SCENARIO)


def lines(*texts: str) -> list[Line]:
    return [Line(no, text) for no, text in enumerate(texts, start=1)]


def legs(orders: Orders) -> str:
    return " ".join(f"{leg.direction.value}{leg.change}" for leg in orders.legs)


def read(state: State, seat: str, *texts: str, lang: str = "de") -> Orders:
    return GAME.read_orders(lines(*texts), state, seat, lang).orders


def rejected(state: State, seat: str, *texts: str, lang: str = "de") -> list[Problem]:
    with pytest.raises(OrdersRejected) as caught:
        GAME.read_orders(lines(*texts), state, seat, lang)
    return caught.value.problems


@pytest.mark.parametrize(
    ("seat", "text", "expected"),
    [
        ("kurt", "Kurt Kurz: O+", "E+"),
        ("ralf", "Nord+, Nord+, Ost+, Ost =, Nord+", "N+ N+ E+ E= N+"),
        ("ralf", "Ralf Raser Nord+, Nord+, Ost+, Ost =, Nord+", "N+ N+ E+ E= N+"),
        ("ralf", "Ralf Raser: Nord+, Nord+, Ost+, Ost =, Nord+", "N+ N+ E+ E= N+"),
        ("bert", "Ost+, Ost+, Süd-", "E+ E+ S-"),
        ("bert", "Bert Bremser Ost+, Ost+, Süd-", "E+ E+ S-"),
        ("bert", "Moves: E=, E-, S-, S", "E= E- S- S="),
        ("bert", "Züge: N+; O+ S W", "N+ E+ S= W="),
        ("bert", "Zuege: sued+ sud- SÜD= south+", "S+ S- S= S+"),
        ("bert", "north+ East+ WEST- w", "N+ E+ W- W="),
        ("bert", "N+O+S+W+", "N+ E+ S+ W+"),
        ("bert", "Ost – ,  Nord =", "E- N="),
        ("bert", "B. Bremser: n+", "N+"),
        ("bert", "Norden+, Osten+, Süden-, Westen", "N+ E+ S- W="),
        ("bert", "sueden+ suden- NORDEN=", "S+ S- N="),
        ("bert", "Meine Züge: N+, O+", "N+ E+"),  # an introduction as the label
        ("bert", "Korrektur: S-", "S-"),
        ("bert", "My new moves: W=", "W="),
    ],
)
def test_pt7_all_spellings_of_the_seed_and_the_spec(state, seat, text, expected):
    assert legs(read(state, seat, text)) == expected


def test_e1_name_and_five_legs_over_several_lines(state):
    orders = read(state, "ralf", "Ralf Raser: Nord+, Nord+", "Ost+", "Ost =, Nord+")
    assert legs(orders) == "N+ N+ E+ E= N+"


def test_daemon_command_word_and_blank_lines_are_ignored(state):
    assert legs(read(state, "kurt", "", "O+", "FERTIG")) == "E+"
    assert legs(read(state, "kurt", "O+", "done")) == "E+"


def test_e5_six_legs_are_refused_naming_the_line(state):
    (problem,) = rejected(state, "bert", "N+, N+, N=, O+, O=, S+")
    assert problem.kind == ProblemKind.ILLEGAL
    assert problem.line == 1
    assert problem.message == "6 Teilzüge, erlaubt sind 1–5"
    assert problem.hint


def test_pt7_six_legs_spread_over_lines_blame_the_line_of_the_sixth(state):
    (problem,) = rejected(state, "bert", "N+, N+, N=", "O+, O=", "S+", lang="en")
    assert (problem.line, problem.source) == (3, "S+")
    assert problem.message == "6 legs, 1–5 are allowed"


def test_an_order_without_legs_is_refused_so_earlier_orders_stay(state):
    (problem,) = rejected(state, "bert", "FERTIG")
    assert problem.line is None and problem.kind == ProblemKind.SYNTAX
    assert "NMR" in problem.hint


@pytest.mark.parametrize(
    ("text", "lang", "message"),
    [
        ("Nordost+", "de", "„Nordost+“: Traktoren fahren nur waagrecht oder senkrecht"),
        ("NO", "en", '"NO": tractors only drive horizontally or vertically'),
        ("N+ 3", "de", "„3“: Zahlen gehören nicht in den Zug"),
        ("+N", "en", '"+N" without a direction before it'),
        ("N+, Links", "de", "„Links“ ist keine Richtung"),
        ("N+ / O+", "en", 'unexpected character "/"'),
    ],
)
def test_syntax_errors_say_what_is_wrong_and_what_is_right(state, text, lang, message):
    (problem,) = rejected(state, "bert", text, lang=lang)
    assert problem.kind == ProblemKind.SYNTAX
    assert (problem.line, problem.source, problem.message) == (1, text, message)
    assert problem.hint


def test_every_problem_of_a_submission_is_reported_at_once(state):
    problems = rejected(state, "bert", "N+", "Nordwest", "O+", "hallo")
    assert [p.line for p in problems] == [2, 4]


def test_a_diagonal_a_foreign_name_and_six_legs_are_named_in_one_reply(state):
    """Issue 9: a refused first leg must not hide the name or the count in the same line."""
    problems = rejected(state, "bert", "Kurt Kurz: Nordost+, N=, N=, N=, N=, N=")
    messages = [p.message for p in problems]
    assert len(problems) == 3, messages
    assert any("Nordost+" in m and "waagrecht" in m for m in messages)
    assert any("Kurt Kurz" in m and "nicht Ihr Traktor" in m for m in messages)
    assert "6 Teilzüge, erlaubt sind 1–5" in messages


def test_ordering_for_another_player_is_not_allowed(state):
    (problem,) = rejected(state, "bert", "Kurt Kurz: O+", lang="en")
    assert problem.kind == ProblemKind.ILLEGAL
    assert problem.message == '"Kurt Kurz" is not your tractor (you drive Bert Bremser)'


def test_unknown_name_before_a_colon_is_not_understood(state):
    (problem,) = rejected(state, "bert", "Otto Normal: O+")
    assert problem.kind == ProblemKind.SYNTAX
    assert "Otto Normal" in problem.message


def test_a_name_alone_is_no_order(state):
    (problem,) = rejected(state, "bert", "Bert Bremser:")
    assert problem.line == 1 and problem.kind == ProblemKind.SYNTAX


def test_e1_is_acknowledged_with_speeds_2_3_5_5_7(state):
    orders = read(state, "ralf", "Ralf Raser: Nord+, Nord+, Ost+, Ost =, Nord+")
    described = GAME.describe_orders(state, "ralf", orders, "de")
    assert described == (
        "Nord+ (2) → (30,28), Nord+ (3) → (30,25), Ost+ (5) → (35,25), "
        "Ost= (5) → (40,25), Nord+ (7) → (40,18)"
    )


def test_e2_a_single_leg_is_a_whole_order(state):
    assert legs(read(state, "kurt", "O+")) == "E+"


@pytest.mark.parametrize(
    ("seat", "text"),
    [
        ("bert", "Bert: O+"),  # the first name
        ("bert", "Bremser: O+"),  # the surname
        ("bert", "bremser o+"),  # no colon, lower case
        ("bert", "Bert Bremser Ost+"),
        ("ralf", "R. Raser: O+"),
    ],
)
def test_the_tractor_is_named_as_players_write_names(state, seat, text):
    assert legs(read(state, seat, text)) == "E+"


@pytest.mark.parametrize(
    ("lang", "message", "hint"),
    [
        (
            "de",
            "„Bert Brmser“ ist weder Ihr Name noch ein Teilzug. Meinten Sie Bert Bremser?",
            "Bert Bremser: O+",
        ),
        (
            "en",
            '"Bert Brmser" is neither your name nor a leg. Did you mean Bert Bremser?',
            "Bert Bremser: O+",
        ),
    ],
)
def test_a_near_miss_of_the_own_name_is_refused_with_the_line_to_send(state, lang, message, hint):
    (problem,) = rejected(state, "bert", "Bert Brmser: O+", lang=lang)
    assert (problem.message, problem.hint) == (message, hint)
    assert legs(read(state, "bert", problem.hint)) == "E+"


@pytest.mark.parametrize(
    ("text", "lang", "message", "fixed", "expected"),
    [
        ("Süd++", "de", "„Süd++“: ein Teilzug ändert das Tempo um höchstens eine Stufe; "
         "zwei Stufen sind zwei Teilzüge", "Süd+, Süd+", "S+ S+"),
        ("Nord+, Ost ++, West=", "en", "\"Ost ++\": a leg changes the speed by one step at "
         "most; two steps are two legs", "Nord+, Ost+, Ost+, West=", "N+ E+ E+ W="),
    ],
)  # fmt: skip
def test_two_signs_on_one_leg_are_answered_with_the_two_legs(
    state, text, lang, message, fixed, expected
):
    """ "Süd++" means two steps faster: the answer says a leg takes one, and its hint is the
    line with two legs in its place, accepted when sent back as it stands."""
    (problem,) = rejected(state, "bert", text, lang=lang)
    assert (problem.line, problem.kind, problem.message) == (1, ProblemKind.SYNTAX, message)
    assert problem.hint == fixed
    assert legs(read(state, "bert", problem.hint, lang=lang)) == expected
