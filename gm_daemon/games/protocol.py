"""The one contract between the daemon and every game engine (protocol v2).

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
* multi-phase years on one or two boards (Highlander): ``phase_type`` names the phase so the
  config can give each type its own deadline length; ``phase_types`` lists them all.

The contract, including what the daemon relies on without checking each time (the
conformance suite in ``tests/conformance/`` checks every registered kind against it):

1. ``phase_number`` is 1 for the first phase and strictly increases with every resolution.
2. In a running phase (not finished) ``owed`` is never empty and ``owed <= participants``.
3. ``State`` and ``Orders`` survive ``model_dump(mode="json")`` → ``model_validate`` unchanged;
   the daemon stores nothing else.
4. ``resolve`` is a function of its arguments: the same state, orders, defaulted seats and an
   rng seeded alike give the same ``Resolution``.
5. Privacy: ``Report.private[seat]`` and ``private_attachments[seat]`` reach that seat only;
   ``public``, ``attachments`` and ``public_state`` hold nothing private (hands, secret lists).
6. ``example(state, seat, lang)`` is an order text that ``read_orders`` accepts for that seat
   in that state; ``help`` and ``welcome`` quote it, so what a player copies works. The same
   holds for every suggestion of a reply: a ``Problem.fix`` put into its line is accepted
   for that seat in that state (with the mail's other lines as they were, when right).
7. ``default_orders`` gives orders that ``resolve`` accepts for every owed seat.
8. No call changes a state (or orders) it is given: ``resolve`` works on a copy. The daemon
   keeps one validated state per game while its stored text is unchanged and hands the same
   object to every mail read against it.

Player identity inside an engine is the ``Seat.id`` (a stable slug from the config), never an
email address. Display names are ``Seat.name``.

Order reading is one call (``read_orders``) rather than separate parse and validate steps:
each line is parsed and checked on its own, so a submission reports *every* problem at once,
syntax and legality together, and is accepted only when there are none.

Optional hooks are found by name (``getattr``), as aiosmtpd finds ``handle_DATA``: a kind
implements only what it needs. ``take_options`` and ``waiting_for`` let the GM feed a running
game (Hexenhalma's boards); ``leave`` and ``final_ranking`` say what a player leaving and a
game ended now mean (``Season``); ``commands`` adds mail commands with arguments (``BILD Anna``,
``KARTE``); ``mail_state`` splits a public state too big for every mail (``SplitsMailState``);
``orders_after_header`` keeps orders on the header's line (``ReadsHeaderLines``).
``hooks.py`` holds the daemon's side of them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar

from pydantic import BaseModel

Lang = str  # "de" or "en"


class Seat(NamedTuple):
    """A player as an engine sees him: a stable id and the name shown in reports."""

    id: str
    name: str


class Line(NamedTuple):
    """One line of the player's order text, numbered as in the mail he sent (1-based)."""

    no: int
    text: str


class ProblemKind(StrEnum):
    """The three ways an order can be wrong; replies group problems by kind."""

    SYNTAX = "syntax"  # not understood
    ILLEGAL = "illegal"  # understood, but not allowed here
    AMBIGUOUS = "ambiguous"  # could mean more than one thing


class Fix(NamedTuple):
    """A suggestion as data: ``right`` in place of ``wrong`` in the problem's line (the whole
    line when ``wrong`` is ""), and the mail is read as the player meant it. The reply shows
    it, and the conformance suite sends it back for the same seat in the same state: every
    suggestion the daemon makes is accepted (protocol point 6, extended to every reply)."""

    right: str
    wrong: str = ""
    guess: bool = False  # a near miss ("Meinten Sie MAR?"), not a form to copy

    def applied(self, source: str) -> str:
        """The line with the suggestion put in: in place of ``wrong`` standing as a word of
        its own ("BE" in "BEL, BE" is the second entry), else of its first occurrence."""
        if not self.wrong:
            return self.right
        alone = re.compile(rf"(?<!\w){re.escape(self.wrong)}(?!\w)")
        if alone.search(source):
            return alone.sub(lambda _: self.right, source, count=1)
        return source.replace(self.wrong, self.right, 1)


class Problem(NamedTuple):
    """One problem (error or warning) with a submission, already in the player's language."""

    line: int | None  # the line number in the mail; None for the submission as a whole
    source: str  # the line as the player wrote it ("" when line is None)
    kind: ProblemKind
    message: str  # what is wrong
    hint: str = ""  # what would be right (the text of ``fix`` where there is one)
    fix: Fix | None = None  # the suggestion as data, where the reader can make one


class OrdersRejected(Exception):
    """Raised by ``read_orders`` with every problem found; nothing of the submission counts.
    ``warnings`` are notes that hold whether or not the mail is accepted (High Noon: a
    challenge to an unknown player is dropped): the refusal says them too, so the mail sent
    again is right at once. Notes about what acceptance would do stay out of it."""

    def __init__(self, problems: Sequence[Problem], warnings: Sequence[Problem] = ()):
        super().__init__("; ".join(p.message for p in problems))
        self.problems = list(problems)
        self.warnings = list(warnings)


Ord = TypeVar("Ord", bound=BaseModel)
S = TypeVar("S", bound=BaseModel)
Opt = TypeVar("Opt", bound=BaseModel)


class Shape(NamedTuple):
    """``Annotated`` metadata naming a config value's type for ``gm-daemon
    config-reference`` where the Python type says too little: to pydantic a duration is a
    ``str``, but the GM must learn to write ``"24h"``. Pydantic ignores it."""

    name: str


# The default factories of the models' empty containers, in place of ``list`` and ``dict``:
# pydantic reads a factory's signature (does it take the validated data?), and a builtin's
# is parsed from its text signature by the tokenizer, ~4 ms for the first model on every
# start and ~0.1 ms for each field after it; a Python function's signature is read at once.
def empty_list() -> list[Any]:
    return []


def empty_dict() -> dict[Any, Any]:
    return {}


@dataclass
class Accepted(Generic[Ord]):
    """A valid submission: the orders to store, and warnings about what was auto-corrected."""

    orders: Ord
    warnings: list[Problem] = field(default_factory=list)


class Attachment(NamedTuple):
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
    # A mapping, not necessarily a dict: ``kit.ondemand.OnDemand`` renders a seat's part
    # when a mail to him asks for it.
    private: Mapping[str, str] = field(default_factory=dict)
    attachments: list[Attachment] = field(default_factory=list)
    private_attachments: dict[str, list[Attachment]] = field(default_factory=dict)
    # What a mail carrying this report alone is about, for its subject (a command's answer:
    # "Bild von Runde 3: Anna gegen Bert"); the daemon puts the game's id and title before it.
    subject: str = ""


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


class Header(StrEnum):
    """What a phase header line (``Runde: 3``, ``Phase: 1902 Bewegung``) says about the mail."""

    CURRENT = "current"  # names the phase now running: the line is dropped, the mail read on
    OTHER = "other"  # names another phase: the mail is stale and answered as such


class CommandError(Exception):
    """A game command's arguments do not work (``BILD Zorro`` with no player Zorro); the
    message, in the player's language, goes back to him with the command's help line."""


class GameCommand(NamedTuple, Generic[S]):
    """A mail command of one game kind, e.g. ``BILD Anna`` / ``PICTURE Anna``.

    ``names`` holds the words per language (matched case- and umlaut-insensitively, the
    first one is shown in help); ``usage`` the argument part of the help line ("<Name>");
    ``help`` one line on what it does. ``run`` must not change anything: it renders a
    ``Report`` (text and attachments) for ``seat`` from ``state`` and ``args`` (the rest of
    the command line, stripped), or raises ``CommandError``.
    """

    names: Mapping[Lang, tuple[str, ...]]
    usage: Mapping[Lang, str]
    help: Mapping[Lang, str]
    run: Callable[[S, str, str, Lang], Report]


class Game(Protocol[Opt, S, Ord]):
    """One game kind. Implementations are stateless objects registered in ``games.registry``."""

    kind: ClassVar[str]  # the config's ``kind``, e.g. "highnoon"
    title: ClassVar[Mapping[Lang, str]]  # display name per language
    Options: type[Opt]  # pydantic model of [games.options]
    State: type[S]
    Orders: type[Ord]
    resolves_on_receipt: ClassVar[bool]  # True: every accepted submission resolves at once
    # Every value ``phase_type`` can return; ``gm-daemon check`` validates the keys of
    # ``[games.deadlines]`` against it, and a per-type schedule must give each of them.
    phase_types: ClassVar[tuple[str, ...]]

    # --- lifecycle -------------------------------------------------------------------
    def start(self, options: Opt, seats: Sequence[Seat], rng: random.Random) -> S:
        """The initial state; raises ValueError with a GM-readable reason (e.g. too few)."""
        ...

    def resolve(
        self,
        state: S,
        orders: Mapping[str, Ord],
        rng: random.Random,
        defaulted: frozenset[str],
    ) -> Resolution[S, Ord]:
        """Resolve the current phase. ``orders`` holds an entry for every owed seat (the
        daemon fills gaps with ``default_orders``) plus any carried or plan orders;
        ``defaulted`` names the owed seats whose entry is such a default (NMR), so an engine
        needs no marker field in its orders. An engine that gives a late player another
        chance (Highlander's set-up grace) does so by resolving into a new phase."""
        ...

    # --- phase facts -----------------------------------------------------------------
    def phase_number(self, state: S) -> int:
        """1 for the first phase; strictly increasing with every resolution."""
        ...

    def phase_type(self, state: S) -> str:
        """Key for per-phase-type deadline lengths; one of ``phase_types``."""
        ...

    def phase_label(self, state: S, lang: Lang) -> str:
        """E.g. "Runde 3", "1901 Bewegung", "Zug 17 (Anna)"."""
        ...

    def read_header(self, text: str, state: S) -> Header | None:
        """Whether one line of a mail is this game's phase header (``Runde: 3``, ``Zug 17``,
        ``Phase: 1902 Bewegung``) and whether it names the current phase; None when the
        line is not a header (it is then read as an order line). The core never interprets
        phase headers itself."""
        ...

    def owed(self, state: S) -> set[str]:
        """Seats that must send orders for the current phase (NMR applies to these); never
        empty while the game runs."""
        ...

    def participants(self, state: S) -> set[str]:
        """Seats that may send orders now (a superset of ``owed``); others are told they are
        out of the game or not on turn."""
        ...

    # --- orders ----------------------------------------------------------------------
    def read_orders(
        self,
        lines: Sequence[Line],
        state: S,
        seat: str,
        lang: Lang,
        on_file: Ord | None = None,
    ) -> Accepted[Ord]:
        """Parse and check a submission against the state; raise OrdersRejected listing
        every problem. ``lines`` are already stripped of quotes, signature, comments and the
        header lines (code, game, phase header). ``on_file`` is the seat's accepted orders of
        this phase, for an engine whose mail may add to them (a REMIS line alone keeps the
        moves on file); the returned orders replace them whole."""
        ...

    def default_orders(self, state: S, seat: str) -> Ord:
        """The NMR orders for a seat that owes orders and sent none."""
        ...

    def describe_orders(self, state: S, seat: str, orders: Ord, lang: Lang) -> str:
        """The normalised orders, as listed in acknowledgements and the NMR section."""
        ...

    def example(self, state: S, seat: str, lang: Lang) -> str:
        """An order text ``read_orders`` accepts for ``seat`` now (his own opponents, within
        his own budget); "" for a seat that may not send orders. Help and welcome quote it."""
        ...

    # --- texts -----------------------------------------------------------------------
    # ``welcome``, ``help`` and ``status`` render for the one seat they are sent to, so their
    # public part may name that seat's opponents and example; ``report`` goes to everyone.
    def welcome(self, state: S, seat: str, lang: Lang) -> Report:
        """Rules summary, order format with ``example``, and the opening position (e.g. the
        first round's pairings); private parts such as a hand go in ``Report.private``."""
        ...

    def help(self, state: S, seat: str, lang: Lang) -> str:
        """The order format for this game's options and current phase, with ``example``
        (sent for HELP/HILFE)."""
        ...

    def status(self, state: S, seat: str, lang: Lang) -> Report:
        """The current state as this seat may see it (own hand included, others' hidden),
        with whatever pictures help (sent for STATUS/STAND)."""
        ...

    def report(self, before: S, resolution: Resolution[S, Ord], lang: Lang) -> Report:
        """The result of one resolution: the Zwischenstand and whatever the game publishes;
        the final ranking when ``resolution.finished``. Must work from stored data alone
        (``gm-daemon show`` re-renders past phases with it)."""
        ...

    def public_state(self, state: S) -> dict[str, Any]:
        """The machine-readable public state attached to every result (no private hands)."""
        ...


class FeedsOptions(Protocol[Opt, S]):
    """Optional hooks for a game the GM feeds while it runs (Hexenhalma's boards)."""

    def take_options(self, state: S, options: Opt) -> S:
        """Called on start-up and on every reload with the config's options: the state that
        holds them (``state`` itself when nothing changed). Raise ValueError naming what the
        GM must fix; the game then keeps its old state."""
        ...

    def waiting_for(self, state: S, lang: Lang) -> str | None:
        """What the GM must still supply before the current phase can run ("the board for
        round 4"), or None. While waiting, the phase has no deadline and no reminder, orders
        are answered with this text, and the GM is told once by mail."""
        ...


class NamesPhases(Protocol[S]):
    """Optional: the phase as a noun phrase for running text. A label is a heading
    ("Zentrenwahl", "1903 Bewegung"); a sentence needs its article ("Ihre Befehle für die
    Zentrenwahl", "for the 1903 movement phase"). Without the hook the label is used, which
    suits labels that need no article ("Runde 3", "Zug 5")."""

    def phase_noun(self, state: S, lang: Lang) -> str: ...


class Season(Protocol[S]):
    """Optional hooks for a season's GM tools (docs/gm.md): a player leaving, a game ended
    before its time. Both return new objects and leave the state they are given alone."""

    leave_means: ClassVar[Mapping[Lang, str]]  # one clause per language, for the player

    def leave(self, state: S, seat: str) -> S:
        """The state with ``seat`` gone as this kind understands it (out from the next phase,
        skipped at once, the game lost). Not a resolution: the phase number stays. A state
        that owes nothing afterwards is a game over (the daemon ends it)."""
        ...

    def final_ranking(self, state: S) -> list[list[str]]:
        """The ranking as the game stands, best first, every seat exactly once."""
        ...


class SplitsMailState(Protocol[S]):
    """Optional: what the result mails carry as JSON, for a kind whose ``public_state`` is
    too big to send to everyone (Hexenhalma: every pairing of a round, 19,900 of them with
    200 players). ``shared`` goes into every result mail; ``own[seat]`` beside it into
    that seat's mail only (his own results), so the mails grow with the players, not with
    their square. Both hold nothing private (point 5). Without the hook every mail carries
    ``public_state``; with it or not, the whole ``public_state`` of each phase is on the
    game's site (``phase-<n>.json``) and in ``gm-daemon status --json``."""

    def mail_state(
        self, state: S, seats: Collection[str]
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]: ...


class ReadsHeaderLines(Protocol[S]):
    """Optional: orders written on the current phase's header line ("Runde 1: N+, O+"),
    which would else go with the header. Asked only of a line ``read_header`` found to be
    the current phase's header; None when the header stands alone ("Runde 3 (Anna)").
    The daemon reads what it returns under the line's number (``loaded.header_line``)."""

    def orders_after_header(self, text: str, state: S) -> str | None: ...


class HasCommands(Protocol[S]):
    """Optional: the kind's own mail commands, beside HILFE, STAND and ZURÜCKZIEHEN."""

    commands: ClassVar[Sequence[GameCommand[Any]]]
