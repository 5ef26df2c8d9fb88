"""The line objects one High Noon order line is read into, by the grammar (``syntax``) or by
the quick reader (``quickread``). Nothing downstream sees a parse tree."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DuelsHeading:
    """ "Duelle" / "SHOTS": duel lines follow."""


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


@dataclass(frozen=True)
class Done:
    """FERTIG / DONE: a daemon-level word, accepted and ignored here."""


@dataclass(frozen=True)
class Nothing:
    """ "keine" / "-" on a line of its own."""


@dataclass(frozen=True)
class BudgetNote:
    """ "Patronen verplant: 7/8" from our own acknowledgement, pasted back; ignored."""


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
