"""The shape of a game of simultaneous rounds (High Noon, Primtraktor, Hexenhalma).

Every seat still in the game owes orders each round, the round resolves at the deadline (or
when all are in), its phases are numbered by the round and headed ``Runde 3`` / ``Round 3``.
The protocol's phase facts follow from that alone, so they are written here once: a round
game subclasses ``RoundGame`` and writes only its rules (start, resolve, orders, texts), as
python-chess's variants are small subclasses of its one board.

The shape reads three things of the game's state (``RoundState``): the round now played,
whether the game is over, and who still plays. Of the protocol's optional hooks it defines
only ``orders_after_header`` (orders on the header's line), which no mail without them
notices; the others the daemon finds by name, so a base class that had ``leave`` would
offer every round game's players AUFGEBEN. A game that lets a player leave after the round
now running says so in its own ``leave`` and hands the bookkeeping to ``leave_after_round``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, get_args, get_origin

from pydantic import BaseModel

from gm_daemon.games.kit.headers import numbered_header, orders_after
from gm_daemon.games.kit.phrases import Phrases
from gm_daemon.games.protocol import Header, Lang

_SAY = Phrases.beside(__file__)


class RoundState(Protocol):
    """What the shape reads of a round game's state (pydantic fields or properties)."""

    @property
    def round(self) -> int:
        """The round whose orders are awaited: 1 for the first, one more after each."""
        ...

    @property
    def finished(self) -> bool: ...

    def playing(self) -> Collection[str]:
        """The seats still in the game: each owes orders for the round now running."""
        ...


class LeavingState(RoundState, Protocol):
    """A round state that keeps who leaves once the round now running is resolved (a
    pydantic model: ``model_copy`` is its own)."""

    leaving: list[str]

    def model_copy(
        self, *, update: Mapping[str, Any] | None = None, deep: bool = False
    ) -> Self: ...


Opt = TypeVar("Opt", bound=BaseModel)
S = TypeVar("S", bound=RoundState)
Ord = TypeVar("Ord", bound=BaseModel)
L = TypeVar("L", bound=LeavingState)


class RoundGame(Generic[Opt, S, Ord]):
    """The phase facts of a game of simultaneous rounds. A subclass names its models once,
    ``class Game(RoundGame[Options, State, Orders])``, which become its ``Options``,
    ``State`` and ``Orders`` (the daemon validates stored JSON with them); it sets ``kind``
    and ``title`` and writes the rest of the protocol (``gm_daemon/games/protocol.py``). It
    overrides a fact here only where its rules differ (other ``header_words``, a label that
    says more than the round)."""

    Options: type[Opt]
    State: type[S]
    Orders: type[Ord]
    resolves_on_receipt: ClassVar[bool] = False
    phase_types: ClassVar[tuple[str, ...]] = ("round",)
    # The words a player heads his mail with ("Runde: 3"); the label is read back by them.
    header_words: ClassVar[tuple[str, ...]] = ("Runde", "Round")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in cls.__dict__.get("__orig_bases__", ()):
            if get_origin(base) is RoundGame:
                models = dict(zip(("Options", "State", "Orders"), get_args(base), strict=True))
                for name, model in models.items():
                    if isinstance(model, type) and name not in cls.__dict__:
                        setattr(cls, name, model)

    def phase_number(self, state: S) -> int:
        return state.round

    def phase_type(self, state: S) -> str:
        return "round"

    def phase_label(self, state: S, lang: Lang) -> str:
        return _SAY(lang, "round", n=state.round)

    def read_header(self, text: str, state: S) -> Header | None:
        return numbered_header(text, self.header_words, state.round)

    def orders_after_header(self, text: str, state: S) -> str | None:
        """The optional hook is offered by the shape, as it changes nothing for a mail
        without orders on the header's line: "Runde 1: N+, O+" would else lose its orders
        with the header."""
        return orders_after(text, self.header_words)

    def owed(self, state: S) -> set[str]:
        return set() if state.finished else set(state.playing())

    def participants(self, state: S) -> set[str]:
        """Only who owes orders may send them: there is nothing to plan for later."""
        return self.owed(state)


def leave_after_round(state: L, seat: str) -> L:
    """The bookkeeping of a ``leave`` that takes effect when the round now running is
    resolved: the seat goes on the state's ``leaving`` list, which the game's ``resolve``
    empties as it takes the seat out; his orders (or the NMR default) still count in this
    round. A seat no longer playing, or already leaving, changes nothing. A new state
    either way, as the protocol asks (point 8)."""
    if seat in state.leaving or seat not in state.playing():
        return state.model_copy(deep=True)
    return state.model_copy(update={"leaving": [*state.leaving, seat]}, deep=True)
