"""Pure decoding of incoming mail: headers, loop guard, the body as plain text, order lines.

Players write from every mail client there is, so everything here is lenient: a broken
charset, a missing boundary or a garbage header degrades the result but never raises. The
daemon must be able to answer (or deliberately ignore) any message it stored.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import email
import email.utils
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from email._policybase import compat32
from email.message import Message
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from functools import lru_cache
from typing import Any, NamedTuple, TypeVar

from gm_daemon.games.protocol import Line
from gm_daemon.mail.address import address_problem
from gm_daemon.mail.armour import strip_armour
from gm_daemon.mail.compose import is_own_message_id
from gm_daemon.patterns import on_first_use


class Incoming(NamedTuple):
    """The parts of a mail the daemon acts on.

    ``automated`` is None for a human mail, else the reason it must never be answered
    (answering auto-replies and bounces makes loops). ``sender_problem`` is None when
    ``sender`` is a plain mailbox the daemon may write to, else why it may not (no answer, not
    even "unknown sender"). ``unreadable`` is None when the MIME structure could be read, else
    why not: the mail is kept raw and set aside, ``text`` and ``text_from`` are empty, and the
    header fields hold what could be read. ``text_from`` says where ``text`` was taken from:
    "body", or "attachment NAME" when the body was only a cover note for an attached text
    file. ``encrypted`` is None, or how the mail was encrypted ("S/MIME", "PGP"): such a
    mail cannot be read, and when nothing else in it can, the sender is told so."""

    message_id: str | None
    sender: str
    display_name: str
    subject: str
    in_reply_to: str | None
    references: tuple[str, ...]
    automated: str | None
    text: str
    sender_problem: str | None = None
    unreadable: str | None = None
    text_from: str = "body"
    encrypted: str | None = None


# Legitimate mail nests a few levels (signed → alternative → related); a forwarded forward
# maybe ten. Far deeper structures exist only to exhaust a parser.
MAX_DEPTH = 32
MAX_PARTS = 1000
# Rendering HTML costs up to a second per megabyte (per tag, really); orders stand at the top
# of a mail, and 300 kB of HTML is already a long Outlook thread.
MAX_HTML = 300_000
# The parser's cost grows with the square of nested boundaries (each line is checked against
# every open one), so a mail declaring hundreds is refused before it is parsed.
MAX_BOUNDARIES = 200


def parse_incoming(data: bytes, own_address: str) -> Incoming:
    """Decode one raw message. Never raises: junk input yields empty fields and, when the
    structure itself is broken, an ``unreadable`` reason; the daemon stores whatever it got."""
    try:
        return _parse(data, own_address)
    except Exception as exc:  # a decoder bug must cost one mail, never the whole intake
        return _unparsed(data, f"decoder error: {type(exc).__name__}")


def _parse(data: bytes, own_address: str) -> Incoming:
    own = _own_mail(own_address)
    plain = _plain_mail(data, own)
    if plain is not None:
        return plain
    parts = _Parts()
    msg, unreadable = _message(data, parts)
    headers = _Headers(msg, parts)
    sender, display_name = _from_address(headers.raw("from"))
    content = msg if unreadable else _opened(msg, parts)
    text, text_from, inline_pgp = "", "", False
    if not unreadable:
        text, text_from, inline_pgp = _order_text(content, display_name, parts)
    subject = _one_line(headers.get("subject"))
    message_id = _first_msgid(headers.get("message-id"))
    return _incoming(
        headers,
        message_id,
        sender,
        display_name,
        subject,
        automated=_automated(headers, message_id, sender, own, msg, parts)
        or (None if unreadable else own.forwarded_back(subject, text, content, parts)),
        text=text,
        unreadable=unreadable,
        text_from=text_from,
        encrypted=None if unreadable else _encryption(content, inline_pgp, parts),
    )


def _incoming(
    headers: _Headers,
    message_id: str | None,
    sender: str,
    display_name: str,
    subject: str,
    *,
    automated: str | None,
    text: str,
    unreadable: str | None = None,
    text_from: str = "body",
    encrypted: str | None = None,
) -> Incoming:
    """The decoded mail, its header fields read the same way whichever way the body was
    (``message_id``: ``_first_msgid`` of its Message-ID, which ``_automated`` reads too)."""
    return Incoming(
        message_id=message_id,
        sender=sender,
        display_name=display_name,
        subject=subject,
        in_reply_to=_first_msgid(headers.get("in-reply-to")),
        references=tuple(_MSGID.findall(headers.get("references"))),
        automated=automated,
        text=text,
        sender_problem=_sender_problem(sender),
        unreadable=unreadable,
        text_from=text_from,
        encrypted=encrypted,
    )


def _unparsed(data: bytes, reason: str) -> Incoming:
    """What can be salvaged when decoding failed: who sent it, for the GM's log."""
    try:
        headers = _Headers(_header_block(data))
        sender, name = _from_address(headers.raw("from"))
        message_id = _first_msgid(headers.get("message-id"))
    except Exception:  # the headers themselves are what broke the decoder
        sender, name, message_id = "", "", None
    problem = address_problem(sender)
    return Incoming(message_id, sender, name, "", None, (), None, "", problem, reason, "")


def _message(data: bytes, parts: _Parts | None = None) -> tuple[Message, str | None]:
    """The parsed message and why its body cannot be read (None when it can). A structure the
    parser chokes on still yields its headers, so the daemon can log who sent it. ``parts``:
    the mail's, which keeps the content type worked out for a single part."""
    if data.lower().count(b"boundary") > MAX_BOUNDARIES:
        return _header_block(data), f"more than {MAX_BOUNDARIES} MIME boundaries declared"
    single = _single_part(data, parts or _Parts())
    if single is not None:
        return single, None  # one part: no structure to be too deep or too large
    try:
        msg = email.message_from_bytes(data)
    except RecursionError:
        return _header_block(data), "MIME parts nested too deep to parse"
    except Exception as exc:  # the email package is lenient; this is the last guard
        return _header_block(data), f"MIME structure cannot be parsed ({type(exc).__name__})"
    return msg, _structure_problem(msg)


def _header_block(data: bytes) -> Message:
    return BytesHeaderParser().parsebytes(data)


# A header block in its plain form: every line a field ("Name: value", the name in the
# characters the email package's parser takes for one) or the continuation of one, each
# ended by "\n" or "\r\n", then an empty line. No "From " envelope line, no line the parser
# would take for the start of the body, no lone "\r" (a line end to the parser).
_FIELD = r"[\x21-\x39\x3b-\x7e]+:[^\r\n]*\r?\n(?:[ \t][^\r\n]*\r?\n)*"
_PLAIN_HEAD = re.compile(rf"(?:{_FIELD})+\r?\n")
# Each field's name and its value as the parser keeps it: the blanks before it and the last
# line end left out of the group, the folds inside it.
_FIELDS = re.compile(r"([\x21-\x39\x3b-\x7e]+):[ \t]*([^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)\r?\n")


def _plain_head(text: str) -> tuple[int, list[tuple[str, str]]] | None:
    """Where a header block of the plain form ends, and its fields (name as written, value
    as the parser keeps it); None when it has not that form or names a multipart or
    message type anywhere (a mere mention is enough: the parser is never wrong). The
    text is ASCII and surrogate escapes, whose lower case is ASCII's: the names are
    looked for in it as they stand (a case-blind pattern's search cost ~30 k
    instructions a mail)."""
    head = _PLAIN_HEAD.match(text)
    if head is None:
        return None
    end = head.end()
    lowered = text[:end].lower()
    if "multipart/" in lowered or "message/" in lowered:
        return None
    return end, _FIELDS.findall(text, 0, end)  # what Message.set_raw appends


def _single_part(data: bytes, parts: _Parts) -> Message | None:
    """The message the email package's parser makes of ``data``, built directly when the
    header block has the plain form and the type is neither multipart nor message (nearly
    every order mail), else None. The parser reads such a mail line by line, asks its
    content type five times and joins the body's lines again: ~30 µs of a 40 µs parse.

    What the parser would make of it: each field's name as written and its value as
    ``Compat32.header_source_parse`` gives it (leading blanks of the first line off, the
    folds kept, the last line end off), in order, and the rest of the text as the payload,
    all decoded as ASCII with surrogate escapes. tests/mail/test_single_part.py compares the
    two on every corpus mail and on generated header blocks."""
    text = data.decode("ascii", "surrogateescape")
    plain = _plain_head(text)
    if plain is None:
        return None
    end, msg = plain[0], Message()
    msg._headers = plain[1]
    if parts.maintype(msg) in ("multipart", "message"):
        return None  # parts of their own: the parser's work
    msg._payload = text[end:]  # the parser's set_payload of a str
    return msg


def _plain_mail(data: bytes, own: _OwnMail) -> Incoming | None:
    """The decoded mail, read straight from its text when it is what nearly every order
    mail is: one text/plain part (a plain header block, no Content-Disposition, no name,
    plain parameters in ASCII, no transfer encoding that needs decoding); else None, and
    the way through ``Message`` and ``_Parts`` decodes it. That way asks the one part some
    twenty questions (content type, parameters, attachment, charset, transfer encoding,
    structure for S/MIME, reports, attached and encrypted parts): a third of a plain mail's
    decoding. Here each has its answer for such a part at once, from the same helpers.
    tests/mail/test_single_part.py holds it to the slow way on every corpus mail and on
    generated ones."""
    if data.lower().count(b"boundary") > MAX_BOUNDARIES:
        return None  # unreadable: _message's answer
    plain = _plain_head(data.decode("ascii", "surrogateescape"))
    if plain is None:
        return None
    end, first = plain[0], _first_fields(plain[1])
    form = _plain_form(first.get("content-type"))
    if (
        form is None
        or "content-disposition" in first
        or not _taken_as_is(first.get("content-transfer-encoding", ""))
    ):
        return None  # an attachment, or a payload to decode: _Parts and the package
    charset, flowed, delsp = form
    body = decode_bytes(data[end:], charset)
    if body.count("\n") >= MAX_LINES:  # as _plain_text reads it
        body, _ = _first_lines(body)
    if flowed:
        body = unflow(body, delsp=delsp)
    body = _tidy(body)
    text = strip_armour(body)
    headers = _Headers.of(first)
    sender, display_name = _from_address(headers.raw("from"))
    subject = _one_line(headers.get("subject"))
    message_id = _first_msgid(headers.get("message-id"))
    return _incoming(
        headers,
        message_id,
        sender,
        display_name,
        subject,
        automated=_automated(headers, message_id, sender, own) or own.forwarded_back(subject, text),
        text=text,
        encrypted="PGP" if _PGP_MESSAGE in body else None,
    )


def _first_fields(fields: list[tuple[str, str]]) -> dict[str, str]:
    """Each (lower-case) name's first value, as ``_Parts._first`` finds it."""
    first: dict[str, str] = {}
    for name, value in fields:
        first.setdefault(name.lower(), value)
    return first


_S = TypeVar("_S", bound=str | None)
_T = TypeVar("_T")
# Header values up to this long have their answers remembered (``_kept_for_short``); a longer
# one is worked out each time, so that no sender can make the daemon keep megabytes.
_REMEMBERED_LENGTH = 256


def _kept_for_short(function: Callable[[_S], _T], maxsize: int) -> Callable[[_S], _T]:
    """``function`` of a header value (or None), its answers for short values remembered
    (``lru_cache``): a client writes its Content-Type, a player's his From:, alike in mail
    after mail, and each answer depends on the value alone and is immutable."""
    kept = lru_cache(maxsize=maxsize)(function)

    def answer(value: _S) -> _T:
        if value is None or len(value) <= _REMEMBERED_LENGTH:
            return kept(value)
        return function(value)

    answer.cache_info = kept.cache_info  # type: ignore[attr-defined]  # for the tests
    return answer


def _plain_form(content_type: str | None) -> tuple[str, bool, bool] | None:
    """How ``_plain_mail`` decodes the body of a text/plain part with this Content-Type
    (None: without one): its charset as ``get_content_charset()`` reads it (else us-ascii),
    whether format=flowed, whether delsp=yes (a tuple: a class would cost the start more
    than all the mails of a burst save by it). None for another type, a parameter not in
    the plain form, or a name (an attachment)."""
    params = [] if content_type is None else _plain_type(content_type)
    if params is None or _param(params, "name", None) is not None:
        return None
    return (
        _charset(_param(params, "charset", _UNSET)) or "us-ascii",
        str(_param(params, "format", "")).lower() == "flowed",
        str(_param(params, "delsp", "")).lower() == "yes",
    )


def _taken_as_is(cte: str) -> bool:
    """Whether a payload of this Content-Transfer-Encoding is taken as it stands."""
    return (
        cte.isascii() and cte.strip().lower() != "base64" and cte.lower() not in _TRANSFER_DECODED
    )


_plain_form = _kept_for_short(_plain_form, 256)
_taken_as_is = _kept_for_short(_taken_as_is, 64)


def _plain_type(value: str) -> list[tuple[str, Any]] | None:
    """The parameters of a text/plain Content-Type in the plain form and in ASCII, as
    ``_Parts.param`` reads them; None for any other type or form."""
    if not value.isascii():
        return None  # the package makes a Header of it
    ctype = value.partition(";")[0].strip().lower()  # as _Parts.ctype
    if ctype != "text/plain" and ctype.count("/") == 1:
        return None  # (an invalid type is text/plain)
    return _plain_params(value)


def _structure_problem(msg: Message) -> str | None:
    """Walked with an explicit stack: recursion is what a hostile structure attacks."""
    stack = [(msg, 0)]
    seen = 0
    while stack:
        part, depth = stack.pop()
        seen += 1
        if depth > MAX_DEPTH:
            return f"MIME parts nested deeper than {MAX_DEPTH} levels"
        if seen > MAX_PARTS:
            return f"more than {MAX_PARTS} MIME parts"
        if part.is_multipart():  # a leaf's get_payload() would decode it, for nothing
            payload = part.get_payload()
            stack.extend((sub, depth + 1) for sub in payload if isinstance(sub, Message))
    return None


# --- what the parts say about themselves ---------------------------------------------------

_UNSET: Any = object()


class _Parts:
    """Each MIME part's content type, parameters and attachment status, worked out once per
    mail. The S/MIME opener, the body and attachment searches, the loop guard and the
    encryption check all ask the same parts, and the email package parses the header anew for
    every question (~5 µs each; a text/plain order mail asked eight times, 45 of its 140 µs).

    Answers are memoised, not computed ahead: each is first worked out exactly where it was
    asked for, so an exception from a hostile header still comes at the same point. Parts are
    keyed by identity (``Message`` has no ``__eq__``) and are never changed after parsing; the
    dicts hold them, so no id is reused while the cache lives (one mail)."""

    def __init__(self) -> None:
        self._ctype: dict[Message, str] = {}
        self._params: dict[tuple[Message, str], list[tuple[str, Any]] | None] = {}
        self._filename: dict[Message, str] = {}
        self._attachment: dict[Message, bool] = {}
        self._fields: dict[Message, dict[str, tuple[str, Any]]] = {}

    def _first(self, part: Message) -> dict[str, tuple[str, Any]]:
        """Each (lower-case) header name's first field, as ``Message.get`` finds it: the
        package lowers every header name again for every question."""
        fields = self._fields.get(part)
        if fields is None:
            fields = self._fields[part] = {}
            for name, value in part.raw_items():
                fields.setdefault(name.lower(), (name, value))
        return fields

    def has(self, part: Message, header: str) -> bool:
        """Whether the part has the (lower-case) header at all."""
        return header in self._first(part)

    def get(self, part: Message, header: str, failobj: Any = None) -> Any:
        """``part.get(header, failobj)`` for a lower-case ``header``. An ASCII text under
        the package's default policy (``compat32``, which every part parsed here has) is
        what ``header_fetch_parse`` gives back unchanged: only surrogate escapes (raw 8-bit
        bytes) make it a ``Header``; that answer is given at once (three calls a question,
        eight questions a mail)."""
        field = self._first(part).get(header)
        if field is None:
            return failobj
        value = field[1]
        if value.__class__ is str and value.isascii() and part.policy is compat32:
            return value
        return part.policy.header_fetch_parse(*field)

    def ctype(self, part: Message) -> str:
        """``part.get_content_type()``, the same steps from the field found once."""
        ctype = self._ctype.get(part)
        if ctype is None:
            value = self.get(part, "content-type", _UNSET)
            if value is _UNSET:
                ctype = part.get_default_type()
            else:
                ctype = str(value).partition(";")[0].strip().lower()
                if ctype.count("/") != 1:  # RFC 2045: an invalid type is text/plain
                    ctype = "text/plain"
            self._ctype[part] = ctype
        return ctype

    def maintype(self, part: Message) -> str:
        """``part.get_content_maintype()``, which is the content type's first half."""
        return self.ctype(part).split("/")[0]

    def param(
        self, part: Message, name: str, failobj: Any = None, header: str = "content-type"
    ) -> Any:
        """``part.get_param(name, failobj, header)``: the first parameter of that name, from
        the header's parameters parsed once (``get_params`` unquotes just as ``get_param``)."""
        key = (part, header)
        params = self._params.get(key, _UNSET)
        if params is _UNSET:  # get_params gives None for a missing header, too
            value = self.get(part, header, _UNSET)
            if value is _UNSET:
                params = None
            else:
                params = _plain_params(value) or part.get_params(header=header)
            self._params[key] = params
        return failobj if params is None else _param(params, name, failobj)

    def charset(self, part: Message) -> str | None:
        """``part.get_content_charset()``, step by step as the email package does it, but
        from the parameters parsed once."""
        return _charset(self.param(part, "charset", _UNSET))

    def filename(self, part: Message) -> str:
        """The attachment's file name (Content-Disposition, else Content-Type's name), or ""."""
        name = self._filename.get(part)
        if name is None:
            name = self._filename[part] = _filename(part, self)
        return name

    def attachment(self, part: Message) -> bool:
        """Whether the part is an attachment: so declared, or it has a file name."""
        attached = self._attachment.get(part)
        if attached is None:
            attached = self._attachment[part] = _is_attachment(part, self)
        return attached


def _param(params: Sequence[tuple[str, Any]], name: str, failobj: Any) -> Any:
    """The first parameter of that name, as ``Message.get_param`` finds it."""
    wanted = name.lower()
    for found, value in params:
        if found.lower() == wanted:
            return value
    return failobj


def _charset(charset: Any) -> str | None:
    """``get_content_charset()`` from the charset parameter (``_UNSET``: none)."""
    if charset is _UNSET:
        return None
    if isinstance(charset, tuple):  # RFC 2231 (charset, language, value)
        pcharset = charset[0] or "us-ascii"
        try:
            charset = str(charset[2].encode("raw-unicode-escape"), pcharset)
        except (LookupError, UnicodeError):
            charset = charset[2]
    try:
        charset.encode("us-ascii")
    except UnicodeError:
        return None
    return str(charset.lower())


# A header value's parameters in their plain form: a value such as "text/plain" or
# "attachment", then "; name=value" pairs, each value a token or a quoted string without
# backslashes, semicolons or angle brackets, blanks and folds around them; no RFC 2231 names
# (with "*"). For these, ``get_params`` gives the first value as it stands with "", and each
# name lower-cased with its value unquoted: its splitting, unquoting, quoting again and
# unquoting again change nothing else (``_Parts.param`` is held to the package's answers
# in tests/mail/test_decode_shortcuts.py).
_BLANK = r"[ \t\r\n]*"
_TOKEN = r"[A-Za-z0-9!#$%&'+.^_`{|}~-]+"
_VALUE = r"[A-Za-z0-9!#$%&'*+.^_`{|}~/:?@=-]+|\"[^\"\\;<>\r\n]*\""
_PARAM = rf";{_BLANK}({_TOKEN}){_BLANK}={_BLANK}({_VALUE}){_BLANK}"
_PLAIN_PARAMS = re.compile(rf"{_BLANK}([A-Za-z0-9!#$%&'*+.^_`{{|}}~/-]+){_BLANK}((?:{_PARAM})*)")
_ONE_PARAM = re.compile(_PARAM)


def _plain_params(value: Any) -> list[tuple[str, Any]] | None:
    """``Message.get_params`` of a header value in the plain form, else None."""
    found = _PLAIN_PARAMS.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        return None
    params: list[tuple[str, Any]] = [(found.group(1), "")]
    for name, quoted in _ONE_PARAM.findall(found.group(2)):
        unquoted = quoted[1:-1] if quoted.startswith('"') else quoted
        params.append((name.lower(), unquoted))
    return params


# --- S/MIME --------------------------------------------------------------------------------

_PKCS7_MIME = frozenset({"application/pkcs7-mime", "application/x-pkcs7-mime"})
_PGP_MESSAGE = "-----BEGIN PGP MESSAGE-----"
MAX_OPAQUE = 4  # opaque-signed entities opened per mail (signed, then signed again …)


def _opened(msg: Message, parts: _Parts) -> Message:
    """The message with each opaque-signed S/MIME part replaced by the MIME entity it signs
    (see smime.py; the signature is not checked). The outer message keeps its headers; a
    part whose content cannot be read (no SignedData, a structure over the limits) stays as
    it is, an attachment nobody reads."""
    if not msg.is_multipart() and parts.ctype(msg) not in _PKCS7_MIME:
        return msg  # nothing to open: a plain mail of one part
    opened = 0

    def open_part(part: Message) -> Message | None:
        nonlocal opened
        if opened >= MAX_OPAQUE or parts.ctype(part) not in _PKCS7_MIME:
            return None
        if str(parts.param(part, "smime-type", "")).lower() not in ("", "signed-data"):
            return None
        from gm_daemon.mail.smime import signed_content  # S/MIME mails are rare: on first use

        payload = part.get_payload(decode=True)
        inner = signed_content(payload) if isinstance(payload, bytes) else None
        if inner is None:
            return None
        entity, problem = _message(inner, parts)
        if problem is not None:
            return None
        opened += 1
        return entity

    root = msg
    while (inner := open_part(root)) is not None:
        root = inner
    stack = [root]
    while stack:
        part = stack.pop()
        payload = part.get_payload() if part.is_multipart() else None
        if not isinstance(payload, list) or parts.maintype(part) == "message":
            continue
        for index, sub in enumerate(payload):
            if not isinstance(sub, Message):
                continue
            while (inner := open_part(sub)) is not None:
                payload[index] = sub = inner
            stack.append(sub)
    return root


def _encryption(msg: Message, inline_pgp: bool, parts: _Parts) -> str | None:
    """How the mail's own content is encrypted: "S/MIME" (EnvelopedData), "PGP" (PGP/MIME,
    or ``inline_pgp``: a PGP MESSAGE block in the text), else None. Attached messages do not
    count: a forwarded encrypted mail is not the sender's own."""
    if inline_pgp:
        return "PGP"
    for part in _all_parts(msg, parts):
        ctype = parts.ctype(part)
        if ctype == "multipart/encrypted":
            return "PGP"
        if ctype in _PKCS7_MIME:
            kind = str(parts.param(part, "smime-type", "")).lower()
            if kind in ("enveloped-data", "authenveloped-data"):
                return "S/MIME"
            from gm_daemon.mail.smime import ENCRYPTED, content_type  # as in _opened

            payload = part.get_payload(decode=True) if not kind else None
            if isinstance(payload, bytes) and content_type(payload) in ENCRYPTED:
                return "S/MIME"  # Outlook's x-pkcs7-mime often names no smime-type
    return None


def _all_parts(msg: Message, parts: _Parts) -> Iterator[Message]:
    """Every part, multiparts included, not descending into attached messages."""
    yield msg
    payload = msg.get_payload() if msg.is_multipart() else None
    if isinstance(payload, list) and parts.maintype(msg) != "message":
        for sub in payload:
            if isinstance(sub, Message):
                yield from _all_parts(sub, parts)


# --- headers -------------------------------------------------------------------------------


class _Headers:
    """First occurrence of each header, decoded to text (raw 8-bit and RFC 2047 words).

    ``Message.raw_items`` is used instead of ``msg[name]`` because the compat32 API turns
    8-bit header bytes into ``Header`` objects that lose the text."""

    def __init__(self, msg: Message, parts: _Parts | None = None) -> None:
        """``parts``: the mail's, which then need not find the message's fields again."""
        fields = (parts or _Parts())._first(msg)
        self._raw: dict[str, str] = {
            key: value if isinstance(value, str) else str(value)
            for key, (_name, value) in fields.items()
        }

    @classmethod
    def of(cls, first: dict[str, str]) -> _Headers:
        """From each (lower-case) name's first value as the parser keeps it
        (``_first_fields``): what ``__init__`` finds in a message made of them."""
        headers = cls.__new__(cls)
        headers._raw = first
        return headers

    def has(self, name: str) -> bool:
        return name in self._raw

    def any_of(self, names: frozenset[str]) -> bool:
        """Whether any of the (lower-case) ``names`` is present."""
        return not names.isdisjoint(self._raw)

    def raw(self, name: str) -> str:
        """Header text with 8-bit bytes decoded but encoded words left alone (for addresses)."""
        value = self._raw.get(name)
        return "" if value is None else _unsurrogate(value)  # most asked for are missing

    def get(self, name: str) -> str:
        value = self._raw.get(name)
        return "" if value is None else decode_words(_unsurrogate(value))


def _unsurrogate(value: str) -> str:
    """The parser keeps raw 8-bit header bytes as surrogate escapes; decode them properly
    (RFC 6532 says UTF-8, old clients send Latin-1)."""
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        raw = value.encode("utf-8", "surrogateescape")
        return decode_bytes(raw, "utf-8")


_ENCODED_WORD = on_first_use(r"=\?([^?\s]+)\?([QqBb])\?([^?\s]*)\?=")
_BETWEEN_WORDS = on_first_use(r"(=\?[^?\s]+\?[QqBb]\?[^?\s]*\?=)\s+(?==\?[^?\s]+\?[QqBb]\?)")


def decode_words(value: str) -> str:
    """Decode RFC 2047 encoded words; whitespace between two adjacent words is dropped."""
    if "=?" not in value:  # both patterns start with it: nearly every header is done here
        return value
    value = _BETWEEN_WORDS.sub(r"\1", value)
    return _ENCODED_WORD.sub(_decode_word, value)


def _decode_word(match: re.Match[str]) -> str:
    charset = match.group(1).split("*", 1)[0]  # RFC 2231 language suffix
    payload = match.group(3)
    if match.group(2) in "Qq":
        raw = _q_decode(payload)
    else:
        try:
            raw = base64.b64decode(payload + "=" * (-len(payload) % 4), validate=True)
        except (binascii.Error, ValueError):
            return match.group(0)
    return decode_bytes(raw, charset)


def _q_decode(payload: str) -> bytes:
    """RFC 2047 "Q": like quoted-printable, with "_" for a space; bad escapes stay literal."""
    text = payload.replace("_", " ").encode("ascii", "replace")
    return re.sub(rb"=([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), text)


_MSGID = re.compile(r"<[^<>\s\x00-\x1f\x7f]+>")
_NOT_IN_MSGID = re.compile(r"[<>\s\x00-\x1f\x7f]")


def _first_msgid(value: str) -> str | None:
    """The first ``<id>``; an id written without brackets (old scripts, some list servers),
    possibly folded over two lines, is unfolded and bracketed, so it can be stored, compared
    and put into In-Reply-To without carrying a line break into a header."""
    found = _MSGID.search(value)
    if found:
        return found.group(0)
    bare = _NOT_IN_MSGID.sub("", value)
    return f"<{bare}>" if bare else None


def _from_address(value: str) -> tuple[str, str]:
    """The first real address of From: as (lower-cased address, decoded display name).

    Normally the address is found before decoding, so an encoded comma in the name cannot
    split it; old scripts encode the whole ``Name <addr>`` as one word, and then the address
    only appears after decoding."""
    found = _first_address(value)
    whole_word = "=?" in value and any(
        "<" in _decode_word(word) for word in _ENCODED_WORD.finditer(value)
    )
    if found and "=?" not in found[0] and not whole_word:
        return found
    return _first_address(decode_words(value)) or found or ("", "")


_from_address = _kept_for_short(_from_address, 4096)
_sender_problem = _kept_for_short(address_problem, 4096)


def _first_address(value: str) -> tuple[str, str] | None:
    for name, addr in _addresses(value):
        if "@" in addr:
            return _one_line(addr).lower(), _one_line(decode_words(name))
    return None


# What nearly every From: is: "addr@host" or "Name Words <addr@host>", on one line, with no
# quotes, comments, commas, encoded words or routes. For these getaddresses() (a
# character-by-character parser, the costliest step of decoding a short mail) yields exactly
# the matched name and address: it joins a phrase's words with one space, and so do we
# (tests/mail/test_decode_shortcuts.py compares the two on generated From: values).
_ATOM = r"[^\s\x00-\x1f\x7f()<>@,:;.\"\[\]\\]+"
_WORD = r"[^\s\x00-\x1f\x7f()<>@,:;\"\[\]\\]+"  # a phrase's atoms may hold dots ("Dr.")
_ADDR_SPEC = rf"{_ATOM}(?:\.{_ATOM})*@{_ATOM}(?:\.{_ATOM})*"
_SIMPLE_FROM = re.compile(
    rf"[ \t]*(?:(?:({_WORD}(?:[ \t]+{_WORD})*)[ \t]*)?<({_ADDR_SPEC})>|({_ADDR_SPEC}))[ \t]*"
)


def _addresses(value: str) -> list[tuple[str, str]]:
    """``getaddresses([value])``, read directly when the value has the simple shape."""
    simple = _SIMPLE_FROM.fullmatch(value) if "=?" not in value else None
    if simple is None:
        return getaddresses([value])
    phrase, routed, bare = simple.groups()
    if bare is not None:
        return [("", bare)]
    return [(" ".join(phrase.split()) if phrase else "", routed)]


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _one_line(value: str) -> str:
    """One line of text without control characters: the daemon quotes subjects and names in
    headers of its replies, where a line break would inject a header."""
    return " ".join(_CONTROL.sub(" ", value).split())


# --- loop guard ----------------------------------------------------------------------------

_DAEMON_LOCALPARTS = frozenset({"mailer-daemon", "postmaster"})


def _automated(
    headers: _Headers,
    message_id: str | None,
    sender: str,
    own: _OwnMail,
    msg: Message | None = None,
    parts: _Parts | None = None,
) -> str | None:
    """Why this mail must not be answered, or None. The first matching reason wins.
    ``msg`` and ``parts``: the mail's structure, None for a mail of one text/plain part
    (which is no delivery report); asked only when no header gave a reason. The checks of
    robots' headers are asked only of a mail with one of them (few human mails have any)."""
    if headers.any_of(_ROBOT_SIGNS):
        for check in (_auto_submitted, _precedence, _list_mail, _robot_header):
            reason = check(headers)
            if reason:
                return reason
    reason = own.copy_of_ours(headers, message_id)
    if reason:
        return reason
    if headers.has("return-path") and headers.raw("return-path").replace(" ", "") == "<>":
        return "Return-Path: <>"
    if msg is not None and parts is not None and parts.ctype(msg) == "multipart/report":
        return "multipart/report (delivery status notification)"
    if _AUTOREPLY_SUBJECT.match(headers.get("subject")):
        return "auto-reply subject"
    if not sender:
        return "no sender address"
    if sender.split("@", 1)[0] in _DAEMON_LOCALPARTS:
        return f"sender {sender}"
    if sender == own.address:
        return "sent from our own address"
    return None


# Out-of-office notes sent by client rules (Outlook's "Reply using a template", old Exchange,
# webmailers) often carry no Auto-Submitted header; the prefix their client puts before the
# original subject gives them away. A prefix a person would type ("Abwesend: 3.-10. März")
# is not in the list: such a mail is a player writing, and may hold orders.
_AUTOREPLY_SUBJECT = re.compile(
    r"^\s*(automatische antwort|abwesenheitsnotiz|urlaubsantwort|out of office autoreply"
    r"|out of office|automatic reply|auto[- ]?reply|réponse automatique|risposta automatica"
    r"|respuesta automática|automatisch antwoord)\s*:",
    re.IGNORECASE,
)


@lru_cache(maxsize=16)
def _own_mail(own_address: str) -> _OwnMail:
    """The daemon has one address (a test a few): parsing it for every mail cost as much as
    reading the sender's."""
    return _OwnMail(own_address)


class _OwnMail:
    """Recognises the daemon's own mail coming back: redirected by a player's mailbox rule
    (intact, with our headers), or forwarded by one with nothing of the player's own.
    Immutable after construction, so one instance serves every mail (``_own_mail``)."""

    def __init__(self, own_address: str) -> None:
        own = getaddresses([own_address])
        self.address = own[0][1].strip().lower() if own else ""
        self.domain = self.address.rpartition("@")[2]

    def copy_of_ours(self, headers: _Headers, message_id: str | None) -> str | None:
        """``message_id``: ``_first_msgid`` of the mail's Message-ID."""
        if headers.has("x-gm-game"):
            return "X-GM-Game present (our own mail came back)"
        message_id = message_id or ""
        if self.domain and is_own_message_id(message_id, self.domain):
            return f"Message-ID {message_id} is one of ours (our own mail came back)"
        return None

    def forwarded_back(
        self, subject: str, text: str, msg: Message | None = None, parts: _Parts | None = None
    ) -> str | None:
        """A forward with no line of its own, of a mail from us: a rule, or a slip of the
        finger; answering it could start a loop with the rule, and tells nobody anything.
        ``msg`` and ``parts``: the mail's structure, None for a mail of one part (which
        attaches nothing)."""
        if not self.address:
            return None
        attaches = msg is not None and parts is not None and self._attaches_ours(msg, parts)
        if not (attaches or self._quotes_ours(subject, text)):
            return None
        return None if order_lines(text) else "forward of our own mail without text of its own"

    def _attaches_ours(self, msg: Message, parts: _Parts) -> bool:
        return any(
            _Headers(part).has("x-gm-game") or self.address in str(part.get("from", "")).lower()
            for part in _attached_messages(msg, parts)
        )

    def _quotes_ours(self, subject: str, text: str) -> bool:
        return bool(_FORWARD_SUBJECT.match(subject)) and self.address in text.lower()


_FORWARD_SUBJECT = re.compile(r"^\s*(wg|fw|fwd|wtr|weitergeleitet|tr|rv|i)\s*:", re.IGNORECASE)


def _attached_messages(msg: Message, parts: _Parts) -> Iterator[Message]:
    """Messages attached as message/rfc822 at any depth (the structure is already bounded)."""
    if not msg.is_multipart():
        return  # a part of its own, or a message/* part whose payload is no message
    for part in msg.walk():
        if parts.maintype(part) == "message":
            payload = part.get_payload()
            if isinstance(payload, list):
                yield from (sub for sub in payload if isinstance(sub, Message))


def _auto_submitted(headers: _Headers) -> str | None:
    value = headers.get("auto-submitted").strip()
    if headers.has("auto-submitted") and value.split(";", 1)[0].strip().lower() != "no":
        return f"Auto-Submitted: {value}"
    return None


def _precedence(headers: _Headers) -> str | None:
    value = headers.get("precedence").strip().lower()
    return f"Precedence: {value}" if value in {"bulk", "list", "junk", "auto_reply"} else None


_LIST_HEADERS = tuple((name.lower(), name) for name in ("List-Id", "List-Unsubscribe"))


def _list_mail(headers: _Headers) -> str | None:
    for key, name in _LIST_HEADERS:
        if headers.has(key):
            return f"{name} present (list mail)"
    return None


# Headers only robots set: auto-responders, ticket systems, and mailbox rules that forward
# (Exchange marks every mail an inbox rule generates; procmail and Sieve forwards add X-Loop).
_ROBOT_HEADERS = (
    "X-Autoreply",
    "X-Autorespond",
    "X-Autogenerated",
    "X-Loop",
    "X-OTRS-Loop",
    "X-RT-Loop-Prevention",
    "X-MS-Exchange-Inbox-Rules-Loop",
)


_ROBOT_KEYS = tuple((name.lower(), name) for name in _ROBOT_HEADERS)
# The headers without which none of the four checks above can give a reason.
_ROBOT_SIGNS = frozenset(
    {"auto-submitted", "precedence"} | {key for key, _name in _LIST_HEADERS + _ROBOT_KEYS}
)


def _robot_header(headers: _Headers) -> str | None:
    for key, name in _ROBOT_KEYS:
        if headers.has(key):
            return f"{name} present"
    return None


# --- body ----------------------------------------------------------------------------------


def body_text(msg: Message, parts: _Parts | None = None) -> str:
    """The body as plain text with "\\n" line ends: the first text/plain part that is not an
    attachment (unless it is blank), else the first such text/html part rendered as text."""
    parts = parts or _Parts()
    found: dict[str, Message] = {}
    for part in _leaf_parts(msg, parts):
        if parts.attachment(part):
            continue
        found.setdefault(_kind(part, parts), part)
    if "text/plain" in found:
        plain = _plain_text(found["text/plain"], parts)
        if plain.strip() or "text/html" not in found:  # some apps send a blank plain part
            return plain
    if "text/html" in found:
        from gm_daemon.mail.html_text import html_to_text  # only HTML-only mails need it

        return _tidy(html_to_text(_decoded_payload(found["text/html"], parts)[:MAX_HTML]))
    if "text" in found:  # text/enriched, text/markdown …: better raw than nothing
        return _plain_text(found["text"], parts)
    return ""


def _kind(part: Message, parts: _Parts) -> str:
    """text/plain, text/html, or the main type; a multipart that has no parts (its boundary
    missing or never used) is whatever text the sender wrote, so it counts as plain."""
    ctype = parts.ctype(part)
    if ctype in ("text/plain", "text/html"):
        return ctype
    main = parts.maintype(part)
    return "text/plain" if main == "multipart" else main


def _leaf_parts(msg: Message, parts: _Parts) -> Iterator[Message]:
    """Leaf parts in order, not descending into attached messages (a forwarded mail's text
    is not the sender's own text)."""
    if msg.is_multipart():
        payload = msg.get_payload()
        if parts.maintype(msg) == "message" or not isinstance(payload, list):
            return
        for sub in payload:
            if isinstance(sub, Message):
                yield from _leaf_parts(sub, parts)
    else:
        yield msg


def _is_attachment(part: Message, parts: _Parts) -> bool:
    """Use ``parts.attachment``, which asks this once per part."""
    declared = parts.get(part, "content-disposition", "")
    disposition = str(declared).split(";", 1)[0].strip().lower()
    return disposition == "attachment" or bool(parts.filename(part))


def _filename(part: Message, parts: _Parts) -> str:
    """Use ``parts.filename``, which asks this once per part."""
    name = parts.param(part, "filename", header="content-disposition") or parts.param(part, "name")
    if isinstance(name, tuple):  # RFC 2231: (charset, language, value)
        charset, _language, value = name
        if not charset or "\0" in charset:  # the email package passes a NUL to the codec
            name = value
        else:
            try:
                name = email.utils.collapse_rfc2231_value(name)
            except UnicodeError:  # codecs such as idna refuse the package's errors="replace"
                name = value
    return _one_line(decode_words(str(name))) if name else ""


# --- the order text ------------------------------------------------------------------------


def _order_text(msg: Message, display_name: str, parts: _Parts) -> tuple[str, str, bool]:
    """The text the daemon reads, where it came from, and whether the body held an inline
    PGP MESSAGE (encrypted) block. A player who attaches his orders as a text file
    ("befehle.txt") and writes only a cover note in the body means the file; the body's
    Code:/Spiel: lines still count, ahead of the file's lines."""
    raw = body_text(msg, parts)
    inline_pgp = _PGP_MESSAGE in raw
    body = strip_armour(raw)
    attached = _text_attachment(msg, parts)
    if attached is None or not _only_cover_note(body, display_name):
        return body, "body", inline_pgp
    name, text = attached
    envelope = [line.text for line in order_lines(body) if _ENVELOPE.match(line.text)]
    return "\n".join([*envelope, text]), f"attachment {name}", inline_pgp


def _text_attachment(msg: Message, parts: _Parts) -> tuple[str, str] | None:
    """The first attached plain-text file with any line that is not blank or quoted."""
    for part in _leaf_parts(msg, parts):
        name = parts.filename(part)
        plain = parts.ctype(part) == "text/plain" or name.lower().endswith(".txt")
        if parts.attachment(part) and plain and parts.maintype(part) != "message":
            text = strip_armour(_plain_text(part, parts))
            if _SOME_LINE.search(text):
                return name or "(no name)", text
    return None


_SOME_LINE = on_first_use(r"^[ \t]*[^\s>]", re.MULTILINE)
_ENVELOPE = on_first_use(r"^\s*(code|mein code|my code|spiel|game)\b", re.IGNORECASE)


@lru_cache(maxsize=1)
def _cover() -> re.Pattern[str]:
    """Lines of a cover note: greetings, sign-offs, and words about the attachment. Compiled
    for the first mail with a text attachment: most runs see none, and compiling it is a
    tenth of this module's start."""
    return re.compile(
        r"^\s*(hallo|hi|hey|moin|servus|guten (tag|morgen|abend)|liebe[rs]?|sehr geehrte[rs]?"
        r"|hello|dear|(viele|beste|liebe|freundliche|herzliche)n? gr(ü|ue|u)(ß|ss)e"
        r"|gr(ü|ue|u)(ß|ss)e?"
        r"|mfg|lg|vg|cheers|regards|best|thanks|danke|bis (dann|bald)|ciao|tsch(ü|ue)ss?)\b"
        r"|anhang|anbei|angehängt|beigefügt|attach|datei|\bfile\b|\bbefehle?\b|\borders?\b",
        re.IGNORECASE,
    )


def _only_cover_note(body: str, display_name: str) -> bool:
    """Whether every line the body would offer as an order is envelope, greeting, sign-off,
    a remark about the attachment, or the sender's own name."""
    name_words = {word.lower() for word in re.findall(r"\w+", display_name)}
    for line in order_lines(body):
        words = {word.lower() for word in re.findall(r"\w+", line.text)}
        bare_name = bool(words) and words <= name_words
        if not (_ENVELOPE.match(line.text) or _cover().search(line.text) or bare_name):
            return False
    return True


def _plain_text(part: Message, parts: _Parts) -> str:
    text, _ = _first_lines(_decoded_payload(part, parts))
    if str(parts.param(part, "format", "")).lower() == "flowed":
        delsp = str(parts.param(part, "delsp", "")).lower() == "yes"
        text = unflow(text, delsp=delsp)
    return _tidy(text)


def _decoded_payload(part: Message, parts: _Parts) -> str:
    """Transfer-decoded (quoted-printable, base64) and charset-decoded payload text. A part
    labelled base64 whose text is plainly not base64 (a script that set the header and then
    wrote the text as it was) is read as it stands rather than decoded into garbage."""
    try:
        raw = None if _not_base64(part, parts) else _payload_bytes(part, parts)
    except Exception:  # the email package's decoders are lenient; this is a last guard
        raw = None
    if not isinstance(raw, bytes):
        raw = _undecoded(part).encode("utf-8", "surrogateescape")
    return decode_bytes(raw, parts.charset(part) or "us-ascii")


# The transfer encodings ``Message.get_payload(decode=True)`` decodes; any other is taken
# as it stands
_TRANSFER_DECODED = frozenset(
    {"quoted-printable", "base64", "x-uuencode", "uuencode", "uue", "x-uue"}
)


def _payload_bytes(part: Message, parts: _Parts) -> bytes | None:
    """``part.get_payload(decode=True)``; for a text payload in none of the encodings it
    decodes (7bit, 8bit: nearly every order mail), its own answer given directly — the
    text's bytes, which the parser kept as ASCII with surrogate escapes — without its
    second look for the header and its two passes over the text. Anything else (a text
    that is not of that form, too) is left to the package."""
    payload = part._payload
    if isinstance(payload, str):
        cte = str(parts.get(part, "content-transfer-encoding", "")).lower()
        if cte not in _TRANSFER_DECODED:
            try:
                return payload.encode("ascii", "surrogateescape")
            except UnicodeEncodeError:
                pass
    return part.get_payload(decode=True)  # type: ignore[no-any-return]


_NOT_BASE64 = on_first_use(r"[^A-Za-z0-9+/=\s]|\S[ \t]+\S")


def _not_base64(part: Message, parts: _Parts) -> bool:
    cte = str(parts.get(part, "content-transfer-encoding", "")).strip().lower()
    return cte == "base64" and bool(_NOT_BASE64.search(_undecoded(part)[:4096]))


def _undecoded(part: Message) -> str:
    """The payload as it stands in the mail. Message.get_payload() decodes 8-bit bytes with the
    declared charset, and some of Python's codecs (idna, punycode) raise for any error mode."""
    try:
        payload = part.get_payload()
    except (LookupError, UnicodeError, ValueError):
        return ""
    return payload if isinstance(payload, str) else ""


_CHARSET_ALIASES = {
    # As browsers do (WHATWG): these labels are windows-1252 in practice.
    "us-ascii": "windows-1252",
    "ascii": "windows-1252",
    "iso-8859-1": "windows-1252",
    "latin1": "windows-1252",
    "latin-1": "windows-1252",
}


_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_BOM_MARKS = tuple(mark for mark, _ in _BOMS)


# Python codecs that are no mail charset, though a label can name them: the escape decoders
# interpret backslashes (and warn about them), idna and punycode read host names.
_NOT_CHARSETS = frozenset({"unicode-escape", "raw-unicode-escape", "idna", "punycode", "undefined"})


def decode_bytes(raw: bytes, charset: str) -> str:
    """Decode with the declared charset, else UTF-8, else windows-1252, else Latin-1 (which
    cannot fail): a mislabelled or unknown charset must not lose the whole message.

    Non-ASCII bytes that form valid UTF-8 are read as UTF-8 whatever the label says: clients
    and scripts label UTF-8 as iso-8859-15 or us-ascii, while Latin text that happens to be
    valid UTF-8 ("Ã¼" for "ü") does not occur in practice. A byte-order mark (Windows Notepad's
    "befehle.txt") decides over any label."""
    label = charset.strip().lower()
    declared = _CHARSET_ALIASES.get(label, label)
    bom = None
    if raw.startswith(_BOM_MARKS):  # rarely: a look at each mark only then
        bom = next((name for mark, name in _BOMS if raw.startswith(mark)), None)
    if bom:
        candidates = [bom, declared]
    elif raw.isascii() or declared.startswith(("utf-16", "utf-32")):
        candidates = [declared, "utf-8"]
    else:
        candidates = ["utf-8", declared]
    for candidate in [*candidates, "windows-1252"]:
        try:
            if codecs.lookup(candidate).name in _NOT_CHARSETS:
                continue
            return raw.decode(candidate)
        except (LookupError, UnicodeError, ValueError):
            continue
    return raw.decode("latin-1")


# Spaces other than " " (no-break, narrow no-break, figure), and the zero-width and direction
# marks that clients and phones slip into text: each taken out by ``str.replace``, whose
# search skips a 10 MB text in milliseconds. Not str.translate (a Python-level look-up per
# character: half a second for 10 MB), nor a regular expression of them (compiling a class
# of characters above U+00FF builds a 64 K table in Python: ~2 M instructions a start).
_SPACES = ("\u00a0", "\u202f", "\u2007")
_INVISIBLE = ("\ufeff", "\u200b", "\u200c", "\u2060", "\u00ad", "\u200e", "\u200f")
# Emoji (pictographs, flags, skin tones, ✌ ☺ ✔) and their joiners: a phone adds them to an
# order line ("Pech 3 2 1 🔫"), and no game reads them. Card suits (♠♥♦♣) and the dingbat
# arrows (➔) stay: a game may read those.
_EMOJI = re.compile(
    "[\U0001f1e6-\U0001f1ff\U0001f300-\U0001faff\u2600-\u265f\u2668-\u2793\ufe0e\ufe0f\u200d\u20e3]"
)


def _tidy(text: str) -> str:
    """Unify line ends, spaces and Unicode forms so later steps see one form: a Mac may send
    "ü" as "u" + combining diaeresis (NFD), which must read as the same name."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for space in _SPACES:
        text = text.replace(space, " ")
    for mark in _INVISIBLE:
        text = text.replace(mark, "")
    return unicodedata.normalize("NFC", _EMOJI.sub("", text))


def unflow(text: str, *, delsp: bool) -> str:
    """Undo RFC 3676 format=flowed: join soft-broken lines (those ending in a space) with
    the next line of the same quote depth, and remove space-stuffing."""
    out: list[tuple[int, str]] = []
    continuing = False
    for raw in _tidy(text).split("\n"):
        depth = len(raw) - len(raw.lstrip(">"))
        content = raw[depth:]
        if content.startswith(" "):
            content = content[1:]
        flowed = content.endswith(" ") and content != "-- "
        if flowed and delsp:
            content = content[:-1]
        if continuing and out and out[-1][0] == depth:
            out[-1] = (depth, out[-1][1] + content)
        else:
            out.append((depth, content))
        continuing = flowed
    return "\n".join(">" * d + (" " + c if c else "") if d else c for d, c in out)


# --- order lines ---------------------------------------------------------------------------

_REPLY_HEADER = on_first_use(
    r"^\s*(am|on)\s.*\b(schrieb|wrote|geschrieben)\b.*:\s*$", re.IGNORECASE
)
_REPLY_HEADER_END = on_first_use(r"\b(schrieb|wrote|geschrieben)\b.*:\s*$", re.IGNORECASE)
_REPLY_HEADER_START = on_first_use(r"^\s*(am|on)\s", re.IGNORECASE)
# A word _REPLY_HEADER and _REPLY_HEADER_END need ("geschrieben" holds "schrieb"): a text
# without one has no attribution line to look for line by line (most order mails).
_ATTRIBUTION_WORD = re.compile(r"schrieb|wrote", re.IGNORECASE)
# What a text's case-folded form holds wherever _ATTRIBUTION_WORD finds something ("schr":
# the İ/ı that match "i" fold to other letters): asked first, as a search of an ignore-case
# pattern tries it at every position of the text (~14 k instructions an order mail's text).
_ATTRIBUTION_HINTS = ("schr", "wrote")
# The patterns of the lines that end a text; compiled only joined, in _ENDS_TEXT.
_ORIGINAL_MESSAGE = (
    r"^\s*-{3,}\s*(original message|ursprüngliche nachricht|original nachricht"
    r"|weitergeleitete nachricht|forwarded message)\s*-{3,}\s*$"
)
_OUTLOOK_RULE = r"^\s*_{20,}\s*$"


@lru_cache(maxsize=1)
def _quote_from_date() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Outlook (and others) quote the original below a header block without any separator
    line: "Von: Spielleiter <gm@…>" / "Gesendet: Sonntag, …" / "An: …" / "Betreff: …"; GMX
    and web.de put "Gesendet:" first. Compiled for the first line _QUOTE_HEADER matches:
    few mails have one."""
    return (
        re.compile(r"^\s*\*?(von|from)\s*:\s*\*?\s*\S", re.IGNORECASE),
        re.compile(r"^\s*\*?(gesendet|sent|datum|date)\s*:\s*\*?\s*\S", re.IGNORECASE),
    )


# What phones put below a message: a signature without the "-- " line.
_MOBILE_SIGNATURE = (
    r"^\s*(von meinem \S.*gesendet|gesendet (von|mit) .*(iphone|ipad|android|smartphone|app)"
    r"|sent (from|with) .*(iphone|ipad|android|mobile|phone|outlook|app)|get outlook for \S+)"
    r"\s*\.?\s*$"
)

# Any of the three above, in one pass: nearly every line is none of them. MULTILINE, as
# ``_may_end`` searches a whole text with it, each line's start a "^"; a line (no "\n" in
# it) is matched alike with and without it, so one compiled pattern serves both.
_ENDS_TEXT = re.compile(
    "|".join(f"(?:{p})" for p in (_ORIGINAL_MESSAGE, _OUTLOOK_RULE, _MOBILE_SIGNATURE)),
    re.IGNORECASE | re.MULTILINE,
)
# Either of _quote_from_date's two: a line that is neither starts no quote header block
# (MULTILINE as _ENDS_TEXT).
_QUOTE_HEADER = re.compile(
    r"^\s*\*?(von|from|gesendet|sent|datum|date)\s*:\s*\*?\s*\S", re.IGNORECASE | re.MULTILINE
)

# What a text's case-folded form holds wherever _ENDS_TEXT or _QUOTE_HEADER matches a line,
# but for the "-----" separators, which hold "--" (``_may_end`` asks for that first): an
# Outlook rule, the mobile signatures' words, the quote header's words.
_ENDING_HINTS = ("_" * 20, "gesendet", "sent", "outlook", "von", "from", "datum", "date")

# No game's orders come near this; a pasted novel is answered by its first lines alone.
MAX_LINES = 10_000


def order_lines(text: str) -> list[Line]:
    """The lines that may be orders, numbered as in ``text``: quotes, reply headers, comments,
    blank lines, signature and everything after ENDE (or an Outlook quote) are left out, and
    so is everything after the first ``MAX_LINES`` lines."""
    text, lines = _first_lines(text)
    folded = text.casefold()
    attributed = _attributed(text, folded)
    may_end = _may_end(text, folded)
    if not (attributed or may_end):
        return _plain_lines(lines)
    return _read_lines([line.rstrip("\r") for line in lines], attributed, may_end)


def _plain_lines(lines: list[str]) -> list[Line]:
    """``_read_lines`` of a text in which no line may end it nor attribute a quote (nearly
    every order mail): each line without its comment and trailing blanks, unless that
    leaves nothing or the line is quoted. A line's "\r" needs no step of its own here:
    ``rstrip`` takes it with the blanks, and a quote's ">" is looked for at the start.
    tests/mail/test_order_lines.py holds the two equal."""
    result: list[Line] = []
    for no, line in enumerate(lines, 1):
        content = line.split("#", 1)[0].rstrip()
        if content and not line.lstrip().startswith(">"):
            result.append(Line(no, content))
    return result


def _read_lines(raw: list[str], attributed: bool, may_end: bool) -> list[Line]:
    """The order lines of ``raw`` (the text's lines, each without its "\r"); ``attributed``
    and ``may_end``: whether the text may hold an attribution line, a line that ends it."""
    dropped = _reply_header_lines(raw) if attributed else set()
    result: list[Line] = []
    for index, line in enumerate(raw):
        content = line.split("#", 1)[0].rstrip()
        if may_end and (_ends_text(line, content) or _quote_headers_at(raw, index)):
            break
        if attributed and _REPLY_HEADER.match(line) and not _quote_follows(raw, index + 1):
            break  # "Am … schrieb …:" above an unquoted original (Yahoo, some webmailers)
        if index in dropped or _is_quoted(line) or not content.strip():
            continue
        result.append(Line(no=index + 1, text=content))
    return result


def _first_lines(text: str) -> tuple[str, list[str]]:
    """``text`` up to its ``MAX_LINES``-th line, and those lines: no reading step looks
    further, and each whole-text step (a search, a Unicode normalisation) would otherwise
    spend a tenth of a second on a pasted novel's 10 MB rest."""
    lines = text.split("\n", MAX_LINES)
    if len(lines) > MAX_LINES:
        text = text[: len(text) - len(lines.pop()) - 1]
    return text, lines


def _attributed(text: str, folded: str) -> bool:
    """Whether ``text`` holds a word an attribution line needs; ``folded``: its
    ``casefold()``, in which every letter the ignore-case search takes for one of the
    words' is that letter (ſ is s, the Kelvin sign k), so a text without a hint has none."""
    return any(hint in folded for hint in _ATTRIBUTION_HINTS) and (
        _ATTRIBUTION_WORD.search(text) is not None
    )


def _may_end(text: str, folded: str) -> bool:
    """Whether any line of ``text`` may be one ``_ends_text`` or ``_quote_headers_at``
    stops at, asked of the whole text at once: each of them needs "--", an END (only e, n
    and d are upper-cased to E, N and D), or a line their patterns match (searched line by
    line in the text, where each line's pattern match is a match; a false alarm only
    costs the look at every line). The patterns are searched only in a text whose
    case-folded form (``folded``) holds one of their words: most order mails hold none."""
    return (
        "--" in text
        or "END" in text.upper()
        or (
            any(hint in folded for hint in _ENDING_HINTS)
            and (_ENDS_TEXT.search(text) is not None or _QUOTE_HEADER.search(text) is not None)
        )
    )


def _ends_text(line: str, content: str) -> bool:
    return (
        line.rstrip() == "--"
        or content.strip().upper() in ("ENDE", "END")
        or bool(_ENDS_TEXT.match(line))
    )


def _quote_headers_at(lines: list[str], index: int) -> bool:
    """A "Von:" line and a "Gesendet:"/"Datum:" line close together start a quoted mail."""
    if not _QUOTE_HEADER.match(lines[index]):
        return False
    following = lines[index + 1 : index + 4]
    quote_from, quote_date = _quote_from_date()
    return bool(
        (quote_from.match(lines[index]) and any(map(quote_date.match, following)))
        or (quote_date.match(lines[index]) and any(map(quote_from.match, following)))
    )


def _is_quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def _reply_header_lines(lines: list[str]) -> set[int]:
    """Indexes of attribution lines ("Am … schrieb …:", "On … wrote:"), also when a client
    wrapped them over two lines. Looser forms count only right before a quote."""
    found: set[int] = set()
    for i, line in enumerate(lines):
        if _is_quoted(line):
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        starts = _REPLY_HEADER_START.match(line)  # _REPLY_HEADER begins the same way
        if starts and _REPLY_HEADER.match(line):
            found.add(i)
        elif (
            starts
            and not _is_quoted(nxt)
            and _REPLY_HEADER.match(f"{line} {nxt}")
            and _quote_follows(lines, i + 2)
        ):
            found.update((i, i + 1))
        elif _REPLY_HEADER_END.search(line) and _quote_follows(lines, i + 1):
            found.add(i)
    return found


def _quote_follows(lines: list[str], start: int) -> bool:
    for line in lines[start:]:
        if line.strip():
            return _is_quoted(line)
    return False
