"""The line objects one High Noon order line is read into, by the grammar (``syntax``) or by
the quick reader (``quickread``). Nothing downstream sees a parse tree."""

from __future__ import annotations

from dataclasses import FrozenInstanceError


class Word:
    """A line kind: an immutable record of its ``__slots__`` (none for the four kinds that
    carry nothing but their kind). One base instead of a frozen dataclass each, whose six
    generated methods Python 3.11 compiles from source on every start (~2 M instructions a
    class); they compare, hash, print, match, copy and refuse changes as those dataclasses
    did (tests/highnoon/test_highnoon_lines.py holds them to it)."""

    __slots__ = ()

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__qualname__}({fields})"

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return (type(self), self._values())  # copy and pickle call the class again

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


_set = object.__setattr__  # how a line's own ``__init__`` fills its slots


class DuelsHeading(Word):
    """ "Duelle" / "SHOTS": duel lines follow."""

    __slots__ = ()


class ChallengesHeading(Word):
    """ "Herausforderungen", possibly with names on the same line."""

    __slots__ = __match_args__ = ("names",)
    names: tuple[str, ...]

    def __init__(self, names: tuple[str, ...] = ()) -> None:
        _set(self, "names", names)


class DuelLine(Word):
    """A shot list against one opponent; no positions means "keine" (no shots)."""

    __slots__ = __match_args__ = ("name", "positions")
    name: str
    positions: tuple[int, ...]

    def __init__(self, name: str, positions: tuple[int, ...] = ()) -> None:
        _set(self, "name", name)
        _set(self, "positions", positions)


class NameList(Word):
    """Bare names: challenge targets when under "Herausforderungen"."""

    __slots__ = __match_args__ = ("names",)
    names: tuple[str, ...]

    def __init__(self, names: tuple[str, ...]) -> None:
        _set(self, "names", names)


class PlayerLine(Word):
    """ "Spieler: E. Müller", cross-checked against the sender."""

    __slots__ = __match_args__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        _set(self, "name", name)


class Done(Word):
    """FERTIG / DONE: a daemon-level word, accepted and ignored here."""

    __slots__ = ()


class Nothing(Word):
    """ "keine" / "-" on a line of its own."""

    __slots__ = ()


class BudgetNote(Word):
    """ "Patronen verplant: 7/8" from our own acknowledgement, pasted back; ignored."""

    __slots__ = ()


OrderLine = (
    DuelsHeading
    | ChallengesHeading
    | DuelLine
    | NameList
    | PlayerLine
    | Done
    | Nothing
    | BudgetNote
)
