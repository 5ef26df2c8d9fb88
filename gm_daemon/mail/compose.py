"""Building the mails the daemon sends.

Every mail carries ``Auto-Submitted`` (RFC 3834: ``auto-replied`` for an answer to a player's
mail, ``auto-generated`` for results, welcomes and reminders; either keeps vacation responders
quiet), its own Message-ID (fixed when the mail is queued, so a retry is the same message),
and threads by game: all mails of a game reference one synthetic root id, replies also the
player's mail.
"""

from __future__ import annotations

import base64
import hashlib
import math
import os
import re
from collections import deque
from collections.abc import Sequence
from datetime import datetime, timedelta
from email.header import Header
from email.message import EmailMessage
from email.quoprimime import body_check, body_encode
from email.utils import format_datetime, formataddr
from functools import lru_cache

import orjson

from gm_daemon.games.protocol import Attachment
from gm_daemon.patterns import on_first_use


def thread_root(game_id: str, domain: str) -> str:
    return f"<game.{game_id}@{domain}>"


def new_message_id(domain: str, *parts: str) -> str:
    """A unique id; the parts make it traceable in logs (game, purpose, seat, phase)."""
    return f"<{'.'.join(filter(None, parts))}.{_TOKENS.take()}@{domain}>"


class _Tokens:
    """Random tokens of 12 hex digits, as ``secrets.token_hex(6)`` gives, taken from the
    system's random source ``BATCH`` at a time: one ``getrandom`` call per 256 Message-IDs
    instead of one each. Each call let go of the interpreter lock, which intake's thread
    then had to win back from the sender's threads, once per reply queued. The tokens wait
    in a ``deque``, whose ``popleft`` and ``extend`` are atomic: threads that take at once
    each get their own token without a lock (~4 k instructions less a Message-ID); two
    that find it empty both fill it, which only draws more tokens."""

    BATCH = 256

    def __init__(self) -> None:
        self._tokens: deque[str] = deque()

    def take(self) -> str:
        while True:
            try:
                return self._tokens.popleft()
            except IndexError:
                drawn = os.urandom(6 * self.BATCH).hex()
                self._tokens.extend([drawn[at : at + 12] for at in range(0, len(drawn), 12)])


_TOKENS = _Tokens()


def is_own_message_id(message_id: str, domain: str) -> bool:
    """Whether ``message_id`` has the shape of one ``new_message_id`` or ``thread_root`` made
    for ``domain``: a mailbox rule that sends our own mail back must not be answered. The
    shape, not just the domain, is checked, because players may share the GM's provider."""
    return _own_message_id(domain).fullmatch(message_id) is not None


@lru_cache(maxsize=16)
def _own_message_id(domain: str) -> re.Pattern[str]:
    """Asked for every incoming mail, always for the daemon's one domain."""
    own = rf"<(?:game\.[^<>@\s]+|[^<>@\s]*\.[0-9a-f]{{12}})@{re.escape(domain)}>"
    return re.compile(own, re.IGNORECASE)


def compose(
    *,
    sender: str,
    sender_name: str,
    to: str,
    subject: str,
    body: str,
    message_id: str,
    date: datetime,
    game_id: str | None = None,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    attachments: Sequence[Attachment] = (),
) -> EmailMessage:
    from email.policy import SMTP  # here: with its header classes ~12 M instructions

    message = EmailMessage(policy=SMTP)
    message["From"] = formataddr((sender_name, sender))
    message["To"] = to
    # Encoded and folded by us: the email package's own folding (Python 3.11 to 3.13) drops
    # the space between two encoded words ("Stammtisch Häberle" arrives as "StammtischHäberle")
    message.set_raw("Subject", _encoded(subject, "Subject"))
    message["Date"] = format_datetime(date)
    message["Message-ID"] = message_id
    message["Auto-Submitted"] = _auto_submitted(in_reply_to)
    message["X-Auto-Response-Suppress"] = "All"
    if game_id is not None:
        message["X-GM-Game"] = game_id
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
    refs = _references(sender, game_id, in_reply_to, references)
    if refs:
        message["References"] = " ".join(refs)
    message.set_content(body, charset="utf-8", cte="quoted-printable")
    for attachment in attachments:
        maintype, _, subtype = attachment.content_type.partition("/")
        message.add_attachment(
            attachment.data, maintype=maintype, subtype=subtype, filename=attachment.filename
        )
    if attachments:
        # A boundary derived from the Message-ID keeps a queued mail byte-identical on retry
        # and lets golden files compare whole messages.
        message.set_boundary("gm-" + hashlib.sha256(message_id.encode()).hexdigest()[:24])
    return message


def compose_bytes(
    *,
    sender: str,
    sender_name: str,
    to: str,
    subject: str,
    body: str,
    message_id: str,
    date: datetime,
    game_id: str | None = None,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    attachments: Sequence[Attachment] = (),
) -> bytes:
    """The mail as the outbox stores and the sender sends it (CRLF, 7-bit). Most mails are a
    single text part: those are written directly, the same mail ``compose`` builds, in a
    tenth of the time (the email package's header objects dominate an acknowledgement's
    cost). Mails with attachments whose headers need no encoding and no folding (a game's
    results: a state file, a picture) are written directly too, byte for byte what
    ``compose`` gives (``_mixed``); others, and addresses that need SMTPUTF8, go through
    ``compose``."""
    if attachments:
        mixed = _mixed(
            sender, sender_name, to, subject, body, message_id, date, game_id, in_reply_to,
            references, attachments,
        )  # fmt: skip
        if mixed is not None:
            return mixed
    if attachments or not (to + sender).isascii():
        return bytes(
            compose(
                sender=sender,
                sender_name=sender_name,
                to=to,
                subject=subject,
                body=body,
                message_id=message_id,
                date=date,
                game_id=game_id,
                in_reply_to=in_reply_to,
                references=references,
                attachments=attachments,
            )
        )
    refs = _references(sender, game_id, in_reply_to, references)
    from_header = _from_header(sender_name, sender)
    subject_text = _encoded(subject, "Subject")
    folded = _folded(refs) if refs else ""
    head = (
        f"From: {from_header}\r\n"
        f"To: {to}\r\n"
        f"Subject: {subject_text}\r\n"
        f"Date: {_date(date)}\r\n"
        f"Message-ID: {message_id}\r\n"
        f"Auto-Submitted: {_auto_submitted(in_reply_to)}\r\n"
        "X-Auto-Response-Suppress: All\r\n"
        + (f"X-GM-Game: {game_id}\r\n" if game_id is not None else "")
        + (f"In-Reply-To: {in_reply_to}\r\n" if in_reply_to else "")
        + (f"References: {folded}\r\n" if refs else "")
        + _TEXT_PART_HEAD
    )
    # The head holds just the CRLF that ends each header unless a value holds a line break
    # other than a fold (CRLF and a blank): asked of the values at once, apart by a NUL so
    # that no fold is made across two of them (the fixed text around them has no blank
    # after a CRLF, so asking the whole head was the same; a count over it cost more). The
    # header is named when one does. The Date's text and the fixed text hold no break.
    values = f"{from_header}\0{to}\0{subject_text}\0{message_id}\0{game_id}\0{in_reply_to}"
    values = f"{values}\0{folded}"
    if ("\n" in values or "\r" in values) and _breaks(values.replace("\r\n ", " ")):
        _refuse_line_breaks(
            [
                ("From", _from_header(sender_name, sender)),
                ("To", to),
                ("Message-ID", message_id),
                ("X-GM-Game", game_id),
                ("In-Reply-To", in_reply_to),
                ("References", _folded(refs) if refs else None),
            ]
        )
    return (head + "\r\n" + _quoted_printable(body)).encode("ascii")


# The last three header lines of every single-part mail, in ``compose``'s order.
_TEXT_PART_HEAD = (
    'Content-Type: text/plain; charset="utf-8"\r\n'
    "Content-Transfer-Encoding: quoted-printable\r\n"
    "MIME-Version: 1.0\r\n"
)


def _breaks(text: str) -> bool:
    return "\n" in text or "\r" in text


def _refuse_line_breaks(headers: Sequence[tuple[str, str | None]]) -> None:
    """The header whose value holds a line break that is not a fold, named."""
    for name, value in headers:
        unfolded = (value or "").replace("\r\n ", " ")
        if "\n" in unfolded or "\r" in unfolded:
            raise ValueError(f"header {name} may not contain a line break: {value!r}")


# Header values written as they stand by the email package (no encoded words, no quoting,
# nothing it would re-fold): printable ASCII words separated by single spaces.
_PLAIN_VALUE = on_first_use(r"[!-~]+(?: [!-~]+)*")
_PLAIN_NAME = on_first_use(r"[A-Za-z0-9]+(?: [A-Za-z0-9]+)*")  # a display name left unquoted
_TOKEN = on_first_use(r"[a-z0-9][a-z0-9.+-]*")  # a MIME type or subtype, as it is written
_FILENAME = on_first_use(r"[A-Za-z0-9._-]+")
_ADDRESS = on_first_use(r"[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*")
_MSGID = on_first_use(r"<[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*>")
_MAX_LINE = 78  # the email package's SMTP policy folds longer header lines


def _mixed(
    sender: str,
    sender_name: str,
    to: str,
    subject: str,
    body: str,
    message_id: str,
    date: datetime,
    game_id: str | None,
    in_reply_to: str | None,
    references: Sequence[str],
    attachments: Sequence[Attachment],
) -> bytes | None:
    """A multipart/mixed mail (the text, then each attachment in base64) exactly as
    ``bytes(compose(...))`` writes it, or None when a header would need encoding, quoting or
    folding: then ``compose`` must write it. ``tests/mail/test_compose_bytes.py`` holds the
    two byte-equal."""
    refs = _references(sender, game_id, in_reply_to, references)
    if sender_name and not _PLAIN_NAME.fullmatch(sender_name):
        return None
    headers = [
        ("From", f"{sender_name} <{sender}>" if sender_name else sender),
        ("To", to),
        ("Subject", subject),
        ("Date", format_datetime(date)),
        ("Message-ID", message_id),
        ("Auto-Submitted", _auto_submitted(in_reply_to)),
        ("X-Auto-Response-Suppress", "All"),
        ("X-GM-Game", game_id),
        ("In-Reply-To", in_reply_to or None),
        ("References", " ".join(refs) if refs else None),
        ("MIME-Version", "1.0"),
    ]
    lines = []
    for name, value in headers:
        if value is None:
            continue
        line = f"{name}: {value}"
        if not _PLAIN_VALUE.fullmatch(value) or "=?" in value or len(line) > _MAX_LINE:
            if name != "Subject":
                return None
            line = f"{name}: {_encoded(value, name)}"  # "Runde 1 – Ergebnisse", as compose
        lines.append(line)
    if not (_ADDRESS.fullmatch(sender) and _ADDRESS.fullmatch(to) and _MSGID.fullmatch(message_id)):
        return None  # the email package parses addresses and Message-IDs, and may rewrite them
    boundary = "gm-" + hashlib.sha256(message_id.encode()).hexdigest()[:24]
    lines.append(f'Content-Type: multipart/mixed; boundary="{boundary}"')
    parts = [
        'Content-Type: text/plain; charset="utf-8"\r\n'
        "Content-Transfer-Encoding: quoted-printable\r\n\r\n" + _text_part_body(body)
    ]
    for attachment in attachments:
        part = _attachment_part(attachment)
        if part is None:
            return None
        parts.append(part)
    text = "\r\n".join(lines) + "\r\n\r\n"
    text += "".join(f"--{boundary}\r\n{part}\r\n" for part in parts) + f"--{boundary}--\r\n"
    return text.encode("ascii")


def _text_part_body(body: str) -> str:
    """The text as ``set_content(body, charset="utf-8", cte="quoted-printable")`` under the
    SMTP policy encodes it: lines split as bytes, quoted to 78 columns, CRLF."""
    lines = body.encode("utf-8").splitlines() or [b""]
    return "".join([_quoted_line(line) for line in lines])


@lru_cache(maxsize=8192)
def _quoted_line(line: bytes, width: int = _MAX_LINE) -> str:
    """One line of ``_text_part_body`` (``width`` 78) or of ``_quoted_printable`` (76),
    with its CRLF. ``body_encode`` quotes each line on its own, so the lines of a text
    can be quoted one by one; and the mails of one result share most of theirs (200
    players get the same 200 lines of standings), so a line quoted once is kept. A line
    that needs no soft break (at most ``width`` characters quoted) and does not end in a
    blank is just its characters quoted, which ``str.translate`` does at once;
    ``body_encode`` is left the long lines and those ending in a blank."""
    text = line.decode("latin-1")
    quoted = text.translate(_QUOTED)
    if len(quoted) <= width and not quoted.endswith((" ", "\t")):
        return quoted + "\r\n"
    return body_encode(text, width).replace("\n", "\r\n") + "\r\n"


# Each octet as quoted-printable writes it: itself, or "=XY" where ``body_check`` says it
# must be quoted (a list: ``str.translate`` looks a list up many times faster than a dict).
_QUOTED = [f"={octet:02X}" if body_check(octet) else chr(octet) for octet in range(256)]


def _attachment_part(attachment: Attachment) -> str | None:
    """One attachment as ``add_attachment(bytes, ...)`` writes it, or None when its type or
    file name would need quoting, encoding or folding."""
    maintype, slash, subtype = attachment.content_type.partition("/")
    name = attachment.filename
    disposition = f'Content-Disposition: attachment; filename="{name}"'
    if not (slash and _TOKEN.fullmatch(maintype) and _TOKEN.fullmatch(subtype)):
        return None
    if not _FILENAME.fullmatch(name) or len(disposition) > _MAX_LINE:
        return None
    if len(f"Content-Type: {attachment.content_type}") > _MAX_LINE:
        return None
    # Lines of 76 characters, the last one shorter, each ended: encodebytes, with CRLF.
    encoded = base64.encodebytes(attachment.data).decode("ascii").replace("\n", "\r\n")
    return (
        f"Content-Type: {maintype}/{subtype}\r\n"
        "Content-Transfer-Encoding: base64\r\n"
        f"{disposition}\r\nMIME-Version: 1.0\r\n\r\n{encoded}"
    )


def _auto_submitted(in_reply_to: str | None) -> str:
    """RFC 3834: an answer to a mail, or a mail of our own making."""
    return "auto-replied" if in_reply_to else "auto-generated"


def _references(
    sender: str, game_id: str | None, in_reply_to: str | None, references: Sequence[str]
) -> list[str]:
    """The thread root first, the mail replied to last, each once (as ``compose`` does).
    Without ``references`` (every mail the mailer queues) just those two, the root's text
    kept for the game (~2/3 of this function's cost)."""
    if not references:
        if game_id is None:
            return [in_reply_to] if in_reply_to else []
        root = _root_of(game_id, sender)
        return [root, in_reply_to] if in_reply_to and in_reply_to != root else [root]
    refs = list(references)
    if game_id is not None:
        refs.insert(0, thread_root(game_id, sender.split("@", 1)[1]))
    if in_reply_to and in_reply_to not in refs:
        refs.append(in_reply_to)
    return list(dict.fromkeys(refs))


@lru_cache(maxsize=256)
def _root_of(game_id: str, sender: str) -> str:
    return thread_root(game_id, sender.split("@", 1)[1])


@lru_cache(maxsize=64)
def _from_header(name: str, address: str) -> str:
    """The same for every mail of a daemon: encoded once."""
    return formataddr((name, address))


def _encoded(text: str, name: str) -> str:
    """A header value as RFC 2047 words when it is not plain short ASCII."""
    if "\n" in text or "\r" in text:
        raise ValueError(f"header {name} may not contain a line break: {text!r}")
    if text.isascii() and len(name) + len(text) < 76:
        return text
    charset = "us-ascii" if text.isascii() else "utf-8"
    return Header(text, charset, header_name=name).encode(linesep="\r\n")


def _folded(ids: Sequence[str]) -> str:
    """Message-IDs on as many lines as the 78-column limit needs."""
    lines, line = [], "References:"
    for msgid in ids:
        if len(line) + 1 + len(msgid) > 78 and line != "References:":
            lines.append(line)
            line = ""
        line += " " + msgid
    lines.append(line)
    return "\r\n".join(lines).removeprefix("References: ")


def _quoted_printable(body: str) -> str:
    """The body as ``set_content(cte="quoted-printable")`` writes it: lines normalised,
    a final line break, UTF-8 bytes quoted to 76 columns. ``body_encode`` quotes every
    line on its own (a line break is never quoted, nor split), so the body is quoted a
    line at a time, each line once: the acknowledgements of a burst share most of their
    lines (the greeting, the notes, the deadline, the sign-off), kept in ``_BODY_LINES``
    by their text. The kept lines are looked up all at once (``map`` of the dict's
    ``get``, no Python call a line: ~2/3 less than a cache function called for each of
    the ~20 lines of every reply); only the lines not kept are quoted."""
    lines = body.splitlines() or [""]
    quoted = list(map(_BODY_LINES.get, lines))
    if None in quoted:
        for at, text in enumerate(quoted):
            if text is None:
                quoted[at] = _quoted_body_line(lines[at])
    return "".join(quoted)


# Body lines quoted (``_quoted_printable``), by their text: a lone ``str`` is its own key
# (no key tuple, no bytes encoded and hashed for a look-up). Forgotten all at once when
# full; another thread's line lost at worst, and quoted again.
_BODY_LINES: dict[str, str] = {}
BODY_LINES_KEPT = 8192


def _quoted_body_line(line: str) -> str:
    """``_quoted_line`` of one line of a body, kept in ``_BODY_LINES``. Quoted by
    ``_quoted_line``'s own function, not through its cache: the line is kept here, once."""
    text = _quoted_line.__wrapped__(line.encode("utf-8"), 76)
    if len(_BODY_LINES) >= BODY_LINES_KEPT:
        _BODY_LINES.clear()
    _BODY_LINES[line] = text
    return text


def _date(date: datetime) -> str:
    """The Date header of ``date`` (to the second): the mails of a burst share a handful of
    seconds, each written once. Kept by the second since the epoch and the offset (equal
    moments in two zones are written with their own offsets), which cost a seventh of what
    ``replace(microsecond=0)`` did as the key; a moment without a zone is written as it is."""
    offset = date.utcoffset()
    if offset is None:
        return format_datetime(date)
    key = (math.floor(date.timestamp()), offset)
    text = _DATE_TEXTS.get(key)
    if text is None:
        if len(_DATE_TEXTS) >= DATES_KEPT:
            _DATE_TEXTS.clear()  # another thread's text lost at worst: written again
        text = _DATE_TEXTS[key] = format_datetime(date)  # it writes whole seconds
    return text


_DATE_TEXTS: dict[tuple[int, timedelta], str] = {}
DATES_KEPT = 64


_JSON_OPTIONS = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def json_attachment(filename: str, data: object) -> Attachment:
    """Indented, keys sorted, UTF-8: the bytes ``json.dumps(data, ensure_ascii=False,
    indent=2, sort_keys=True)`` writes, by orjson, since the standard library indents in
    pure Python (a result to 200 players encodes 200 files of their standings)."""
    payload = orjson.dumps(data, option=_JSON_OPTIONS)
    return Attachment(filename, "application/json", payload + b"\n")
