"""The fast writer of text-only mails gives the same mail as the email package's one."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from typing import Any

import pytest

from gm_daemon.games.protocol import Attachment
from gm_daemon.mail.compose import compose, compose_bytes

BASE: dict[str, Any] = {
    "sender": "gm@gm.test",
    "sender_name": "Spielleiter",
    "to": "anna@players.test",
    "subject": "[hn1] Befehle angenommen",
    "body": "Hallo Anna,\n\nangenommen.\n",
    "message_id": "<hn1.accepted.anna.1.0123456789ab@gm.test>",
    "date": datetime(2026, 12, 1, 11, 0, tzinfo=UTC),
}
CASES = {
    "plain": {},
    "umlauts everywhere": {
        "sender_name": "Spielleiter Müller",
        "subject": "[hn1] Grüße – Runde 3",
        "body": "Zwölf Bären = 12\n\u00e9t\u00e9 \u2013 \U0001f3b2\n",
    },
    "long subject and long lines": {
        "subject": "[hn1] " + "sehr lang " * 20,
        "body": ("x" * 200 + "\n") * 3 + ".\nFrom here\n  trailing spaces   \n\ttab\n",
    },
    "a reply in a game thread": {
        "game_id": "hn1",
        "in_reply_to": "<" + "y" * 70 + "@players.test>",
        "references": ["<a@x>", "<b@x>"],
    },
    "windows line ends and no final one": {"body": "a\r\nb\r\n\r\nc"},
}


def _parsed(data: bytes) -> EmailMessage:
    return message_from_bytes(data, policy=default)  # type: ignore[return-value]


@pytest.mark.parametrize("case", CASES)
def test_same_headers_and_text_as_the_email_package(case: str) -> None:
    kwargs = {**BASE, **CASES[case]}
    ours, theirs = _parsed(compose_bytes(**kwargs)), _parsed(bytes(compose(**kwargs)))
    assert sorted(ours.keys()) == sorted(theirs.keys())
    for name in theirs:
        assert str(ours[name]).strip() == str(theirs[name]).strip(), name
    assert ours.get_content() == theirs.get_content()
    assert ours.get_content_type() == "text/plain" and ours.get_content_charset() == "utf-8"


@pytest.mark.parametrize("case", CASES)
def test_seven_bit_crlf_lines_within_the_limit(case: str) -> None:
    data = compose_bytes(**{**BASE, **CASES[case]})
    data.decode("ascii")
    lines = data.split(b"\r\n")
    assert b"\n" not in b"".join(lines) and all(len(line) <= 998 for line in lines)
    body = data.split(b"\r\n\r\n", 1)[1]
    assert all(len(line) <= 76 for line in body.split(b"\r\n"))


def test_a_line_break_in_a_header_is_refused_as_before() -> None:
    for field in ("subject", "to"):
        with pytest.raises(ValueError):
            compose_bytes(**{**BASE, field: "a\nBcc: all@example.org"})
        with pytest.raises(ValueError):
            compose(**{**BASE, field: "a\nBcc: all@example.org"})


def test_mails_with_attachments_are_the_email_package_s() -> None:
    files = [Attachment("a.json", "application/json", b"{}\n")]
    kwargs = {**BASE, "game_id": "hn1", "attachments": files}
    assert compose_bytes(**kwargs) == bytes(compose(**kwargs))
