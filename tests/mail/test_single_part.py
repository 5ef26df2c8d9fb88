"""The quick way to a single-part mail decodes every mail exactly as the email package's parser.

parse_incoming builds a one-part mail with a plain header block into its ``Message`` directly
(``_single_part``), or a one-part text/plain mail without any ``Message`` at all
(``_plain_mail``), reads plain parameter lists with one pattern (``_plain_params``) and finds
a part's header fields once (``_Parts.get``). The reference is the slow path kept on purpose:
the same decoder with those four replaced by the email package's own parse and questions
(``use_slow_ways``, which also turns off the older shortcuts of test_decode_shortcuts.py).
Every corpus mail and a few thousand generated variants (charsets, transfer encodings,
HTML-only, multipart/alternative, quoted replies, PGP, S/MIME, attachments, folded and
broken header blocks, CRLF and LF) must decode to the same ``Incoming``, field by field, and
where the quick way builds the message, to the same headers and payload as the parser.
"""

from __future__ import annotations

import base64
import email
import itertools
import quopri
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gm_daemon.mail import message
from gm_daemon.mail.message import Incoming, parse_incoming
from tests.mail.test_decode_shortcuts import use_slow_ways

TESTS = Path(__file__).parents[1]
CORPUS = sorted(TESTS.rglob("*.eml"))
OWN = "Spielleiter <gm@gm.test>"
MANY = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def quick_and_slow(
    mails: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> tuple[list[Incoming], list[Incoming]]:
    """Each mail decoded the quick way, then (shortcuts off) the slow way."""
    with monkeypatch.context() as patched:
        quick = [parse_incoming(data, OWN) for data in mails]
        use_slow_ways(patched)
        slow = [parse_incoming(data, OWN) for data in mails]
    return quick, slow


def same_message(data: bytes) -> bool:
    """Whether the quick way built ``data``'s message, as the parser builds it; False when
    it left the mail to the parser."""
    built = message._single_part(data, message._Parts())
    if built is None:
        return False
    parsed = email.message_from_bytes(data)
    assert not parsed.is_multipart()
    assert built._headers == parsed._headers
    assert built._payload == parsed._payload  # get_payload() may raise (an "idna" charset)
    assert built.get_unixfrom() == parsed.get_unixfrom()
    assert built.get_default_type() == parsed.get_default_type()
    return True


# --- the corpus ------------------------------------------------------------------------------


def test_corpus_decodes_as_the_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    mails = [path.read_bytes() for path in CORPUS]
    assert len(mails) >= 250
    quick, slow = quick_and_slow(mails, monkeypatch)
    for path, got, want in zip(CORPUS, quick, slow, strict=True):
        assert got == want, path.name
    built = sum(same_message(data) for data in mails)
    assert built > 150  # most corpus mails take the quick way, the rest were compared too
    own = message._own_mail(OWN)
    plain = sum(message._plain_mail(data, own) is not None for data in mails)
    assert plain > 100  # and half of them the quickest, read without a Message (_plain_mail)


# --- generated variants ----------------------------------------------------------------------

ORDERS = "Hallo,\n\nCode: EGON-1234\nGEHE NACH Saloon\nZiel: Grüße an Jürgen\n\nGruß\nEgon\n"
QUOTED = ORDERS + "\nAm 3. März schrieb Spielleiter <gm@gm.test>:\n> Deine Befehle?\n> Frist\n"
CLEARSIGNED = (
    "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n" + ORDERS
    + "- -- \n-----BEGIN PGP SIGNATURE-----\n\niQEz\n-----END PGP SIGNATURE-----\n"
)  # fmt: skip
ENCRYPTED = "-----BEGIN PGP MESSAGE-----\n\nhQEMA\n-----END PGP MESSAGE-----\n"
HTML = "<html><body><p>Code: EGON-1234</p><blockquote>alt</blockquote><p>Gruß</p></body></html>"
FORWARD = "-------- Forwarded message -------\nFrom: Spielleiter <gm@gm.test>\n\nDeine Befehle\n"
EMOJI = "GEHE NACH Saloon 🔫\u00a0\u200b\n"
BODIES = {"orders": ORDERS, "quoted": QUOTED, "pgp": CLEARSIGNED, "encrypted": ENCRYPTED,
          "html": HTML, "forward": FORWARD, "empty": "", "emoji": EMOJI}  # fmt: skip
TYPES = [
    "text/plain; charset={cs}", 'text/plain; charset="{cs}"; format=flowed',
    "text/plain; charset={cs}; format=flowed; delsp=yes", "text/html; charset={cs}",
    "TEXT/Plain;\n charset={cs}", "text/plain; charset={cs}; name=befehle.txt", None,
    "text/enriched; charset={cs}", "application/octet-stream", "text",
    "application/pkcs7-mime; smime-type=enveloped-data", "text/plain; charset*=utf-8''{cs}",
    "text/plain; charset=\"{cs}\";", "text/plain; charset=<{cs}>",
]  # fmt: skip
CHARSETS = ["utf-8", "iso-8859-1", "windows-1252", "us-ascii", "utf-16", "x-bogus", "idna"]
ENCODINGS = [None, "7bit", "8bit", "quoted-printable", "base64", "Base64", "base64 ", "bogus"]
DISPOSITIONS = [None, "inline", "attachment", 'attachment; filename="befehle.txt"']


def encoded(body: str, charset: str, cte: str | None) -> bytes:
    try:
        raw = body.encode("utf-16" if charset == "utf-16" else charset)
    except (LookupError, UnicodeError):
        raw = body.encode("utf-8")
    kind = (cte or "").strip().lower()
    if kind == "quoted-printable":
        return quopri.encodestring(raw)
    if kind == "base64":
        return base64.encodebytes(raw)
    return raw


def single_part(
    body: str, ctype: str | None, charset: str, cte: str | None, disposition: str | None
) -> bytes:
    head = [
        "From: =?utf-8?q?J=C3=BCrgen?= Spieler <juergen@example.org>",
        "To: gm@gm.test",
        "Subject: Re: [hn1] Befehle =?iso-8859-1?q?f=FCr?= Runde 3",
        "Message-ID: <1.2@example.org>",
        "In-Reply-To: <game.hn1.3@gm.test>",
        "References: <game.hn1@gm.test>\n <game.hn1.3@gm.test>",
    ]
    if ctype is not None:
        head.append("Content-Type: " + ctype.format(cs=charset))
    if cte is not None:
        head.append("Content-Transfer-Encoding: " + cte)
    if disposition is not None:
        head.append("Content-Disposition: " + disposition)
    return "\n".join([*head, "", ""]).encode() + encoded(body, charset, cte)


def multipart(body: str, charset: str) -> bytes:
    plain = encoded(body, charset, "quoted-printable")
    html = encoded(HTML, charset, "base64")
    return (
        b"From: Egon <egon@example.org>\nSubject: x\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/alternative; boundary="b1"\n\n--b1\n'
        + f"Content-Type: text/plain; charset={charset}\n".encode()
        + b"Content-Transfer-Encoding: quoted-printable\n\n" + plain + b"\n--b1\n"
        + f"Content-Type: text/html; charset={charset}\n".encode()
        + b"Content-Transfer-Encoding: base64\n\n" + html + b"\n--b1--\n"
    )  # fmt: skip


def variants() -> list[bytes]:
    mails = [
        single_part(body, ctype, charset, cte, disposition)
        for body, ctype, charset, cte, disposition in itertools.product(
            BODIES.values(), TYPES, CHARSETS, ENCODINGS[:5], DISPOSITIONS[:2]
        )
    ]
    mails += [
        single_part(ORDERS, TYPES[0], "utf-8", cte, disposition)
        for cte, disposition in itertools.product(ENCODINGS, DISPOSITIONS)
    ]
    mails += [multipart(body, charset) for body in BODIES.values() for charset in CHARSETS]
    crlf = [mail.replace(b"\n", b"\r\n") for mail in mails[::7]]
    return mails + crlf


def test_generated_mails_decode_as_the_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    mails = variants()
    assert len(mails) > 3000
    quick, slow = quick_and_slow(mails, monkeypatch)
    for data, got, want in zip(mails, quick, slow, strict=True):
        assert got == want, data[:400]
    built = sum(same_message(data) for data in mails)
    assert built > len(mails) // 2
    assert any(got.text_from.startswith("attachment") for got in quick)
    assert any(got.encrypted for got in quick)


# --- header blocks -------------------------------------------------------------------------

NAMES = ["From", "Subject", "Content-Type", "content-type", "X-Loop", "Message-ID", "Received",
         "X-\u00e4", "From ", "Sub ject", "", ">From", "Auto-Submitted", "List-Id",
         "X-GM-Game"]  # fmt: skip
VALUES = ["Egon <egon@example.org>", "text/plain; charset=utf-8", "multipart/mixed; boundary=x",
          "message/rfc822", "text/html", "=?utf-8?q?J=C3=BCrgen?=", "Grüße", "", " ", "a:b",
          "<1@x.y>", "auto-replied", "\t", "x\ry"]  # fmt: skip
ENDS = ["\n", "\r\n", "\r", ""]
line = st.builds(
    lambda name, sep, value, end: f"{name}{sep}{value}{end}",
    st.sampled_from(NAMES) | st.text(max_size=4),
    st.sampled_from([": ", ":", " : ", "", ":\t"]),
    st.sampled_from(VALUES) | st.text(max_size=6),
    st.sampled_from(ENDS),
)
fold = st.builds(lambda lead, text, end: f"{lead}{text}{end}", st.sampled_from([" ", "\t", "  "]),
                 st.sampled_from(VALUES), st.sampled_from(ENDS))  # fmt: skip
blocks = st.builds(
    lambda lines, blank, body: "".join(lines) + blank + body,
    st.lists(line | fold, min_size=0, max_size=8),
    st.sampled_from(["\n", "\r\n", "\r", "", "\n\n"]),
    st.sampled_from(["GEHE NACH Saloon\n", "", "a\r\nb\rc\n", "Grüße\n", "From x\n"]),
)


@MANY
@given(blocks)
@example("From: a@b.de\nSubject: x\n\nGEHE NACH Saloon\n")
@example("From a@b.de Mon\nFrom: a@b.de\n\nx\n")  # the envelope line: the parser's
@example(" folded first\nFrom: a@b.de\n\nx\n")
@example("From: a@b.de\r\nSubject: \r\n\tx\r\n\r\nx\r\n")
@example("From: a@b.de\nContent-Type: multipart/mixed\n\nx\n")
@example("From: a@b.de\nContent-Type: Message/RFC822\n\nFrom: c@d.de\n\nx\n")
def test_header_blocks_read_as_the_parser(text: str) -> None:
    data = text.encode("utf-8", "surrogateescape")
    same_message(data)
    with pytest.MonkeyPatch.context() as patched:
        got = parse_incoming(data, OWN)
        use_slow_ways(patched)
        want = parse_incoming(data, OWN)
    assert got == want
