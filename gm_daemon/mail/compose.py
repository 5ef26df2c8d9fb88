"""Building the mails the daemon sends.

Every mail carries ``Auto-Submitted`` (RFC 3834: ``auto-replied`` for an answer to a player's
mail, ``auto-generated`` for results, welcomes and reminders; either keeps vacation responders
quiet), its own Message-ID (fixed when the mail is queued, so a retry is the same message),
and threads by game: all mails of a game reference one synthetic root id, replies also the
player's mail.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from datetime import datetime
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, formataddr

from gm_daemon.games.protocol import Attachment


def thread_root(game_id: str, domain: str) -> str:
    return f"<game.{game_id}@{domain}>"


def new_message_id(domain: str, *parts: str) -> str:
    """A unique id; the parts make it traceable in logs (game, purpose, seat, phase)."""
    import secrets

    token = secrets.token_hex(6)
    label = ".".join(p for p in parts if p)
    return f"<{label}.{token}@{domain}>"


def is_own_message_id(message_id: str, domain: str) -> bool:
    """Whether ``message_id`` has the shape of one ``new_message_id`` or ``thread_root`` made
    for ``domain``: a mailbox rule that sends our own mail back must not be answered. The
    shape, not just the domain, is checked, because players may share the GM's provider."""
    own = rf"<(?:game\.[^<>@\s]+|[^<>@\s]*\.[0-9a-f]{{12}})@{re.escape(domain)}>"
    return re.fullmatch(own, message_id, re.IGNORECASE) is not None


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
    message = EmailMessage(policy=SMTP)
    message["From"] = formataddr((sender_name, sender))
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = format_datetime(date)
    message["Message-ID"] = message_id
    message["Auto-Submitted"] = "auto-replied" if in_reply_to else "auto-generated"
    message["X-Auto-Response-Suppress"] = "All"
    domain = sender.split("@", 1)[1]
    refs = list(references)
    if game_id is not None:
        refs.insert(0, thread_root(game_id, domain))
        message["X-GM-Game"] = game_id
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
        if in_reply_to not in refs:
            refs.append(in_reply_to)
    if refs:
        message["References"] = " ".join(dict.fromkeys(refs))
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


def json_attachment(filename: str, data: object) -> Attachment:
    payload = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    return Attachment(filename, "application/json", payload.encode("utf-8"))
