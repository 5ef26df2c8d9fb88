"""The text of a report on a page: tables stay preformatted, the mail's 78-column wrapping
of prose is undone so a phone wraps it at its own width, and lines a writer broke on
purpose (an example's orders, list items) stay lines."""

from __future__ import annotations

import pytest

from gm_daemon.games.kit.layout import fit, fold
from gm_daemon.site.blocks import Block, blocks

NOTATION = (
    "So lesen Sie die Duelle: „(19, 15+)“ heißt geschossen auf den Positionen 19 und 15, "
    "„+“ ist ein Treffer; „(–)“ heißt kein Schuss. Im Zwischenstand: D = gewonnene Duelle, "
    "L = Leben, P = Patronen."
)
TABLE = "Zwischenstand\nA. Langsam  D=2  L=14  P=7\nE. Müller   D=0  L=8   P=5"
EXAMPLE = "Duelle\nA. Langsam: 16, 12\nV. Pech: 16, 12\nHerausforderungen: H. Glück, V. Pech"
RULES = (
    "- Eine Zeile pro Duell: Name des Gegners, dann die Positionen (19 bis 1), bei denen Sie "
    "schießen. Doppelpunkt und Kommas sind freiwillig.\n"
    "- „A. Langsam: keine“ oder „A. Langsam: -“: keine Schüsse. Ein nicht genannter Gegner: "
    "keine Schüsse."
)


def test_prose_wrapped_for_a_mail_is_one_paragraph_again() -> None:
    mail = fit(f"{NOTATION}\n\n{TABLE}\n\n{EXAMPLE}\n\n{RULES}")
    assert max(len(line) for line in mail.splitlines()) <= 78 < len(NOTATION)
    assert blocks(mail) == [
        Block("prose", [NOTATION]),
        Block("pre", TABLE.splitlines()),
        Block("pre", EXAMPLE.splitlines()),
        Block("prose", RULES.splitlines()),
    ]


def test_an_indented_block_or_a_board_stays_preformatted() -> None:
    board = "    A B C D E\n 1  # Z . Z #\n 2  . . . . ."
    pairings = (
        "Walburga Kräuter – Ännchen Wölfle 2:2\n"
        "  Walburga Kräuter, Hexe 2: Müdezauber auf D2 (Schritt 5), im Ziel D1\n"
        "                            (Schritt 6)"
    )
    assert [b.kind for b in blocks(f"{board}\n\n{pairings}")] == ["pre", "pre"]


def test_short_lines_a_writer_broke_stay_lines_in_prose() -> None:
    text = fit("Ihr Stand: D=0  L=8  P=5\n" + NOTATION + "\nAlle Befehle lagen vor.")
    [block] = blocks(text.replace("D=0  L=8  P=5", "D=0 L=8 P=5"))
    assert block == Block("prose", ["Ihr Stand: D=0 L=8 P=5", NOTATION, "Alle Befehle lagen vor."])


def test_prose_above_a_table_in_one_block_is_a_paragraph_of_its_own() -> None:
    """Highlander's HILFE: a paragraph, then the order forms as a table, without a blank
    line between them."""
    forms = ["  A Bud - Ser              ziehen", "  A Par H                  halten"]
    text = fit(NOTATION) + "\n" + "\n".join(forms)
    assert blocks(text) == [Block("prose", [NOTATION]), Block("pre", forms)]


# Hornberg's turn lines, folded for the mail (``layout.fold``) with the rest indented
TURN = "Zug 7 · Bo: Kanone ws3 auf B2 (NW von g2) (NMR – automatisch) – nimmt das Fass ws"
CLEARED = (
    "Zug 36 · Carla: Herzog 1 auf gr4 – beendet die Zeile: gr6/2 → Carla, bl4/5 → Bert, "
    "ge4/6 → Anna, ge6/6 → Anna, gr4 → Carla, ge2/3 → Anna, ro1/1 → Bert, bl3/2 → Bert, "
    "sw1 → Carla – Stapel leer"
)
TABLE_BELOW = "Runde 1 · Zug 8 – am Zug: Carla\n        1      2\n  A   ws3    [   ]"


@pytest.mark.parametrize(
    ("line", "rest"),
    [
        (TURN, ["    ws"]),  # the barrel's colour code alone looked like a line of its own
        (CLEARED, 2),
    ],
)
def test_a_folded_line_is_one_paragraph_again(line: str, rest: list[str] | int) -> None:
    folded = fold(line).splitlines()
    assert folded[1:] == rest if isinstance(rest, list) else len(folded) == 1 + rest
    assert blocks("\n".join(folded) + "\n\n" + TABLE_BELOW) == [
        Block("prose", [line]),
        Block("pre", TABLE_BELOW.splitlines()),
    ]


def test_an_indented_example_after_a_long_line_ending_in_a_colon_stays_an_example() -> None:
    intro = "Wer nicht am Zug ist, darf einen PLAN schicken, gespielt sobald er dran ist:"
    example = ["  Kanone ge3 an Reihe III", "  Bier 6 auf ro4"]
    assert len(intro) + 1 + len("Kanone") > 78
    assert blocks("\n".join([intro, *example])) == [
        Block("prose", [intro]),
        Block("pre", example),
    ]
