"""Reading order mails: the spec's examples E1-E5 verbatim, both notations and both
languages, and every kind of mistake answered with its line, what is wrong and a hint."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gm_daemon.games.hexenhalma import GAME
from gm_daemon.games.protocol import Line, OrdersRejected, ProblemKind
from tests.hexenhalma.support import board_text, mail_lines, new_state, read
from tests.kit.header_line import check

CONFIG_BOARDS = Path(__file__).resolve().parents[2] / "config" / "boards"

STATE = new_state(["anna", "bert"], [board_text("h1")])
E1 = """Spiel: HH-1
Runde: 1
Hexe 1: B7 | N, N+M, N, N, N, N
Hexe 2: D7 | N+I, N5
"""
E2 = """Spiel: HH-1
Runde: 1
Hexe 1: B7 | N, N+K, @E3, N, W, N
Hexe 2: D7 | N, N+B>E5, N, N, W, N, N, W
"""
E3 = "Hexe 1: B7-B6-B5[K]~E3-E2-D2-D1"
E4 = """Game: HH-1
Round: 1
Witch 1: B7 | N+banish>C3, N5
Witch 2: D7 | N, W, W, N, E, N
"""
E5 = "Hexe 1: B7 | N, N, N, @A2, O, N"


def steps(text: str, lang: str = "de") -> list[list[str]]:
    orders = read(STATE, "anna", text, lang)
    return [
        [s.walk or f"@{s.jump}" + (f"+{s.spell}" if s.spell else "") for s in w.steps]
        for w in orders.witches
    ]


def test_e1_relative_with_counts_and_spells() -> None:
    orders = read(STATE, "anna", E1)
    first, second = orders.witches
    assert [s.walk for s in first.steps] == ["N"] * 6 and first.steps[1].spell == "M"
    assert second.steps[0].spell == "I" and len(second.steps) == 6
    assert orders.starting() == orders.witches


def test_e2_beelzebub_and_bann() -> None:
    first, second = read(STATE, "bert", E2).witches
    assert first.steps[2].jump == "E3" and first.steps[1].spell == "K"
    assert (second.steps[1].spell, second.steps[1].bann) == ("B", "E5")
    assert len(second.steps) == 8


def test_e3_absolute_is_e2s_first_witch() -> None:
    assert read(STATE, "bert", E3).witches[0].steps == read(STATE, "bert", E2).witches[0].steps


def test_e4_english_words_and_a_planned_own_bann() -> None:
    orders = read(STATE, "anna", E4, "en")
    assert orders.witches[0].steps[0].bann == "C3"
    assert [s.walk for s in orders.witches[1].steps] == ["N", "W", "W", "N", "E", "N"]


@pytest.mark.parametrize(
    "text", ["Hexe 1: B7 | N+Bann C3, N5", "Hexe 1: B7 | N+B C3 N5", "Witch 1: B7-B6[banish C3]"]
)
def test_a_bann_target_may_follow_after_a_space(text: str) -> None:
    """As "BZ E3" for a jump: a hurried "+B C3" is "+B>C3"."""
    assert read(STATE, "anna", text).witches[0].steps[0].bann == "C3"


def test_e5_invalid_witch_is_kept_home_and_named_with_the_reason() -> None:
    accepted = GAME.read_orders(mail_lines(E5), STATE, "anna", "de")
    (witch,) = accepted.orders.witches
    assert witch.void is not None and witch.void.reason == "void_goal_after_jump"
    (problem, missing) = accepted.warnings
    assert problem.line == 1 and problem.source == E5
    assert problem.message.startswith(
        "Hexe 1 startet nicht: Ziel in Schritt 6, aber nach Beelzebub (Schritt 4) "
        "frühestens Schritt 7."
    )
    assert "3 Schritte zu Fuß" in problem.hint
    assert missing.message == "Für Hexe 2 gibt es keinen Weg; sie startet nicht."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hexe 1: B7 | Nord 2, Ost, West, N3", [["N", "N", "E", "W", "N", "N", "N"]]),
        ("hexe 1: b7; n n+k n n n n", [["N", "N", "N", "N", "N", "N"]]),
        ("Witch 1: B7 | N, BZ: E3, north3, W", [["N", "@E3", "N", "N", "N", "W"]]),
        ("Hexe 1: B7 | N+Kugelblitz, N+Müde, N4", [["N", "N", "N", "N", "N", "N"]]),
        ("Hexe 1: B7–B6–B5", [["N", "N"]]),
        ("Hexe 1: B7 | N, N+B(C3), N4", [["N", "N", "N", "N", "N", "N"]]),
        ("Hexe 1: B7 | Norden 2, Osten, Westen, Sueden, N", [["N", "N", "E", "W", "S", "N"]]),
        ("Hexe 1: B7 | N+Bann C3, N5", [["N", "N", "N", "N", "N", "N"]]),
        ("Witch 1: B7-B6[banish C3]-B5", [["N", "N"]]),
    ],
)
def test_spellings_players_use(text: str, expected: list[list[str]]) -> None:
    assert steps(text) == expected


@pytest.mark.parametrize(
    ("text", "lang", "message", "right"),
    [
        (
            "Hexe 1: B7 - N6",
            "de",
            "„N6“ ist kein Feld dieses Bretts (Spalten A–E, Zeilen 1–7).",
            "Hexe 1: B7 | N6",
        ),
        (
            "Witch 1: B7 – n6.",
            "en",
            '"N6" is no field of this board (columns A–E, rows 1–7).',
            "Witch 1: B7 | n6",
        ),
        # the start field and the steps without the "|" between them
        (
            "Hexe 1 B7 N6",
            "de",
            "Diese Zeile verstehe ich nicht (ab Spalte 11: „N6“).",
            "Hexe 1: B7 | N6",
        ),
        (
            "Witch 1: B7, N+I, N5",
            "en",
            'I cannot read this line (from column 12: ", N+I, N5").',
            "Witch 1: B7 | N+I, N5",
        ),
    ],
)
def test_steps_without_their_bar_are_offered_after_one(
    text: str, lang: str, message: str, right: str
) -> None:
    """Written "B7 - N6", "B7 N6" or "B7, N6", meant the relative form: the line with "|"
    after the start field is what would be right, and it is accepted when sent back."""
    with pytest.raises(OrdersRejected) as caught:
        GAME.read_orders(mail_lines(text), STATE, "anna", lang)
    (problem,) = caught.value.problems
    assert problem.message == message and problem.hint.startswith(right)
    assert problem.fix is not None and problem.fix.right == right
    GAME.read_orders(mail_lines(problem.fix.applied(text)), STATE, "anna", lang)


@pytest.mark.parametrize(
    ("text", "lang", "kind", "message", "hint"),
    [
        ("Hexe 1: B7 | N, X, N", "de", ProblemKind.SYNTAX, "ab Spalte 17: „X, N“", "Hexe 1: B7 |"),
        ("Witch 1: B7 | N, X, N", "en", ProblemKind.SYNTAX, 'from column 18: "X, N"', "Witch 1:"),
        ("Hexe 1: B7-B5", "de", ProblemKind.SYNTAX, "B7-B5 ist kein Schritt", "~B5"),
        ("Witch 1: B7-B5", "en", ProblemKind.SYNTAX, "B7-B5 is no step", "~B5"),
        ("Hexe 1: B7 | N0", "de", ProblemKind.SYNTAX, "„N0“ ist kein Schritt", "N3"),
        ("Hexe 3: B7 | N6", "de", ProblemKind.ILLEGAL, "keine Hexe 3", "Hexen mit 1 und 2"),
        ("Witch 3: B7 | N6", "en", ProblemKind.ILLEGAL, "no witch 3", "witches 1 and 2"),
        ("Hexe 1: B7 | N+", "de", ProblemKind.SYNTAX, "sie endet zu früh", "+K/+M/+I"),
        # a field off the board after "-" is not offered as a jump ("~Z9"): no field either
        ("Hexe 1: B7-Z9", "de", ProblemKind.SYNTAX, "„Z9“ ist kein Feld dieses Bretts", "B7 | N+I"),
        ("Witch 1: B7-Z9", "en", ProblemKind.SYNTAX, '"Z9" is no field of this board', "B7 | N+I"),
    ],
)
def test_unreadable_lines_reject_the_mail_with_a_hint(
    text: str, lang: str, kind: ProblemKind, message: str, hint: str
) -> None:
    with pytest.raises(OrdersRejected) as caught:
        GAME.read_orders(mail_lines(text), STATE, "anna", lang)
    (problem,) = caught.value.problems
    assert (problem.line, problem.source, problem.kind) == (1, text, kind)
    assert message in problem.message and hint in problem.hint


@pytest.mark.parametrize(
    ("witches", "lang", "message", "hint"),
    [
        (
            1,
            "de",
            "Auf diesem Brett gibt es nur Hexe 1, keine Hexe 4.",
            "Schreiben Sie „Hexe 1: …“.",
        ),
        (1, "en", "This board has only witch 1, no witch 4.", 'Write "Witch 1: ...".'),
        (
            2,
            "de",
            "Auf diesem Brett gibt es nur die Hexen 1 und 2, keine Hexe 4.",
            "Nummerieren Sie Ihre Hexen mit 1 und 2.",
        ),
        (
            2,
            "en",
            "This board has only witches 1 and 2, no witch 4.",
            "Number your witches 1 and 2.",
        ),
        (
            3,
            "de",
            "Auf diesem Brett gibt es nur die Hexen 1 bis 3, keine Hexe 4.",
            "Nummerieren Sie Ihre Hexen von 1 bis 3.",
        ),
        (
            3,
            "en",
            "This board has only witches 1 to 3, no witch 4.",
            "Number your witches from 1 to 3.",
        ),
    ],
)
def test_a_witch_the_board_lacks_is_named_with_the_numbers_it_has(
    witches: int, lang: str, message: str, hint: str
) -> None:
    """ "nur die Hexen 1 bis 2" read wrong: two witches are "1 und 2", a range from three on."""
    board = (
        (CONFIG_BOARDS / "kreuz.txt").read_text(encoding="utf-8")
        if witches == 3
        else board_text("h1", {"witches": str(witches)})
    )
    state = new_state(["anna", "bert"], [board])
    word = "Hexe" if lang == "de" else "Witch"
    with pytest.raises(OrdersRejected) as caught:
        GAME.read_orders(mail_lines(f"{word} 4: B7 | N6"), state, "anna", lang)
    (problem,) = caught.value.problems
    assert (problem.kind, problem.message, problem.hint) == (ProblemKind.ILLEGAL, message, hint)


def test_every_problem_of_a_mail_at_once() -> None:
    text = "Hexe 1: B7 | N, X\nHexe 1: D7 | N6\nHexe 2: B7-B5\nHexe 2: D7 | N6"
    with pytest.raises(OrdersRejected) as caught:
        GAME.read_orders(mail_lines(text), STATE, "anna", "de")
    assert [(p.line, p.kind) for p in caught.value.problems] == [
        (1, ProblemKind.SYNTAX),
        (3, ProblemKind.SYNTAX),
        (4, ProblemKind.ILLEGAL),  # the readable witch 2 would share D7 with witch 1
    ]
    text = "Hexe 1: B7 | N6\nHexe 1: D7 | N6"
    with pytest.raises(OrdersRejected) as caught:
        GAME.read_orders(mail_lines(text), STATE, "anna", "de")
    (twice,) = caught.value.problems
    assert twice.kind == ProblemKind.AMBIGUOUS and "schon in Zeile 1" in twice.message


def test_no_witch_at_all_is_rejected() -> None:
    with pytest.raises(OrdersRejected) as caught:
        GAME.read_orders(mail_lines("Runde: 1\n\n"), STATE, "anna", "de")
    assert "keine Hexe" in caught.value.problems[0].message


def test_orders_while_waiting_for_the_board_are_answered_so() -> None:
    waiting = new_state(["anna", "bert"], [], rounds=2)
    assert GAME.waiting_for(waiting, "de") == "das Brett für Runde 1"
    with pytest.raises(OrdersRejected) as caught:
        GAME.read_orders(mail_lines(E1), waiting, "anna", "de")
    assert "Brett für Runde 1" in caught.value.problems[0].message
    assert GAME.example(waiting, "anna", "de") == ""


@pytest.mark.parametrize("board", ["h1"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_example_is_accepted_and_every_witch_starts(board: str, lang: str) -> None:
    state = new_state(["anna", "bert"], [board_text(board)])
    example = GAME.example(state, "anna", lang)
    accepted = GAME.read_orders(mail_lines(example), state, "anna", lang)
    assert len(accepted.orders.starting()) == 2 and accepted.warnings == []


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("board", ["turm", "kreuz"])
def test_every_sample_line_of_the_help_is_sendable_on_its_board(board: str, lang: str) -> None:
    """Issue 20: the help's sample lines were fixed text starting on B7, which is no field
    on "Kreuz", and the German example said E for east where the help says O."""
    drawn = (CONFIG_BOARDS / f"{board}.txt").read_text(encoding="utf-8")
    state = new_state(["anna", "bert"], [drawn])
    text = GAME.help(state, "anna", lang)
    word = "Hexe" if lang == "de" else "Witch"
    samples = [ln.strip() for ln in text.splitlines() if re.match(rf"\s*{word} \d+:", ln)]
    assert len(samples) >= 3, text  # the two format lines and the board's example
    for sample in samples:
        orders = GAME.read_orders([Line(1, sample)], state, "anna", lang).orders
        assert [w.void for w in orders.witches] == [None], sample
    walked = " ".join(s.split("|", 1)[1] for s in samples if "|" in s)
    other = "E" if lang == "de" else "O"  # the east of the other language
    assert not re.search(rf"\b{other}\d*\b", walked), walked


@pytest.mark.parametrize(
    ("lang", "mail", "expected"),
    [
        ("de", "Runde 1: Hexe 1: B7 | N+I, N5\nHexe 2: D7 | N6",
         "Hexe 1: B7 | N+I, N5\nHexe 2: D7 | N6"),
        ("en", "Round 1 - Witch 1: B7 | N+I, N5", "Round: 1\nWitch 1: B7 | N+I, N5"),
        ("de", "Runde 1 (Anna):\nHexe 2: D7 | N6", "Hexe 2: D7 | N6"),
        ("en", "Round 2: Witch 1: B7 | N+I, N5", "stale"),
    ],
)  # fmt: skip
def test_orders_on_the_round_header_line(lang: str, mail: str, expected: str) -> None:
    """The engine skips a header line itself too (``read_orders``): the orders after the
    current round's header are not one."""
    check(GAME, STATE, "anna", lang, mail, expected)
