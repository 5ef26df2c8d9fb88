"""The quick reader reads exactly what the grammar reads, and leaves everything else to it.

Each text goes through ``read_order`` (quick reader first, grammar as the fallback) and through
``read_order_by_grammar`` (the Lark grammar alone): the same order or the same error (kind,
message and hint) must come out. Texts come from a table of spellings and from hypothesis,
which writes orders in every notation and spoils some of them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark

from gm_daemon.diplomacy import quickread
from gm_daemon.diplomacy.board import Board, standard_board
from gm_daemon.diplomacy.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    Place,
    Support,
    UnitRef,
    order_text,
)
from gm_daemon.diplomacy.quickread import (
    canonical_read,
    canonical_tables,
    grammar_matches,
    keyword_classes,
    quick_read,
)
from gm_daemon.diplomacy.reader import (
    OrderError,
    _canonical_tables,
    _hyphen_pairs,
    _join_hyphenated_names,
    _keyword_classes,
    _parser,
    read_order,
    read_order_by_grammar,
)
from gm_daemon.games.protocol import ProblemKind
from gm_daemon.grammar import grammar_dir, grammar_path

B = standard_board()

Outcome = Order | tuple[ProblemKind, str, str]


def _outcome(read: Callable[[str, Board], Order], text: str) -> Outcome:
    try:
        return read(text, B)
    except OrderError as exc:
        return (exc.kind, exc.message, exc.hint)


def _quick(text: str) -> Order | None:
    return quick_read(_join_hyphenated_names(text, B), B, _keyword_classes())


def _assert_same(text: str) -> None:
    expected = _outcome(read_order_by_grammar, text)
    assert _outcome(read_order, text) == expected, text
    quick = _quick(text)
    assert quick is None or quick == expected, text


# Read by the quick reader itself (not the fallback): the notations mail mostly uses.
PLAIN = [
    "A PAR - BUR",
    "A PAR-BUR",
    "a par->bur",
    "Army Paris => Burgundy",
    "A Par > Bur",
    "A PAR – BUR",
    "A PAR — BUR",
    "A PAR to BUR",
    "PAR - BUR",
    "A PAR H",
    "A Munich Holds",
    "Flotte Kiel hält",
    "F LON S F NTH - ENG",
    "F London Supports F North Sea - English Channel",
    "A Tyr S A Ven H",
    "A Tyr S A Ven",
    "Spa S Hol",
    "F NTH C A YOR - NWY",
    "F Nordsee K A London - Norwegen",
    "F Nordsee U A Belgien - Holland",
    "A YOR - NWY VIA",
    "A YOR - NWY via convoy",
    "A Yorkshire - Norway by convoy",
    "A YOR - NWY per Konvoi",
    "F ENG S A YOR - BEL VIA",
    "F STP/SC - BOT",
    "F StP(sc) - Bot",
    "F St. Petersburg (south coast) - Gulf of Bothnia",
    "F SPA/S - MAO",
    "F SPA (S) - MAO",
    "F Mid-Atlantic Ocean - Spain(nc)",
    "F Bulgarien (Ostküste) - Schwarzes Meer",
    "F StP/nk - Bar",
    "A München nach Böhmen",
    "A LON - NTH - BEL",
    "A LON - Nordsee - Belgien",
    "A MUN R BOH",
    "A MUN D",
    "Disband A Munich",
    "BUILD A PAR",
    "A PAR B",
    "Baue A Berlin",
    "Build F St Petersburg(nc)",
    "REMOVE F KIE",
    "F KIE REMOVE",
    "Entferne F Kiel",
    "WAIVE",
    "waive build",
    "Verzicht",
    "A PAR - BUR.",
    "A PAR - BUR ;",
    "  A   PAR\t-\tBUR \n",
    "A PAR' - BUR",
]

# Left to the grammar: odd letters and spaces, keywords standing for names, mistakes.
ODD = [
    "",
    "   ",
    ".",
    "A PAR H.",
    "WAIVE.",
    "WAIVE B.",
    "A MUN - BOH VIA.",
    "A PAR, H",
    "A PAR - BUR !",
    "A PAR\u00a0- BUR",
    "A PAR \u2013BUR",
    "A PAR - BUR\u00a0.",
    "A Pariſ - BUR",
    "A ſPA - BUR",
    "A PAR - ẞUR",
    "A Paris - Bourgogne",
    "A Pariss - Bur",
    "a adr - sea - adriatic sea",
    "A LON - NTHH - BEL",
    "A PAR BUR",
    "A PAR",
    "A PAR -",
    "A PAR - BUR -",
    "A PAR - - BUR",
    "A PAR - > BUR",
    "A PAR = BUR",
    "A PAR - S",
    "A S - BUR",
    "A A H",
    "A H",
    "S A PAR",
    "F LON S",
    "F LON S F",
    "F LON S F NTH -",
    "F LON S F NTH C A YOR - NWY",
    "F NTH C",
    "F NTH C A YOR",
    "F NTH C A YOR - NWY - BEL",
    "A MUN R",
    "A MUN R BOH - SIL",
    "A PAR VIA - BUR",
    "A PAR - BUR VIA VIA",
    "A PAR - BUR CONVOY",
    "BUILD",
    "BUILD A",
    "WAIVE A PAR",
    "F STP/",
    "F STP(",
    "F STP(NC",
    "F STP(NC) X - BOT",
    "F STP)NC( - BOT",
    "F STP/NC/SC - BOT",
    "F STP/S S F BOT",
    "F STP/xyz - BOT",
    "F STP(north coast) - BAR",
    "A Spn(NORTH unterstützt COAST) - western mediterranean",
    "F Spa(north S coast) - MAO",
    "F Spa(s c) - MAO",
    "F STP (to) - BAR",
    "F STP/to - BAR",
    "A PAR-BUR-MAR",
    "A Paris-Burgund",
    "A mid-atlantic - PAR",
    "F North Sea Convoys A Yorkshire - Yorkshire",
    "A Holland Supports Ruhr - Belgium",
    "A PAR ->BUR",
    "A PAR=>BUR",
    "A PAR=> BUR",
    "A PAR= >BUR",
    "A PAR - BUR 1",
    "A 'PAR - BUR",
    "A PAR. - BUR",
    "A St.Petersburg - MOS",
    "A PAR - BUR,.;  ",
    "A PAR - BUR ,x",
]


@pytest.mark.parametrize("text", PLAIN)
def test_plain_orders_are_read_by_the_quick_reader_as_by_the_grammar(text: str) -> None:
    quick = _quick(text)
    assert quick is not None, text
    assert quick == read_order_by_grammar(text, B)
    assert read_order(text, B) == quick


@pytest.mark.parametrize("text", ODD)
def test_odd_texts_give_the_grammars_order_or_error(text: str) -> None:
    _assert_same(text)


def test_a_keyword_where_only_a_name_may_stand_is_a_coast() -> None:
    """Right after "/" or "(" the grammar reads "S" as a name, so as south coast."""
    spa = B.lookup("SPA")
    assert spa is not None
    for text in ("F SPA/S - MAO", "F Spa(s) - Mao"):
        order = _quick(text)
        assert order is not None
        assert order.unit == UnitRef("F", Place(spa, "SC"))  # type: ignore[union-attr]


def _canonical_texts() -> list[str]:
    """Every order of the engine's own notation that names each token of the board once as
    the unit, once as the other unit and once as the destination (with neighbours drawn from
    the board's token list), in each of the six forms."""
    tokens = list(B.names)
    texts = []
    for k, token in enumerate(tokens):
        other, third = tokens[(k * 7 + 3) % len(tokens)], tokens[(k * 13 + 5) % len(tokens)]
        for kind in ("A", "F"):
            unit = f"{kind} {token}"
            texts += [f"{unit} H", f"{unit} - {other}", f"{unit} - {other} VIA"]
            texts += [f"{unit} S F {other}", f"{unit} S A {other} - {third}"]
            texts += [f"{unit} C A {other} - {third}", f"F {other} C A {token} - {third}"]
            texts += [f"A {other} - {token}", f"F {other} S {unit} - {third}"]
    return texts


def test_the_engines_notation_is_read_at_once_as_by_the_grammar() -> None:
    """``canonical_read`` takes every order written as ``order_text`` writes it, the
    coasts too, and gives the grammar's order; its tables are those of ``quick_read``."""
    tables = _canonical_tables(B)
    assert tables is not None
    for text in _canonical_texts():
        order = canonical_read(text, tables)
        assert order is not None, text
        assert order == read_order_by_grammar(text, B), text
        assert order_text(B, order) == text, text
    for text in ("A PAR - BUR ", "a PAR - BUR", "A PAR - BUR - PIC", "A PAR S A MAR H",
                 "F NTH C F LON - BEL", "A XYZ - BUR", "A PAR - SPA/XC", "A PAR-BUR"):  # fmt: skip
        assert canonical_read(text, tables) is None, text
        _assert_same(text)


# The engine's notation as one regular expression: what ``canonical_read`` read by before it
# split on spaces, kept here as its specification. Group 1 ends the unit.
_TOKEN_RE = quickread._TOKEN_RE
_CANONICAL = re.compile(
    rf"[AF] ({_TOKEN_RE}) (?:H|- ({_TOKEN_RE})( VIA)?|S ([AF] {_TOKEN_RE})(?: - ({_TOKEN_RE}))?"
    rf"|C (A {_TOKEN_RE}) - ({_TOKEN_RE}))"
)


def _canonical_read_by_pattern(text: str, tables: quickread.CanonicalTables) -> Order | None:
    match = _CANONICAL.fullmatch(text)
    if match is None:
        return None
    unit = tables.units.get(text[: match.end(1)])
    if unit is None:
        return None
    to, via, supported, to_support, army, to_convoy = match.groups()[1:]
    units, places = tables.units, tables.places
    if to is not None:
        place = places.get(to)
        return None if place is None else Move(unit, place, via is not None)
    if supported is not None:
        ref = units.get(supported)
        if ref is None:
            return None
        if to_support is None:
            return Support(unit, ref, None)
        place = places.get(to_support)
        return None if place is None else Support(unit, ref, place)
    if army is not None:
        ref, place = units.get(army), places.get(to_convoy)
        return None if ref is None or place is None else Convoy(unit, ref, place)
    return Hold(unit)


def _spoilt(text: str) -> list[str]:
    """The text and near misses of it: other spaces, cases, words left out or added."""
    words = text.split(" ")
    variants = [
        text,
        f" {text}",
        f"{text} ",
        f"{text}\n",
        text.replace(" ", "  ", 1),
        text.replace(" ", "\t", 1),
        text.lower(),
        text.replace("-", "->"),
        f"{text} VIA",
        f"{text} H",
        " ".join(words[:-1]),
        " ".join(words[1:]),
        text.replace(" A ", " F "),
        text.replace(" F ", " A "),
        text.replace("/", ""),
    ]
    variants += [" ".join(words[:k] + words[k + 1 :]) for k in range(len(words))]
    variants += [" ".join([*words[:k], "S", *words[k:]]) for k in range(len(words))]
    return variants


def test_the_notation_reader_takes_what_its_pattern_takes() -> None:
    """Splitting on spaces reads the same orders as the regular expression it replaced, and
    refuses the same texts (each is then left to ``quick_read`` and the grammar)."""
    tables = _canonical_tables(B)
    assert tables is not None
    texts = [v for text in _canonical_texts() for v in _spoilt(text)]
    texts += ["", "A", "A PAR", "H", "A PAR X", "A PAR - ", "A PAR S", "A PAR C A BUR -"]
    taken = 0
    for text in texts:
        order = canonical_read(text, tables)
        assert order == _canonical_read_by_pattern(text, tables), repr(text)
        taken += order is not None
    assert 0 < taken < len(texts)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["A", "F", "PAR", "BUR", "STP/NC", "NTH", "H", "-", "S", "C",
                                 "VIA", "via", "", "\t", "Par"]), max_size=8))  # fmt: skip
def test_the_notation_reader_on_any_words(words: list[str]) -> None:
    tables = _canonical_tables(B)
    assert tables is not None
    text = " ".join(words)
    assert canonical_read(text, tables) == _canonical_read_by_pattern(text, tables), repr(text)


def test_another_grammars_keywords_turn_the_notation_reader_off() -> None:
    assert canonical_tables(B, {}) is None
    assert canonical_tables(B, {**_keyword_classes(), "via": "n"}) is None


# --- generated texts -----------------------------------------------------------------------

_WORDS = sorted(w for w in _keyword_classes() if w.isalpha())
_NAMES = [
    *sorted(B.aliases),
    "München", "Böhmen", "Nordsee", "Schwarzes Meer", "Mid-Atlantic", "St. Petersburg",
    "St.Petersburg", "StP", "Pariss", "Sankt-Petersburg", "Helgoländer Bucht", "Bur.",
    "Golf von Lyon",
]  # fmt: skip
_COASTS = ["nc", "sc", "ec", "n", "s", "e", "north coast", "Nordküste", "sk", "ok", "xyz", "to"]
_COASTS += ["north S coast", "nc via", "Ost Konvoi", "s c"]  # keywords inside a coast
_SYMBOLS = ["-", "->", "=>", ">", "–", "—", "/", "(", ")", "=", "'", ".", ",", ";", "!", "1"]
_SPACES = ["", " ", " ", " ", "  ", "\t", "\n", "\u00a0", "\f", "\v"]
_ODD_LETTERS = ["ſ", "K", "ẞ", "é", "ı", "İ", "Ä", "ß"]

_cased = st.sampled_from([str.lower, str.upper, str.title, str])


@st.composite
def _spelled(draw: st.DrawFn, choices: list[str]) -> str:
    return draw(_cased)(draw(st.sampled_from(choices)))


@st.composite
def _place(draw: st.DrawFn) -> str:
    name = draw(_spelled(_NAMES))
    coast = draw(st.sampled_from(["", "", "", "/", "(", " ("]))
    if not coast:
        return name
    written = draw(_spelled(_COASTS))
    return f"{name}{coast}{written}{')' if '(' in coast else ''}"


@st.composite
def _unit(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["", "A ", "F ", "Army ", "Fleet ", "Armee ", "Flotte "]))
    return draw(_cased)(kind) + draw(_place())


@st.composite
def _well_formed(draw: st.DrawFn) -> str:
    """An order in one of the grammar's forms, in random spellings and case."""
    unit, other, to = draw(_unit()), draw(_unit()), draw(_place())
    arrow = draw(st.sampled_from([" - ", "-", " -> ", "=>", " > ", " – ", " to ", " nach "]))
    via = draw(st.sampled_from(["", "", " VIA", " via convoy", " by Konvoi", " per"]))
    forms = [
        f"{unit} H", f"{unit} hält", f"{unit}{arrow}{to}{via}", f"{unit}{arrow}{to}{arrow}{to}",
        f"{unit} S {other}", f"{unit} Supports {other} Hold", f"{unit} U {other}{arrow}{to}{via}",
        f"{unit} C {other}{arrow}{to}{via}", f"{unit} Konvoiert {other}{arrow}{to}",
        f"{unit} R {to}", f"{unit} Rückzug {to}", f"{unit} D", f"Disband {unit}", f"Build {unit}",
        f"{unit} B", f"Remove {unit}", f"{unit} Entferne", "Waive", "Waive Build",
    ]  # fmt: skip
    text = draw(st.sampled_from(forms))
    end = draw(st.sampled_from(["", "", ".", " .", ";", ",.", " \n"]))
    return text + end


@st.composite
def _spoiled(draw: st.DrawFn) -> str:
    """A well-formed order with one piece dropped, doubled, swapped or replaced."""
    pieces = draw(_well_formed()).split(" ")
    at = draw(st.integers(0, len(pieces) - 1))
    junk = draw(
        st.sampled_from(_SYMBOLS + _WORDS + _ODD_LETTERS + _SPACES + _COASTS + ["PAR", "Ä"])
    )
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
    token = st.one_of(
        _spelled(_WORDS), _spelled(_NAMES), st.sampled_from(_SYMBOLS + _ODD_LETTERS + _COASTS)
    )
    tokens = draw(st.lists(token, max_size=8))
    spaces = draw(st.lists(st.sampled_from(_SPACES), min_size=len(tokens), max_size=len(tokens)))
    return "".join(s + t for s, t in zip(spaces, tokens, strict=True))


_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(_well_formed())
def test_well_formed_orders_read_the_same(text: str) -> None:
    _assert_same(text)


@_SETTINGS
@given(_spoiled())
def test_spoiled_orders_read_or_fail_the_same(text: str) -> None:
    _assert_same(text)


@_SETTINGS
@given(_soup())
def test_token_soup_reads_or_fails_the_same(text: str) -> None:
    _assert_same(text)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="AFSCHDBVRW aprbunt-/()>.,'ßäöüÄ\t\nſK", max_size=24))
def test_any_text_reads_or_fails_the_same(text: str) -> None:
    _assert_same(text)


# --- the guard against a changed grammar -----------------------------------------------------


def test_the_quick_reader_was_checked_against_this_grammar() -> None:
    """Fails when grammars/diplomacy.lark changes: review quickread.py against the change
    (keywords, forms, where only a name may stand), then update GRAMMAR_SHA256."""
    assert grammar_matches(_parser())
    assert keyword_classes(_parser())["nach"] == "t"


def test_another_grammar_turns_the_quick_reader_off() -> None:
    text = grammar_path("diplomacy").read_text(encoding="utf-8")
    changed = Lark(
        text.replace('"nach"i', '"nach"i | "naar"i'),
        parser="lalr",
        import_paths=[grammar_dir()],
        maybe_placeholders=False,
    )
    assert keyword_classes(changed) == {}
    assert quick_read("A PAR - BUR", B, keyword_classes(changed)) is None


def test_the_lookup_tables_stay_bounded() -> None:
    """Mail is untrusted: ten thousand spellings of one name do not grow the tables past
    their limit, and every one of them still reads."""
    mao = B.lookup("MAO")
    tables = quickread._tables(B)
    letters = [(ch.lower(), ch.upper()) for ch in "midatlanticocean"]
    for spelled in itertools.islice(map("".join, itertools.product(*letters)), 5000):
        order = _quick(f"F {spelled[:3]} {spelled[3:11]} {spelled[11:]} - NAO")
        assert order is not None
        assert order.unit.place.province == mao  # type: ignore[union-attr]
    assert len(tables.pieces) <= quickread._CACHE_LIMIT


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.sampled_from(_NAMES), st.sampled_from(["-", " ", "ſ", "K", "ı", "İ", "1"])),
        max_size=8,
    ).map("".join)
)
def test_the_hyphen_precheck_never_skips_a_name_to_join(text: str) -> None:
    """``_join_hyphenated_names`` skips the pairs' pattern when no hyphen stands between two
    letters; the pattern itself would then have changed nothing either."""
    pattern = _hyphen_pairs(B)
    assert pattern is not None
    expected = pattern.sub(lambda m: m.group(0).replace("-", " "), text)
    assert _join_hyphenated_names(text, B) == expected
