"""Hexenhalma as the daemon sees it (protocol v2): each method a few lines handing over to
the modules that know the rules (``reading``, ``check``, ``rounds``, ``simulate``) and the
ones that write (``texts``, ``guide``, ``picture``). Besides the protocol it implements the
optional hooks ``take_options``/``waiting_for`` (the GM feeds boards while the game runs)
and ``commands`` (BILD/PICTURE)."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any, ClassVar

from pydantic import TypeAdapter

from gm_daemon.games.hexenhalma import guide, texts
from gm_daemon.games.hexenhalma.board import parse_board
from gm_daemon.games.hexenhalma.model import Orders, Pairing, SeatInfo, State
from gm_daemon.games.hexenhalma.options import Options
from gm_daemon.games.hexenhalma.picture import board_png, pairing_png
from gm_daemon.games.hexenhalma.reading import read_orders
from gm_daemon.games.hexenhalma.rounds import (
    Played,
    all_views,
    has_fates,
    play_round,
    ranking,
    view,
)
from gm_daemon.games.hexenhalma.words import say
from gm_daemon.games.kit import layout, names
from gm_daemon.games.kit.ondemand import OnDemand
from gm_daemon.games.kit.rounds import RoundGame, leave_after_round
from gm_daemon.games.protocol import (
    Accepted,
    Attachment,
    CommandError,
    GameCommand,
    Lang,
    Line,
    OrdersRejected,
    Problem,
    ProblemKind,
    Report,
    Resolution,
    Seat,
)

WORD = {"de": "BILD", "en": "PICTURE"}
# A round's pairings dumped in one call, not 19,900 (a round of 200 players).
_PAIRINGS = TypeAdapter(list[Pairing])


def picture_command(state: State, seat: str, args: str, lang: Lang) -> Report:
    """BILD <Name> / PICTURE <name>: the pairing against <Name> in the last round."""
    record = state.last
    if record is None:
        raise CommandError(say(lang, "cmd_no_round"))
    target = _named_player(state, seat, args, lang)
    v = view(record, state.lot_seed, seat, target, trace=True)
    score = f"{v.traced.arrivals[0]}:{v.traced.arrivals[1]}"
    title = say(
        lang,
        "cmd_title",
        n=record.round,
        name=v.board.name,
        a=state.name(seat),
        b=state.name(target),
        score=score,
    )
    filename = f"{say(lang, 'picture_file', n=record.round)}-{seat}-{target}.png"
    lines = [title, say(lang, "cmd_frame"), ""]
    lines += texts.pairing_lines(v, state.names(), record.orders, lang)
    lines += ["", *texts.log_lines(v, state, lang)]
    png = pairing_png(v, title, (state.name(seat), state.name(target)), lang)
    return Report(
        public=layout.wrap("\n".join(lines)) + "\n",
        subject=say(lang, "cmd_subject", n=record.round, a=state.name(seat), b=state.name(target)),
        attachments=[Attachment(filename, "image/png", png)],
    )


def _named_player(state: State, seat: str, args: str, lang: Lang) -> str:
    """The other team ``BILD <Name>`` names, found as players write names ("Bert",
    "B. Bär", "baer"); a near miss is answered with its suggestion, never taken."""
    players = names.of_seats(Seat(s.id, s.name) for s in state.seats)
    others = [s.id for s in state.seats if s.id != seat]
    listed = layout.name_list([state.name(s) for s in others], lang)
    found = players.find(args, among=others)
    if len(found) > 1:
        hits = layout.name_list([state.name(s) for s in found], lang)
        raise CommandError(say(lang, "cmd_ambiguous", name=args, names=hits))
    if not found:
        guess = players.guess(args, among=others)
        if guess is not None:
            guessed = names.did_you_mean(lang, state.name(guess))
            usage = f"{WORD.get(lang, WORD['en'])} {state.name(guess)}"
            raise CommandError(say(lang, "cmd_guess", name=args, guess=guessed, usage=usage))
        raise CommandError(say(lang, "cmd_unknown", name=args, names=listed))
    if found[0] == seat:
        raise CommandError(say(lang, "cmd_self", names=listed))
    return found[0]


PICTURE = GameCommand(
    names={lang: (word,) for lang, word in WORD.items()},
    usage={"de": say("de", "cmd_usage"), "en": say("en", "cmd_usage")},
    help={"de": say("de", "cmd_help"), "en": say("en", "cmd_help")},
    run=picture_command,
)


class Hexenhalma(RoundGame[Options, State, Orders]):
    kind: ClassVar[str] = "hexenhalma"
    title: ClassVar[Mapping[Lang, str]] = {"de": "Hexenhalma", "en": "Hexenhalma"}
    # What the game seed decides, for the welcome mail's commitment paragraph.
    seed_decides: ClassVar[Mapping[str, str]] = {"de": "die Lose", "en": "the lots"}
    # The result names the teams that sent nothing and what that meant; the daemon's own NMR
    # list would name them again (and speak to them as "Ihr Team").
    reports_nmr: ClassVar[bool] = True
    # What resigning (or being removed) means here; the confirmation request quotes it.
    leave_means: ClassVar[Mapping[str, str]] = say.per_language("leave_means")
    commands: ClassVar[Sequence[GameCommand[Any]]] = (PICTURE,)

    # --- lifecycle -------------------------------------------------------------------
    def start(self, options: Options, seats: Sequence[Seat], rng: random.Random) -> State:
        if len(seats) < 2:
            raise ValueError("Hexenhalma needs at least two players (everyone plays everyone)")
        return State(
            seats=[SeatInfo(id=s.id, name=s.name) for s in seats],
            rounds=options.round_count(),
            scoring=options.scoring,
            boards=list(options.boards),
            lot_seed=f"{rng.getrandbits(64):016x}",
        )

    def resolve(
        self,
        state: State,
        orders: Mapping[str, Orders],
        rng: random.Random,
        defaulted: frozenset[str] = frozenset(),
    ) -> Resolution[State, Orders]:
        """HH-15's lots come from the game's lot seed, not from ``rng``, so that anyone can
        replay a pairing from the revealed seed whichever player is taken as the frame."""
        record, figures, pairings = play_round(state, orders, defaulted)
        left = [*state.left, *state.leaving]
        playing = [s.id for s in state.seats if s.id not in left]
        after = state.model_copy(
            update={
                "round": state.round + 1,
                "history": [*state.history, figures],
                "last": record,
                "finished": state.round >= state.rounds or len(playing) < 2,
                "lots_drawn": state.lots_drawn + len(record.lots),
                "leaving": [],
                "left": left,
            }
        )
        events = [*pairings, *({"event": "nmr", "seat": seat} for seat in record.defaulted)]
        return Resolution(
            state=after,
            events=events,
            finished=after.finished,
            ranking=ranking(after) if after.finished else None,
        )

    def rename(self, state: State, seat: str, name: str) -> State:
        """The GM renamed the player in the config (his ``id`` kept): from now on the
        game's texts and its reading of orders know him by ``name``."""
        return names.renamed(state, "seats", seat, name)

    # --- a player leaving, a game ended now (optional hooks) ------------------------------
    def leave(self, state: State, seat: str) -> State:
        """Out from the next round: his team plays the round now running (his orders or
        NMR), then he fields none; his figures so far stay in the standings (HH-16)."""
        return leave_after_round(state, seat)

    def final_ranking(self, state: State) -> list[list[str]]:
        """HH-16 on the rounds played so far."""
        return ranking(state)

    # --- orders ----------------------------------------------------------------------
    def read_orders(
        self,
        lines: Sequence[Line],
        state: State,
        seat: str,
        lang: Lang,
        on_file: Orders | None = None,
    ) -> Accepted[Orders]:
        board = state.board()
        if board is None:
            message = say(lang, "waiting_note", n=state.round)
            raise OrdersRejected([Problem(None, "", ProblemKind.ILLEGAL, message)])
        lines = [line for line in lines if self.read_header(line.text, state) is None]
        return read_orders(lines, board, lang)

    def default_orders(self, state: State, seat: str) -> Orders:
        """HH-7 / A-16: a team without orders fields no witches."""
        return Orders()

    def describe_orders(self, state: State, seat: str, orders: Orders, lang: Lang) -> str:
        return texts.describe(state.board(), orders, lang)

    def example(self, state: State, seat: str, lang: Lang) -> str:
        if state.finished:
            return ""
        return guide.example_text(state.board(), lang)

    # --- texts -----------------------------------------------------------------------
    def welcome(self, state: State, seat: str, lang: Lang) -> Report:
        others = [s.name for s in state.seats if s.id != seat]
        intro = say(
            lang, "welcome_intro", count=state.rounds, others=layout.name_list(others, lang)
        )
        text = layout.wrap(intro) + "\n\n" + guide.help_text(state.board(), state.round, lang)
        return Report(public=text, attachments=self._board_pictures(state, lang))

    def help(self, state: State, seat: str, lang: Lang) -> str:
        return guide.help_text(state.board(), state.round, lang)

    def status(self, state: State, seat: str, lang: Lang) -> Report:
        """The current board announcement (also sent as the "new board" notice)."""
        board = state.board()
        if state.finished:
            parts = [say(lang, "game_over")]
        elif board is None:
            parts = [say(lang, "waiting_note", n=state.round)]
        else:
            parts = [texts.announcement(board, state.round, lang), "", say(lang, "help_example")]
            parts.append(guide.example_text(board, lang))
        if state.history:
            parts += ["", say(lang, "standings", n=len(state.history))]
            parts += texts.standings(state, lang)
        return Report(
            public=layout.wrap("\n".join(parts)) + "\n",
            attachments=self._board_pictures(state, lang),
        )

    def report(self, before: State, resolution: Resolution[State, Orders], lang: Lang) -> Report:
        after = resolution.state
        record = after.last
        if record is None:
            return Report(public="")
        events = resolution.events
        writer = texts.PairingWriter(after.names(), record.orders, lang)
        if has_fates(events):
            played = Played(record, events)

            def render(seat: str) -> str:
                return texts.played_private(writer, played, seat, lang)

        else:  # a round recorded before the events carried the fates
            views_of_seat = all_views(record, after.lot_seed)

            def render(seat: str) -> str:
                return texts.result_private(writer, views_of_seat[seat], lang)

        private = OnDemand(record.orders, render)
        return Report(
            public=texts.result_public(after, record, lang),
            private=private,
            attachments=self._board_pictures(after, lang),
        )

    def public_state(self, state: State) -> dict[str, Any]:
        """The whole public state, every pairing of the last round with it: 19,900 of them
        in a round of 200 players, which is why a result mail carries ``mail_state``."""
        return _public_state(state, with_pairings=True)

    def mail_state(
        self, state: State, seats: Collection[str]
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """What the result mails carry: in every one the standings (``public_state`` without
        the last round's pairings), in each seat's own its pairings of that round. The
        whole matrix, the same for all, is ``public_state``, written once: on the game's
        site beside the round's page (``phase-<n>.json``)."""
        shared = _public_state(state, with_pairings=False)
        last = state.last
        if last is None:
            return shared, {}
        own: dict[str, list[dict[str, Any]]] = {seat: [] for seat in seats}
        for dumped in _PAIRINGS.dump_python(last.pairings):
            for seat in (dumped["a"], dumped["b"]):
                if seat in own:
                    own[seat].append(dumped)
        return shared, {seat: {"pairings": pairings} for seat, pairings in own.items()}

    # --- optional hooks ----------------------------------------------------------------
    def take_options(self, state: State, options: Options) -> State:
        """New boards are taken; a board of a round already started must stay as it was."""
        started = min(state.round, len(state.boards)) if not state.finished else len(state.boards)
        for i in range(started):
            given = options.boards[i] if i < len(options.boards) else None
            if given is None or parse_board(given) != parse_board(state.boards[i]):
                raise ValueError(
                    f"the board of round {i + 1} is already in play and cannot change; "
                    f"restore board {i + 1} ({parse_board(state.boards[i]).name!r}) in "
                    "[games.options] boards and add or change only later rounds"
                )
        needed = len(state.history) + (0 if state.finished else 1)
        if options.round_count() < needed:
            raise ValueError(f"rounds = {options.round_count()}, but round {needed} has begun")
        update = {
            "boards": list(options.boards),
            "rounds": options.round_count(),
            "scoring": options.scoring,
        }
        changed = any(getattr(state, k) != v for k, v in update.items())
        return state.model_copy(update=update) if changed else state

    def waiting_for(self, state: State, lang: Lang) -> str | None:
        if state.finished or state.board() is not None:
            return None
        return say(lang, "waiting", n=state.round)

    # --- pictures --------------------------------------------------------------------
    @staticmethod
    def _board_pictures(state: State, lang: Lang) -> list[Attachment]:
        board = state.board() if not state.finished else None
        if board is None:
            return []
        title = say(lang, "board_title", n=state.round, name=board.name)
        png = board_png(board, title, lang)
        name = say(lang, "picture_file", n=state.round)
        return [Attachment(f"{name}.png", "image/png", png)]


def _public_state(state: State, with_pairings: bool) -> dict[str, Any]:
    """The public state; without the pairings, their number in the last round instead."""
    totals = state.totals()
    last = state.last
    if last is None:
        last_round = None
    else:
        last_round = {"round": last.round, "nmr": last.defaulted}
        if with_pairings:
            last_round["pairings"] = _PAIRINGS.dump_python(last.pairings)
        else:
            last_round["pairings_in_all"] = len(last.pairings)
    return {
        "round": state.round,
        "rounds": state.rounds,
        "finished": state.finished,
        "scoring": state.scoring,
        "boards": [parse_board(text).name for text in state.boards],
        "players": [
            {
                "id": s.id,
                "name": s.name,
                **totals[s.id].model_dump(),
                "difference": totals[s.id].difference,
                "league": totals[s.id].league,
            }
            for s in state.seats
        ],
        "ranking": ranking(state),
        "last_round": last_round,
        # The lot key of HH-15 is revealed with the result, like the game's seed.
        "lot_seed": state.lot_seed if state.finished else None,
    }


GAME = Hexenhalma()
