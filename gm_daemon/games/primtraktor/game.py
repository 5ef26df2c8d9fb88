"""Primtraktorrennen on the game protocol: the one object the daemon talks to."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from gm_daemon.games.kit.names import renamed
from gm_daemon.games.kit.rounds import RoundGame, leave_after_round
from gm_daemon.games.primtraktor import ack, report
from gm_daemon.games.primtraktor.events import GameEnded, dump_events, load_events
from gm_daemon.games.primtraktor.manual import example_orders, order_format, rules_summary
from gm_daemon.games.primtraktor.model import Elimination, Options, Orders, State, Tractor
from gm_daemon.games.primtraktor.nmr import choose_nmr_leg
from gm_daemon.games.primtraktor.orders import (
    LineProblem,
    LineProblems,
    ReadLine,
    check_names,
    count_problems,
    is_command_word,
    no_legs_problem,
    read_line,
    seats_of,
)
from gm_daemon.games.primtraktor.picture import render_png
from gm_daemon.games.primtraktor.resolution import occupancy, play_round
from gm_daemon.games.primtraktor.scoring import final_scores, ranking
from gm_daemon.games.primtraktor.start import draw_start_cells
from gm_daemon.games.primtraktor.texts import say
from gm_daemon.games.protocol import (
    Accepted,
    Attachment,
    Line,
    OrdersRejected,
    Problem,
    Report,
    Resolution,
    Seat,
)


def _letter(index: int) -> str:
    """A, B, … Z, then AA, AB, … for the 27th tractor on (those are shown in the PNG only)."""
    if index < 26:
        return chr(ord("A") + index)
    return _letter(index // 26 - 1) + chr(ord("A") + index % 26)


def board_picture(state: State, lang: str, label: str) -> Attachment:
    """The PNG attachment; ``label`` names the moment ("start", "runde-03"), and the daemon
    puts the game's id in front (``pt1-runde-03.png``)."""
    return Attachment(f"{label}.png", "image/png", render_png(state, lang))


def _round_label(number: int, lang: str) -> str:
    return say(lang, "file_round", n=number)


class PrimtraktorGame(RoundGame[Options, State, Orders]):
    """Stateless: every call gets the state it works on."""

    kind: ClassVar[str] = "primtraktor"
    title: ClassVar[Mapping[str, str]] = {"de": "Primtraktorrennen", "en": "Prime Tractor Race"}
    # What the game seed decides, for the welcome mail's commitment paragraph.
    seed_decides: ClassVar[Mapping[str, str]] = {"de": "die Startfelder", "en": "the start cells"}
    # The report marks every NMR leg in its table of legs and says why an NMR tractor is
    # out; the daemon's own NMR list would name those players a second time.
    reports_nmr: ClassVar[bool] = True
    # What resigning (or being removed) means here; the confirmation request quotes it.
    leave_means: ClassVar[Mapping[str, str]] = say.per_language("leave_means")

    # --- lifecycle -------------------------------------------------------------------
    def start(self, options: Options, seats: Sequence[Seat], rng: random.Random) -> State:
        if len(seats) < 2:
            raise ValueError("Primtraktorrennen needs at least 2 players")
        cells = draw_start_cells(len(seats), options.board, options.start_min_dist, rng)
        tractors = [
            Tractor(seat=seat.id, name=seat.name, letter=_letter(i), trail=[cell])
            for i, (seat, cell) in enumerate(zip(seats, cells, strict=True))
        ]
        return State(options=options, tractors=tractors)

    def resolve(
        self,
        state: State,
        orders: Mapping[str, Orders],
        rng: random.Random,
        defaulted: frozenset[str],
    ) -> Resolution[State, Orders]:
        """The round itself draws nothing: ``rng`` went into the start cells only."""
        new_state, events = play_round(state, orders, defaulted)
        end = next((e for e in events if isinstance(e, GameEnded)), None)
        final = ranking(new_state, end.scores) if end is not None else None
        return Resolution(
            state=new_state,
            events=dump_events(events),
            finished=new_state.finished,
            ranking=final,
        )

    def rename(self, state: State, seat: str, name: str) -> State:
        """The GM renamed the player in the config (his ``id`` kept): from now on the
        game's texts and its reading of orders know him by ``name``."""
        return renamed(state, "tractors", seat, name, key="seat")

    # --- a player leaving, a game ended now (optional hooks) ------------------------------
    def leave(self, state: State, seat: str) -> State:
        """Out from the next round: his tractor drives the round now running (his orders or
        the NMR leg) and is eliminated after it ("left"); trail, cells and survival time
        stay, so his score so far counts."""
        return leave_after_round(state, seat)

    def final_ranking(self, state: State) -> list[list[str]]:
        """PT-17 – PT-19 on the board as it stands; a player who left counts as out now."""
        new = state.model_copy(deep=True)
        for seat in new.leaving:
            tractor = new.tractor(seat)
            if tractor.active:
                tractor.eliminated = Elimination(round=new.round, phase=0, reason="left")
        return ranking(new, final_scores(new))

    # --- orders ----------------------------------------------------------------------
    def read_orders(
        self,
        lines: Sequence[Line],
        state: State,
        seat: str,
        lang: str,
        on_file: Orders | None = None,
    ) -> Accepted[Orders]:
        """Every line parsed on its own; rule-level dangers only warn (A-10)."""
        seats = seats_of(state)
        problems: list[Problem] = []
        read: list[ReadLine] = []
        unread: dict[int, int] = {}  # per line: pieces meant as legs but not understood
        for line in lines:
            if not line.text.strip() or is_command_word(line):
                continue
            try:
                one = read_line(line, seats, lang)
            except LineProblems as exc:  # every bad piece named; the rest still checked
                problems += exc.problems
                one, unread[line.no] = exc.read, exc.unread
            except LineProblem as exc:
                problems.append(exc.problem)
                continue
            problems += check_names(one, seats, seat, lang)
            read.append(one)
        problems += count_problems(read, state.options.max_legs, lang, unread)
        if not problems and not any(one.legs for one in read):
            problems.append(no_legs_problem(state.options.max_legs, lang))
        if problems:
            raise OrdersRejected(problems)
        orders = Orders(legs=[leg for one in read for leg in one.legs])
        legs_by_line = [(one.line, one.legs) for one in read]
        return Accepted(orders, ack.order_warnings(state, seat, legs_by_line, lang))

    def default_orders(self, state: State, seat: str) -> Orders:
        """PT-14: the NMR leg against the board as it is at the start of the round."""
        choice = choose_nmr_leg(state.tractor(seat), occupancy(state), state.options)
        return Orders(legs=[choice.leg] if choice.leg else [])

    def describe_orders(self, state: State, seat: str, orders: Orders, lang: str) -> str:
        """Orders without legs can only be an NMR default that eliminates the tractor (read
        orders have one leg at least); the daemon lists those under its own NMR heading, so
        the text says why without an "NMR:" prefix."""
        if orders.legs:
            return ack.describe_legs(state, seat, orders.legs, lang)
        choice = choose_nmr_leg(state.tractor(seat), occupancy(state), state.options)
        key = "nmr_none_first" if choice.why_none == "first_round" else "nmr_none"
        return say(lang, key)

    def example(self, state: State, seat: str, lang: str) -> str:
        return example_orders(state, seat, lang)

    # --- texts -----------------------------------------------------------------------
    def welcome(self, state: State, seat: str, lang: str) -> Report:
        picture = board_picture(state, lang, "start")
        public = "\n\n".join(
            [
                rules_summary(state.options, lang),
                order_format(state.options, example_orders(state, seat, lang), lang),
                report.opening_text(state, lang, picture.filename),
            ]
        )
        private = {seat: report.your_tractor(state, seat, lang)}
        return Report(public=public, private=private, attachments=[picture])

    def help(self, state: State, seat: str, lang: str) -> str:
        return order_format(state.options, example_orders(state, seat, lang), lang)

    def status(self, state: State, seat: str, lang: str) -> Report:
        label = say(lang, "file_final" if state.finished else "file_status", n=state.round)
        picture = board_picture(state, lang, label)
        text = report.status_text_for(state, seat, lang, picture.filename)
        return Report(public=text, attachments=[picture])

    def report(self, before: State, resolution: Resolution[State, Orders], lang: str) -> Report:
        after = resolution.state
        picture = board_picture(after, lang, _round_label(before.round, lang))
        events = load_events(resolution.events)
        public = report.result_text(
            before, after, events, resolution.ranking, lang, picture.filename
        )
        # each player finds his own tractor without searching the table for his name
        private = {
            t.seat: report.your_tractor(after, t.seat, lang)
            for t in after.tractors
            if not after.finished
        }
        return Report(public=public, private=private, attachments=[picture])

    def public_state(self, state: State) -> dict[str, Any]:
        return report.public_state(state)
