"""mail/message.py's patterns, rewritten to be compiled cheaper, find what they found before.

``_tidy`` takes out odd spaces and invisible marks with ``str.replace`` instead of two
regular expressions: held to them over every code point and on generated text.

``_ENDS_TEXT`` and ``_QUOTE_HEADER`` are compiled once, with ``MULTILINE`` for the search in a
whole text, and the line-by-line checks use the same objects: on a line (no "\\n" in it)
``^`` and ``$`` mean the same with and without ``MULTILINE``. Held here against the patterns
compiled without it, on generated lines built from the pieces the patterns look for and on
every line of the mail corpus.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gm_daemon.mail import message

TESTS = Path(__file__).parents[1]
MAILS = sorted(TESTS.glob("mail_corpus/*.eml")) + sorted(TESTS.glob("mail/fixtures/*.eml"))

# _tidy's spaces and marks as regular expressions, as they were
SPACES = re.compile("[\u00a0\u202f\u2007]")
INVISIBLE = re.compile("[\ufeff\u200b\u200c\u2060\u00ad\u200e\u200f]")


def _tidy_by_patterns(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = INVISIBLE.sub("", SPACES.sub(" ", text))
    return unicodedata.normalize("NFC", message._EMOJI.sub("", text))


@pytest.mark.parametrize("start", range(0, sys.maxunicode + 1, 0x10000))
def test_tidy_treats_every_code_point_as_the_patterns_did(start: int) -> None:
    """Each code point alone between two letters (so a combining mark has its base), a plane
    at a time."""
    points = range(start, start + 0x10000)
    text = "".join(f"a{chr(point)}b\n" for point in points)
    assert message._tidy(text) == _tidy_by_patterns(text)
    alone = [chr(point) for point in points]
    assert [message._tidy(c) for c in alone] == [_tidy_by_patterns(c) for c in alone]


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=st.sampled_from([*message._SPACES, *message._INVISIBLE]) | st.characters()))
@example("Pech\u00a03\u200b 2\u00ad1 \U0001f52b\r\n")
def test_tidy_treats_any_text_as_the_patterns_did(text: str) -> None:
    assert message._tidy(text) == _tidy_by_patterns(text)


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
