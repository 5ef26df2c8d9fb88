"""Issue 9: a greeting or closing line a person writes around his orders does not sink the
mail in any game; it is skipped with a note naming the line. A line the game accepts is an
order and stays one."""

from __future__ import annotations

import pytest

from gm_daemon import greetings as greetings_module
from gm_daemon.games.protocol import Line, OrdersRejected
from gm_daemon.greetings import OnlyGreetings, is_greeting, is_introduction, read_orders
from gm_daemon.texts import warnings_text
from tests.test_every_problem import _start

KINDS = ["highnoon", "primtraktor", "hornberg", "hexenhalma", "highlander"]


def _lines(text: str) -> list[Line]:
    return [Line(no, line) for no, line in enumerate(text.splitlines(), 1)]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("lang", "above", "below"),
    [
        ("de", "Hallo", "Danke!\nViele Grüße, Anna"),
        ("de", "Hallo Spielleiter,", "Gruß\nAnna"),
        ("de", "", "Liebe Grüße\nGundula Grünwald"),
        ("en", "Hello,", "Thanks!\nCheers"),
        ("en", "", "Best regards"),
    ],
)
def test_greetings_around_the_example_are_skipped_with_a_note(
    kind: str, lang: str, above: str, below: str
) -> None:
    game, state, seat = _start(kind)
    example = game.example(state, seat, lang)
    text = "\n".join(part for part in (above, example, below) if part)
    accepted = read_orders(game, _lines(text), state, seat, lang)
    plain = game.read_orders(_lines(example), state, seat, lang)
    described = game.describe_orders(state, seat, accepted.orders, lang)
    assert described == game.describe_orders(state, seat, plain.orders, lang)
    notes = warnings_text(accepted.warnings, lang)
    for written in [above, *below.splitlines()]:
        if written and is_greeting(written):
            assert written.strip() in notes


@pytest.mark.parametrize("kind", KINDS)
def test_a_refused_mail_names_its_problems_and_not_the_greeting(kind: str) -> None:
    game, state, seat = _start(kind)
    text = "Hallo\nBlubberblasen 99 quer\nDanke!"
    with pytest.raises(OrdersRejected) as caught:
        read_orders(game, _lines(text), state, seat, "de")
    lines = {p.line for p in caught.value.problems}
    assert 2 in lines and 1 not in lines and 3 not in lines
    notes = warnings_text(caught.value.warnings, "de")
    assert "Zeile 3: „Danke!“ als Gruß gelesen" in notes


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("de", "Hallo Spielleiter,\n\nViele Grüße\nAnna"),
        ("de", "Danke!"),
        ("de", "Hallo,\n\nGruß"),
        ("en", "Hello,\n\nBest regards\nAnna"),
        ("en", "Thanks!\nCheers"),
    ],
)
def test_a_mail_of_nothing_but_greetings_holds_no_orders(kind: str, lang: str, text: str) -> None:
    """Not read as orders of nothing (High Noon took it for no shots and no challenges and
    replaced the orders on file), nor refused as a mistake: intake answers it as a mail
    without orders (guards.no_orders), and the orders on file stay."""
    game, state, seat = _start(kind)
    with pytest.raises(OnlyGreetings):
        read_orders(game, _lines(text), state, seat, lang)


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("hornberg", "Hallo,\nKanone ro9\nDanke!"),  # a card that does not exist
        ("highnoon", "Hallo,\nBert keine\nDanke!"),  # an opponent not in the game
    ],
)
def test_a_refused_order_under_a_greeting_is_not_taken_for_a_name(kind: str, text: str) -> None:
    """Only a closing is signed ("Viele Grüße," then "Anna"); a line under "Hallo," is the
    first order, and a word with digits is never a name."""
    game, state, seat = _start(kind)
    with pytest.raises(OrdersRejected) as caught:
        read_orders(game, _lines(text), state, seat, "de")
    assert 2 in {p.line for p in caught.value.problems}


@pytest.mark.parametrize(
    ("line", "greeting"),
    [
        ("Danke!", True),
        ("Viele Grüße, Anna", True),
        ("Thanks!", True),
        ("Cheers", True),
        ("Best regards", True),
        ("Mit freundlichen Grüßen", True),
        ("Gruß", True),
        ("Hallo Spielleiter,", True),
        ("Nord+, Ost=", False),
        ("Hallo: 19, 12", False),
        ("Bester Zug: N+", False),
        ("Danke 19 12", False),
        ("Gruß ro9", False),
    ],
)
def test_the_pattern_list(line: str, greeting: bool) -> None:
    assert is_greeting(line) is greeting


@pytest.mark.parametrize(
    ("line", "introduction"),
    [
        ("Hier meine Befehle:", True),
        ("hier sind meine neuen Züge:", True),
        ("Korrektur:", True),
        ("Meine korrigierten Befehle!", True),
        ("My new orders:", True),
        ("Correction:", True),
        ("Here are my moves:", True),
        ("Befehle für Runde 2:", False),  # a round: the game's or the daemon's to read
        ("Korrektur: N+", False),  # something after the colon
        ("Anna:", False),  # a name: a game's line ("Pech:" is a duel without shots)
        ("Meine Meinung:", False),  # no word naming the orders
        ("Hallo", False),
    ],
)
def test_the_introductions(line: str, introduction: bool) -> None:
    assert is_introduction(line) is introduction


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("lang", "above", "note"),
    [
        ("de", "Hier meine Befehle:", "Zeile 1: „Hier meine Befehle:“ als Einleitung gelesen"),
        ("de", "Korrektur:", "Zeile 1: „Korrektur:“ als Einleitung gelesen und übergangen."),
        ("en", "My new orders:", 'Line 1: "My new orders:" read as an introduction and skipped.'),
    ],
)
def test_an_introduction_above_the_example_is_skipped_with_a_note(
    kind: str, lang: str, above: str, note: str
) -> None:
    """Refused as an order by every game but High Noon (which noted it "no player's name"),
    it is skipped as the greetings are, with one note in every game."""
    game, state, seat = _start(kind)
    example = game.example(state, seat, lang)
    accepted = read_orders(game, _lines(f"{above}\n{example}"), state, seat, lang)
    plain = game.read_orders(_lines(example), state, seat, lang)
    described = game.describe_orders(state, seat, accepted.orders, lang)
    assert described == game.describe_orders(state, seat, plain.orders, lang)
    assert note in warnings_text(accepted.warnings, lang)


def test_a_refusal_says_the_games_own_notes_and_names_greetings_as_greetings() -> None:
    """High Noon notes a dropped challenge in a refusal too; its own note on "Hallo,"
    ("no player's name") is said as the one greeting note, as in an acceptance."""
    game, state, seat = _start("highnoon")
    text = "Hallo,\nDuell gegen Zorro: 3, 2\nHerausforderungen: Niemand\nDanke!\nAnna"
    with pytest.raises(OrdersRejected) as caught:
        read_orders(game, _lines(text), state, seat, "de")
    assert [p.line for p in caught.value.problems] == [2]
    notes = warnings_text(caught.value.warnings, "de")
    assert [w.line for w in caught.value.warnings] == [1, 3, 4, 5]
    assert "Zeile 1: „Hallo,“ als Gruß gelesen" in notes and "Spielername" not in notes
    assert "„Niemand“" in notes


@pytest.mark.parametrize(
    "text",
    [
        "Hallo,\nHerausforderungen: keine\nGruß",
        "Hallo Spielleiter,\n\nHerausforderungen: keine\n\nViele Grüße,\nAnna",
        "Hier meine Befehle:\nHerausforderungen: keine\nDanke!\nCheers",
        "Herausforderungen: keine",
        "Hallo\nGruß",
        "Liebe Grüße\nGundula Grünwald",
    ],
)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_notes_of_lines_passed_over_are_the_general_ones(text: str, lang: str) -> None:
    """A mail whose engine warns of nothing takes the short way (``_passed_over_notes``,
    ``_nothing_but``): the notes and the "nothing but greetings" answer are those of the
    general way (``_said_as_greetings``, ``_nothing_but_greetings``) for every set of lines
    an engine passes over (each a greeting: ``_passed_over``)."""
    lines = _lines(text)
    greetings = {line.no for line in lines if is_greeting(line.text)}
    for passed in ({no for no in greetings if no <= cut} for cut in range(len(lines) + 1)):
        general = greetings_module._said_as_greetings([], lines, lang, passed)
        assert greetings_module._passed_over_notes(lines, passed, lang) == general
        assert greetings_module._nothing_but(
            lines, passed
        ) == greetings_module._nothing_but_greetings(lines, general, lang)
