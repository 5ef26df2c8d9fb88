"""Order mails as the spec's §4 prints them (E1 … E5), the phase header, REMIS beside the
orders on file, and replies that name the line, what is wrong and what would be right."""

from __future__ import annotations

import pytest

from gm_daemon.games.highlander import GAME, boards
from gm_daemon.games.protocol import Header, ProblemKind

from .support import position, read, rejected

E1 = """Spiel: HL-3
Phase: Zentrenwahl
ZENTREN: Lon, Lvp, Edi, Bre, Par, Mar, Spa, Por, Bel, Hol, Kie, Ber, Mün, Den, Nwy"""
E2 = """Spiel: HL-3
Phase: Aufstellung
AUFSTELLUNG: A Mos, A War, F StP/sk, F Sev, F Ank, A Con, F Smy, F Bul/ok, A Rum, A Ser, F Gre, A Bud, A Vie, F Tri"""  # noqa: E501
E3 = """Spiel: HL-3
Phase: 1902 Bewegung
A Mün - Sil
A Ber U A Mün - Sil
F Nordsee K A Lon - Nwy
A Lon - Nwy
F Bre hält"""
E4 = """Game: HL-T7
Phase: 1905 Movement
BOARD A:
A Vie - Gal
A Bud S A Vie - Gal
F Tri H
BOARD B:
A Mos - Ukr
F Sev - Rum
A War S A Mos - Ukr"""
E5_RETREAT = """Phase: 1905 Rückzüge
A Gal - Boh"""
E5_BUILDS = """Phase: 1905 Anpassung
Baue F Kie
Baue A Ber"""

GAL_DISLODGED = {"seat": "P1", "unit": "A GAL", "attacker": "UKR", "options": ["BOH", "SIL"]}
TC1 = {
    "owners": {
        "P1": "LON LVP EDI BRE PAR MAR SPA POR HOL KIE BER MUN DEN NWY",
        "P2": "MOS WAR STP SEV ANK CON SMY BUL RUM SER GRE BUD VIE TRI",
    }
}


def test_e1_centre_ballot() -> None:
    """HL-3: the ballot as written in E1, German short names (Mün) included."""
    state = position({"step": "ballot"})
    orders = read(state, "P1", E1).orders
    assert orders.centres == sorted(
        [
            "LON",
            "LVP",
            "EDI",
            "BRE",
            "PAR",
            "MAR",
            "SPA",
            "POR",
            "BEL",
            "HOL",
            "KIE",
            "BER",
            "MUN",
            "DEN",
            "NWY",
        ]
    )


def test_e2_unit_setup_with_german_coasts() -> None:
    """HL-8: coasts /sk and /ok; every starting centre of P2 given."""
    state = position({"step": "setup", "A": TC1})
    accepted = read(state, "P2", E2)
    assert accepted.warnings == []
    assert "F STP/SC" in accepted.orders.placement
    assert "F BUL/EC" in accepted.orders.placement


def test_e3_movement_with_german_names() -> None:
    state = position({"step": "movement", "year": 1902, "A": {
        "owners": {"P1": "MUN BER LON BRE"},
        "units": {"P1": "A MUN, A BER, F NTH, A LON, F BRE", "P2": "A WAR"},
    }})  # fmt: skip
    orders = read(state, "P1", E3).orders
    assert orders.boards == {
        "A": [
            "A MUN - SIL",
            "A BER S A MUN - SIL",
            "F NTH C A LON - NWY",
            "A LON - NWY",
            "F BRE H",
        ]
    }


def test_e4_one_mail_for_both_boards() -> None:
    """HL-16: one mail, one section per board."""
    state = position({"step": "movement", "year": 1905,
                      "A": {"units": {"P1": "A VIE, A BUD, F TRI", "P2": "A WAR"}},
                      "B": {"units": {"P1": "A MOS, F SEV, A WAR", "P2": "A RUM"}}},
                     {"tournament": True})  # fmt: skip
    orders = read(state, "P1", E4, "en").orders
    assert orders.boards == {
        "A": ["A VIE - GAL", "A BUD S A VIE - GAL", "F TRI H"],
        "B": ["A MOS - UKR", "F SEV - RUM", "A WAR S A MOS - UKR"],
    }


def test_e5_retreat_then_builds() -> None:
    retreat = position({"step": "retreats", "year": 1905, "A": {
        "units": {"P1": "A VIE", "P2": "A WAR"},
        "dislodged": [GAL_DISLODGED],
    }})  # fmt: skip
    assert read(retreat, "P1", E5_RETREAT).orders.boards == {"A": ["A GAL R BOH"]}
    adjust = position({"step": "adjustments", "year": 1905, "A": {
        "owners": {"P1": "KIE BER MUN", "P2": "WAR"}, "units": {"P1": "A MUN", "P2": "A WAR"},
    }})  # fmt: skip
    assert read(adjust, "P1", E5_BUILDS).orders.boards == {"A": ["BUILD F KIE", "BUILD A BER"]}


def test_headers_of_this_and_other_phases() -> None:
    """A-16: the §4 headers, German and English; another phase makes the mail stale."""
    state = position({"step": "movement", "year": 1902, "A": {"units": {"P1": "A MUN"}}})
    assert GAME.read_header("Phase: 1902 Bewegung", state) is Header.CURRENT
    assert GAME.read_header("phase: 1902 movement", state) is Header.CURRENT
    assert GAME.read_header("Phase: 1901 Bewegung", state) is Header.OTHER
    assert GAME.read_header("Phase: 1902 Rückzüge", state) is Header.OTHER
    assert GAME.read_header("Phase: Zentrenwahl", state) is Header.OTHER
    assert GAME.read_header("A Mün - Sil", state) is None
    ballot = position({"step": "ballot"})
    assert GAME.read_header("Phase: Zentrenwahl", ballot) is Header.CURRENT
    assert GAME.read_header("Phase: Centre ballot", ballot) is Header.CURRENT
    setup = position({"step": "setup", "A": TC1})
    assert GAME.read_header("Phase: Aufstellung", setup) is Header.CURRENT


def test_remis_alone_keeps_the_orders_on_file() -> None:
    """HL-14: a REMIS mail adds the offer to the moves already sent."""
    state = position({"step": "movement", "year": 1903, "A": {"units": {"P1": "A MUN, A BER"}}})
    on_file = read(state, "P1", "A Mün - Boh\nA Ber - Sil").orders
    both = read(state, "P1", "REMIS", on_file=on_file).orders
    assert both.draw and both.boards == on_file.boards
    again = read(state, "P1", "A Mün H", on_file=both).orders
    assert again.draw and again.boards == {"A": ["A MUN H"]}
    taken_back = read(state, "P1", "KEIN REMIS", on_file=again).orders
    assert not taken_back.draw and taken_back.boards == again.boards


def test_remis_is_not_possible_during_the_set_up() -> None:
    exc = rejected(position({"step": "ballot"}), "P1", "REMIS")
    assert "erst ab der ersten Bewegungsphase" in exc.problems[0].message


def test_impossible_move_is_accepted_with_a_warning() -> None:
    """§3.2: legal in form, impossible on the map: accepted, warned, fails later."""
    state = position({"step": "movement", "year": 1902, "A": {"units": {"P1": "A PAR"}}})
    accepted = read(state, "P1", "A Par - Lon")
    assert accepted.orders.boards == {"A": ["A PAR - LON"]}
    [warning] = accepted.warnings
    assert warning.line == 1 and warning.source == "A Par - Lon"
    assert "kann LON nicht erreichen" in warning.message
    assert "scheitert" in warning.hint


def test_every_problem_of_a_mail_at_once_with_line_and_hint() -> None:
    state = position(
        {"step": "movement", "year": 1902, "A": {"units": {"P1": "A PAR", "P2": "A MUN"}}}
    )
    exc = rejected(state, "P1", "A Pariss - Bur\nA Mun - Boh\nBaue A Par\nA Par Bur")
    by_line = {p.line: p for p in exc.problems}
    assert sorted(by_line) == [1, 2, 3, 4]
    assert by_line[1].kind is ProblemKind.SYNTAX
    assert "Pariss" in by_line[1].message and "PAR" in by_line[1].hint
    assert by_line[2].kind is ProblemKind.ILLEGAL and "MUN" in by_line[2].message
    assert "A PAR" in by_line[2].hint
    assert by_line[3].kind is ProblemKind.ILLEGAL
    assert by_line[4].kind is ProblemKind.SYNTAX and by_line[4].hint


def test_english_replies_have_no_german_words() -> None:
    state = position(
        {"step": "movement", "year": 1902, "A": {"units": {"P1": "A PAR", "P2": "A MUN"}}}
    )
    exc = rejected(state, "P1", "A Mun - Boh\nA Par S", "en")
    text = " ".join(f"{p.message} {p.hint}" for p in exc.problems)
    assert "You have no unit in MUN" in text
    for german in ("Sie", "Einheit", "Befehl", " z. B."):
        assert german not in text


def test_a_tournament_order_needs_its_board() -> None:
    state = position({"step": "movement", "A": {"units": {"P1": "A PAR"}},
                      "B": {"units": {"P2": "A PAR"}}}, {"tournament": True})  # fmt: skip
    exc = rejected(state, "P1", "A Par - Bur")
    assert exc.problems[0].line == 1 and "BRETT A:" in exc.problems[0].hint


def test_board_sections_are_refused_in_a_single_game() -> None:
    state = position({"step": "movement", "A": {"units": {"P1": "A PAR"}}})
    exc = rejected(state, "P1", "BRETT A:\nA Par - Bur")
    assert exc.problems[0].line == 1


def test_retreat_to_a_place_not_open_names_the_options() -> None:
    state = position({"step": "retreats", "year": 1905, "A": {
        "units": {"P2": "A UKR"},
        "dislodged": [GAL_DISLODGED],
    }})  # fmt: skip
    exc = rejected(state, "P1", "A Gal - Ukr")
    assert "BOH SIL" in exc.problems[0].hint


def test_the_notation_the_mails_explain_is_read_as_explained() -> None:
    """The centre names of the help (first shown in the welcome) each name their centre, and
    each order form the movement help shows is read as an order of that kind."""
    from gm_daemon.diplomacy import read_order
    from gm_daemon.games.highlander import boards, setup
    from gm_daemon.games.highlander.wording import PHRASES

    for lang in ("de", "en"):
        for centre in boards.centres():
            assert setup.centre_of(PHRASES(lang, f"centre_{centre}")) == centre, (lang, centre)
        for line in PHRASES(lang, "forms").splitlines():
            assert read_order(line.split("|")[0], boards.board()), (lang, line)


def test_a_rejection_says_what_would_be_right_in_the_players_language() -> None:
    """An unknown province gets a hint even without a close match; "did you mean" names
    the place in German; a ballot's list rules point at the list's line."""
    state = position({"step": "movement", "year": 1902, "A": {
        "owners": {"P1": "MUN BER"}, "units": {"P1": "A MUN, A BER", "P2": "A WAR"},
    }})  # fmt: skip
    first, second = rejected(state, "P1", "A Mün - Sli\nA Ber - Balx").problems
    assert (first.line, second.line) == (1, 2)
    assert "Schlesien" in first.hint and "KARTE" in first.hint
    assert second.hint == "Meinten Sie BAL (Ostsee)?"
    english = rejected(state, "P1", "A Mun - Sli", "en").problems[0]
    assert "Silesia" in english.hint and "MAP" in english.hint
    ballot = position({"step": "ballot"})
    text = "Spiel: HL-3\nZENTREN: Lon, Lvp, Edi, Bre, Par, Mar, Spa, Por,\nBel, Hol, Kie, Ber, Lon"
    found = rejected(ballot, "P1", text).problems  # named twice, and too few
    assert [p.line for p in found] == [2, 2] and "LON" in found[0].message


def test_a_misspelt_centre_gets_a_guess_and_an_unknown_one_the_list() -> None:
    """A ballot names only centres, so "Mnu" is taken for MUN; for a name close to no centre
    the reply lists all 34 centres, once (a second such line points back to the first)."""
    ballot = position({"step": "ballot"})
    found = rejected(ballot, "P1", "ZENTREN: Par, Xyz, Mnu\nQqq, Lodnon").problems
    by_name = {p.message.split("“")[0].strip("„"): p.hint for p in found if "„" in p.message}
    assert by_name["Mnu"] == "Meinten Sie MUN?" and by_name["Lodnon"] == "Meinten Sie LON?"
    assert by_name["Xyz"] == by_name["Qqq"] and "ANK, BEL, BER" in by_name["Xyz"]
    # the list is the names there are, not a ballot to send back (34 centres, not 15)
    listed = by_name["Xyz"].split(": ", 1)[1].split(", ")
    assert listed == sorted(boards.board().names[c].upper() for c in boards.board().supply_centers)
    assert not by_name["Xyz"].upper().startswith(("ZENTREN", "CENTRES"))
    unknown = [p for p in found if "„" in p.message]
    assert len(unknown) == 4 and all(p.kind is ProblemKind.SYNTAX for p in unknown)
    english = rejected(ballot, "P1", "CENTRES: Mnu", "en").problems
    assert english[0].hint == "Did you mean MUN?"
    assert english[0].fix is not None and english[0].fix.guess


@pytest.mark.parametrize(
    "written",
    [
        "ZENTREN: Lon Lvp Edi Bre Par Mar Spa Por Bel Hol Kie Ber Mün Den Nwy",
        "Zentren Lon Lvp Edi Bre Par Mar Spa Por Bel Hol Kie Ber Mün Den Nwy",
        "CENTRES: Lon Lvp Edi, Bre Par Mar; Spa Por Bel Hol\nKie Ber Munich Den Nwy",
    ],
)
def test_a_ballot_without_commas_is_read_word_by_word(written: str) -> None:
    """A hurried player leaves out the commas (and the colon): the list is E1's."""
    state = position({"step": "ballot"})
    expected = read(state, "P1", E1).orders.centres
    assert read(state, "P1", written).orders.centres == expected


def test_a_typo_in_a_ballot_without_commas_is_its_own_entry() -> None:
    """The misspelt word is named alone, with its guess; the others count (no "1 centre");
    a misspelt two-word name stays one entry."""
    ballot = position({"step": "ballot"})
    written = "ZENTREN: Lon Lvp Edi Bre Par Mar Spa Por Bel Hol Kie Ber Mnu Den Nwy"
    [found] = rejected(ballot, "P1", written).problems
    assert found.message == "„Mnu“ ist kein bekanntes Versorgungszentrum."
    assert found.fix is not None and found.fix.right == "MUN"
    assert read(ballot, "P1", found.fix.applied(found.source)).orders.centres
    [found, *_] = rejected(ballot, "P1", "ZENTREN: St. Peterburg, Lon").problems
    assert found.fix is not None and found.fix.right == "STP"


def test_a_guess_is_never_a_centre_the_list_names_already() -> None:
    """Issue 20: "Akn" beside Con was guessed as CON, and the list sent back named CON twice."""
    ballot = position({"step": "ballot"})
    [found] = rejected(ballot, "P1", "ZENTREN: Con, Akn, Lon").problems[:1]
    assert found.fix is not None and found.fix.right == "ANK"
    assert found.fix.applied(found.source) == "ZENTREN: Con, ANK, Lon"


def test_two_units_in_one_centre_are_a_fault_of_the_second_line() -> None:
    """Issue 20: "Zwei Einheiten in LON" was filed under "Mail", without a fix."""
    state = position({"step": "setup", "A": TC1})
    mail = "AUFSTELLUNG: A Lon, F Edi\nF Lon"
    [problem] = rejected(state, "P1", mail).problems
    assert problem.line == 2 and "Zwei Einheiten in LON" in problem.message
    assert problem.fix is not None and problem.fix.right.startswith("A ")
    assert problem.fix.right in problem.hint
    fixed = f"AUFSTELLUNG: A Lon, F Edi\n{problem.fix.applied(problem.source)}"
    assert read(state, "P1", fixed).orders.placement


@pytest.mark.parametrize(("lang", "shown"), [("de", "F SPA/nk oder F SPA/sk"),
                                             ("en", "F SPA/NC or F SPA/SC")])  # fmt: skip
def test_a_coast_is_offered_as_the_help_teaches_it(lang: str, shown: str) -> None:
    """Issue 20: a German reply offered "SPA/NC / SPA/SC" where the help teaches /nk, /sk;
    and "Possible: …" under "Correct form" is no form."""
    state = position({"step": "setup", "A": TC1})
    [problem] = rejected(state, "P1", "AUFSTELLUNG: F Spa", lang).problems
    assert problem.hint == shown and problem.fix is not None
    read(state, "P1", problem.fix.applied(problem.source), lang)


@pytest.mark.parametrize(
    ("data", "labels"),
    [
        ({"step": "ballot", "ballot": 2}, ["2. Zentrenwahl", "Centre ballot 2"]),
        ({"step": "setup", "A": TC1}, ["Aufstellung", "Unit setup"]),
        ({"step": "movement", "year": 1902, "A": TC1}, ["1902 Bewegung", "1902 Movement"]),
    ],
)
def test_every_label_in_a_subject_is_read_as_a_header(data: dict, labels: list[str]) -> None:
    """Issue 20: "Phase: 2. Zentrenwahl", copied from the subject, was refused."""
    state = position(data)
    for label in labels:
        assert GAME.phase_label(state, "de" if label in labels[:1] else "en") == label
        assert GAME.read_header(label, state) is Header.CURRENT
        assert GAME.read_header(f"Phase: {label}", state) is Header.CURRENT
    if data["step"] == "ballot":
        assert GAME.read_header("Phase: 3. Zentrenwahl", state) is Header.OTHER
    state.grace = True
    label = GAME.phase_label(state, "de")
    assert "(" in label and GAME.read_header(f"Phase: {label}", state) is Header.CURRENT


def test_a_unit_without_an_order_is_offered_its_hold() -> None:
    state = position({"step": "movement", "year": 1902, "A": {"units": {"P1": "A BEL"}}})
    [problem] = rejected(state, "P1", "A Bel").problems
    assert problem.fix is not None and problem.fix.right == "A Bel H"
    assert read(state, "P1", problem.fix.right).orders.boards == {"A": ["A BEL H"]}


def test_orders_apart_by_commas_on_one_line_are_read_one_by_one() -> None:
    """A hurried "A Par - Bur, F Bre - Mao; A Mar H." is three orders; a faulty one among
    them is named alone, and its fix mends only it."""
    units = {"P1": "A PAR, F BRE, A MAR"}
    state = position({"step": "movement", "year": 1902, "A": {"units": units}})
    orders = read(state, "P1", "A Par - Bur, F Bre - Mao; A Mar H.").orders
    assert orders.boards == {"A": ["A PAR - BUR", "F BRE - MAO", "A MAR H"]}
    written = "A Par - Bur, A Mar"
    [problem] = rejected(state, "P1", written).problems
    assert (problem.line, problem.source) == (1, "A Mar")
    assert problem.fix is not None and problem.fix.applied(written) == "A Par - Bur, A Mar H"
    assert read(state, "P1", problem.fix.applied(written)).orders.boards == {
        "A": ["A PAR - BUR", "A MAR H"]
    }


@pytest.mark.parametrize(
    ("step", "lang", "hint"),
    [
        ("adjustments", "de", "Schreiben Sie z. B. Baue F Kie, Entferne A Ber oder Verzicht."),
        ("adjustments", "en", "Write e.g. Build F Kie, Remove A Ber or Waive."),
        ("retreats", "de", "Schreiben Sie z. B. A Gal - Boh oder A Gal D (auflösen)."),
        ("movement", "de", "Ein Befehl beginnt mit der Einheit, z. B. A Par - Bur"),
    ],
)
def test_a_line_without_a_unit_is_shown_the_form_of_this_phase(
    step: str, lang: str, hint: str
) -> None:
    """ "Keine Bauten" in the adjustments was shown a move ("A Par - Bur") as the form."""
    state = position({"step": step, "year": 1902, "A": {"units": {"P1": "A PAR"}}})
    [problem] = rejected(state, "P1", "Keine Bauten", lang).problems
    assert problem.hint == hint


def test_each_removal_line_gets_its_own_fault() -> None:
    """Issue 20 (with the builds in tc-hl-4): one removal due; the same unit twice is said
    so, a unit of another player is his fault, and neither counts as a second removal."""
    state = position({"step": "adjustments", "year": 1904, "A": {
        "owners": {"P1": "MOS", "P2": "LON EDI"},
        "units": {"P1": "A MOS, F NAO", "P2": "F LON, F EDI"},
    }})  # fmt: skip
    found = rejected(state, "P1", "Entferne F Nao\nEntferne F Nao\nEntferne F Lon").problems
    by_line = {p.line: p.message for p in found}
    assert sorted(by_line) == [2, 3]
    assert "schon in einer Zeile davor" in by_line[2] and "LON" in by_line[3]
    assert not any("Mehr Entfernungen" in m for m in by_line.values())
    too_many = rejected(state, "P1", "Entferne F Nao\nEntferne A Mos").problems
    assert [(p.line, "Mehr Entfernungen" in p.message) for p in too_many] == [(2, True)]
