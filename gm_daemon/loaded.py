"""A game as the daemon works with it: its stored row, config, engine, state and players,
loaded once per mail and once per resolution; and the daemon's side of the protocol's
optional hooks, which an engine may or may not have (found by name).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from pydantic import BaseModel

from gm_daemon.config import GameConfig, ObserverConfig
from gm_daemon.games.protocol import Game, GameCommand, Header, Line, Problem
from gm_daemon.games.text import fold
from gm_daemon.store import GameRow, PlayerRow
from gm_daemon.texts import phrase

AnyGame = Game[Any, Any, Any]


@dataclass(frozen=True)
class Loaded:
    row: GameRow
    config: GameConfig
    engine: AnyGame
    state: BaseModel
    players: tuple[PlayerRow, ...]
    # The language this view of the game speaks: a player's own (``speaking``), else the
    # game's. Everything rendered from this object (labels, deadlines, reports) follows it.
    language: str | None = None

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def lang(self) -> str:
        return self.language or self.config.language

    def speaking(self, lang: str) -> Loaded:
        """The same game, rendering in ``lang``."""
        return self if lang == self.lang else replace(self, language=lang)

    def for_seat(self, seat: str) -> Loaded:
        """The game as its mails to this seat's player speak: in his language."""
        return self.speaking(self.config.language_of(seat))

    def for_observer(self, observer: ObserverConfig) -> Loaded:
        """The game as its mails to this observer speak: in his language, else the game's."""
        return self.speaking(observer.language or self.config.language)

    def languages(self) -> list[str]:
        """Every language a mail of this game is written in: its players' and observers',
        the game's first; a public report is rendered once for each."""
        spoken = self.config.languages_by_seat()
        wanted = [spoken.get(p.seat, self.config.language) for p in self.players]
        wanted += [o.language or self.config.language for o in self.config.observers]
        return sorted(set(wanted), key=lambda lang: (lang != self.config.language, lang))

    @property
    def title(self) -> str:
        return self.config.title or self.engine.title.get(self.lang, self.config.id)

    def label(self) -> str:
        return self._label

    def phase(self) -> str:
        """The phase as running text names it ("die Zentrenwahl"): the optional hook
        ``phase_noun``, else the label ("Runde 3")."""
        return self._phase

    # Both asked once per object, as ``participating``: every reply names the phase, and
    # the label depends on the state and the language alone, both fixed here.
    @cached_property
    def _label(self) -> str:
        return self.engine.phase_label(self.state, self.lang)

    @cached_property
    def _phase(self) -> str:
        hook = getattr(self.engine, "phase_noun", None)
        return self.label() if hook is None else hook(self.state, self.lang)

    def game_name(self) -> str:
        """ "Club round" (High Noon), or just "High Noon" when the game has no title."""
        kind = self.engine.title.get(self.lang, self.row.kind)
        quoted = phrase(self.lang, "quoted", text=self.title)  # „…“ in German
        return quoted + (f" ({kind})" if self.title != kind else "")

    @cached_property
    def participating(self) -> frozenset[str]:
        """The engine's ``participants`` of this state, asked once per object: the referee
        hands out the same ``Loaded`` while the game is unchanged, and every mail's guard
        asks (the state is fixed here, and ``participants`` depends on it alone)."""
        return frozenset(self.engine.participants(self.state))

    def player(self, seat: str) -> PlayerRow:
        return next(p for p in self.players if p.seat == seat)

    def owed(self) -> set[str]:
        return set() if self.row.finished else self.engine.owed(self.state)

    def waiting_for(self) -> str | None:
        return waiting_for(self.engine, self.state, self.lang)


# --- optional hooks -------------------------------------------------------------------------
def take_options(engine: AnyGame, state: BaseModel, options: BaseModel) -> BaseModel:
    """The state holding the config's current options; the state itself for kinds that take
    their options once, at start."""
    hook = getattr(engine, "take_options", None)
    return state if hook is None else hook(state, options)


def take_names(loaded: Loaded, config: GameConfig) -> BaseModel:
    """The game's state knowing each of its players by the name the config gives him now
    (a GM who renamed a player kept his ``id``): those out of the game too, whom its
    standings still name; the state itself for kinds without ``rename``. Without it a
    renamed player was greeted by his new name and read and reported by his old one, and
    orders naming him by the new one were refused."""
    state = loaded.state
    hook = getattr(loaded.engine, "rename", None)
    if hook is None:
        return state
    seats = {player.seat for player in loaded.players}
    for player in config.players:
        if player.seat_id() in seats:
            state = hook(state, player.seat_id(), player.name)
    return state


def warm_up(engine: AnyGame) -> None:
    """Build what an engine builds once on first use (a grammar, tables), at startup rather
    than while the first mail after it waits."""
    hook = getattr(engine, "warm_up", None)
    if hook is not None:
        hook()


def waiting_for(engine: AnyGame, state: BaseModel, lang: str) -> str | None:
    hook = getattr(engine, "waiting_for", None)
    return None if hook is None else hook(state, lang)


def game_commands(engine: AnyGame) -> Sequence[GameCommand[Any]]:
    return tuple(getattr(engine, "commands", ()))


def can_leave(engine: AnyGame) -> bool:
    return getattr(engine, "leave", None) is not None


def leave(engine: AnyGame, state: BaseModel, seat: str) -> BaseModel:
    """The state with ``seat`` gone as the kind understands it (out from the next phase, a
    skipped seat, a lost match); a state whose ``owed`` is empty is a game over."""
    hook = getattr(engine, "leave", None)
    if hook is None:
        raise ValueError(f"{engine.kind} has no rule for a player who leaves")
    return hook(state, seat)  # type: ignore[no-any-return]


def final_ranking(engine: AnyGame, state: BaseModel, seats: Sequence[str]) -> list[list[str]]:
    """The ranking as the game stands, best first; without the kind's hook every seat shares
    one place (nothing says otherwise)."""
    hook = getattr(engine, "final_ranking", None)
    return [list(seats)] if hook is None else hook(state)  # type: ignore[no-any-return]


def header_line(loaded: Loaded, line: Line, header: Header) -> Line | None:
    """What is read of a phase header's line: the orders the player wrote after the current
    phase's header ("Runde 1: N+, O+"), under the line's number so that a refusal names the
    line he wrote, as the kind's optional ``orders_after_header`` finds them; None when the
    header stands alone, without the hook, and for another phase's header (the mail is
    stale whatever follows it). A player's name after the header ("Runde 3 – Anna") is the
    label he copied, not an order: the kind does not know the names, the daemon does."""
    hook = getattr(loaded.engine, "orders_after_header", None)
    if hook is None or header is not Header.CURRENT:
        return None
    rest: str | None = hook(line.text, loaded.state)
    if not rest or fold(rest.rstrip(".!:")) in {fold(p.name) for p in loaded.players}:
        return None
    return Line(line.no, rest)


def as_written(problems: Sequence[Problem], header_lines: Mapping[int, str]) -> list[Problem]:
    """The problems quoting a header line whose orders were read (``header_line``) as the
    player wrote it, header and all: he finds it in his mail so."""
    return [
        p._replace(source=header_lines[p.line])
        if p.line is not None and p.line in header_lines and p.source
        else p
        for p in problems
    ]


def passes_over(engine: AnyGame, text: str, state: BaseModel, seat: str) -> bool:
    """Whether the kind says (its optional ``passes_over``) that it reads ``text`` from
    ``seat``, wherever it stands in his mail, as a warning of its own and nothing else;
    False without the hook (the line is read as any other). Asked of the kind once per
    state object, seat and text: the engine is pure and no call changes the state it is
    given, and the same "Hallo," and "Gruß" open and close every mail of a round."""
    hook = getattr(engine, "passes_over", None)
    if hook is None:
        return False
    asked = (id(engine), id(state), seat, text)
    kept = _PASSES.get(asked)
    if kept is not None and kept[0] is engine and kept[1] is state:
        return kept[2]
    answer = bool(hook(text, state, seat))
    if len(_PASSES) >= PASSES_KEPT:
        _PASSES.clear()
    _PASSES[asked] = (engine, state, answer)  # both held: their ids are not reused while kept
    return answer


PASSES_KEPT = 4096
_PASSES: dict[tuple[int, int, str, str], tuple[AnyGame, BaseModel, bool]] = {}


def leave_meaning(engine: AnyGame, lang: str) -> str:
    """What leaving means in this kind (its optional ``leave_means``), said to the player
    who asks to resign and to the one who left."""
    means = getattr(engine, "leave_means", None) or {}
    return str(means.get(lang) or phrase(lang, "resign_meaning"))
