"""Decoding of incoming mail: real-looking client mails as data, then each rule on its own."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gm_daemon.mail.message as message
from gm_daemon.games.protocol import Line
from gm_daemon.mail.html_text import html_to_text
from gm_daemon.mail.message import (
    decode_bytes,
    decode_words,
    order_lines,
    parse_incoming,
    unflow,
)

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED: dict[str, dict[str, Any]] = tomllib.loads((FIXTURES / "expected.toml").read_text())
OWN = "gm@gm.test"


def test_every_fixture_has_expectations() -> None:
    assert sorted(p.stem for p in FIXTURES.glob("*.eml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_decodes_as_expected(name: str) -> None:
    want = EXPECTED[name]
    got = parse_incoming((FIXTURES / f"{name}.eml").read_bytes(), OWN)
    assert got.message_id == want.get("message_id")
    assert got.sender == want["sender"]
    assert got.display_name == want["display_name"]
    assert got.subject == want["subject"]
    assert got.in_reply_to == want.get("in_reply_to")
    assert got.references == tuple(want.get("references", ()))
    if want["automated"] is False:
        assert got.automated is None
    else:
        assert got.automated is not None and want["automated"] in got.automated
    for piece in want.get("text_has", ()):
        assert piece in got.text
    for piece in want.get("text_lacks", ()):
        assert piece not in got.text
    if "lines" in want:
        assert order_lines(got.text) == [Line(no, text) for no, text in want["lines"]]


# --- loop guard ----------------------------------------------------------------------------


def _mail(
    headers: str, body: str = "GEHE NACH Saloon\n", sender: str = "egon@example.org"
) -> bytes:
    return f"From: Egon <{sender}>\nSubject: x\n{headers}\n{body}".encode()


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        ("Auto-Submitted: auto-generated\n", "Auto-Submitted"),
        ("Auto-Submitted: Auto-Replied; owner-email=x@y\n", "Auto-Submitted"),
        ("Precedence: junk\n", "Precedence"),
        ("Precedence: BULK\n", "Precedence"),
        ("List-Unsubscribe: <mailto:leave@lists.example>\n", "List-Unsubscribe"),
        ("List-Id: <x.lists.example>\n", "List-Id"),
        ("Return-Path: < >\n", "Return-Path"),
        ("X-Autoreply: yes\n", "X-Autoreply"),
        ("X-Autorespond: Urlaub\n", "X-Autorespond"),
        ("Content-Type: multipart/report; boundary=b\n", "multipart/report"),
    ],
)
def test_automated_mail_is_recognised(headers: str, reason: str) -> None:
    automated = parse_incoming(_mail(headers), OWN).automated
    assert automated is not None and reason in automated


@pytest.mark.parametrize("sender", ["MAILER-DAEMON@mx.example", "Postmaster@example.org", OWN])
def test_daemon_and_own_senders_are_automated(sender: str) -> None:
    assert parse_incoming(_mail("", sender=sender), "Spielleiter <GM@gm.test>").automated


@pytest.mark.parametrize(
    "headers",
    ["", "Auto-Submitted: no\n", "Precedence: first-class\n", "Return-Path: <egon@example.org>\n"],
)
def test_human_mail_is_not_automated(headers: str) -> None:
    assert parse_incoming(_mail(headers), OWN).automated is None


def test_mail_without_from_cannot_be_answered() -> None:
    got = parse_incoming(b"Subject: hallo\n\nGEHE NACH Saloon\n", OWN)
    assert (got.sender, got.automated) == ("", "no sender address")


# --- headers -------------------------------------------------------------------------------


def test_encoded_words_join_and_keep_surrounding_text() -> None:
    assert decode_words("=?utf-8?q?Gr=C3=BC?= =?utf-8?q?=C3=9Fe?= aus =?x-bogus?q?Ulm?=") == (
        "Grüße aus Ulm"
    )
    assert decode_words("=?utf-8?b?!!!?=") == "=?utf-8?b?!!!?="


def test_display_name_with_comma_is_parsed_before_decoding() -> None:
    raw = b"From: =?utf-8?q?M=C3=BCller=2C_Egon?= <egon@example.org>\n\nx\n"
    got = parse_incoming(raw, OWN)
    assert (got.sender, got.display_name) == ("egon@example.org", "Müller, Egon")


def test_message_ids_are_taken_from_angle_brackets() -> None:
    raw = b"From: a@b.c\nMessage-ID:\n <x@y>\nIn-Reply-To: Egon's mail <p@q> (comment)\n"
    raw += b"References: <1@a>\n\t<2@a> <3@a>\n\nx\n"
    got = parse_incoming(raw, OWN)
    assert (got.message_id, got.in_reply_to, got.references) == (
        "<x@y>",
        "<p@q>",
        ("<1@a>", "<2@a>", "<3@a>"),
    )


# --- body ----------------------------------------------------------------------------------


def test_first_inline_text_part_wins_over_attachments_and_forwards() -> None:
    raw = (
        b"From: a@b.c\nContent-Type: multipart/mixed; boundary=XX\n\n"
        b"--XX\nContent-Type: text/plain\nContent-Disposition: attachment; filename=a.txt\n\n"
        b"ATTACHMENT\n"
        b"--XX\nContent-Type: message/rfc822\n\nFrom: c@d.e\nContent-Type: text/plain\n\n"
        b"FORWARDED\n"
        b"--XX\nContent-Type: text/plain; charset=utf-8\n\nGEHE NACH Saloon\n"
        b"--XX--\n"
    )
    assert parse_incoming(raw, OWN).text.strip() == "GEHE NACH Saloon"


def test_html_is_used_only_without_a_plain_part() -> None:
    raw = b"From: a@b.c\nContent-Type: text/html\n\n<p>A&uuml;</p><p>B</p>"
    assert parse_incoming(raw, OWN).text == "Aü\nB"


def test_html_rendering() -> None:
    html = (
        "<html><head><title>T</title><style>p{}</style></head><body>"
        "<p>eins&nbsp;&amp;   zwei</p>drei<br>vier<br/><br>"
        "<blockquote><div>zitat</div><blockquote>tief</blockquote></blockquote>"
        "<table><tr><td>a</td><td>b</td></tr></table><pre>x  y\nz</pre>"
        "<script>var s = '<p>';</script>ende</body></html>"
    )
    assert html_to_text(html) == (
        "eins\u00a0& zwei\ndrei\nvier\n\n> zitat\n> > tief\na b\nx  y\nz\nende"
    ).replace("\u00a0", " ")


def test_unflow_rules() -> None:
    text = "a \nb\n> q \n> r\n>> deep \n> shallow\n-- \nsig \n \nend"
    assert unflow(text, delsp=False) == "a b\n> q r\n>> deep \n> shallow\n-- \nsig \nend"
    assert unflow("Kugel \nn\r\n", delsp=True) == "Kugeln\n"


def test_charset_fallbacks() -> None:
    assert decode_bytes("Grüße".encode(), "us-ascii") == "Grüße"
    assert decode_bytes("Grüße".encode("latin-1"), "utf-8") == "Grüße"
    assert decode_bytes(b"\x80 \x96", "iso-8859-1") == "€ –"
    assert decode_bytes("Kö".encode("latin-1"), "x-no-such-charset") == "Kö"
    assert decode_bytes(b"\x81\x8d", "utf-8") == "\x81\x8d"


def test_plain_text_crlf_and_nbsp_are_normalised() -> None:
    raw = b"From: a@b.c\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nA\xc2\xa0B\r\nC\r\n"
    assert parse_incoming(raw, OWN).text == "A B\nC\n"


# --- order lines ---------------------------------------------------------------------------


def _lines(text: str) -> list[tuple[int, str]]:
    return [(line.no, line.text) for line in order_lines(text)]


def test_order_lines_keep_numbers_and_drop_noise() -> None:
    text = "eins   \n\n  > zitiert\nzwei # Kommentar\n# nur Kommentar\n\t\ndrei\n"
    assert _lines(text) == [(1, "eins"), (4, "zwei"), (7, "drei")]


@pytest.mark.parametrize("marker", ["-- ", "--", "ENDE", "  end  ", "Ende # fertig", "END"])
def test_order_lines_stop_at_end_markers(marker: str) -> None:
    assert _lines(f"eins\n{marker}\nzwei\n") == [(1, "eins")]


@pytest.mark.parametrize(
    "separator",
    ["-----Original Message-----", "-----Ursprüngliche Nachricht-----", "_" * 32],
)
def test_order_lines_stop_at_outlook_quotes(separator: str) -> None:
    assert _lines(f"eins\n\n{separator}\nVon: x\nzwei\n") == [(1, "eins")]


@pytest.mark.parametrize(
    "header",
    [
        "Am 10.03.24 um 18:00 schrieb Spielleiter:",
        "On Mon, Mar 11, 2024 at 6:00 PM GM <gm@gm.test> wrote:",
        "Am Mo., 11. März 2024 um 18:00 Uhr schrieb Spielleiter <\ngm@gm.test>:",
        "On Mon, Mar 11, 2024 at 6:00 PM Spielleiter <gm@gm.test>\nwrote:",
        "Spielleiter <gm@gm.test> schrieb am 11.03.2024 18:00:",
    ],
)
def test_order_lines_drop_reply_headers(header: str) -> None:
    text = f"eins\n{header}\n\n> GEHE NACH Bank\nzwei\n"
    after = text.count("\n")
    assert _lines(text) == [(1, "eins"), (after, "zwei")]


def test_loose_reply_header_is_kept_without_a_quote() -> None:
    assert _lines("er schrieb:\nGEHE NACH Bank\n") == [(1, "er schrieb:"), (2, "GEHE NACH Bank")]


_ATTRIBUTION_PIECES = [
    "Am 10.03.24 um 18:00 schrieb Spielleiter:", "On Mon, Mar 11, 2024 at 6:00 PM GM wrote:",
    "Am Mo., 11. März 2024 um 18:00 Uhr schrieb Spielleiter <", "gm@gm.test>:",
    "On Mon, GM <gm@gm.test>", "wrote:", "Anna SCHRIEB am 11.03.:", "er hat geschrieben:",
    "am ſchrieb x:", "on Mon WROTE:", "> GEHE NACH Bank", ">", "", "Kanone ge2", "ENDE",
    "Von: Anna", "Gesendet: Montag", "Hallo,", "schrieb", "am", "on x", "Am 1. SCHRİEB x:",
    "on x wrote:", "am ſchrıeb", "on x wRoTe", "sch", "rieb",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_ATTRIBUTION_PIECES), max_size=10).map("\n".join))
def test_order_lines_skip_the_attribution_search_only_where_it_finds_nothing(
    text: str,
) -> None:
    """A text without "schrieb" or "wrote" (any case) is not searched line by line for
    attribution lines: the same lines as when every text is."""
    import gm_daemon.mail.message as message

    quick = order_lines(text)
    pattern, message._ATTRIBUTION_WORD = message._ATTRIBUTION_WORD, re.compile("")
    try:
        assert order_lines(text) == quick
    finally:
        message._ATTRIBUTION_WORD = pattern


_ENDING_PIECES = [
    "--", "-- ", " --\r", "ENDE", "ende # fertig", "  End", "Abend", "Kanone ge2", "",
    "-----Original Message-----", "-----Ursprüngliche Nachricht-----\r", "_" * 25,
    "Von meinem iPhone gesendet", "Sent from my phone.", "Get Outlook for Android",
    "Von: Anna <a@b.test>", "*Gesendet:* Montag", "Datum: gestern", "From: x", "Sent: now",
    "> zitiert", "# nur Kommentar", "Hallo,", "Gruß\r", "\r", "ſent: x", "von:", "  \t",
    "Get OUTLOO\u212a for x", "geſendet von x iphone", "Datum : x", "*From:* y", "ſ", "_" * 19,
    "VON MEINEM ipad GESENDET", "sent with app",
]  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_ENDING_PIECES), max_size=10).map("\n".join))
def test_order_lines_skip_the_end_search_only_where_no_line_can_end_the_text(
    text: str,
) -> None:
    """A text in which no line can be an end marker, a signature, an Outlook separator
    or a quote header (asked of the whole text once) is not asked line by line: the same
    lines as when every text is."""
    import gm_daemon.mail.message as message

    quick = order_lines(text)
    may_end, message._may_end = message._may_end, lambda text, folded: True
    try:
        assert order_lines(text) == quick
    finally:
        message._may_end = may_end


# Letters an ignore-case search takes for another: every one of the hints' letters, as
# ``re`` matches it, case-folds to that letter (else a text could hold a match but no hint).
_HINT_LETTERS = sorted(set("".join(message._ATTRIBUTION_HINTS + message._ENDING_HINTS)) - {"_"})


@pytest.mark.parametrize("letter", _HINT_LETTERS)
def test_each_letter_ignore_case_matches_folds_to_it(letter: str) -> None:
    pattern = re.compile(re.escape(letter), re.IGNORECASE)
    matched = [chr(c) for c in range(sys.maxunicode + 1) if pattern.fullmatch(chr(c))]
    assert len(matched) >= 2  # the letter and its capital at least
    assert {c.casefold() for c in matched} == {letter}


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from([*_ENDING_PIECES, *_ATTRIBUTION_PIECES, "ſ", "\u212a", "İ", "ı"]),
        max_size=8,
    ).map("\n".join)
)
def test_the_hints_are_there_wherever_the_patterns_match(text: str) -> None:
    folded = text.casefold()
    if message._ATTRIBUTION_WORD.search(text):
        assert any(hint in folded for hint in message._ATTRIBUTION_HINTS)
    if message._ENDS_TEXT.search(text) or message._QUOTE_HEADER.search(text):
        assert "--" in text or any(hint in folded for hint in message._ENDING_HINTS)


# --- robustness ----------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_parse_incoming_never_raises_on_random_bytes(data: bytes) -> None:
    got = parse_incoming(data, OWN)
    order_lines(got.text)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(EXPECTED)),
    st.lists(st.tuples(st.integers(0, 10_000), st.binary(max_size=8)), max_size=6),
    st.integers(0, 10_000),
)
def test_parse_incoming_never_raises_on_damaged_mails(
    name: str, edits: list[tuple[int, bytes]], cut: int
) -> None:
    data = bytearray((FIXTURES / f"{name}.eml").read_bytes())
    for pos, junk in edits:
        data[pos : pos + len(junk)] = junk
    got = parse_incoming(bytes(data[: len(data) - cut % 200]), OWN)
    assert isinstance(got.text, str) and "\r" not in got.text


def test_an_attachment_name_in_a_codec_that_refuses_replacement_does_not_set_the_mail_aside():
    """``filename*=idna''…`` made the email package raise (the idna codec refuses its
    errors="replace"), and the whole mail was set aside as a decoder error."""
    data = (
        b"From: Anna <anna@players.test>\nSubject: Befehle\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="b"\n\n'
        b"--b\nContent-Type: text/plain\n\nanbei\n"
        b"--b\nContent-Type: text/plain\n"
        b"Content-Disposition: attachment; filename*=idna''befehle.txt\n\n"
        b"Code: ANNA-1111\nKanone ro9\n--b--\n"
    )
    got = parse_incoming(data, OWN)
    assert got.unreadable is None
    assert got.text_from == "attachment befehle.txt"
    assert "Kanone ro9" in got.text
