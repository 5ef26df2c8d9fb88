"""Highlander as a gm-daemon game (protocol v2): each method hands over to the module that
knows the rules (``flow``, ``reading``, ``decide``) or the words (``report``, ``guide``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from gm_daemon.games.highlander import boards, flow, guide, reading, report, views
from gm_daemon.games.highlander.labels import phase_label, phase_noun
from gm_daemon.games.highlander.model import PHASE_TYPES, Options, Orders, Result, State
from gm_daemon.games.highlander.wording import PHRASES, order
from gm_daemon.games.kit import layout
from gm_daemon.games.protocol import (
    Accepted,
    GameCommand,
    Header,
    Lang,
    Line,
    Report,
    Resolution,
    Seat,
)


class Highlander:
    kind: ClassVar[str] = "highlander"
    title: ClassVar[Mapping[Lang, str]] = {
        "de": "Highlander – Diplomacy für zwei",
        "en": "Highlander – Diplomacy for two",
    }
    Options = Options
    State = State
    Orders = Orders
    resolves_on_receipt: ClassVar[bool] = False
    # Nothing in Highlander is left to chance: the welcome mail makes no seed promise.
    seed_decides: ClassVar[Mapping[str, str]] = {}
    phase_types: ClassVar[tuple[str, ...]] = PHASE_TYPES
    # What resigning (or being removed) means here; the confirmation request quotes it.
    leave_means: ClassVar[Mapping[Lang, str]] = PHRASES.per_language("leave_means")

    # --- lifecycle -------------------------------------------------------------------
    def start(self, options: Options, seats: Sequence[Seat], rng: random.Random) -> State:
        if len(seats) != 2:
            raise ValueError(f"Highlander is played by exactly two players, not {len(seats)}")
        state = State(options=options, seats=[s.id for s in seats], names=[s.name for s in seats])
        return flow.start(state)

    def resolve(
        self,
        state: State,
        orders: Mapping[str, Orders],
        rng: random.Random,
        defaulted: frozenset[str],
    ) -> Resolution[State, Orders]:
        step = flow.resolve(state, orders, defaulted)
        after = step.state
        finished = after.result is not None
        return Resolution(
            state=after,
            events=[{"event": e} for e in (after.last.events if after.last else [])],
            finished=finished,
            ranking=_ranking(after) if finished else None,
            carried=step.carried,
        )

    def rename(self, state: State, seat: str, name: str) -> State:
        """The GM renamed the player in the config (his ``id`` kept): from now on the
        game's texts and its reading of orders know him by ``name``."""
        if state.name(seat) == name:
            return state
        names = [name if s == seat else n for s, n in zip(state.seats, state.names, strict=True)]
        return state.model_copy(update={"names": names})

    # --- a player leaving, a game ended now (optional hooks) ------------------------------
    def leave(self, state: State, seat: str) -> State:
        """A player who leaves loses: the game, or in a tournament the match, goes to the
        other. The state owes nothing more, and the daemon ends the game with it."""
        new = state.model_copy(deep=True)
        if new.step != "over":
            new.result = Result(winner=new.other(seat), reason="resigned")
            new.step = "over"
        return new

    def final_ranking(self, state: State) -> list[list[str]]:
        """The result when there is one; else the supply centres owned now, on both boards
        in a tournament (a tie shares the place)."""
        if state.result is not None:
            return _ranking(state)
        centres = [sum(len(boards.owned(b, s)) for b in state.boards) for s in state.seats]
        if centres[0] == centres[1]:
            return [list(state.seats)]
        best = centres.index(max(centres))
        return [[state.seats[best]], [state.seats[1 - best]]]

    # --- phase facts -----------------------------------------------------------------
    def phase_number(self, state: State) -> int:
        return state.phase

    def phase_type(self, state: State) -> str:
        if state.grace:
            return "grace"
        return "movement" if state.step == "over" else state.step

    def phase_label(self, state: State, lang: Lang) -> str:
        return phase_label(state, lang)

    def phase_noun(self, state: State, lang: Lang) -> str:
        return phase_noun(state, lang)

    def read_header(self, text: str, state: State) -> Header | None:
        return reading.read_header(text, state)

    def owed(self, state: State) -> set[str]:
        return {s for s in state.seats if guide.owes(state, s)}

    def participants(self, state: State) -> set[str]:
        """Both players while the game runs: one with nothing to decide may still offer a
        draw, or revise the list he handed in before the other's grace phase."""
        return set() if state.step == "over" else set(state.seats)

    # --- orders ----------------------------------------------------------------------
    def read_orders(
        self,
        lines: Sequence[Line],
        state: State,
        seat: str,
        lang: Lang,
        on_file: Orders | None = None,
    ) -> Accepted[Orders]:
        return reading.read_orders(lines, state, seat, lang, on_file)

    def default_orders(self, state: State, seat: str) -> Orders:
        """HL-13: nothing ordered: units hold, dislodged units disband, builds are waived,
        removals by civil disorder; a set-up list missing is handled by ``flow``."""
        return Orders()

    def describe_orders(self, state: State, seat: str, orders: Orders, lang: Lang) -> str:
        lines = []
        if orders.centres:
            lines.append(guide.listed("ZENTREN" if lang == "de" else "CENTRES", orders.centres))
        if orders.placement:
            word = "AUFSTELLUNG" if lang == "de" else "SETUP"
            lines.append(guide.listed(word, orders.placement))
        for name, texts in sorted(orders.boards.items()):
            if state.options.tournament:
                lines.append(("BRETT " if lang == "de" else "BOARD ") + f"{name}:")
            lines += [order(t, lang) for t in texts]
        if orders.draw:
            lines.append("REMIS" if lang == "de" else "DRAW")
        return "\n".join(lines) or guide.without_orders(state, seat, lang)

    def example(self, state: State, seat: str, lang: Lang) -> str:
        return guide.example(state, seat, lang)

    # --- texts -----------------------------------------------------------------------
    def welcome(self, state: State, seat: str, lang: Lang) -> Report:
        return Report(public=guide.welcome_text(state, seat, lang))

    def help(self, state: State, seat: str, lang: Lang) -> str:
        return guide.help_text(state, seat, lang)

    def status(self, state: State, seat: str, lang: Lang) -> Report:
        private = report.private_status(state, seat, lang)
        label = phase_label(state, lang)
        pictures = views.attachments(state, {}, label, lang, views.file_stem(state, lang))
        return Report(
            public=report.status_text(state, seat, lang),
            private={seat: private} if private else {},
            attachments=pictures,
        )

    def report(self, before: State, resolution: Resolution[State, Orders], lang: Lang) -> Report:
        after = resolution.state
        record = after.last
        records = {b.name: b for b in record.boards} if record else {}
        title = report.result_text(before, after, lang).splitlines()[0]
        return Report(
            public=report.result_text(before, after, lang),
            private={s: guide.next_text(after, s, lang) for s in self.owed(after)},
            attachments=views.attachments(
                after, records, title, lang, views.file_stem(before, lang)
            ),
        )

    def public_state(self, state: State) -> dict[str, Any]:
        """Everything but the lists sealed before a grace phase (they stay secret)."""
        return state.model_dump(mode="json", exclude={"sealed"})

    # --- the map on request ------------------------------------------------------------
    commands: ClassVar[Sequence[GameCommand[Any]]] = ()


def _ranking(state: State) -> list[list[str]]:
    result = state.result
    if result is None or result.winner is None:
        return [list(state.seats)]
    return [[result.winner], [state.other(result.winner)]]


def _map(state: State, seat: str, args: str, lang: Lang) -> Report:
    """Before the set-up is resolved no unit stands anywhere: the answer says when the map
    with units comes and attaches the board as it is (centres, no units)."""
    label = phase_label(state, lang)
    text = PHRASES(lang, "map_title", label=label)
    empty = not any(views.has_units(board) for board in state.boards)
    if empty and state.step in ("ballot", "setup"):
        text += "\n\n" + PHRASES(lang, f"map_empty_{state.step}")
    pictures = views.attachments(state, {}, label, lang, views.file_stem(state, lang), empty)
    subject = PHRASES(lang, "map_subject", label=label)
    return Report(public=layout.wrap(text) + "\n", subject=subject, attachments=pictures)


Highlander.commands = (
    GameCommand(
        names={"de": ("KARTE",), "en": ("MAP",)},
        usage={"de": "", "en": ""},
        help={"de": PHRASES("de", "command_map"), "en": PHRASES("en", "command_map")},
        run=_map,
    ),
)
