"""The referee: the game service. Every change to a game, each in one database transaction
together with the mails that report it (composed by the mailer, put into the outbox table).

Starting a game, feeding it the GM's changed options, resolving a phase, reminding late
players, storing and withdrawing orders and the GM's overrides all live here, between the
pure engines and the store. Nothing here touches the network, and time comes from the
injected clock. A game is loaded once per unit of work (a mail, a resolution) and handed on.
The GM's tools for a season (``season_tools``), his notices (``gm_notices``) and the absences
a game keeps (``absence_register``) are modules of their own that work through a referee.
"""

from __future__ import annotations

import gc
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import BaseModel

from gm_daemon import absences, safemode
from gm_daemon.absence_register import AbsenceRegister
from gm_daemon.config import Config, GameConfig
from gm_daemon.deadlines import local_text, next_deadline
from gm_daemon.games import find_game
from gm_daemon.games.protocol import Resolution, Seat
from gm_daemon.gm_notices import GmNotices
from gm_daemon.loaded import AnyGame, Loaded, take_names, take_options, waiting_for, warm_up
from gm_daemon.mailer import (
    Mailer,
    Reply,
    leaves_chance,
    named_for,
    with_deadline,
    with_private,
    with_reason,
)
from gm_daemon.rng import commitment, new_seed, phase_rng
from gm_daemon.season_tools import END_TRIGGER, SeasonTools, ended_text, recorded
from gm_daemon.store import (
    AbsenceRow,
    GameRow,
    PlayerRow,
    Store,
    add_reminders_sent,
    observer_welcomed,
    paused_at,
    refused_while_paused,
    reminders_sent,
    set_observer_welcomed,
    set_paused_at,
)
from gm_daemon.texts import phrase

log = logging.getLogger(__name__)

NOT_IN_CONFIG = "not in the config"

# Games whose validated state (``Referee._states``) and ``Loaded`` (``_loads``) are kept:
# enough for the games a burst of mail is for; a thousand idle games are not held in memory.
STATES_KEPT = 64
# Seats whose validated orders on file are kept (``Referee.orders_on_file``): every seat of
# the games a burst is for.
ORDERS_KEPT = 4096
_KeptOrders = tuple[type, str, BaseModel]  # the engine's orders class, the text, the object


def _code() -> str:
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: codes get typed by hand
    return "".join(secrets.choice(alphabet) for _ in range(8))


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while a phase is resolved and its mails are
    written. A resolution makes objects that live until it ends (a Hexenhalma round of 200
    players hundreds of thousands: every pairing's fates, the record, the texts), and as
    they pile up the collector walks them again and again: a tenth to a fifth of the time, a
    share growing faster than the round itself. Reference counting still frees all that a
    resolution drops; the collector, on again after it, finds any cycles left then. Not
    switched on when it was off (a caller that turned it off keeps it off)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


class Referee:
    def __init__(
        self,
        config: Config,
        store: Store,
        clock: Callable[[], datetime],
        mailer: Mailer | None = None,
        config_path: Path | None = None,
    ):
        self.config = config
        # Games of the config whose ``start`` has not come, with that moment (``sync``).
        self._pending_starts: dict[str, datetime] = {}
        self.store = store
        self.clock = clock
        self.mailer = mailer or Mailer(config, store, clock, config_path)
        # Validated states of recently loaded games, by id, with the stored text they came
        # from: a burst of orders for one game validates its state once, not once a mail.
        # Sharing one object is safe because no engine changes a state it is given
        # (tests/conformance: test_no_call_changes_the_state_it_is_given).
        self._states: OrderedDict[str, tuple[str, str, BaseModel]] = OrderedDict()
        # Validated orders on file by (game, phase, seat), with the engine's orders class
        # and the stored text they came from (``orders_on_file``).
        self._orders: OrderedDict[tuple[str, int, str], _KeptOrders] = OrderedDict()
        # The games as last loaded, by id (``_loaded``): every mail loads its game.
        self._loads: OrderedDict[str, Loaded] = OrderedDict()
        # The GM's tools for a season, his notices and the absences kept, each on this
        # referee's store, clock and mailer.
        self.season = SeasonTools(self)
        self.gm_notices = GmNotices(self)
        self.absence_register = AbsenceRegister(self)

    @property
    def tz(self) -> ZoneInfo:
        return self.config.daemon.tz

    def reconfigure(self, config: Config) -> None:
        self.config = self.mailer.config = config

    # --- loading -----------------------------------------------------------------------
    def load(self, game_id: str) -> Loaded | None:
        row = self.store.game(game_id)
        return None if row is None else self._loaded(row)

    def _loaded(self, row: GameRow) -> Loaded | None:
        """The game as loaded last time while its row, its config and its seats are the
        very objects it was made of: the store hands out the same row and seats until
        they change (``Store.game``, ``Store.seats``) and a reloaded config is new
        objects, so everything a ``Loaded`` holds is current then (its state follows from
        the row; ``Loaded`` is frozen)."""
        try:
            config = self.config.game(row.id)
        except KeyError:
            return None  # a game removed from the config is left alone, not deleted
        players = self.store.seats(row.id)
        kept = self._loads.get(row.id)
        if kept and kept.row is row and kept.config is config and kept.players is players:
            self._loads.move_to_end(row.id)
            return kept
        engine = find_game(row.kind)
        loaded = Loaded(row, config, engine, self._state(row, engine), players)
        self._loads[row.id] = loaded
        if len(self._loads) > STATES_KEPT:
            self._loads.popitem(last=False)
        return loaded

    def _state(self, row: GameRow, engine: AnyGame) -> BaseModel:
        kept = self._states.get(row.id)
        if kept is not None and kept[0] == row.kind and kept[1] == row.state_json:
            self._states.move_to_end(row.id)
            return kept[2]
        state = engine.State.model_validate(row.state)
        self._states[row.id] = (row.kind, row.state_json, state)
        if len(self._states) > STATES_KEPT:
            self._states.popitem(last=False)
        return state

    def seats_of(self, email: str) -> list[PlayerRow]:
        """The seats an address holds in games of the current config."""
        config = self.config
        return [p for p in self.store.players_by_email(email) if config.has_game(p.game_id)]

    def finished(self, game_id: str) -> bool:
        row = self.store.game(game_id)
        return row is None or row.finished

    def deadline_text(self, loaded: Loaded) -> str:
        return self.mailer.deadline_text(loaded)

    def _schedule(
        self, config: GameConfig, engine: AnyGame, state: BaseModel, start: datetime
    ) -> tuple[datetime, datetime | None]:
        """The deadline of a phase starting at ``start``, moved out of the absences known
        then, and when to remind the late."""
        deadline = next_deadline(config.deadlines, engine.phase_type(state), start, self.tz)
        deadline, _ = absences.shift(deadline, self._absences_known(config, start), self.tz)
        return deadline, self._remind_at(config, deadline, engine.phase_number(state))

    def _remind_at(self, config: GameConfig, deadline: datetime, phase: int) -> datetime | None:
        """The moment of the next reminder of this phase not yet sent (each of ``reminder``
        goes out once, however often the deadline moves or the daemon restarts); None when
        all are sent or there are none."""
        sent = reminders_sent(self.store, config.id, phase)
        moments = [deadline - lead for lead in config.reminders() if _seconds(lead) not in sent]
        return min(moments, default=None)

    def _absences_known(self, config: GameConfig, start: datetime) -> list[AbsenceRow]:
        if not config.absences.enabled:
            return []
        today = start.astimezone(self.tz).date()
        return [a for a in self.store.absences(config.id, today) if a.known_at(start)]

    def deadline_note(self, loaded: Loaded) -> str:
        """Why the deadline in force is not the schedule's: a sentence naming the deadline
        it would have been, and (with ``absences.public``) whose absence moved it; "" when
        nothing moved it or the GM set it by hand."""
        row = loaded.row
        if row.deadline_at is None or row.deadline_override or row.waiting:
            return ""
        known = self._absences_known(loaded.config, row.phase_started_at)
        if not known:
            return ""
        phase_type = loaded.engine.phase_type(loaded.state)
        planned = next_deadline(loaded.config.deadlines, phase_type, row.phase_started_at, self.tz)
        moved, causes = absences.shift(planned, known, self.tz)
        if not causes or moved != row.deadline_at:
            return ""
        lang = loaded.lang
        values = {"planned": local_text(planned, self.tz, lang)}
        if not loaded.config.absences.public:
            return phrase(lang, "absence_moved", **values)
        names = {p.seat: p.name for p in loaded.players}
        who = ", ".join(
            phrase(
                lang,
                "absence_of",
                name=names.get(a.seat, a.seat),
                first=a.first_day,
                last=a.last_day,
            )
            for a in causes
        )
        return phrase(lang, "absence_moved_public", who=who, **values)

    # --- config sync -------------------------------------------------------------------
    def sync(self, warm: bool = True) -> list[str]:
        """Bring the database in line with the config: start new games; take over changed
        names, addresses, deadlines and options; hold games that left the config. Returns
        the ids of games started now. ``warm``: each kind builds now what it builds on
        first use (its grammar), so the service's first reply does not wait for it; a
        ``run --once`` leaves that to its first mail, if one comes."""
        started = []
        configured = {g.id for g in self.config.games}
        for row in self.store.games():
            if row.id not in configured and row.held != NOT_IN_CONFIG and not row.finished:
                self.store.set_held(row.id, NOT_IN_CONFIG)
        self._pending_starts = {}
        now = self.clock()
        for game_config in self.config.games:
            if self.store.game(game_config.id) is None:
                start = game_config.start_at(self.tz)
                if start is not None and start > now:
                    self._pending_starts[game_config.id] = start
                    log.info("game %s starts %s", game_config.id, start.isoformat())
                else:
                    self.start_game(game_config)
                    started.append(game_config.id)
            else:
                self._update_from_config(game_config)
            if warm:
                warm_up(find_game(game_config.kind))
        return started

    def start_due(self) -> list[str]:
        """Start the games whose ``start`` has come (found by ``sync``)."""
        now = self.clock()
        due = [game_id for game_id, start in self._pending_starts.items() if start <= now]
        for game_id in due:
            del self._pending_starts[game_id]
            if self.store.game(game_id) is None:  # the CLI cannot start one, but be sure
                self.start_game(self.config.game(game_id))
        return due

    def starts_at(self, game_config: GameConfig) -> datetime | None:
        """When a game not yet begun starts; None once it has (or for "at once")."""
        start = game_config.start_at(self.tz)
        if start is None or self.store.game(game_config.id) is not None:
            return None
        return start

    def roster_problems(self, game_config: GameConfig) -> list[str]:
        """Where the config's players and a started game's players differ. Players cannot
        join, leave or change their id once a game has started; such edits are ignored."""
        stored = {p.seat: p for p in self.store.players(game_config.id)}
        if not stored:
            return []
        configured = {p.seat_id(): p for p in game_config.players}
        where = f"game {game_config.id} (started)"
        problems = [
            f"{where}: player {p.name!r} (id {seat}) is not in the game and is ignored; "
            f"players cannot join a started game, and a changed name changes the id unless "
            f'the player keeps it with id = "<old id>" (ids: {", ".join(stored)})'
            for seat, p in configured.items()
            if seat not in stored
        ]
        problems += [
            f"{where}: player {p.name!r} (id {seat}) is missing from the config; the game keeps him"
            for seat, p in stored.items()
            if seat not in configured
        ]
        return problems

    def _update_from_config(self, game_config: GameConfig) -> None:
        for problem in self.roster_problems(game_config):
            log.warning("config: %s", problem)
        with self.store.transaction():
            row = self.store.game(game_config.id)
            if row is not None and row.held == NOT_IN_CONFIG:
                self.store.set_held(game_config.id, None)
            loaded = self._update_locked(game_config)
        if loaded is not None:
            self.resolve_if_complete(loaded)

    def _update_locked(self, game_config: GameConfig) -> Loaded | None:
        self.store.update_players_from_config(
            game_config.id, [(p.seat_id(), p.name, p.email) for p in game_config.players]
        )
        loaded = self.load(game_config.id)
        if loaded is None or loaded.row.finished:
            return None
        self._welcome_observers(loaded)
        if loaded.row.preview_of is not None:
            return None  # a previewed game takes the config's options once published
        loaded = self._feed(loaded, game_config)
        if not (loaded.row.deadline_override or loaded.row.waiting):
            deadline, remind_at = self._schedule(
                game_config, loaded.engine, loaded.state, loaded.row.phase_started_at
            )
            if (deadline, remind_at) != (loaded.row.deadline_at, loaded.row.remind_at):
                self.store.set_deadline(
                    game_config.id, deadline, override=False, remind_at=remind_at
                )
                loaded = replace(
                    loaded, row=replace(loaded.row, deadline_at=deadline, remind_at=remind_at)
                )
        return loaded

    def _feed(self, loaded: Loaded, game_config: GameConfig) -> Loaded:
        """Hand the engine the config's options (a GM's new board); settle whether the phase
        now waits for the GM or may start."""
        note = f"options-refused:{loaded.id}"
        named = take_names(loaded, game_config)
        try:
            state = take_options(loaded.engine, named, game_config.parsed_options())
        except ValueError as exc:
            log.error("game %s: the new options were refused, the game goes on: %s", loaded.id, exc)
            if self.store.note(note) != str(exc):  # once per refusal, not once per restart
                self.store.set_note(note, str(exc))
                self.mailer.tell_gm(f"{loaded.id}: options refused", f"{exc}\n")
            return self.with_state(loaded, named)
        self.store.set_note(note, None)
        return self._settle_waiting(self.with_state(loaded, state))

    def with_state(self, loaded: Loaded, state: BaseModel) -> Loaded:
        """The game with ``state``, stored when it differs from the game's."""
        if state == loaded.state:
            return loaded
        self.store.set_state(loaded.id, state.model_dump(mode="json"))
        return replace(loaded, state=state)

    def _settle_waiting(self, loaded: Loaded) -> Loaded:
        waiting = loaded.waiting_for()
        if waiting == loaded.row.waiting:
            return loaded
        if waiting is not None:
            self.store.set_waiting(loaded.id, waiting)
            self.store.set_deadline(loaded.id, None, override=False)
            self.gm_notices.waiting(loaded, waiting)
            return replace(loaded, row=replace(loaded.row, waiting=waiting, deadline_at=None))
        loaded = self.start_phase(loaded)  # no longer waiting: stored there
        self.mailer.report_to_each(
            loaded,
            "phase-ready",
            lambda view, p: with_deadline(
                view, p, self.deadline_text(view), self.deadline_note(view)
            ),
            "phase_ready",
        )
        log.info(
            "game %s: %s can start, deadline %s", loaded.id, loaded.label(), loaded.row.deadline_at
        )
        return loaded

    def start_phase(self, loaded: Loaded) -> Loaded:
        """The current phase starts now: its deadline counted from this moment, or none
        while the game waits for the GM (or is over)."""
        if loaded.row.finished:
            return loaded
        now = self.clock()
        waiting = loaded.waiting_for()
        self.store.set_waiting(loaded.id, waiting)
        deadline, remind_at = (
            (None, None)
            if waiting
            else self._schedule(loaded.config, loaded.engine, loaded.state, now)
        )
        self.store.set_deadline(
            loaded.id, deadline, override=False, remind_at=remind_at, started=now
        )
        row = replace(
            loaded.row,
            waiting=waiting,
            deadline_at=deadline,
            remind_at=remind_at,
            phase_started_at=now,
            deadline_override=False,
        )
        return replace(loaded, row=row)

    @staticmethod
    def first_state(config: GameConfig, seed: str) -> BaseModel:
        """The state a game starts from: the seed's, so a rollback to the first phase can
        compute it again."""
        engine = find_game(config.kind)
        seats = [Seat(p.seat_id(), p.name) for p in config.players]
        options = config.parsed_options()
        state = engine.start(options, seats, phase_rng(seed, 0, "start"))
        return take_options(engine, state, options)

    def start_game(self, config: GameConfig) -> None:
        engine = find_game(config.kind)
        seed = config.seed or new_seed()
        state = self.first_state(config, seed)
        now = self._start_moment(config, engine, state)
        waiting = waiting_for(engine, state, config.language)
        deadline, remind_at = (
            (None, None) if waiting else self._schedule(config, engine, state, now)
        )
        with self.store.transaction():
            self.store.insert_game(
                config.id,
                config.kind,
                seed,
                state.model_dump(mode="json"),
                engine.phase_number(state),
                now,
                deadline,
            )
            self.store.set_deadline(config.id, deadline, override=False, remind_at=remind_at)
            self.store.set_waiting(config.id, waiting)
            for player in config.players:
                self.store.insert_player(
                    config.id, player.seat_id(), player.name, player.email, player.code or _code()
                )
            loaded = self.load(config.id)
            assert loaded is not None
            from gm_daemon.commands import listing

            for player in loaded.players:
                view = loaded.for_seat(player.seat)
                self.mailer.welcome(view, player, listing(view))
            self._welcome_observers(loaded)
            if waiting:
                self.gm_notices.waiting(loaded, waiting)
        log.info("game %s started (%s, %d players)", config.id, config.kind, len(config.players))

    def _start_moment(self, config: GameConfig, engine: AnyGame, state: BaseModel) -> datetime:
        """The configured start, so the first deadline counts from it; now when there is
        none, or when a daemon that was down at the start would otherwise open the game
        with its first deadline already passed."""
        now = self.clock()
        start = config.start_at(self.tz)
        if start is None or start > now:
            return now
        deadline, _ = self._schedule(config, engine, state, start)
        return start if deadline > now else now

    def _welcome_observers(self, loaded: Loaded) -> None:
        """Every observer of the config not yet welcomed (one added to a running game, too)
        gets his welcome, once: the store remembers whom it welcomed."""
        for observer in loaded.config.observers:
            if not observer_welcomed(self.store, loaded.id, observer.email):
                self.mailer.welcome(loaded, observer)
                set_observer_welcomed(self.store, loaded.id, observer.email, self.clock())

    # --- orders ------------------------------------------------------------------------
    def orders_on_file(self, loaded: Loaded, seat: str) -> BaseModel | None:
        """The seat's orders of the current phase, validated once per stored text: the
        object made from a text is handed out again while the store holds that very text
        (every order mail asks for its sender's, and the same seat writes again and again
        in a burst). Sharing it is safe because no engine changes the orders it is given
        (tests/conformance: test_no_call_changes_the_state_it_is_given)."""
        key = (loaded.id, loaded.row.phase, seat)
        text = self.store.orders_text(*key)
        if text is None:
            return None
        kind = loaded.engine.Orders
        kept = self._orders.get(key)
        if kept is not None and kept[0] is kind and kept[1] == text:
            self._orders.move_to_end(key)
            return kept[2]
        orders = kind.model_validate(json.loads(text))
        self._orders[key] = (kind, text, orders)
        if len(self._orders) > ORDERS_KEPT:
            self._orders.popitem(last=False)
        return orders

    def store_orders(
        self, loaded: Loaded, seat: str, orders: BaseModel, inbox_id: int | None
    ) -> None:
        self.store.put_orders(
            loaded.id,
            loaded.row.phase,
            seat,
            orders.model_dump(mode="json"),
            self.clock(),
            inbox_id,
        )

    def withdraw(self, loaded: Loaded, seat: str) -> bool:
        return self.store.delete_orders(loaded.id, loaded.row.phase, seat)

    def nmr_rule(self, loaded: Loaded, seat: str) -> str:
        defaults = loaded.engine.default_orders(loaded.state, seat)
        return loaded.engine.describe_orders(loaded.state, seat, defaults, loaded.lang).strip()

    # --- resolution --------------------------------------------------------------------
    def resolve(self, game_id: str, trigger: str, phase: int | None = None) -> Loaded | None:
        """Resolve the current phase now (NMR defaults for missing orders); the game after
        it, or None when there was nothing to do. ``phase`` is the phase the caller saw:
        when two triggers race, the second finds the game moved on and does nothing."""
        with self.store.transaction():
            loaded = self.load(game_id)
            if loaded is None or loaded.row.finished or loaded.row.waiting:
                return None
            if loaded.row.preview_of is not None:
                return None
            if phase is not None and loaded.row.phase != phase:
                return None
            with collector_paused():
                return self._resolve_locked(loaded, trigger)

    def _resolve_locked(self, loaded: Loaded, trigger: str) -> Loaded | None:
        engine, state, row = loaded.engine, loaded.state, loaded.row
        on_file = {
            seat: engine.Orders.model_validate(data)
            for seat, data in self.store.orders(row.id, row.phase).items()
        }
        nmr = sorted(engine.owed(state) - on_file.keys())
        defaults = {seat: engine.default_orders(state, seat) for seat in nmr}
        orders = {**on_file, **defaults}
        rng = phase_rng(row.seed, row.phase)
        resolution = engine.resolve(state, orders, rng, frozenset(nmr))
        after = self._advance(loaded, resolution, trigger, orders, nmr)
        if after is None:
            return None
        if loaded.config.preview:
            after = self.season.hold_for_preview(loaded, after, resolution, defaults)
            self.gm_notices.missing(loaded, nmr)
        else:
            self.mailer.results(
                loaded, after, resolution, defaults, lambda view: self.closing(view, resolution)
            )
            self.gm_notices.missing(loaded, nmr)
            if after.row.waiting:
                self.gm_notices.waiting(after, after.row.waiting)
        log.info(
            "game %s: %s resolved (%s, NMR: %s); next: %s, deadline %s",
            row.id,
            loaded.label(),
            trigger,
            ", ".join(nmr) or "none",
            "game over" if resolution.finished else after.label(),
            after.row.deadline_at.isoformat() if after.row.deadline_at else "none",
        )
        return after

    def _advance(
        self,
        loaded: Loaded,
        resolution: Resolution[Any, Any],
        trigger: str,
        orders: dict[str, BaseModel],
        nmr: list[str],
    ) -> Loaded | None:
        """Store the new state and the phase record; the game as it is now, built without
        loading it again."""
        engine, row, new_state = loaded.engine, loaded.row, resolution.state
        now = self.clock()
        new_phase = engine.phase_number(new_state)
        if new_phase <= row.phase and not resolution.finished:
            raise RuntimeError(f"{row.kind}: phase number did not increase ({new_phase})")
        waiting = None if resolution.finished else waiting_for(engine, new_state, loaded.lang)
        deadline, remind_at = (
            (None, None)
            if resolution.finished or waiting
            else self._schedule(loaded.config, engine, new_state, now)
        )
        state_json = new_state.model_dump(mode="json")
        stored_json = json.dumps(state_json)
        if not self.store.advance_game(
            row.id,
            row.phase,
            stored_json,
            new_phase,
            now,
            deadline,
            resolution.finished,
            remind_at,
        ):
            return None
        self.store.set_waiting(row.id, waiting)
        self.store.record_phase(
            row.id,
            row.phase,
            loaded.label(),
            now,
            trigger,
            row.state,
            {seat: o.model_dump(mode="json") for seat, o in orders.items()},
            nmr,
            resolution.events,
            state_json,
            resolution.finished,
            resolution.ranking,
        )
        for seat, carried in ({} if resolution.finished else resolution.carried).items():
            self.store.put_orders(
                row.id, new_phase, seat, carried.model_dump(mode="json"), now, None
            )
        new_row = replace(
            row,
            state_json=stored_json,
            phase=new_phase,
            phase_started_at=now,
            deadline_at=deadline,
            remind_at=remind_at,
            deadline_override=False,
            finished=resolution.finished,
            held=None,
            waiting=waiting,
        )
        return replace(loaded, row=new_row, state=new_state)

    def closing(self, after: Loaded, resolution: Resolution[Any, Any]) -> str:
        lang = after.lang
        if resolution.finished:
            seed, promise = after.row.seed, commitment(after.row.seed)
            # a game that leaves nothing to chance promised no seed in its welcome
            reveal = phrase(lang, "seed_reveal", seed=seed, commitment=promise)
            reveal = reveal if leaves_chance(after) else ""
            return "\n" + phrase(lang, "final_heading") + "\n" + reveal + "\n"
        if after.row.waiting:
            return "\n" + phrase(lang, "waiting_for_gm", phase=after.phase()) + "\n"
        next_one = phrase(
            lang, "next_deadline", phase_label=after.label(), deadline=self.deadline_text(after)
        )
        note = self.deadline_note(after)
        return f"\n{next_one}\n" + (f"{note}\n" if note else "")

    # --- the clock's work --------------------------------------------------------------
    def due(self) -> list[str]:
        """Resolve every phase whose deadline has passed and send due reminders: one query
        for what is due, whatever the number of games that are not. Returns what it did."""
        done = [f"{game_id}: started" for game_id in self.start_due()]
        now = self.clock()
        for game_id in self.store.due_games(now):
            row = self.store.game(game_id)
            if row is None:
                continue
            if row.deadline_at is not None and row.deadline_at <= now:
                if safemode.hold_back(self, game_id, row.phase):
                    done.append(f"{game_id}: safe mode")
                elif self._try_resolve(game_id, "deadline", row.phase):
                    done.append(f"{game_id}: deadline")
            else:
                self.remind(game_id)
                done.append(f"{game_id}: reminder")
        return done

    def next_moment(self) -> datetime | None:
        """When the clock next has work: the earliest deadline or reminder of a running game
        (held, paused, finished and waiting games have none)."""
        moments = [self.store.next_game_moment(), *self._pending_starts.values()]
        return min((m for m in moments if m is not None), default=None)

    def _try_resolve(self, game_id: str, trigger: str, phase: int) -> bool:
        """A resolution that raises holds its game (the clock leaves it alone until a restart
        or ``gm-daemon resolve``) and tells the GM; the other games go on."""
        try:
            return self.resolve(game_id, trigger, phase) is not None
        except Exception as exc:
            log.exception("resolving %s phase %d failed; game held", game_id, phase)
            with self.store.transaction():
                self.store.set_held(game_id, f"resolving phase {phase} failed: {exc}")
                self.mailer.tell_gm(
                    f"{game_id}: resolving phase {phase} failed",
                    f"Resolving {game_id}, phase {phase} ({trigger}) failed:\n\n"
                    f"{type(exc).__name__}: {exc}\n\nThe game is held; nothing was changed. "
                    "After a fix, restart the daemon or run gm-daemon resolve.\n",
                )
            return False

    def resolve_if_complete(self, loaded: Loaded, phase: int | None = None) -> bool:
        """Right after accepted orders (and after a config sync): a card play, or the last
        missing order of a game with ``resolve_early``, resolves at once. ``loaded`` is the
        game as the caller has it; the resolution loads it again in its own transaction."""
        if not self.all_orders_in(loaded):
            return False
        return self._try_resolve(loaded.id, "all orders in", phase or loaded.row.phase)

    def all_orders_in(self, loaded: Loaded) -> bool:
        row = loaded.row
        if row.finished or row.paused or row.waiting or row.held or row.preview_of is not None:
            return False
        if not (loaded.engine.resolves_on_receipt or loaded.config.resolve_early):
            return False
        owed = loaded.engine.owed(loaded.state)
        return bool(owed) and owed <= self.store.seats_with_orders(row.id, row.phase)

    def remind(self, game_id: str) -> None:
        """Send the reminders now due, once: several due together (a short phase, a daemon
        that was down) make one mail, each in its player's language, only to those who
        still owe orders. The next reminder of the phase, if any, is armed."""
        with self.store.transaction():
            loaded = self.load(game_id)
            if loaded is None:
                return
            row, now = loaded.row, self.clock()
            if row.deadline_at is None:  # nothing to remind of; never due again this phase
                self.store.set_reminded(game_id, row.phase)
                return
            sent = reminders_sent(self.store, game_id, row.phase)
            due = {
                _seconds(lead)
                for lead in loaded.config.reminders()
                if _seconds(lead) not in sent and row.deadline_at - lead <= now
            }
            if due:
                self._send_reminders(loaded)
            add_reminders_sent(self.store, game_id, row.phase, due)
            remind_at = self._remind_at(loaded.config, row.deadline_at, row.phase)
            self.store.set_deadline(
                game_id, row.deadline_at, override=row.deadline_override, remind_at=remind_at
            )
            if remind_at is None:
                self.store.set_reminded(game_id, row.phase)

    def _send_reminders(self, loaded: Loaded) -> None:
        on_file = self.store.seats_with_orders(loaded.id, loaded.row.phase)
        owed = loaded.engine.owed(loaded.state)
        for player in loaded.players:
            if player.seat in owed and player.seat not in on_file:
                view = loaded.for_seat(player.seat)
                self.mailer.reminder(
                    view, player, self.deadline_text(view), self.nmr_rule(view, player.seat)
                )

    # --- GM overrides ------------------------------------------------------------------
    def extend(self, game_id: str, until: datetime, reason: str | None = None) -> None:
        with self.store.transaction():
            loaded = self.load(game_id)
            assert loaded is not None
            remind_at = self._remind_at(loaded.config, until, loaded.row.phase)
            self.store.set_deadline(game_id, until, override=True, remind_at=remind_at)
            loaded = replace(loaded, row=replace(loaded.row, deadline_at=until))
            self.mailer.announce(loaded, "deadline_moved", reason)

    def pause(self, game_id: str, paused: bool, reason: str | None = None) -> None:
        """Pause: no deadline fires. Resume: a deadline that passed meanwhile is moved to
        the next one the schedule gives from now, so nobody is resolved by surprise; and
        everyone hears what became of the mails sent while the game was paused."""
        with self.store.transaction():
            since = paused_at(self.store, game_id)
            self.store.set_paused(game_id, paused)
            set_paused_at(self.store, game_id, self.clock() if paused else None)
            loaded = self.load(game_id)
            assert loaded is not None
            row = loaded.row
            if not paused and row.deadline_at is not None and row.deadline_at <= self.clock():
                deadline, remind_at = self._schedule(
                    loaded.config, loaded.engine, loaded.state, self.clock()
                )
                self.store.set_deadline(game_id, deadline, override=True, remind_at=remind_at)
                loaded = replace(loaded, row=replace(row, deadline_at=deadline))
            if paused:
                self.mailer.announce(loaded, "game_paused", reason)
            else:
                self.mailer.announce(loaded, "game_resumed", reason, self._pause_mails(since))

    def _pause_mails(self, since: datetime | None) -> Callable[[Loaded, PlayerRow | None], str]:
        """The resume notice's word on the mails sent during the pause: none was read,
        orders from before it stand; a player who wrote is told how many of his were not.
        An observer sends no orders, so he is told nothing of them (None: an observer)."""

        def said(view: Loaded, player: PlayerRow | None) -> str:
            if player is None:
                return ""
            text = "\n\n" + phrase(view.lang, "paused_mails")
            count = refused_while_paused(self.store, player.email, since) if since else 0
            if count:
                text += "\n" + phrase(view.lang, "paused_mails_yours", count=count)
            return text

        return said

    def release(self, game_id: str) -> None:
        """The GM takes a held game back (``gm-daemon resolve`` tries it again)."""
        self.store.set_held(game_id, None)

    def replace_address(
        self, game_id: str, who: str, email: str, reason: str | None = None
    ) -> PlayerRow:
        """The new address gets a mail with the player's code and the state of the game, so
        the new player (or the old one at his new address) can go on at once. The GM's
        reason, when he gives one, is quoted to him and told to the others (the address
        itself stays private)."""
        with self.store.transaction():
            player = self.find_player(game_id, who)
            email = email.strip().lower()
            self._address_free(game_id, player, email)
            self.store.override_email(game_id, player.seat, email)
            loaded = self.load(game_id)
            assert loaded is not None
            player = loaded.player(player.seat)
            view = loaded.for_seat(player.seat)
            report = with_deadline(view, player, self.deadline_text(view))
            body = phrase(view.lang, "replaced", code=player.code, email=player.email)
            body = with_reason(view.lang, body, reason)
            body += "\n\n" + with_private(report, player.seat)
            self.mailer.notice(
                view,
                player,
                view.lang,
                Reply("replaced_subject", body, "replaced"),
                attachments=[*report.attachments, *report.private_attachments.get(player.seat, [])],
            )
            if reason:
                others = replace(loaded, players=tuple(p for p in loaded.players if p != player))
                self.mailer.to_everyone(
                    others,
                    "player-replaced",
                    "player_replaced_subject",
                    lambda view, _: with_reason(
                        view.lang, phrase(view.lang, "player_replaced", name=player.name), reason
                    ),
                )
        return player

    def _address_free(self, game_id: str, player: PlayerRow, email: str) -> None:
        """The config's rules for a new address: every player of a game his own, and no
        observer's (a shared address would make one mail the orders of two seats, or an
        observer's mail orders)."""
        for other in self.store.players(game_id):
            if other.seat != player.seat and other.email.lower() == email:
                raise ValueError(
                    f"{email} is {other.name}'s address in {game_id}; every player needs his own"
                )
        config = self.config.game(game_id) if self.config.has_game(game_id) else None
        for observer in config.observers if config else ():
            if observer.email.lower() == email:
                raise ValueError(
                    f"{email} observes {game_id} ({observer.name}); an address cannot play "
                    "and observe in the same game"
                )

    def find_player(self, game_id: str, who: str) -> PlayerRow:
        from gm_daemon.games.kit.names import of_seats

        players = self.store.players(game_id)
        matches = of_seats(Seat(p.seat, p.name) for p in players).find(who)
        if len(matches) != 1:
            names = ", ".join(p.name for p in players)
            raise LookupError(
                f"{who!r} names {len(matches)} players of {game_id}; players: {names}"
            )
        return next(p for p in players if p.seat == matches[0])

    # --- the record --------------------------------------------------------------------
    def show(self, game_id: str, phase: int) -> str:
        """The result of a past phase, rendered again from the stored record: the public
        report and each seat's private part, marked, for the GM. Records a rollback made
        void follow, each marked so."""
        loaded = self.load(game_id)
        if loaded is None:
            raise LookupError(f"no game {game_id!r} in the config")
        record = self.store.phase_record(game_id, phase)
        voided = self.store.void_records(game_id, phase)
        if record is None and not voided:
            raise LookupError(f"{game_id} has no resolved phase {phase}")
        parts = [] if record is None else [self._shown(loaded, record)]
        for old in voided:
            why = f": {old['void_reason']}" if old["void_reason"] else ""
            head = (
                f"VOID: rolled back to phase {old['void_to']} on {old['voided_at']}{why};"
                " this result no longer counts"
            )
            parts.append(f"{head}\n\n{self._shown(loaded, old)}")
        return "\n\n".join(part.rstrip() for part in parts) + "\n"

    def _shown(self, loaded: Loaded, record: Any) -> str:
        game_id = loaded.id
        parts = [f"{game_id}: {record['label']} ({record['trigger']}, {record['resolved_at']})"]
        before, resolution = recorded(loaded.engine, record)
        if record["trigger"] == END_TRIGGER:
            event = resolution.events[0] if resolution.events else {}
            ranking = resolution.ranking or []
            parts.append(ended_text(replace(loaded, state=before), ranking, event).rstrip())
            return "\n\n".join(parts) + "\n"
        report = loaded.engine.report(before, resolution, loaded.lang)
        parts.append(report.public.rstrip())
        for player in loaded.players:
            private = report.private.get(player.seat, "").strip()
            if private:
                parts.append(f"--- only for {player.name} ---\n{private}")
        names = [a.filename for a in named_for(game_id, report.attachments)]
        if names:
            parts.append("attachments: " + ", ".join(names))
        return "\n\n".join(parts) + "\n"


def _seconds(lead: timedelta) -> int:
    return int(lead.total_seconds())
