"""Building blocks for the corpus: headers as clients write them, MIME parts, encodings.

Only ``make_corpus.py`` uses these; the test reads the committed ``.eml`` files and
``expected.toml``, and checks that they are still what ``make_corpus.py`` writes.
"""

from __future__ import annotations

import base64
import quopri
from dataclasses import dataclass, field

EGON = "egon@example.org"
EGON_FROM = "=?utf-8?q?Egon_M=C3=BCller?= <egon@example.org>"
ORDERS = "Code: EGON-1234\nDuelle\nA. Langsam 19, 15\nV. Pech 4, 1\nHerausforderungen\nH. Glück\n"
ORDER_LINES = ORDERS.splitlines()
SIGNATURE = "-- \nEgon Müller\nTel. 0711 1234567\n"
PLACEHOLDER_ID = "<corpus@example.org>"  # make_corpus gives each mail its own


@dataclass
class Case:
    """One mail and what the daemon must make of it (see expected.toml's header)."""

    name: str
    mail_class: str
    raw: bytes
    reaction: str
    why: str
    sender: str = EGON
    orders: list[str] = field(default_factory=list)
    automated: str = ""
    unreadable: str = ""
    sender_problem: str = ""
    text_from: str = "body"
    encrypted: str = ""


def head(
    subject: str = "[hn1] Befehle Runde 3",
    sender: str = EGON_FROM,
    extra: str = "",
    msgid: str = PLACEHOLDER_ID,
) -> str:
    """The header block most clients write; ``extra`` lines go last (before the MIME ones)."""
    lines = [
        f"From: {sender}" if sender is not None else "",
        "To: Spielleiter <gm@gm.test>",
        f"Subject: {subject}",
        "Date: Sun, 22 Nov 2026 12:00:00 +0100",
        f"Message-ID: {msgid}",
        "MIME-Version: 1.0",
    ]
    return "".join(f"{line}\n" for line in lines if line) + extra


def part(
    ctype: str, body: bytes | str, cte: str | None = None, extra: str = "", charset: str = "utf-8"
) -> bytes:
    """One MIME entity; ``body`` as text is encoded with ``charset`` and then with ``cte``."""
    raw = body.encode(charset) if isinstance(body, str) else body
    encoded = {"quoted-printable": qp, "base64": b64}.get(cte or "", lambda b: b)(raw)
    header = f"Content-Type: {ctype}\n"
    if cte:
        header += f"Content-Transfer-Encoding: {cte}\n"
    return (header + extra + "\n").encode() + encoded


def text(body: str, charset: str = "utf-8", cte: str | None = None, params: str = "") -> bytes:
    return part(f"text/plain; charset={charset}{params}", body, cte, charset=charset)


def html(body: str, charset: str = "utf-8", cte: str | None = None) -> bytes:
    return part(f"text/html; charset={charset}", body, cte, charset=charset)


def attachment(ctype: str, filename: str, data: bytes, cte: str = "base64") -> bytes:
    disposition = f'Content-Disposition: attachment; filename="{filename}"\n'
    return part(f'{ctype}; name="{filename}"', data, cte, disposition)


def multipart(subtype: str, *parts: bytes, boundary: str = "b1", params: str = "") -> bytes:
    header = f'Content-Type: multipart/{subtype}; boundary="{boundary}"{params}\n\n'
    lines = (p if p.endswith(b"\n") else p + b"\n" for p in parts)
    body = b"".join(b"--" + boundary.encode() + b"\n" + p for p in lines)
    preamble = b"This is a multi-part message in MIME format.\n"
    return header.encode() + preamble + body + b"--" + boundary.encode() + b"--\n"


def eml(header_block: str, entity: bytes) -> bytes:
    """A whole mail: the header block, then the entity's own header lines and body."""
    return header_block.encode("utf-8") + entity


def qp(data: bytes) -> bytes:
    return quopri.encodestring(data)


def b64(data: bytes) -> bytes:
    return base64.encodebytes(data)


def opaque(size: int, seed: int = 7) -> bytes:
    """Deterministic bytes standing in for a JPEG, a DER blob or a ciphertext."""
    return bytes((seed * 131 + i * 197 + (i >> 7)) % 256 for i in range(size))


def armoured(kind: str, size: int = 300) -> str:
    lines = base64.encodebytes(opaque(size)).decode().strip()
    return f"-----BEGIN PGP {kind}-----\n\n{lines}\n=AbCd\n-----END PGP {kind}-----\n"
