"""The numbered phase header most games use: ``Runde: 3``, ``Round 3``, ``Zug: 17``.

A game whose phases are numbered by its ``phase_number`` reads its header with
``numbered_header``; Highlander, whose header names a year and a season, has its own.
Players write their orders on the header's line too ("Runde 1: N+, O+"): ``orders_after``
finds them, for the protocol's optional ``orders_after_header``.
"""

from __future__ import annotations

import functools
import re

from gm_daemon.games.protocol import Header
from gm_daemon.games.text import fold
from gm_daemon.patterns import on_first_use


def numbered_header(text: str, words: tuple[str, ...], current: int) -> Header | None:
    """``<word>[:=] <number> …`` for one of ``words`` (case-insensitive); the number must
    follow, so "Zug: Nord+" stays an order line."""
    match = _header_pattern(words).match(text)
    if match is None:
        return None
    return Header.CURRENT if int(match[1]) == current else Header.OTHER


def orders_after(text: str, words: tuple[str, ...]) -> str | None:
    """What follows a numbered header on its line ("Runde 1: N+, O+" → "N+, O+"), or None
    when the header stands alone: nothing after it but punctuation, a count of rounds
    ("Runde 3/12", "Round 3 of 12"), a parenthetical ("Runde 3 (Anna):"), which players
    copy from the subject's label, or a heading ("Runde 3 – meine Befehle vom 12.12."):
    mails that held such a header were read before orders on its line were."""
    match = _header_pattern(words).match(text)
    if match is None:
        return None
    rest = _HEADER_DECORATION.sub("", match[2]).strip()
    if not _ANY_WORD.search(rest) or _only_a_title(rest):
        return None
    return rest


def _only_a_title(rest: str) -> bool:
    """ "Runde 3 – meine Befehle", "Round 3 orders of 12.12.": a heading the player gave his
    mail, which was a header alone before the orders on its line were read."""
    words = _WORD_OR_DATE.findall(rest)
    return all(_DATE.fullmatch(w) or fold(w) in _TITLE_WORDS for w in words)


# after the round's number: separators, "/12", "von 12", "(Anna)", in any order
_HEADER_DECORATION = on_first_use(
    r"^(?:[\s:=.,;!\-–—]+|(?:/|\bvon\b|\bof\b)\s*\d+\b|\([^()]*\))*", re.IGNORECASE
)
_ANY_WORD = on_first_use(r"\w")
_DATE = re.compile(r"\d{1,2}\.\d{1,2}\.(?:\d{2,4})?")
_WORD_OR_DATE = on_first_use(_DATE.pattern + r"|\w+")
# German and English, folded: "meine Befehle", "Züge", "my orders for", "vom", "am"
_TITLE_WORDS = frozenset(
    {"befehl", "befehle", "meine", "mein", "zuege", "orders", "order", "moves", "my"}
    | {"for", "fuer", "vom", "von", "of", "am", "on"}
)


@functools.lru_cache(maxsize=64)
def _header_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """Compiled once per game's words: every line of every order mail is asked."""
    pattern = r"^\s*(?:" + "|".join(map(re.escape, words)) + r")\b\s*[:=]?\s*(\d+)\b(.*)$"
    return re.compile(pattern, re.IGNORECASE)
