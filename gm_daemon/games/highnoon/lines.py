"""The line objects one High Noon order line is read into, by the grammar (``syntax``) or by
the quick reader (``quickread``). Nothing downstream sees a parse tree."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass


class Word:
    """A line kind that carries nothing but its kind (the four below). One base instead of a
    frozen dataclass each, whose six generated methods Python 3.11 compiles from source on
    every start (~2 M instructions a class); they compare, hash, print and refuse changes as
    those dataclasses did."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return True if other.__class__ is self.__class__ else NotImplemented

    def __hash__(self) -> int:
        return hash(())

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}()"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


class DuelsHeading(Word):
    """ "Duelle" / "SHOTS": duel lines follow."""

    __slots__ = ()


@dataclass(frozen=True)
class ChallengesHeading:
    """ "Herausforderungen", possibly with names on the same line."""

    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class DuelLine:
    """A shot list against one opponent; no positions means "keine" (no shots)."""

    name: str
    positions: tuple[int, ...] = ()


@dataclass(frozen=True)
class NameList:
    """Bare names: challenge targets when under "Herausforderungen"."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class PlayerLine:
    """ "Spieler: E. Müller", cross-checked against the sender."""

    name: str


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
