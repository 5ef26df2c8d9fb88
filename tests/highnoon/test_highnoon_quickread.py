"""The quick reader reads exactly what the grammar reads, and leaves everything else to it.

Each line goes through ``parse_line`` (quick reader first, grammar as the fallback) and through
``parse_line_by_grammar`` (the Lark grammar alone): the same line object or the same error
(label and column) must come out. Lines come from a table of spellings, from every order text
of ``orders_cases.json``, and from hypothesis, which writes lines in every form of the grammar
and spoils some of them (as ``tests/diplomacy/test_quickread.py`` does for Diplomacy).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark

from gm_daemon.games.highnoon import quickread
from gm_daemon.games.highnoon.by_grammar import order_parser
from gm_daemon.games.highnoon.lines import ChallengesHeading, DuelLine, NameList, OrderLine
from gm_daemon.games.highnoon.quickread import grammar_matches, keyword_classes, quick_line
from gm_daemon.games.highnoon.syntax import (
    LineSyntaxError,
    _keyword_classes,
    parse_line,
    parse_line_by_grammar,
)
from gm_daemon.games.text import without_full_stop
from gm_daemon.grammar import grammar_dir, grammar_path

from .support import load_json

Outcome = OrderLine | tuple[str, int | None]


def _outcome(read: object, text: str) -> Outcome:
    try:
        return read(text)  # type: ignore[operator, no-any-return]
    except LineSyntaxError as exc:
        return (exc.label, exc.column)


def _quick(text: str) -> OrderLine | None:
    """The quick reader on the line as ``parse_line`` prepares it (no sentence mark)."""
    return quick_line(without_full_stop(text.replace("\u00a0", " ").strip()), _keyword_classes())


def _assert_same(text: str) -> None:
    expected = _outcome(parse_line_by_grammar, text)
    assert _outcome(parse_line, text) == expected, text
    quick = _quick(text)
    assert quick is None or quick == expected, text


# Read by the quick reader itself (not the fallback): the lines mail mostly holds.
PLAIN = [
    "Duelle",
    "Duelle:",
    "SHOTS",
    "Schüsse:",
    "Herausforderungen",
    "Herausforderungen: keine",
    "Herausforderungen: -",
    "Herausforderungen – ",
    "Herausforderungen: H. Glück, V.Pech",
    "Fordere Glück und Pech,",
    "Challenges: Glueck & Pech; Mueller",
    "H. Glück 19, 15, 8, 4",
    "H. Glück        19, 15, 8, 4",
    "V.Pech: 12 4 1",
    "V.Pech: 12 4 1.",
    "V.Pech - 12; 4 und 1,",
    "vs Pech: 3 2 1",
    "vs. Pech = 3",
    "Duell gegen H. Glück: keine",
    "Duelle: H. Glück 19, 15",
    "Duelle vs Glück 1",
    "Glück -",
    "Glück - -",
    "Glück: –",
    "Glück – 3",
    "Glück nichts",
    "O'Hara 1",
    "Müller-Lüdenscheidt: 2, 3",
    "Glück19",
    "E. Müller",
    "Hallo,",
    "Gruß",
    "Viele Grüße, Anna",
    "Spieler: E. Müller",
    "Player: Anna Arm",
    "FERTIG",
    "done",
    "keine",
    "-",
    "–",
    "Patronen verplant: 7/8",
    "Cartridges planned 3/8",
    "Patronen 0/4",
    "  H.\tGlück\t19 ,15  ",
    "H. Glück 19, 15\u00a0,8",
]

# Left to the grammar: odd letters and spaces, keywords standing for names, mistakes.
ODD = [
    "",
    "Glück: 19, 15, acht",
    "Glück: 19/15",
    "Glück 19 15 x",
    "Glück:",
    "vs Glück",
    "19, 15, 8",
    ": 19, 15",
    "Herausforderungen: Glück 5",
    "Herausforderungen: Glück,, Pech",
    "Spieler:",
    "Spieler Müller",
    "Hans Fertig 3",
    "Keine Ahnung",
    "Glück 19.15",
    "Glück .",
    "Glück, 3",
    "Hier meine Befehle:",
    "ſchüsse",
    "Duelle Glück",
    "Ärger: 1",
    "José 1",
    "Glück\u2009 1",
    "Glück ١",
    "Patronen verplant: 7/8/9",
    "Patronen verplantx: 7/8",
    "vs.Pech 3",
    "H.Glück.Pech 3",
    "Glück; ",
    "Glück und",
    "Herausforderungen: keine, Glück",
]


@pytest.mark.parametrize("text", PLAIN)
def test_plain_lines_are_read_by_the_quick_reader_as_by_the_grammar(text: str) -> None:
    quick = _quick(text)
    assert quick is not None, text
    assert quick == parse_line_by_grammar(text)
    assert parse_line(text) == quick


@pytest.mark.parametrize("text", ODD)
def test_odd_lines_give_the_grammars_line_or_error(text: str) -> None:
    _assert_same(text)


@pytest.mark.parametrize(
    "text", [*PLAIN[:5], *ODD, "Glück: " + "19, " * 60 + "1", "Glück: " + "19, " * 60 + "x"]
)
def test_a_line_read_again_reads_the_same(text: str) -> None:
    """``parse_line`` remembers its readings: the second answer (and the error raised anew,
    with its label and column) is the first, and the grammar's; spellings of one line with
    other spaces are the same line."""
    first = _outcome(parse_line, text)
    assert _outcome(parse_line, text) == first == _outcome(parse_line_by_grammar, text)
    assert _outcome(parse_line, f" {text}\u00a0") == first


def _case_lines() -> list[str]:
    cases = load_json("orders_cases.json")
    texts = [case["text"] for kind in ("accepted", "rejected") for case in cases[kind]]
    return sorted({line for text in texts for line in text.split("\n") if line.strip()})


@pytest.mark.parametrize("text", _case_lines())
def test_every_line_of_the_order_cases_reads_the_same(text: str) -> None:
    _assert_same(text)


def test_names_and_positions_are_taken_as_written() -> None:
    assert _quick("Duell gegen H. Glück: 019, 15") == DuelLine("H. Glück", (19, 15))
    assert _quick("Fordere: v.pech und E. Müller,") == ChallengesHeading(("v.pech", "E. Müller"))
    assert _quick("Hallo Spielleiter") == NameList(("Hallo Spielleiter",))


# --- generated texts -----------------------------------------------------------------------

_KEYWORDS = sorted(w for w in _keyword_classes())
_NAMES = [
    "H. Glück", "V.Pech", "E. Müller", "A. Langsam", "O'Hara", "Müller-Lüdenscheidt", "Glück.",
    "Anna", "Hallo", "Gruß", "Spielleiter", "X", "José", "ſam", "Ärger", "vs.Pech", "Keinert",
    "Duellant", "Und", "Done", "H", "H.", "Mc’Coy",
]  # fmt: skip
_SYMBOLS = [":", "-", "=", "–", ",", ";", ".", "/", "&", "!", "(", "'", "’", "1", "42", "٣"]
_SPACES = ["", " ", " ", " ", "  ", "\t", "\u00a0", "\u2009", "\f"]

_cased = st.sampled_from([str.lower, str.upper, str.title, str])


@st.composite
def _spelled(draw: st.DrawFn, choices: list[str]) -> str:
    return draw(_cased)(draw(st.sampled_from(choices)))


@st.composite
def _positions(draw: st.DrawFn) -> str:
    numbers = draw(st.lists(st.integers(0, 25), min_size=1, max_size=5))
    seps = [draw(st.sampled_from([", ", ",", " ", "; ", " und ", " & ", " and "])) for _ in numbers]
    text = "".join(f"{sep}{n}" for sep, n in zip(seps, numbers, strict=True))[len(seps[0]) :]
    return text + draw(st.sampled_from(["", "", ",", ".", " ."]))


@st.composite
def _well_formed(draw: st.DrawFn) -> str:
    """A line in one of the grammar's forms, in random spellings and case."""
    name, other = draw(_spelled(_NAMES)), draw(_spelled(_NAMES))
    duels = draw(_spelled(["Duelle", "Duell", "shots", "Schüsse"]))
    versus = draw(st.sampled_from(["", "vs ", "vs. ", "gegen ", "against "]))
    sep = draw(st.sampled_from(["", " ", ": ", ":", " - ", "-", " = ", " – "]))
    shots = draw(st.one_of(_positions(), st.sampled_from(["keine", "-", "–", "none", "NICHTS"])))
    names = draw(st.lists(_spelled(_NAMES), min_size=1, max_size=3))
    joined = draw(st.sampled_from([", ", ",", " und ", " & ", "; "])).join(names)
    joined += draw(st.sampled_from(["", "", ","]))
    challenges = draw(_spelled(["Herausforderungen", "Fordere", "challenges"]))
    colon = draw(st.sampled_from(["", ":", " :"]))
    forms = [
        f"{duels}{colon}", f"{duels}{colon} {versus}{name}{sep}{shots}",
        f"{versus}{name}{sep}{shots}", f"{name}{sep}{shots}", joined,
        f"{challenges}{colon}", f"{challenges}{colon} {joined}",
        f"{challenges}{colon} {draw(st.sampled_from(['keine', '-', '–']))}",
        f"Spieler: {other}", "Fertig", "done", "keine", "-",
        f"Patronen{draw(st.sampled_from(['', ' verplant', ' planned']))}{colon} 3/8",
    ]  # fmt: skip
    return draw(st.sampled_from(forms))


@st.composite
def _spoiled(draw: st.DrawFn) -> str:
    """A well-formed line with one piece dropped, doubled, swapped or replaced."""
    pieces = draw(_well_formed()).split(" ")
    at = draw(st.integers(0, len(pieces) - 1))
    junk = draw(st.sampled_from(_SYMBOLS + _KEYWORDS + _SPACES + _NAMES))
    change = draw(st.sampled_from(["drop", "double", "replace", "insert", "glue"]))
    if change == "drop":
        del pieces[at]
    elif change == "double":
        pieces.insert(at, pieces[at])
    elif change == "replace":
        pieces[at] = junk
    elif change == "insert":
        pieces.insert(at, junk)
    else:
        pieces[at] += junk
    return " ".join(pieces)


@st.composite
def _soup(draw: st.DrawFn) -> str:
    """Tokens of every kind in any order, with any spaces between them."""
    token = st.one_of(_spelled(_KEYWORDS), _spelled(_NAMES), st.sampled_from(_SYMBOLS))
    tokens = draw(st.lists(token, max_size=8))
    spaces = draw(st.lists(st.sampled_from(_SPACES), min_size=len(tokens), max_size=len(tokens)))
    return "".join(s + t for s, t in zip(spaces, tokens, strict=True))


_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(_well_formed())
def test_well_formed_lines_read_the_same(text: str) -> None:
    _assert_same(text)


@_SETTINGS
@given(_spoiled())
def test_spoiled_lines_read_or_fail_the_same(text: str) -> None:
    _assert_same(text)


@_SETTINGS
@given(_soup())
def test_token_soup_reads_or_fails_the_same(text: str) -> None:
    _assert_same(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="DVSHKFPabcdeghiklnrsuvxüÄß0123456789 ,;:.-–=&/'’\tſK", max_size=24))
def test_any_text_reads_or_fails_the_same(text: str) -> None:
    _assert_same(text)


# --- the guard against a changed grammar -----------------------------------------------------


def test_the_quick_reader_was_checked_against_this_grammar() -> None:
    """Fails when grammars/highnoon.lark changes: review quickread.py against the change
    (keywords, forms), then update GRAMMAR_SHA256 and KEYWORDS."""
    assert grammar_matches(order_parser())
    assert keyword_classes(order_parser())["keine"] == "k"
    assert keyword_classes(order_parser())["vs."] == "v"


def test_the_written_out_keywords_are_the_compiled_grammars() -> None:
    """``KEYWORDS`` stands in for the parser's table, so plain lines need no Lark."""
    assert keyword_classes(order_parser()) == quickread.KEYWORDS
    assert _keyword_classes() == quickread.KEYWORDS


def test_another_grammar_turns_the_quick_reader_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = grammar_path("highnoon").read_text(encoding="utf-8")
    edited = text.replace('"keine"i', '"keine"i | "keener"i')
    changed = Lark(edited, parser="lalr", import_paths=[grammar_dir()], maybe_placeholders=False)
    assert keyword_classes(changed) == {}
    assert quick_line("Herausforderungen: keine", keyword_classes(changed)) is None
    assert quickread.quick_line("Herausforderungen: keine", _keyword_classes()) is not None
    # the same for the table read without a parser: the grammar file's digest decides
    (tmp_path / "highnoon.lark").write_text(edited, encoding="utf-8")
    monkeypatch.setattr(quickread, "grammar_path", lambda name: tmp_path / f"{name}.lark")
    assert quickread.grammar_file_keywords.__wrapped__() == {}
    (tmp_path / "highnoon.lark").write_text(text, encoding="utf-8")
    assert quickread.grammar_file_keywords.__wrapped__() == quickread.KEYWORDS
