"""The decoder's shortcuts answer exactly what the slow ways they replace answer, for any input.

parse_incoming asks each MIME part once for its content type and parameters (``_Parts``),
reads a plain ``Name <addr>`` From: without getaddresses(), returns headers without "=?"
undecoded, keeps the parsed own address, and checks a sender's address with fewer steps. Each
shortcut is compared here with the slow way on generated input, and every corpus mail is
decoded with all shortcuts replaced by the slow ways (the code before them) and must give the
same ``Incoming``, field by field.
"""

from __future__ import annotations

import email
import re
from collections.abc import Callable, Iterator
from email.message import Message
from email.utils import getaddresses
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gm_daemon.mail import address, compose, message
from gm_daemon.mail.message import parse_incoming

TESTS = Path(__file__).parents[1]
MAILS = sorted(TESTS.glob("mail_corpus/*.eml")) + sorted(TESTS.glob("mail/fixtures/*.eml"))
OWN_ADDRESSES = ["Spielleiter <gm@gm.test>", "gm@gm.test", "", "Egon <egon@example.org>"]
MANY = settings(
    max_examples=500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# --- the slow ways, as the code read before the shortcuts ------------------------------------


def slow_decode_words(value: str) -> str:
    value = message._BETWEEN_WORDS.sub(r"\1", value)
    return message._ENCODED_WORD.sub(message._decode_word, value)


def slow_from_address(value: str) -> tuple[str, str]:
    found = slow_first_address(value)
    whole_word = any(
        "<" in message._decode_word(word) for word in message._ENCODED_WORD.finditer(value)
    )
    if found and "=?" not in found[0] and not whole_word:
        return found
    return slow_first_address(slow_decode_words(value)) or found or ("", "")


def slow_first_address(value: str) -> tuple[str, str] | None:
    for name, addr in getaddresses([value]):
        if "@" in addr:
            return message._one_line(addr).lower(), message._one_line(slow_decode_words(name))
    return None


def slow_address_problem(value: str) -> str | None:
    if not value:
        return "no sender address"
    if len(value) > 254:
        return f"address longer than 254 characters ({len(value)})"
    if any(ch.isspace() or not ch.isprintable() for ch in value):
        return "space or control character in the address"
    local, at, domain = value.rpartition("@")
    if not at or not local:
        return "no local part before the @"
    return address._local_problem(local) or slow_domain_problem(domain)


def slow_domain_problem(domain: str) -> str | None:
    short = address._short
    try:
        ascii_domain = domain.encode("idna").decode("ascii").lower()
    except (UnicodeError, ValueError):
        return f"domain {short(domain)} is not a valid host name"
    labels = ascii_domain.split(".")
    if len(labels) < 2:
        return f"domain {short(domain)} has no dot"
    label = re.compile(address._LABEL)
    if not all(label.fullmatch(part) for part in labels):
        return f"domain {short(domain)} has an empty label or a label with a bad character"
    if not address._TLD.fullmatch(labels[-1]):
        return f"domain {short(domain)} ends in {short(labels[-1])}, not a top-level domain"
    return None


def slow_is_own_message_id(message_id: str, domain: str) -> bool:
    own = rf"<(?:game\.[^<>@\s]+|[^<>@\s]*\.[0-9a-f]{{12}})@{re.escape(domain)}>"
    return re.fullmatch(own, message_id, re.IGNORECASE) is not None


class AskEveryTime(message._Parts):
    """``_Parts`` without its memory: every question goes to the email package again."""

    def get(self, part: Message, header: str, failobj: Any = None) -> Any:
        return part.get(header, failobj)

    def ctype(self, part: Message) -> str:
        return part.get_content_type()

    def param(
        self, part: Message, name: str, failobj: Any = None, header: str = "content-type"
    ) -> Any:
        return part.get_param(name, failobj, header=header)

    def charset(self, part: Message) -> str | None:
        return part.get_content_charset()

    def filename(self, part: Message) -> str:
        return message._filename(part, self)

    def attachment(self, part: Message) -> bool:
        return message._is_attachment(part, self)


# --- whole mails -----------------------------------------------------------------------------


def use_slow_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(message, "_Parts", AskEveryTime)
    monkeypatch.setattr(message, "_single_part", lambda data, parts: None)  # the parser's
    monkeypatch.setattr(message, "_plain_mail", lambda data, own: None)  # _Parts' way
    monkeypatch.setattr(message, "_plain_params", lambda value: None)
    monkeypatch.setattr(message, "_addresses", lambda value: getaddresses([value]))
    monkeypatch.setattr(message, "decode_words", slow_decode_words)
    monkeypatch.setattr(message, "_own_mail", message._OwnMail)
    monkeypatch.setattr(message, "address_problem", slow_address_problem)
    monkeypatch.setattr(message, "is_own_message_id", slow_is_own_message_id)
    monkeypatch.setattr(
        message, "_payload_bytes", lambda part, _parts: part.get_payload(decode=True)
    )


def test_every_corpus_mail_decodes_as_without_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(MAILS) >= 200
    cases = [(mail, own) for mail in MAILS for own in OWN_ADDRESSES]
    fast = [parse_incoming(mail.read_bytes(), own) for mail, own in cases]
    use_slow_ways(monkeypatch)
    slow = [parse_incoming(mail.read_bytes(), own) for mail, own in cases]
    for (mail, own), got, want in zip(cases, fast, slow, strict=True):
        assert got == want, (mail.name, own)
    assert sum(got.unreadable is None for got in fast) > 150  # most were read through


# --- each shortcut on generated input ----------------------------------------------------------

NAME_PIECES = [
    "Spieler", "1", "Müller", "Jürgen", "Dr.", "O'Brien", "Hans-Peter", "Σ", "日本", ".", ",",
    ";", ":", '"', "\\", "(", ")", "(Kommentar)", "<", ">", "@", "[", "]", "=?", "?=",
    "=?utf-8?q?M=C3=BCller?=", "=?utf-8?b?w7w=?=", "=?utf-8?q?a_<b@c.de>?=", " ", "  ", "\t",
    "\r\n ", "\n", "\u00a0", "\u3000", "\x00", "\x7f", "\x85", "\udcfc",
]  # fmt: skip
ADDRESSES = [
    "p1@players.test", "a.b@c.de", "x+y=z@sub.example.org", "ä@b.de", "a@b", "a..b@c.de",
    ".a@b.de", "a.@b.de", "a@b..c", "a@b.c.", "@b.de", "a@", "a@b@c.de", '"a b"@c.de',
    "a@[1.2.3.4]", "A@B.DE", "a@b.c d", "a(x)@b.de", "a @ b.de", "a@b.c\\d", "@a:b@c.de", "",
]  # fmt: skip
names = st.lists(st.sampled_from(NAME_PIECES) | st.text(max_size=4), max_size=6).map("".join)
addrs = st.sampled_from(ADDRESSES) | st.text(max_size=12)
space = st.sampled_from(["", " ", "  ", "\t", "\n ", "\u00a0"])
shaped_from = st.one_of(
    st.builds(lambda a, n, b, s, t: f"{a}{n}{s}<{b}>{t}", space, names, addrs, space, space),
    st.builds(lambda a, b, t: f"{a}{b}{t}", space, addrs, space),
    st.builds(lambda b, n: f"{b} ({n})", addrs, names),
    st.builds(lambda n, b, m, c: f"{n} <{b}>, {m} <{c}>", names, addrs, names, addrs),
)
from_values = (
    shaped_from
    | st.lists(st.sampled_from(NAME_PIECES + ADDRESSES), max_size=10).map("".join)
    | st.text(max_size=40)
)


@pytest.mark.parametrize(
    "value",
    [
        "Spieler 1 <p1@players.test>",
        "p1@players.test",
        "  Dr. Jürgen   Müller\t<j.mueller@example.org> ",
        "<p1@players.test>",
        "Hans<h@x.de>",
    ],
)
def test_plain_from_takes_the_shortcut(value: str) -> None:
    assert message._SIMPLE_FROM.fullmatch(value)
    assert message._addresses(value) == getaddresses([value])


SHAPES = ["{n} <{a}>", "{n}<{a}>", " {a} ", "{a} ({n})", "{n} <{a}>, {n} <p1@players.test>"]


def test_every_listed_name_and_address_reads_as_getaddresses() -> None:
    """Each listed piece in each shape, not left to chance."""
    for shape in SHAPES:
        for piece in NAME_PIECES:
            for addr in ADDRESSES:
                value = shape.format(n=f"Egon {piece}", a=addr)
                assert message._addresses(value) == getaddresses([value]), value
                assert message._from_address(value) == slow_from_address(value), value


@MANY
@given(from_values)
def test_from_shortcut_reads_as_getaddresses(value: str) -> None:
    assert message._addresses(value) == getaddresses([value])


@MANY
@given(from_values)
def test_sender_and_name_as_without_shortcuts(value: str) -> None:
    assert message._from_address(value) == slow_from_address(value)


words = st.lists(
    st.sampled_from(["=?", "?=", "=?utf-8?q?a_b?=", "=?utf-8?b?w7w=?=", "=?x?Q?=41?=", " ", "\t"])
    | st.sampled_from(["x", "ü", "?", "=", "q", "B", "\n"])
    | st.text(max_size=3),
    max_size=12,
).map("".join)


@MANY
@given(words | st.text())
def test_decode_words_shortcut_changes_nothing(value: str) -> None:
    assert message.decode_words(value) == slow_decode_words(value)


# --- part parameters ---------------------------------------------------------------------------

PARAM_NAMES = [
    "charset", "CHARSET", "name", "Name", "format", "delsp", "smime-type", "boundary", "filename",
    "charset*", "name*", "name*0", "name*1", "name*0*", "filename*", "filename*1*", "", " name ",
]  # fmt: skip
PARAM_VALUES = [
    "utf-8", '"utf-8"', "UTF-8", "utf-8''%C3%A4.txt", "iso-8859-1'de'%E4", "''x", "idna''x",
    "utf-16''x", "x\x00y''z", '"a;b"', '"unterminated', "", "flowed", "yes", "ü", "a\\\"b",
    "=?utf-8?q?=C3=A4?=.txt", "'", "utf\u00fc8''x", "raw-unicode-escape''%5Cu00e4", "us-ascii",
]  # fmt: skip
CTYPES = [
    "text/plain",
    "TEXT/HTML",
    "multipart/mixed",
    "text",
    "",
    "a/b/c",
    "application/pkcs7-mime",
]
ASKED = ["charset", "name", "filename", "format", "delsp", "smime-type", "NAME", "missing"]
parameter = st.builds(
    lambda n, e, v: f"{n}{e}{v}",
    st.sampled_from(PARAM_NAMES) | st.text(max_size=3),
    st.sampled_from(["=", " = ", "", "=="]),
    st.sampled_from(PARAM_VALUES) | st.text(max_size=6),
)
header_value = st.builds(
    lambda first, params, sep, tail: first + "".join(sep + p for p in params) + tail,
    st.sampled_from([*CTYPES, "attachment", "inline"]),
    st.lists(parameter, max_size=5),
    st.sampled_from(["; ", ";", " ;\n\t"]),
    st.sampled_from(["", ";", '"', "; \udcfc"]) | st.text(max_size=3),
)


def outcome(ask: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[str, Any]:
    """The answer, or the kind of exception (the decoder must fail at the same point)."""
    try:
        return "answer", ask(*args, **kwargs)
    except Exception as exc:
        return "raised", type(exc)


def same_answers(part: Message) -> None:
    parts = message._Parts()
    assert outcome(parts.ctype, part) == outcome(part.get_content_type)
    assert outcome(parts.maintype, part) == outcome(part.get_content_maintype)
    for header in ("content-type", "content-disposition", "x-missing"):
        for name in ASKED:
            for failobj in (None, ""):
                got = outcome(parts.param, part, name, failobj, header=header)
                want = outcome(part.get_param, name, failobj, header=header)
                assert got == want, (header, name)
    assert outcome(parts.charset, part) == outcome(part.get_content_charset)
    for header in ("content-type", "content-disposition", "content-transfer-encoding", "x-a"):
        for failobj in (None, ""):
            got, want = (
                outcome(parts.get, part, header, failobj),
                outcome(part.get, header, failobj),
            )
            assert got == want or str(got[1]) == str(want[1]), header  # a Header is a new one
    if not part.is_multipart():
        got = outcome(message._payload_bytes, part, parts)
        assert got == outcome(part.get_payload, decode=True)


@MANY
@given(header_value, st.none() | header_value)
@example("multipart/mixed; name*=utf-8; name*0=utf-8", None)  # the package's own TypeError
@example("text/plain; charset=utf-8; name*=a; name*0=b", None)
def test_part_questions_answered_as_the_email_package(ctype: str, disposition: str | None) -> None:
    head = f"Content-Type: {ctype}\n"
    if disposition is not None:
        head += f"Content-Disposition: {disposition}\n"
    data = head.encode("utf-8", "surrogateescape") + b"\nx\n"
    try:
        part = email.message_from_bytes(data)
    except Exception:
        # The email package itself chokes on some parameter lists (``name*=a; name*0=b`` mixes
        # a plain and a numbered continuation). No part question is then ever asked: the
        # decoder sets the mail aside with a reason instead of failing the intake.
        incoming = parse_incoming(b"From: p@example.org\n" + data, "gm@gm.test")
        assert incoming.unreadable and incoming.sender == "p@example.org"
        return
    same_answers(part)


def walk(msg: Message) -> Iterator[Message]:
    yield msg
    payload = msg.get_payload() if msg.is_multipart() else None
    for sub in payload if isinstance(payload, list) else ():
        if isinstance(sub, Message):
            yield from walk(sub)


@pytest.mark.parametrize("mail", MAILS, ids=lambda mail: mail.stem)
def test_corpus_parts_answered_as_the_email_package(mail: Path) -> None:
    try:
        msg = email.message_from_bytes(mail.read_bytes())
    except RecursionError:  # too deep for the email package; parse_incoming sets it aside
        return
    for part in walk(msg):
        same_answers(part)


# --- sender address, own Message-ID --------------------------------------------------------------

LOCALS = ["p1", "a.b", "ä", "a..b", "", '"a b"', "a b", "x" * 65, "a\x00", "a\u00a0b", "a@b"]
LABELS = [
    "a", "de", "com", "xn--bcher-kva", "b-", "-b", "", "ä", "A", "1", "c0m", "xn--", "x" * 63,
    "x" * 64, "a_b", " ", "\u3000", "xn--a-",
]  # fmt: skip
domains = st.lists(st.sampled_from(LABELS) | st.text(max_size=3), max_size=5).map(".".join)
sender_addresses = st.builds(
    lambda loc, dom: f"{loc}@{dom}", st.sampled_from(LOCALS) | st.text(max_size=5), domains
) | st.text(max_size=20)


@MANY
@given(sender_addresses)
def test_address_problem_as_before(value: str) -> None:
    assert address.address_problem(value) == slow_address_problem(value)


def test_space_is_the_only_printable_white_space() -> None:
    """What the address check's ``" " in address or not address.isprintable()`` relies on."""
    for code in range(0x110000):
        char = chr(code)
        assert (char.isspace() or not char.isprintable()) == (
            char == " " or not char.isprintable()
        ), hex(code)


@MANY
@given(
    st.sampled_from(["<game.hn1@gm.test>", "<x.0123456789ab@GM.TEST>", "<a@gm.test>", ""])
    | st.text(max_size=30),
    st.sampled_from(["gm.test", "GM.test", "a.b+c", "", "x(y)"]) | st.text(max_size=6),
)
def test_own_message_id_as_before(message_id: str, domain: str) -> None:
    assert compose.is_own_message_id(message_id, domain) == slow_is_own_message_id(
        message_id, domain
    )


TRANSFER_ENCODINGS = ["", "7bit", "8bit", "binary", "8BIT", " 8bit", "base64", "Base64",
    "quoted-printable", "x-uuencode", "uue", "bogus", "=?utf-8?q?8bit?=", "8bit\udcfc"]  # fmt: skip
PAYLOAD_PIECES = ["Code: X-1\n", "Gruß", "\r\n", "=C3=9F", "w7w=", "begin 644 a\n", "\x00", "日本"]


@MANY
@given(
    st.sampled_from(TRANSFER_ENCODINGS),
    st.lists(st.sampled_from(PAYLOAD_PIECES) | st.text(max_size=4), max_size=6).map("".join),
    st.sampled_from(["utf-8", "latin-1", "ascii"]),
    st.booleans(),
)
def test_payload_bytes_as_the_email_package(
    cte: str, text: str, encoding: str, parsed: bool
) -> None:
    """``_payload_bytes`` against ``get_payload(decode=True)``: on a part parsed from bytes
    (the payload ASCII with surrogate escapes) and on one given a text payload directly."""
    try:
        body = text.encode(encoding)
    except UnicodeEncodeError:
        body = text.encode("utf-8", "surrogatepass")
    head = b"Content-Transfer-Encoding: " + cte.encode("utf-8", "surrogateescape") + b"\n"
    if parsed:
        part = email.message_from_bytes(head + b"\n" + body)
    else:
        part = Message()
        part["Content-Transfer-Encoding"] = cte
        part.set_payload(text)
    parts = message._Parts()
    got = outcome(message._payload_bytes, part, parts)
    assert got == outcome(part.get_payload, decode=True)


def test_header_values_are_remembered_only_when_short() -> None:
    """From:, a sender's address problem and the Content-Type's decoding are remembered by
    value for short values only (no sender makes the daemon keep megabytes), and a
    remembered answer is the one worked out anew."""
    short = "Anna Beispiel <anna@example.org>"
    long = "Anna " + "B" * 300 + " <anna@example.org>"
    kept = message._from_address.cache_info().currsize
    assert message._from_address(short) == ("anna@example.org", "Anna Beispiel")
    assert message._from_address(short) == ("anna@example.org", "Anna Beispiel")
    assert message._from_address(long) == ("anna@example.org", "Anna " + "B" * 300)
    assert message._from_address.cache_info().currsize <= kept + 1
    for ctype in ('text/plain; charset="utf-8"; format=flowed; delsp=yes', "text/html", None):
        assert message._plain_form(ctype) == message._plain_form(ctype)
    assert message._plain_form('text/plain; charset="utf-8"; format=flowed; delsp=yes') == (
        "utf-8",
        True,
        True,
    )
    padded = "text/plain;" + " " * 300 + "charset=latin1"
    before = message._plain_form.cache_info().currsize
    assert message._plain_form(padded) == ("latin1", False, False)
    assert message._plain_form.cache_info().currsize == before
    assert message._plain_form(None) == ("us-ascii", False, False)
    assert message._plain_form("image/png") is None
    assert message._plain_form("text/plain; name=orders.txt") is None
