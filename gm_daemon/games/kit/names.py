"""Finding whom or what a player names, written as players write: one matcher for every game.

Players write "H. Glück", "Hans", "glueck", "Glück, Hans" or "V.Pech" for the same seat, and
"Middel" for "M. Middle". ``Names`` answers, for one written name:

- ``find``: the things it names. Case, umlauts (ae/oe/ue/ss), accents and punctuation never
  matter; the full name or any of its words (surname, first name) names a thing, and an
  initial stands for a word ("H. Glück" is "Hans Glück", "Egon Müller" is "E. Müller"). Two
  results mean the name is ambiguous: the caller refuses it with the candidates.
- ``guess``: for a name ``find`` does not know, the one thing it is a near miss of (a typo),
  or None when nothing is close or two things are equally close. A guess is never taken
  silently: the mail is refused with "Meinten Sie M. Middle?" (``did_you_mean``), and the
  suggestion sent back is found.

Highlander's provinces compare names with the same ``key`` and guess with the same
``nearest`` (``Board.closest``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Hashable, Iterable, Sequence
from functools import lru_cache
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from gm_daemon.games.kit.phrases import Phrases
from gm_daemon.games.text import fold

T = TypeVar("T", bound=Hashable)

# How close a typo must be to a name to be suggested: "Middel" for "Middle" is 0.83,
# "Mueler" for "Mueller" 0.92; "Bert" for "Bart" 0.75 is still a guess.
CUTOFF = 0.75
_SAY = Phrases.beside(__file__)


@lru_cache(maxsize=8192)
def words(text: str) -> tuple[str, ...]:
    """The name's words, folded, punctuation as separators: "V.Pech" → ("v", "pech").
    Cached: every order line is matched against every seat's name of the game."""
    return tuple(w for w in re.split(r"[^0-9a-z]+", fold(text)) if w)


def key(text: str) -> str:
    """The form names are compared in: "St. Petersburg" → "st petersburg"."""
    return " ".join(words(text))


def _word_fits(written: str, name: str) -> bool:
    """One written word against one word of a name: the same word, or an initial of it
    (either way round: "H" for "Hans", "Hans" for "H")."""
    if written == name:
        return True
    return (len(written) == 1 or len(name) == 1) and written[0] == name[0]


def fits(written: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """Every written word stands for its own word of the name, in any order, and at least
    one is a whole word (an initial alone names nobody): "Hans", "Glück", "H. Glück",
    "Glück, Hans" all fit "Hans Glück"; "W. Pech" does not fit "V. Pech"."""
    if not written or len(written) > len(name):
        return False
    if not any(len(w) > 1 and w in name for w in written):
        return False
    free = list(name)
    # Whole words first, so "Hans H." takes "hans" before the initial could claim it.
    for word in sorted(written, key=len, reverse=True):
        match = next((n for n in free if n == word), None) or next(
            (n for n in free if _word_fits(word, n)), None
        )
        if match is None:
            return False
        free.remove(match)
    return True


def nearest(written: str, spellings: Iterable[tuple[str, T]], cutoff: float = CUTOFF) -> list[T]:
    """The things whose spelling is closest to the written key (difflib's ratio, at least
    ``cutoff``), all of them when several are equally close; empty when none is close."""
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(written)
    best: list[T] = []
    top = cutoff
    for spelling, thing in spellings:
        matcher.set_seq1(spelling)
        if matcher.real_quick_ratio() < top or matcher.quick_ratio() < top:
            continue
        score = matcher.ratio()
        if score > top or (score == top and not best):
            top, best = score, [thing]
        elif score == top and thing not in best:
            best.append(thing)
    return best


class _Entry(NamedTuple, Generic[T]):
    thing: T
    label: str
    spellings: tuple[tuple[str, ...], ...]


class Names(Generic[T]):
    """The names of one game's things (seats, tractors), each with its spellings: the name
    shown (first spelling) and any other way to write it (a seat's id)."""

    def __init__(self, entries: Iterable[tuple[T, Sequence[str]]]):
        self._entries = [
            _Entry(thing, spellings[0], tuple(words(s) for s in spellings))
            for thing, spellings in entries
        ]
        # Answers by written words (and ``among``), kept for this instance's life: the
        # entries never change after construction, so an answer never goes stale.
        self._found: dict[tuple[str, ...], tuple[T, ...]] = {}
        self._guessed: dict[tuple[str, frozenset[T] | None], T | None] = {}

    def label(self, thing: T) -> str:
        return next(e.label for e in self._entries if e.thing == thing)

    def find(self, written: str, among: Collection[T] | None = None) -> list[T]:
        """The things ``written`` names: an exact spelling first, else every name it fits.
        Several things are ambiguous; when ``among`` (those the line may sensibly name: an
        opponent in a duel) holds exactly one of them, that one is meant."""
        target = words(written)
        if not target:
            return []
        known = self._found.get(target)
        if known is None:
            known = _remember(self._found, target, self._find(target))
        found = list(known)
        if len(found) > 1 and among is not None:
            narrowed = [thing for thing in found if thing in among]
            if len(narrowed) == 1:
                return narrowed
        return found

    def _find(self, target: tuple[str, ...]) -> tuple[T, ...]:
        found = tuple(e.thing for e in self._entries if target in e.spellings)
        if not found:
            found = tuple(
                e.thing for e in self._entries if any(fits(target, s) for s in e.spellings)
            )
        return found

    def guess(self, written: str, among: Collection[T] | None = None) -> T | None:
        """The one thing (of ``among``, if given) ``written`` is a near miss of, compared as
        a whole and word by word ("Middel" against "M. Middle" and against "Middle")."""
        target = key(written)
        if not target:
            return None
        asked = (target, None if among is None else frozenset(among))
        if asked in self._guessed:
            return self._guessed[asked]
        return _remember(self._guessed, asked, self._guess(target, among))

    def _guess(self, target: str, among: Collection[T] | None) -> T | None:
        spellings = [
            (form, entry.thing)
            for entry in self._entries
            if among is None or entry.thing in among
            for spelling in entry.spellings
            for form in (" ".join(spelling), *(w for w in spelling if len(w) > 1))
        ]
        close = nearest(target, spellings)
        return close[0] if len(close) == 1 else None


# Answers one ``Names`` keeps (each of find and guess) before it starts afresh: a game's
# mails name the same few players again and again, while a flood of made-up names must not
# grow the memory without end.
REMEMBERED = 512
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def _remember(memo: dict[K, V], asked: K, answer: V) -> V:
    if len(memo) >= REMEMBERED:
        memo.clear()
    memo[asked] = answer
    return answer


class Named(Protocol):
    """A seat, or anything with a seat's id and name (an engine's player record)."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


def of_seats(seats: Iterable[Named]) -> Names[str]:
    """The players of a game by seat id, each found by its name and by its id. The same
    roster (ids and names, in order) gives the same unchanging ``Names``, so every mail of a
    game asks one instance and its remembered answers; a renamed, added or removed seat is
    another roster and gets its own."""
    return _of_roster(tuple((seat.id, seat.name) for seat in seats))


@lru_cache(maxsize=256)
def _of_roster(roster: tuple[tuple[str, str], ...]) -> Names[str]:
    return Names((seat, (name, seat)) for seat, name in roster)


S = TypeVar("S", bound=Any)


def renamed(state: S, roster: str, seat: str, name: str, key: str = "id") -> S:
    """``state`` with the record of ``seat`` in its list ``roster`` (records with a ``name``,
    found by their ``key``) called ``name``: the ``rename`` hook of a game whose players are
    such a list. The state itself when he has that name already, so that a reload that
    renames nobody stores nothing."""
    records = getattr(state, roster)
    if all(getattr(r, key) != seat or r.name == name for r in records):
        return state
    changed = [
        r.model_copy(update={"name": name}) if getattr(r, key) == seat else r for r in records
    ]
    return state.model_copy(update={roster: changed})


def did_you_mean(lang: str, name: str) -> str:
    """ "Meinten Sie M. Middle?" / "Did you mean M. Middle?"."""
    return _SAY(lang, "did_you_mean", name=name)


def put_in(source: str, written: str, name: str) -> str:
    """The line as the player wrote it with the suggested name in place of the written
    one: the form to send back ("Herausforderungen: M. Middle")."""
    at = source.find(written)
    if at < 0:
        return name
    return source[:at] + name + source[at + len(written) :]
