import pytest

from gm_daemon.games.protocol import Problem, ProblemKind
from gm_daemon.texts import LANGUAGES, PHRASES, problems_text, render, warnings_text


def test_every_language_has_the_same_phrases_and_fields():
    assert set(PHRASES.languages) == set(LANGUAGES)
    assert PHRASES.check() == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_problems_name_line_source_message_and_hint(lang):
    problems = [
        Problem(3, "V. Pesch 12, 4", ProblemKind.ILLEGAL, "unknown", "V. Pech 12, 4"),
        Problem(1, "Duele", ProblemKind.SYNTAX, "what?", "Duelle"),
    ]
    text = problems_text(problems, lang)
    first, second = text.split("\n\n")
    assert PHRASES(lang, "quoted", text="Duele") in first and "Duelle" in first
    assert PHRASES(lang, "quoted", text="V. Pesch 12, 4") in second and "V. Pech 12, 4" in second


def test_templates_fill_every_placeholder():
    text = render("de", "notice", game_id="hn1", name="E. Müller", subject="Test", text="Hallo")
    assert text.subject == "[hn1] Test"
    assert text.body == "Hallo E. Müller,\n\nHallo\n\nViele Grüße\nIhr Spielleiter\n"


def test_long_warnings_are_wrapped_for_a_mail_client():
    long = (
        "Der Zug führt in ein besetztes Feld; angenommen ist er trotzdem, "
        "ersetzen geht bis zum Termin."
    )
    text = warnings_text([Problem(4, "N+", ProblemKind.ILLEGAL, long)], "de")
    assert max(len(line) for line in text.splitlines()) <= 78
    assert " ".join(text.split()).endswith(long)


@pytest.mark.parametrize(
    ("lang", "back"),
    [("de", "Richtig wäre: wie bei Zeile 2"), ("en", "Correct form: as for line 2")],
)
def test_a_long_hint_is_given_once_and_later_lines_point_back_to_it(lang, back):
    centres = "Centres: " + " ".join(f"C{n:02}" for n in range(34))
    problems = [
        Problem(2, "Xyz", ProblemKind.SYNTAX, "unknown", centres),
        Problem(5, "Qqq", ProblemKind.SYNTAX, "unknown", centres),
        Problem(7, "Foo", ProblemKind.ILLEGAL, "not a centre", centres),
        Problem(8, "A", ProblemKind.ILLEGAL, "short", "Nord+"),
        Problem(9, "B", ProblemKind.ILLEGAL, "short", "Nord+"),
    ]
    text = problems_text(problems, lang)
    assert text.count(centres) == 1
    assert text.count(back) == 2  # across groups too: line 7 is in "not allowed"
    assert text.count("Nord+") == 2  # a short hint is repeated where it belongs
