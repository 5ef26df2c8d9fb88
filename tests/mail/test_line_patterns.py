"""The patterns that end an order text match a line as the patterns they replaced did.

``_ENDS_TEXT`` and ``_QUOTE_HEADER`` are compiled once, with ``MULTILINE`` for the search in a
whole text, and the line-by-line checks use the same objects: on a line (no "\\n" in it)
``^`` and ``$`` mean the same with and without ``MULTILINE``. Held here against the patterns
compiled without it, on generated lines built from the pieces the patterns look for and on
every line of the mail corpus.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from gm_daemon.mail import message

TESTS = Path(__file__).parents[1]
MAILS = sorted(TESTS.glob("mail_corpus/*.eml")) + sorted(TESTS.glob("mail/fixtures/*.eml"))

# The patterns as they were compiled for a single line, before sharing the MULTILINE ones
ENDS_TEXT = re.compile(message._ENDS_TEXT.pattern, re.IGNORECASE)
QUOTE_HEADER = re.compile(message._QUOTE_HEADER.pattern, re.IGNORECASE)

PIECES = [
    " ", "\t", "\r", "*", ":", ".", "-", "---", "-----", "_" * 19, "_" * 20, "Von", "from",
    "Gesendet", "sent", "Datum", "date", "Original Message", "Ursprüngliche Nachricht",
    "forwarded message", "von meinem", "iPhone", "gesendet mit", "android", "Sent from my",
    "Get Outlook for", "Hans", "3", "ENDE", "\u00a0", "ü", "\v", "\f", "\x1c", "\u2028",
]  # fmt: skip
LINES = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=12).map("".join)


def _lines() -> list[str]:
    """Every line of every corpus mail, as ``order_lines`` splits a text."""
    return [
        line.rstrip("\r")
        for path in MAILS
        for line in path.read_bytes().decode("utf-8", "replace").split("\n")
    ]


@settings(max_examples=2000, deadline=None)
@given(LINES)
@example("-----Original Message-----")
@example("  ____________________  ")
@example("Von meinem iPhone gesendet.")
@example("*Von:* Spielleiter <gm@gm.test>")
@example("Sent from my iPhone\r")
def test_a_line_is_matched_as_without_multiline(text: str) -> None:
    for line in text.split("\n"):  # order_lines hands over lines split at "\n" only
        assert bool(message._ENDS_TEXT.match(line)) == bool(ENDS_TEXT.match(line))
        assert bool(message._QUOTE_HEADER.match(line)) == bool(QUOTE_HEADER.match(line))


def test_every_corpus_line_is_matched_as_without_multiline() -> None:
    lines = _lines()
    assert len(lines) > 1000
    ends = [line for line in lines if message._ENDS_TEXT.match(line)]
    headers = [line for line in lines if message._QUOTE_HEADER.match(line)]
    assert ends == [line for line in lines if ENDS_TEXT.match(line)]
    assert headers == [line for line in lines if QUOTE_HEADER.match(line)]
    assert ends and headers  # the corpus has both kinds of line
