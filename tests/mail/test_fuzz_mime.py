"""parse_incoming under hypothesis: generated MIME trees with lying headers, corpus mails with
bytes flipped, cut and repeated, and plain byte garbage.

parse_incoming has a last-resort guard that turns any exception into an "unreadable" mail, so
"does not raise" alone would prove nothing: the properties are that the guard never fires (no
decoder bug is hiding behind it), every field is safe to put into a reply's headers, and no
mail costs a second of CPU. The normal suite runs a small sample; the dedicated run is

    .venv/bin/pytest -m slow tests/mail/test_fuzz_mime.py     (100 000 inputs)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm_daemon.games.protocol import Line
from gm_daemon.mail.address import address_problem
from gm_daemon.mail.message import Incoming, order_lines, parse_incoming
from tests.mail_corpus.cpu import within_limit

OWN = "Spielleiter <gm@gm.test>"
CORPUS = sorted((Path(__file__).parents[1] / "mail_corpus").glob("*.eml"))
QUICK = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LONG = settings(QUICK, max_examples=100_000)

CTYPES = [
    "text/plain", "text/html", "text/enriched", "text", "", "application/octet-stream",
    "image/jpeg", "message/rfc822", "message/delivery-status", "application/pkcs7-mime",
    "multipart/mixed", "foo/bar/baz", "TEXT/PLAIN", "text/plain/extra",
]  # fmt: skip
CHARSETS = [
    "utf-8", "UTF8", "iso-8859-1", "iso-8859-15", "windows-1252", "us-ascii", "utf-16",
    "utf-7", "koi8-r", "x-bogus", "", "unicode_escape", "raw_unicode_escape", "idna",
    "punycode", "utf-8-sig", "rot13", "base64", "zlib", "cp037", "\u00fc", "utf-8*de",
]  # fmt: skip
CTES = ["7bit", "8bit", "binary", "quoted-printable", "base64", "x-uuencode", "bogus", ""]
HEADER_NAMES = [
    "Auto-Submitted", "Precedence", "List-Id", "X-GM-Game", "Return-Path", "Message-ID",
    "In-Reply-To", "References", "Reply-To", "Resent-From", "X-Loop", "Content-Disposition",
    "Content-Type", "From", "Subject", "X-\u00e4", "",
]  # fmt: skip
SENDERS = [
    "egon@example.org", "Egon <egon@example.org>", "=?utf-8?q?Egon_<egon@example.org>?=",
    "=?utf-8?b?RWdvbiA8ZWdvbkBleGFtcGxlLm9yZz4=?=", "@evil.test", "a@evil..test",
    "mal lory@evil.test", '"a b"@c.de', "<>", "Gruppe: a@b.de, c@d.de;", "a@b@c.de",
    "=?x?q?=00=0D=0A?= <a@b.de>", "gm@gm.test",
]  # fmt: skip

words = st.text(st.characters(codec="utf-8"), max_size=40)
ascii_words = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)


@st.composite
def payload(draw: st.DrawFn, charset: str, cte: str) -> bytes:
    if draw(st.booleans()):
        return draw(st.binary(max_size=400))
    body = draw(st.text(max_size=400))
    try:
        raw = body.encode(charset)
    except (LookupError, UnicodeError, ValueError, TypeError):
        raw = body.encode("utf-8", "surrogatepass")
    return encode(raw, cte)


def encode(raw: bytes, cte: str) -> bytes:
    import base64
    import quopri

    if cte == "base64":
        return base64.encodebytes(raw)
    if cte == "quoted-printable":
        return quopri.encodestring(raw)
    return raw


@st.composite
def leaf(draw: st.DrawFn) -> bytes:
    ctype, charset, cte = draw(st.sampled_from(CTYPES)), draw(st.sampled_from(CHARSETS)), ""
    head = f"Content-Type: {ctype}; charset={charset}"
    if draw(st.booleans()):
        head += f"; format=flowed; delsp={draw(st.sampled_from(['yes', 'no']))}"
    if draw(st.booleans()):
        cte = draw(st.sampled_from(CTES))
        head += f"\nContent-Transfer-Encoding: {cte}"
    if draw(st.booleans()):
        head += f'\nContent-Disposition: attachment; filename="{draw(words)}.txt"'
    return head.encode("utf-8", "surrogatepass") + b"\n\n" + draw(payload(charset, cte))


@st.composite
def multipart(draw: st.DrawFn, children: st.SearchStrategy[list[bytes]]) -> bytes:
    subtype = draw(
        st.sampled_from(["mixed", "alternative", "related", "signed", "report", "digest"])
    )
    declared = draw(st.sampled_from(["b1", "==x==", "", "a b", "-", "b1" * 40]))
    used = declared if draw(st.integers(0, 4)) else draw(st.sampled_from(["b1", "other"]))
    parts = b"".join(b"--" + used.encode() + b"\n" + p + b"\n" for p in draw(children))
    closing = b"--" + used.encode() + b"--\n" if draw(st.booleans()) else b""
    preamble = draw(st.binary(max_size=40))
    return f'Content-Type: multipart/{subtype}; boundary="{declared}"\n\n'.encode() + (
        preamble + b"\n" + parts + closing
    )


entities = st.recursive(
    leaf(), lambda children: multipart(st.lists(children, max_size=4)), max_leaves=12
)


@st.composite
def headers(draw: st.DrawFn) -> bytes:
    lines = [f"From: {draw(st.sampled_from(SENDERS) | words)}"]
    lines += [f"Subject: {draw(words)}", f"Message-ID: {draw(ascii_words)}"]
    for _ in range(draw(st.integers(0, 4))):
        lines.append(f"{draw(st.sampled_from(HEADER_NAMES))}: {draw(words)}")
    if draw(st.booleans()):
        lines.append(draw(words))  # a line without a colon
    return "\n".join(lines).encode("utf-8", "surrogatepass") + b"\n"


@st.composite
def generated_mail(draw: st.DrawFn) -> bytes:
    raw = draw(headers()) + draw(entities)
    return raw.replace(b"\n", draw(st.sampled_from([b"\n", b"\r\n", b"\r"])))


@st.composite
def mutated_corpus_mail(draw: st.DrawFn) -> bytes:
    raw = bytearray(draw(st.sampled_from(CORPUS)).read_bytes())
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(raw)))
        size = draw(st.integers(0, 64))
        action = draw(st.sampled_from(["delete", "insert", "repeat", "cut"]))
        if action == "delete":
            del raw[at : at + size]
        elif action == "insert":
            raw[at:at] = draw(st.binary(min_size=1, max_size=size + 1))
        elif action == "repeat":
            raw[at:at] = raw[at : at + size] * draw(st.integers(1, 50))
        else:
            del raw[at:]
    return bytes(raw)


any_mail = st.one_of(generated_mail(), mutated_corpus_mail(), st.binary(max_size=2000))
_MSGID_SHAPE = re.compile(r"<[^<>\s\x00-\x1f\x7f]+>")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _decoded(raw: bytes) -> tuple[Incoming, list[Line]]:
    got = parse_incoming(raw, OWN)
    return got, order_lines(got.text)


def check_decoding(raw: bytes) -> None:
    got, lines = within_limit(lambda: _decoded(raw))
    assert not (got.unreadable or "").startswith("decoder error"), got.unreadable
    for value in (got.subject, got.display_name, got.sender):
        assert not _CONTROL.search(value)  # safe in the headers of a reply
    for msgid in (got.message_id, got.in_reply_to, *got.references):
        assert msgid is None or _MSGID_SHAPE.fullmatch(msgid)
    assert (got.sender_problem is None) == (address_problem(got.sender) is None)
    assert all(line.text.strip() and "\n" not in line.text for line in lines)


@QUICK
@given(generated_mail())
def test_generated_mime_trees(raw: bytes) -> None:
    check_decoding(raw)


@QUICK
@given(mutated_corpus_mail())
def test_mutated_corpus_mails(raw: bytes) -> None:
    check_decoding(raw)


@QUICK
@given(st.binary(max_size=4000))
def test_byte_garbage(raw: bytes) -> None:
    check_decoding(raw)


@pytest.mark.slow
@LONG
@given(any_mail)
def test_hundred_thousand_mails(raw: bytes) -> None:
    check_decoding(raw)
