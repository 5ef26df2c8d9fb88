"""Das Hornberger Schießen as a gm-daemon game: the protocol's methods, each a few lines
that hand over to the modules that know the rules (``flow``, ``resolve``, ``reading``) and
the ones that write (``report``, ``tables``, ``picture``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from gm_daemon.games.hornberg import deal, flow, nmr, reading, rules
from gm_daemon.games.hornberg.describe import example_orders, hand_text, orders_text
from gm_daemon.games.hornberg.guide import help_text, order_format, rules_text
from gm_daemon.games.hornberg.model import SeatInfo, State
from gm_daemon.games.hornberg.options import Options
from gm_daemon.games.hornberg.picture import table_png
from gm_daemon.games.hornberg.play import Orders
from gm_daemon.games.hornberg.report import (
    deal_text,
    events_text,
    private_text,
    state_text,
    turn_notice,
    variant_name,
)
from gm_daemon.games.hornberg.resolve import resolve
from gm_daemon.games.hornberg.samples import in_game_colours, problems_in_game_colours
from gm_daemon.games.hornberg.texts import say
from gm_daemon.games.kit.headers import numbered_header
from gm_daemon.games.kit.names import renamed
from gm_daemon.games.protocol import (
    Accepted,
    Attachment,
    Header,
    Lang,
    Line,
    OrdersRejected,
    Report,
    Resolution,
    Seat,
)


class Hornberg:
    kind: ClassVar[str] = "hornberg"
    title: ClassVar[Mapping[Lang, str]] = {
        "de": "Das Hornberger Schießen",
        "en": "The Hornberg Salute",  # the German name once, in the welcome's heading
    }
    Options = Options
    State = State
    Orders = Orders
    resolves_on_receipt: ClassVar[bool] = True
    # What the game seed decides, for the welcome mail's commitment paragraph.
    seed_decides: ClassVar[Mapping[str, str]] = {
        "de": "das Austeilen der Karten",
        "en": "the deal of the cards",
    }
    phase_types: ClassVar[tuple[str, ...]] = ("turn",)
    # What resigning (or being removed) means here; the confirmation request quotes it.
    leave_means: ClassVar[Mapping[Lang, str]] = say.per_language("leave_means")

    # --- lifecycle -------------------------------------------------------------------
    def start(self, options: Options, seats: Sequence[Seat], rng: random.Random) -> State:
        return deal.new_game(options, [SeatInfo(id=s.id, name=s.name) for s in seats], rng)

    def resolve(
        self,
        state: State,
        orders: Mapping[str, Orders],
        rng: random.Random,
        defaulted: frozenset[str],
    ) -> Resolution[State, Orders]:
        after, events, carried = resolve(state, orders, rng, defaulted)
        return Resolution(
            state=after,
            events=events,
            finished=after.finished,
            ranking=after.ranking,
            carried=carried,
        )

    # --- phase facts -----------------------------------------------------------------
    def phase_number(self, state: State) -> int:
        return state.turn

    def phase_type(self, state: State) -> str:
        return "turn"

    def phase_label(self, state: State, lang: Lang) -> str:
        if state.finished or state.to_move is None:
            return say(lang, "label_over", turn=state.turn)
        return say(lang, "turn") + f" {state.turn} ({state.name(state.to_move)})"

    def read_header(self, text: str, state: State) -> Header | None:
        """``Zug: 17``; a play on the same line as the current turn ("Zug 17: Bier 5 auf
        ws1") makes it an order line, read with its turn, not a header dropped with it."""
        header = numbered_header(text, ("Zug", "Turn"), state.turn)
        if header is Header.CURRENT and reading.plays_on_line(text):
            return None
        return header

    def rename(self, state: State, seat: str, name: str) -> State:
        """The GM renamed the player in the config (his ``id`` kept): from now on the
        game's texts and its reading of orders know him by ``name``."""
        return renamed(state, "seats", seat, name)

    # --- a player leaving, a game ended now (optional hooks) ------------------------------
    def leave(self, state: State, seat: str) -> State:
        return rules.leave(state, seat)

    def final_ranking(self, state: State) -> list[list[str]]:
        """The totals of the rounds scored so far; the round in play counts nothing."""
        return flow.ranking(state.totals)

    def owed(self, state: State) -> set[str]:
        return set() if state.finished or state.to_move is None else {state.to_move}

    def participants(self, state: State) -> set[str]:
        """Everyone may write (plans); a D&D player out for the round is told so by
        ``read_orders``, in words that do not sound as if he had left the game."""
        return set() if state.finished else set(state.playing_ids)

    # --- orders ----------------------------------------------------------------------
    def read_orders(
        self,
        lines: Sequence[Line],
        state: State,
        seat: str,
        lang: Lang,
        on_file: Orders | None = None,
    ) -> Accepted[Orders]:
        try:
            accepted = reading.read_orders(lines, state, seat, lang)
        except OrdersRejected as rejected:
            rejected.problems = problems_in_game_colours(rejected.problems, state, lang)
            raise
        accepted.warnings = problems_in_game_colours(accepted.warnings, state, lang)
        return accepted

    def default_orders(self, state: State, seat: str) -> Orders:
        """§6.4: the deterministic auto-play, or a passed turn with ``nmr_policy = skip``."""
        if seat != state.to_move or state.finished:
            return Orders()
        if state.options.nmr_policy == "skip":
            return Orders()
        move = nmr.autoplay(state, seat)
        return Orders(moves=[move] if move else [])

    def describe_orders(self, state: State, seat: str, orders: Orders, lang: Lang) -> str:
        return orders_text(state, orders, lang)

    def example(self, state: State, seat: str, lang: Lang) -> str:
        return example_orders(state, seat, lang)

    # --- texts -----------------------------------------------------------------------
    def welcome(self, state: State, seat: str, lang: Lang) -> Report:
        shown = in_game_colours(state, lang)
        public = "\n".join(
            [
                say(lang, "game_heading", variant=variant_name(state)),
                "",
                _seating(state, lang),
                deal_text(state, lang),
                "",
                rules_text(state, lang),
                order_format(state, lang),
                state_text(state, lang),
            ]
        )
        return Report(
            public=shown(public),
            private={seat: shown(self._private(state, seat, lang))},
            attachments=[_picture(state, lang)],
        )

    def help(self, state: State, seat: str, lang: Lang) -> str:
        return in_game_colours(state, lang)(help_text(state, seat, lang))

    def status(self, state: State, seat: str, lang: Lang) -> Report:
        """The table as everyone sees it; the seat's hand and turn notice privately."""
        shown = in_game_colours(state, lang)
        private = shown(self._private(state, seat, lang))
        return Report(
            public=shown(state_text(state, lang)),
            private={seat: private} if private else {},
            attachments=[_picture(state, lang)],
        )

    def report(self, before: State, resolution: Resolution[State, Orders], lang: Lang) -> Report:
        after = resolution.state
        public = events_text(after, resolution.events, lang) + "\n"
        if not after.finished:  # the final standings are part of the events already
            public += "\n" + state_text(after, lang)
        texts = {s: private_text(before, after, s, resolution.events, lang) for s in after.seat_ids}
        shown = in_game_colours(after, lang)
        private = {seat: shown(text) for seat, text in texts.items() if text}
        return Report(public=shown(public), private=private, attachments=[_picture(after, lang)])

    def public_state(self, state: State) -> dict[str, Any]:
        return public_view(state)

    # --- helpers ---------------------------------------------------------------------
    @staticmethod
    def _private(state: State, seat: str, lang: Lang) -> str:
        if seat not in state.hands or state.finished:
            return ""
        lines = [hand_text(state, seat, lang), *turn_notice(state, seat, lang)]
        example = example_orders(state, seat, lang)
        if seat != state.to_move and example:  # on turn, the turn notice shows it already
            lines += ["", say(lang, "plan_example"), "  " + example]
        return "\n".join(lines) + "\n"


def _seating(state: State, lang: str) -> str:
    names = " → ".join(s.name for s in state.seats)
    return say(lang, "seating") + names


def _picture(state: State, lang: Lang) -> Attachment:
    """The table as a picture, named in the game's language (turn = Zug); the daemon puts
    the game's id in front (``hb1-zug-3.png``)."""
    turn = "zug" if lang == "de" else "turn"
    return Attachment(f"{turn}-{state.turn}.png", "image/png", table_png(state, lang))


def public_view(state: State) -> dict[str, Any]:
    """Everything anyone at the table could see: no hands (only their sizes), no pile order.
    The hands of D&D players who dropped out were shown at the table, so they are public."""
    data = state.model_dump(mode="json", exclude={"hands", "pile", "discarded"})
    if not state.left:
        del data["left"]  # as before anyone could leave: older results read the same
    data["hand_sizes"] = {s: len(h) for s, h in state.hands.items()}
    data["pile_size"] = len(state.pile)
    data["revealed_hands"] = {s: list(state.hands[s]) for s in state.out}
    return data


GAME = Hornberg()
