"""The numbered phase header most games use: ``Runde: 3``, ``Round 3``, ``Zug: 17``.

A game whose phases are numbered by its ``phase_number`` reads its header with
``numbered_header``; Highlander, whose header names a year and a season, has its own.
"""

from __future__ import annotations

import functools
import re

from gm_daemon.games.protocol import Header


def numbered_header(text: str, words: tuple[str, ...], current: int) -> Header | None:
    """``<word>[:=] <number> …`` for one of ``words`` (case-insensitive); the number must
    follow, so "Zug: Nord+" stays an order line."""
    match = _header_pattern(words).match(text)
    if match is None:
        return None
    return Header.CURRENT if int(match[1]) == current else Header.OTHER


@functools.lru_cache(maxsize=64)
def _header_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """Compiled once per game's words: every line of every order mail is asked."""
    pattern = r"^\s*(?:" + "|".join(map(re.escape, words)) + r")\b\s*[:=]?\s*(\d+)\b.*$"
    return re.compile(pattern, re.IGNORECASE)
