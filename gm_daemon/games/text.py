"""Folding text as every game compares it, and what every game's reader forgives in a line
the same way; names are matched by ``kit.names``."""

from __future__ import annotations

import unicodedata

_UMLAUTS = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "ae", "Ö": "oe", "Ü": "ue"}
)


def fold(text: str) -> str:
    """Lower-case, umlauts as ae/oe/ue/ss, other diacritics dropped: "Glück" == "Glueck"."""
    text = text.translate(_UMLAUTS).lower()
    if text.isascii():  # no ASCII character decomposes or combines: NFKD would change nothing
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def without_full_stop(text: str) -> str:
    """The line without the full stop or exclamation mark a hurried player ends it with
    ("Ost+, Nord+." "Bier 5 auf ws1!"): punctuation of his sentence, not part of the order,
    and no game's notation ends in one."""
    return text.rstrip().rstrip(".!").rstrip()
