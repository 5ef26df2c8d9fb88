"""Folding text as every game compares it, and what every game's reader forgives in a line
the same way; names are matched by ``kit.names``."""

from __future__ import annotations

import re
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


# The words of an introduction to the orders ("Hier meine Befehle:", "Korrektur:", "My new
# orders:"), at least one of them naming the orders. A small list on purpose: a line of
# other words stays a problem the player is told about.
_INTRO_HEADS = frozenset((
    "befehle", "befehl", "zuege", "zug", "spielzug", "korrektur", "korrekturen", "aenderung",
    "nachtrag", "orders", "order", "moves", "move", "correction", "corrections", "change",
    "changes", "update",
))  # fmt: skip
_INTRO_WORDS = _INTRO_HEADS | frozenset((
    "hier", "sind", "ist", "meine", "mein", "meiner", "die", "der", "das", "neue", "neuen",
    "korrigierte", "korrigierten", "geaenderte", "aktuelle", "bitte", "folgende", "zu", "here",
    "are", "is", "my", "the", "new", "corrected", "changed", "updated", "please", "following",
    "of",
))  # fmt: skip
_INTRO = re.compile(r"^[a-z ]+[:.!]?$")


def introduces_orders(text: str) -> bool:
    """Whether ``text`` (a line, or a label before its colon) only introduces the orders:
    words of the list above, one of them naming the orders, nothing else."""
    folded = fold(text).strip()
    if not _INTRO.match(folded):
        return False
    words = folded.rstrip(":.!").split()
    return bool(words) and set(words) <= _INTRO_WORDS and not _INTRO_HEADS.isdisjoint(words)
