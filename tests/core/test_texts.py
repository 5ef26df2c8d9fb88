import textwrap
from string import Template

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm_daemon.games.kit.layout import WIDTH
from gm_daemon.games.protocol import Fix, Problem, ProblemKind
from gm_daemon.texts import (
    _DIR,
    LANGUAGES,
    PHRASES,
    _Form,
    _prose,
    _template,
    _tidy,
    _warnings_text,
    problems_text,
    refusal_text,
    render,
    warnings_text,
    with_warnings,
)


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


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_warning_carries_its_hint_on_a_line_of_its_own(lang):
    """Issue 20: the hint ("the order stands and fails", a witch's fix) was dropped."""
    warning = Problem(3, "A Par - Lon", ProblemKind.ILLEGAL, "A PAR cannot reach LON.", "fails")
    text = warnings_text([warning], lang)
    assert text.splitlines()[-2:] == [
        f"- {PHRASES(lang, 'line')} 3: A PAR cannot reach LON.",
        "  fails",
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_quoted_line_too_long_is_folded_alone(lang):
    """Issue 20: a ZENTREN list of 80 columns ran quote, problem and fix into one paragraph."""
    source = "ZENTREN: " + ", ".join(f"C{n:02}" for n in range(17))
    problem = Problem(2, source, ProblemKind.ILLEGAL, "Die Liste nennt 17 Zentren.", "C01")
    body = render(lang, "notice", game_id="g", name="Anna", subject="x",
                  text=problems_text([problem], lang)).body  # fmt: skip
    lines = body.splitlines()
    assert max(map(len, lines)) <= 78
    message = lines.index("  Die Liste nennt 17 Zentren.")
    assert lines[message + 1] == f"  {PHRASES(lang, 'right')}: C01"
    quote = lines[message - 2 : message]
    assert quote[0].startswith(f"- {PHRASES(lang, 'line')} 2:") and quote[1].startswith("    ")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_guess_is_asked_and_a_form_is_given(lang):
    """Issue 20: "Correct form: Did you mean SWE?" is no form; a guess stands alone."""
    guess = Problem(1, "A Swx - Nwy", ProblemKind.SYNTAX, "unknown", "Did you mean SWE?",
                    Fix("SWE", "Swx", guess=True))  # fmt: skip
    form = Problem(2, "A Bel", ProblemKind.SYNTAX, "no order", fix=Fix("A Bel H"))
    text = problems_text([guess, form], lang)
    assert "\n  Did you mean SWE?" in text and f"{PHRASES(lang, 'right')}: Did" not in text
    assert f"{PHRASES(lang, 'right')}: A Bel H" in text
    assert guess.fix.applied(guess.source) == "A SWE - Nwy"


@pytest.mark.parametrize(
    ("lang", "refused", "notes"),
    [("de", "Nicht erlaubt:", "Hinweise:"), ("en", "Not allowed:", "Notes:")],
)
def test_a_refusal_sets_its_notes_apart_from_its_problems(lang, refused, notes):
    """Seen as a player: "Nicht erlaubt" ran straight into "Hinweise:", as if the notes
    were one more problem; a blank line stands between them as between two groups."""
    problem = Problem(None, "", ProblemKind.ILLEGAL, "5 shots, P=4", "4 at most")
    note = Problem(5, "Challenges: Z. Nobody", ProblemKind.ILLEGAL, "void", "You can challenge: A")
    body = render(lang, "rejected", game_id="g", name="A", phase_label="Runde 1",
                  problems=refusal_text([problem], [note], lang), in_force="x",
                  deadline="-").body  # fmt: skip
    lines = body.splitlines()
    at = lines.index(notes)
    assert lines[at - 2 : at] == [f"  {PHRASES(lang, 'right')}: 4 at most", ""]
    assert lines.index(refused) < at and lines[at + 2 : at + 4] == ["  You can challenge: A", ""]
    assert refusal_text([problem], [], lang) == problems_text([problem], lang)


def test_an_acceptance_with_warnings_says_so_in_its_subject():
    for lang, words in (("de", "angenommen, mit Hinweisen"), ("en", "accepted, with warnings")):
        note = [Problem(1, "x", ProblemKind.ILLEGAL, "note")]
        subject = render(
            lang,
            "accepted",
            game_id="g",
            name="A",
            phase_label="Runde 1",
            phase="Runde 1",
            orders="x",
            warnings=warnings_text(note, lang),
            deadline="-",
            after="",
            with_warnings=with_warnings(lang, note),
        ).subject
        assert subject.endswith(words)
        assert with_warnings(lang, []) == ""


@pytest.mark.parametrize(
    ("lang", "said"), [("de", "A BUD statt F BUD"), ("en", "A BUD instead of F BUD")]
)
def test_a_fix_of_one_entry_says_what_it_replaces(lang, said):
    """Played: "Richtig wäre: A BUD" under a set-up line of fifteen units read as the line
    to send; a fix of part of a line names the part, a fix of the whole line stays bare."""
    line = "AUFSTELLUNG: F ANK, A BEL, F BUD, A MAR"
    entry = Problem(2, line, ProblemKind.ILLEGAL, "nur Armeen", "A BUD", Fix("A BUD", "F BUD"))
    whole = Problem(3, "F BUD", ProblemKind.ILLEGAL, "nur Armeen", "A BUD", Fix("A BUD", "F BUD"))
    text = problems_text([entry, whole], lang)
    right = PHRASES(lang, "right")
    assert f"  {right}: {said}" in text.splitlines()
    assert f"  {right}: A BUD" in text.splitlines()
    assert entry.fix is not None and "A BUD, A MAR" in entry.fix.applied(line)


# --- the quick paths give what the standard library gives --------------------------------

_TEMPLATES = sorted((path.parent.name, path.stem) for path in _DIR.glob("*/*.txt"))


@pytest.mark.parametrize(("lang", "name"), _TEMPLATES)
def test_every_template_fills_as_string_template_fills_it(lang, name):
    """``_Form`` splits a template once; the text must be what ``Template.substitute`` makes
    of the same file, for every template and placeholder there is."""
    raw = (_DIR / lang / f"{name}.txt").read_text(encoding="utf-8")
    head, _, body = raw.partition("\n\n")
    subject = head.removeprefix("Subject: ").strip()
    for text, form in zip((subject, body), _template(lang, name), strict=True):
        names = {
            m.group("named") or m.group("braced")
            for m in Template.pattern.finditer(text)
            if m.group("named") or m.group("braced")
        }
        values = {n: f"<{n} = {i} $x ${{y}}>" for i, n in enumerate(sorted(names))}
        assert form.fill(values) == Template(text).substitute(values)


@pytest.mark.parametrize(
    "text",
    ["$a and $$ and ${b}c", "$$", "no placeholder", "$a$b", "${a}", "x $ y", "end $"],
)
def test_a_form_fills_and_refuses_as_string_template_does(text):
    for values in ({"a": 1, "b": "B"}, {}):
        try:
            expected = Template(text).substitute(values)
        except (KeyError, ValueError) as refusal:
            with pytest.raises(type(refusal)):
                _Form.of(text).fill(values)
            continue
        assert _Form.of(text).fill(values) == expected


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.text(max_size=120),
        st.text(" \t\nabcäö-–.\u00a0\u2028", max_size=100),
        st.lists(
            st.sampled_from(["Zeile", "1:", "„Hallo,“", " ", "  ", "x" * 80]), max_size=12
        ).map(" ".join),
    ),
    st.sampled_from(["  ", "    "]),
)
def test_a_note_is_wrapped_as_textwrap_wraps_it(text, indent):
    expected = textwrap.wrap(
        text, width=WIDTH, subsequent_indent=indent, break_long_words=False,
        break_on_hyphens=False,
    ) or [text]  # fmt: skip
    assert list(_prose(text, indent)) == expected


def _tidy_line_by_line(text: str) -> str:
    """``_tidy`` as it was written before, a step per line: the reference."""
    tidy: list[str] = []
    for line in text.rstrip().splitlines():
        line = line.rstrip()
        if line or (tidy and tidy[-1]):
            tidy.append(line)
    return "\n".join(tidy) + "\n"


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.text(max_size=200),
        st.lists(
            st.sampled_from(["", " ", "\t", "a", " b ", "\r", "\x1c", "\u2028", "c\x0b", "\n"]),
            max_size=12,
        ).map("\n".join),
    )
)
def test_tidy_collapses_blank_lines_as_a_step_per_line_did(text: str) -> None:
    assert _tidy(text) == _tidy_line_by_line(text)


_NOTE = Problem(1, "Hallo,", ProblemKind.SYNTAX, "„Hallo,“ als Gruß gelesen", "")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("count", [1, 4, 5, 16])
def test_remembered_notes_read_as_notes_written_anew(lang: str, count: int) -> None:
    """Short lists of notes are remembered (the same greetings come in every mail): the
    text is the one written anew, for the same notes and for others on other lines."""
    notes = [_NOTE._replace(line=n, hint="x" * n) for n in range(1, count + 1)]
    for _ in range(2):
        assert warnings_text(notes, lang) == _warnings_text(notes, lang)
    moved = [n._replace(line=(n.line or 0) + 1) for n in notes]
    assert warnings_text(moved, lang) == _warnings_text(moved, lang) != _warnings_text(notes, lang)
