"""Greeting and closing lines a person writes around his orders ("Hallo", "Danke!",
"Viele Grüße, Anna", "Best regards").

Engines read every line as an order, so such a line would sink the whole mail and cost the
player a round trip. Intake asks this module only about lines an engine has already refused:
a line the game accepts is an order, whatever it looks like. The pattern list is small on
purpose; a line it does not know stays a problem the player is told about.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gm_daemon.games.protocol import Line
from gm_daemon.games.text import fold

# Folded (lower case, umlauts as ae/oe/ue, ß as ss) openings of a greeting or a closing.
_OPENINGS = (
    "hallo", "hello", "hi", "hey", "moin", "servus", "guten tag", "guten morgen",
    "guten abend", "liebe", "lieber", "dear", "danke", "vielen dank", "besten dank",
    "thanks", "thank you", "many thanks", "cheers", "gruss", "gruesse", "viele gruesse",
    "liebe gruesse", "beste gruesse", "herzliche gruesse", "freundliche gruesse",
    "mit freundlichen gruessen", "schoene gruesse", "lg", "vg", "mfg", "best", "regards",
    "best regards", "kind regards", "best wishes", "all the best", "yours", "ciao", "tschuess",
    "bis bald", "bye",
)  # fmt: skip
_GREETING = re.compile(
    r"^(?:" + "|".join(re.escape(o) for o in sorted(_OPENINGS, key=len, reverse=True)) + r")"
    r"(?![a-z])[\s,.!:;)(-]*(?P<rest>.*)$"
)
# What may follow the opening on the same line: a name or two ("Viele Grüße, Anna",
# "Hallo Spielleiter"), nothing with digits or order signs.
_NAME = re.compile(r"^[^\W\d_][\w.'’-]*(?:\s+[^\W\d_][\w.'’-]*){0,2}[\s,.!]*$")


def is_greeting(text: str) -> bool:
    """Whether a whole line reads as a greeting or closing, optionally with a name."""
    match = _GREETING.match(fold(text).strip())
    if match is None:
        return False
    rest = match["rest"].strip()
    return not rest or _NAME.match(rest) is not None


def _is_name(text: str) -> bool:
    return _NAME.match(fold(text).strip()) is not None


def greeting_lines(lines: Sequence[Line], refused: set[int]) -> list[Line]:
    """The refused lines that are greetings, with a lone name right under a closing line
    ("Viele Grüße," then "Anna") counted as part of it."""
    found: list[Line] = []
    for index, line in enumerate(lines):
        if line.no not in refused:
            continue
        signed = index > 0 and lines[index - 1] in found and _is_name(line.text)
        if signed or is_greeting(line.text):
            found.append(line)
    return found
