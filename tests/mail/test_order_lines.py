"""``order_lines``' short way (``_plain_lines``, a text no line of which may end it or
attribute a quote) against its general one (``_read_lines``) with neither of those to look
for: the same lines, numbers and texts, for every corpus mail and for generated texts with
comments, quotes, blanks, "\\r" and the other line breaks ``rstrip`` takes."""

from __future__ import annotations

from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from gm_daemon.games.protocol import Line
from gm_daemon.mail import message

MAILS = sorted((Path(__file__).parents[1] / "mail_corpus").glob("*.eml"))

PIECES = [
    " ", "\t", "\r", "\r\n", "\n", "#", ">", " > ", "Hans", "3", "ü", "\u00a0", "\v", "\f",
    "\x1c", "\u2028", "\x85", "Kanone ge2", "# Kommentar", "Code: X",
]  # fmt: skip
TEXTS = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=20).map("".join)


def _both(text: str) -> tuple[list[Line], list[Line]]:
    lines = text.split("\n")
    general = message._read_lines([line.rstrip("\r") for line in lines], False, False)
    return message._plain_lines(lines), general


@settings(max_examples=3000, deadline=None)
@given(TEXTS)
@example("Hallo,\r\n\r\nCode: X\r\n> quoted\r\n  >also\r\n# only a comment\r\nA 1 # c\r\n\r\n")
@example("\r")
@example(" \u00a0\r\n")
def test_the_short_way_reads_any_text_as_the_general_one(text: str) -> None:
    short, general = _both(text)
    assert short == general


def test_the_short_way_reads_every_corpus_text_as_the_general_one() -> None:
    compared = 0
    for path in MAILS:
        raw = path.read_bytes()
        decoded = message.parse_incoming(raw, "gm@gm.test").text
        for text in (raw.decode("utf-8", "replace"), decoded):
            short, general = _both(text)
            assert short == general, path.name
            compared += len(general)
    assert compared > 1000


def test_order_lines_takes_the_short_way_only_without_endings_and_attributions() -> None:
    plain = "Hallo,\r\n\r\nCode: X\r\nA 1  # mein Zug\r\n> alt\r\n\r\nGruß\r\n"
    assert message.order_lines(plain) == [
        Line(1, "Hallo,"),
        Line(3, "Code: X"),
        Line(4, "A 1"),
        Line(7, "Gruß"),
    ]
    ending = "A 1\n--\nSignatur\n"
    assert message.order_lines(ending) == [Line(1, "A 1")]
    attributed = "A 1\nAm Montag schrieb Hans:\n> B 2\n"
    assert message.order_lines(attributed) == [Line(1, "A 1")]
