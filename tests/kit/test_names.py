"""The toolkit's name matcher, as a table: what a player writes, and what it finds, what it
is refused as (ambiguous) and what it is guessed to mean."""

from __future__ import annotations

import pytest

from gm_daemon.games.kit.names import did_you_mean, of_seats, put_in
from gm_daemon.games.protocol import Seat
from gm_daemon.games.text import fold

SEATS = [
    Seat("glueck", "Hans Glück"),
    Seat("egon", "E. Müller"),
    Seat("anna", "Anna Müller"),
    Seat("pech", "V. Pech"),
    Seat("pech2", "W. Pechvogel"),
    Seat("middle", "M. Middle"),
    Seat("weiss", "Zoë Weiß-Öztürk"),
    Seat("strauss", "Jörg Strauß"),
]
PLAYERS = of_seats(SEATS)

# written, found (seat ids; two or more = ambiguous), guess (only asked when nothing is found)
CASES = [
    # the full name, as registered or folded, in any case
    ("Hans Glück", ["glueck"], None),
    ("hans glueck", ["glueck"], None),
    ("HANS GLÜCK", ["glueck"], None),
    ("Glück, Hans", ["glueck"], None),
    # surname, first name, initials
    ("Glück", ["glueck"], None),
    ("Hans", ["glueck"], None),
    ("H. Glück", ["glueck"], None),
    ("H.Glueck", ["glueck"], None),
    ("V.Pech", ["pech"], None),
    ("Pech", ["pech"], None),
    ("Egon Müller", ["egon"], None),  # a full first name for the registered initial
    ("e. mueller", ["egon"], None),
    ("Zoe", ["weiss"], None),
    ("Weiss-Oeztuerk", ["weiss"], None),
    ("Öztürk", ["weiss"], None),
    ("Joerg Strauss", ["strauss"], None),
    ("strauss", ["strauss"], None),
    # the seat id
    ("pech2", ["pech2"], None),
    ("egon", ["egon"], None),
    # ambiguous: two Müllers
    ("Müller", ["egon", "anna"], None),
    ("Mueller", ["egon", "anna"], None),
    # an initial that contradicts is no match, but a near miss
    ("W. Pech", [], "pech"),
    # near misses: one guess, never a match
    ("Middel", [], "middle"),
    ("M. Middel", [], "middle"),
    ("Hans Glük", [], "glueck"),
    ("Pechvogl", [], "pech2"),
    ("Jörg Straus", [], "strauss"),
    # equally near two players: no guess
    ("Müler", [], None),
    # nothing near
    ("Zorro", [], None),
    ("H", [], None),  # an initial alone names nobody
    ("", [], None),
    ("...", [], None),
]


@pytest.mark.parametrize(("written", "found", "guess"), CASES, ids=[c[0] or "empty" for c in CASES])
def test_the_matcher_finds_what_players_write(
    written: str, found: list[str], guess: str | None
) -> None:
    assert PLAYERS.find(written) == found
    if not found:
        assert PLAYERS.guess(written) == guess


def test_an_ambiguous_name_is_settled_by_the_one_eligible_candidate() -> None:
    assert PLAYERS.find("Müller", among={"anna", "pech"}) == ["anna"]
    assert PLAYERS.find("Müller", among={"pech"}) == ["egon", "anna"]


def test_a_guess_is_taken_only_among_the_eligible() -> None:
    assert PLAYERS.guess("Middel", among={"pech"}) is None
    assert PLAYERS.guess("Middel", among={"middle", "pech"}) == "middle"


@pytest.mark.parametrize(("written", "_found", "guess"), [c for c in CASES if c[2]])
def test_every_guess_sent_back_is_found(written: str, _found: list[str], guess: str) -> None:
    """The suggestion is the registered name: written back, it names the guessed seat."""
    assert PLAYERS.find(PLAYERS.label(guess)) == [guess]


def test_the_suggestion_reads_as_a_question_in_both_languages() -> None:
    assert did_you_mean("de", "M. Middle") == "Meinten Sie M. Middle?"
    assert did_you_mean("en", "M. Middle") == "Did you mean M. Middle?"


@pytest.mark.parametrize(
    ("source", "written", "name", "line"),
    [
        (
            "Herausforderungen: Middel, Pech",
            "Middel",
            "M. Middle",
            "Herausforderungen: M. Middle, Pech",
        ),
        ("Middel 19, 15", "Middel", "M. Middle", "M. Middle 19, 15"),
        ("Kurt Kutz: N+", "Kurt Kutz", "Kurt Kurz", "Kurt Kurz: N+"),
    ],
)
def test_the_line_to_send_has_the_name_put_in(
    source: str, written: str, name: str, line: str
) -> None:
    assert put_in(source, written, name) == line


def test_fold_writes_umlauts_as_two_letters() -> None:
    assert fold("Glück") == fold("Glueck") == "glueck"
    assert fold("Straße") == "strasse"
    assert fold("Zoë") == "zoe"


@pytest.mark.parametrize(("written", "found", "guess"), CASES, ids=[c[0] or "empty" for c in CASES])
def test_asked_again_the_matcher_answers_the_same(
    written: str, found: list[str], guess: str | None
) -> None:
    """Answers are remembered per roster: asking twice (and changing the answer's list in
    between) must not change the second answer."""
    first = PLAYERS.find(written)
    first.append("changed by the caller")
    assert PLAYERS.find(written) == found
    assert PLAYERS.find(written, among={"anna"}) == PLAYERS.find(written, among=["anna"])
    if not found:
        assert PLAYERS.guess(written) == PLAYERS.guess(written) == guess


@pytest.mark.parametrize(
    ("roster", "written", "found"),
    [
        ([Seat("a", "Hans Glück"), Seat("b", "V. Pech")], "Glück", ["a"]),
        ([Seat("a", "Hans Sonne"), Seat("b", "V. Pech")], "Glück", []),  # renamed
        ([Seat("a", "Hans Sonne"), Seat("b", "V. Pech")], "Sonne", ["a"]),
        ([Seat("b", "V. Pech")], "Hans", []),  # removed
        ([Seat("b", "V. Pech"), Seat("c", "Hans Glück")], "Glück", ["c"]),  # another id
    ],
)
def test_a_changed_roster_is_matched_as_it_is_now(
    roster: list[Seat], written: str, found: list[str]
) -> None:
    """The one ``Names`` per roster is keyed by ids and names: a renamed, removed or
    re-seated player is another roster, never the remembered answers of the old one."""
    of_seats(SEATS).find(written)  # a roster asked before
    assert of_seats(roster).find(written) == found
    assert of_seats(iter(roster)).find(written) == found


def test_fold_keeps_ascii_and_drops_other_accents() -> None:
    assert fold("Plain ASCII, Text 1!") == "plain ascii, text 1!"
    assert fold("Crème Brûlée") == "creme brulee"
    assert fold("\u212a") == "k"  # the Kelvin sign lower-cases to ASCII
