"""Text helpers every game's order reader needs: folding umlauts and matching player names."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from gm_daemon.games.protocol import Seat

_UMLAUTS = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "ae", "Ö": "oe", "Ü": "ue"}
)


def fold(text: str) -> str:
    """Lower-case, umlauts as ae/oe/ue/ss, other diacritics dropped: "Glück" == "Glueck"."""
    text = text.translate(_UMLAUTS).lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=4096)
def _words(name: str) -> tuple[str, ...]:
    """Cached: every order line is matched against every seat's name, and the names of a
    game's seats are the same for every mail (written names repeat, too)."""
    return tuple(w for w in re.split(r"[^0-9a-z]+", fold(name)) if w)


@lru_cache(maxsize=4096)
def _folded_id(seat_id: str) -> str:
    return fold(seat_id)


@lru_cache(maxsize=4096)
def _key(name: str) -> str:
    """Name without punctuation and without initials: "V.Pech" and "V. Pech" -> "pech"."""
    words = _words(name)
    long_words = [w for w in words if len(w) > 1]
    return " ".join(long_words or words)


def match_seat(written: str, seats: Sequence[Seat]) -> list[Seat]:
    """Seats the written name may mean: exact (folded, no punctuation), then without
    initials, then by a unique surname. Several results mean the name is ambiguous."""
    target = " ".join(_words(written))
    if not target:
        return []
    exact = [s for s in seats if " ".join(_words(s.name)) == target or _folded_id(s.id) == target]
    if exact:
        return exact
    key = _key(written)
    by_key = [s for s in seats if _key(s.name) == key]
    if by_key:
        return by_key
    surname = key.split(" ")[-1] if key else ""
    return [s for s in seats if surname and _key(s.name).split(" ")[-1] == surname]
