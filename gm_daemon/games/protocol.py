"""The one contract between the daemon and every game engine.

An engine is pure: it never touches mail, the database or the clock. The daemon stores the
engine's pydantic ``State`` and ``Orders`` as JSON, hands them back in, and turns the
``Report`` an engine renders into mails. Randomness comes only from the ``random.Random`` the
daemon passes in, which is derived from the game seed and the phase number (see ``rng.py``),
so every resolution can be replayed.

The same protocol carries all five shapes of play:

* simultaneous rounds (High Noon, Primtraktor, Hexenhalma): ``owed`` is every active player,
  the phase resolves at the deadline or early when all owed orders are in;
* sequential turns with private hands (Hornberg): ``owed`` is the one player on turn,
  ``resolves_on_receipt`` makes every accepted play resolve at once, ``participants`` lets the
  others send plans, which ``Resolution.carried`` keeps on file for later phases, and
  ``Report.private`` carries each hand to its owner only;
* multi-phase years (Highlander): ``phase_type`` names the phase so the config can give each
  type its own deadline length.

Player identity inside an engine is the ``Seat.id`` (a stable slug from the config), never an
email address. Display names are ``Seat.name``.

Order reading is one call (``read_orders``) rather than separate parse and validate steps:
each line is parsed and checked on its own, so a submission reports *every* problem at once,
syntax and legality together, and is accepted only when there are none.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pydantic import BaseModel

Lang = str  # "de" or "en"


@dataclass(frozen=True)
class Seat:
    """A player as an engine sees him: a stable id and the name shown in reports."""

    id: str
    name: str


@dataclass(frozen=True)
class Line:
    """One line of the player's order text, numbered as in the mail he sent (1-based)."""

    no: int
    text: str


class ProblemKind(StrEnum):
    """The three ways an order can be wrong; replies group problems by kind."""

    SYNTAX = "syntax"  # not understood
    ILLEGAL = "illegal"  # understood, but not allowed here
    AMBIGUOUS = "ambiguous"  # could mean more than one thing


@dataclass(frozen=True)
class Problem:
    """One problem (error or warning) with a submission, already in the player's language."""

    line: int | None  # the line number in the mail; None for the submission as a whole
    source: str  # the line as the player wrote it ("" when line is None)
    kind: ProblemKind
    message: str  # what is wrong
    hint: str = ""  # what would be right


class OrdersRejected(Exception):
    """Raised by ``read_orders`` with every problem found; nothing of the submission counts."""

    def __init__(self, problems: Sequence[Problem]):
        super().__init__("; ".join(p.message for p in problems))
        self.problems = list(problems)


Ord = TypeVar("Ord", bound=BaseModel)
S = TypeVar("S", bound=BaseModel)
Opt = TypeVar("Opt", bound=BaseModel)


@dataclass
class Accepted(Generic[Ord]):
    """A valid submission: the orders to store, and warnings about what was auto-corrected."""

    orders: Ord
    warnings: list[Problem] = field(default_factory=list)


@dataclass(frozen=True)
class Attachment:
    filename: str
    content_type: str  # e.g. "image/png"
    data: bytes


@dataclass
class Report:
    """Rendered text of a resolution (or of a state), ready to be put into mails.

    ``public`` goes to every participant. ``private[seat]`` is appended for that seat only
    (hands, plans, personal notes); no other seat ever sees it.
    """

    public: str
    private: dict[str, str] = field(default_factory=dict)
    attachments: list[Attachment] = field(default_factory=list)
    private_attachments: dict[str, list[Attachment]] = field(default_factory=dict)


@dataclass
class Resolution(Generic[S, Ord]):
    """What ``resolve`` returns. ``events`` is structured data for the game log and tests."""

    state: S
    events: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False
    # Final ranking when finished: a list of ranks, each a list of seat ids sharing that rank.
    ranking: list[list[str]] | None = None
    # Orders that stay on file for the next phase (a Hornberg plan of a player not yet on turn).
    carried: dict[str, Ord] = field(default_factory=dict)


class Game(Protocol[Opt, S, Ord]):
    """One game kind. Implementations are stateless objects registered in ``games.registry``."""

    kind: ClassVar[str]  # the config's ``kind``, e.g. "highnoon"
    title: ClassVar[Mapping[Lang, str]]  # display name per language
    Options: type[Opt]  # pydantic model of [games.options]
    State: type[S]
    Orders: type[Ord]
    resolves_on_receipt: ClassVar[bool]  # True: every accepted submission resolves at once

    # --- lifecycle -------------------------------------------------------------------
    def start(self, options: Opt, seats: Sequence[Seat], rng: random.Random) -> S:
        """The initial state; raises ValueError with a GM-readable reason (e.g. too few)."""
        ...

    def resolve(
        self, state: S, orders: Mapping[str, Ord], rng: random.Random
    ) -> Resolution[S, Ord]:
        """Resolve the current phase. ``orders`` holds an entry for every owed seat (the
        daemon fills gaps with ``default_orders``) plus any carried or plan orders."""
        ...

    # --- phase facts -----------------------------------------------------------------
    def phase_number(self, state: S) -> int:
        """Strictly increasing with every resolution; 1 for the first phase. Orders carrying
        a ``Runde:``/``Round:``/``Zug:``/``Turn:`` header must name this number."""
        ...

    def phase_type(self, state: S) -> str:
        """Key for per-phase-type deadline lengths ("round", "turn", "movement", …)."""
        ...

    def phase_label(self, state: S, lang: Lang) -> str:
        """E.g. "Runde 3", "Frühjahr 1901 Bewegung", "Zug 17 (Anna)"."""
        ...

    def owed(self, state: S) -> set[str]:
        """Seats that must send orders for the current phase (NMR applies to these)."""
        ...

    def participants(self, state: S) -> set[str]:
        """Seats that may send orders now (a superset of ``owed``); others are told they are
        out of the game or not on turn."""
        ...

    # --- orders ----------------------------------------------------------------------
    def read_orders(self, lines: Sequence[Line], state: S, seat: str, lang: Lang) -> Accepted[Ord]:
        """Parse and check a submission against the state; raise OrdersRejected listing
        every problem. ``lines`` are already stripped of quotes, signature, comments and the
        daemon's own header lines (Code/Spiel/Runde)."""
        ...

    def default_orders(self, state: S, seat: str) -> Ord:
        """The NMR orders for a seat that owes orders and sent none."""
        ...

    def describe_orders(self, state: S, seat: str, orders: Ord, lang: Lang) -> str:
        """The normalised orders, as listed in acknowledgements and the NMR section."""
        ...

    # --- texts -----------------------------------------------------------------------
    def welcome(self, state: S, seat: str, lang: Lang) -> Report:
        """Rules summary, order format with an example, and the opening position (e.g. the
        first round's pairings); private parts such as a hand go in ``Report.private``."""
        ...

    def help(self, lang: Lang) -> str:
        """The order format with examples (sent for HELP/HILFE)."""
        ...

    def status(self, state: S, seat: str, lang: Lang) -> str:
        """The current state as this seat may see it (own hand included, others' hidden)."""
        ...

    def report(self, before: S, resolution: Resolution[S, Ord], lang: Lang) -> Report:
        """The result of one resolution: the Zwischenstand and whatever the game publishes;
        the final ranking when ``resolution.finished``."""
        ...

    def public_state(self, state: S) -> dict[str, Any]:
        """The machine-readable public state attached to every result (no private hands)."""
        ...
