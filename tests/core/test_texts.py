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
