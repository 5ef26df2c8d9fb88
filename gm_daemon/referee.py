"""The referee: every change to a game, each in one database transaction with its mails.

Starting a game, resolving a phase, reminding late players and the GM's overrides all live
here, between the pure engines and the store. Nothing here touches the network: mails are
queued in the outbox table in the same transaction as the game change they report, and the
outbox sender delivers them later. Time comes from the injected clock.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from typing import Any

from pydantic import BaseModel

from gm_daemon.config import Config, GameConfig, parse_duration
from gm_daemon.deadlines import local_text, next_deadline
from gm_daemon.games import find_game
from gm_daemon.games.protocol import Attachment, Game, Report, Resolution, Seat
from gm_daemon.mail.compose import compose, json_attachment, new_message_id
from gm_daemon.rng import commitment, new_seed, phase_rng
from gm_daemon.store import GameRow, PlayerRow, Store
from gm_daemon.texts import Text, phrase, render

log = logging.getLogger(__name__)

AnyGame = Game[Any, Any, Any]


@dataclass(frozen=True)
class Loaded:
    """A game as stored, with its engine and its config."""

    row: GameRow
    config: GameConfig
    engine: AnyGame
    state: BaseModel

    @property
    def lang(self) -> str:
        return self.config.language

    @property
    def title(self) -> str:
        return self.config.title or self.engine.title.get(self.lang, self.config.id)

    def label(self) -> str:
        return self.engine.phase_label(self.state, self.lang)


def _code() -> str:
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: codes get typed by hand
    return "".join(secrets.choice(alphabet) for _ in range(8))


class Referee:
    def __init__(self, config: Config, store: Store, clock: Callable[[], datetime]):
        self.config = config
        self.store = store
        self.clock = clock
        self.tz = config.daemon.tz
        self._broken: set[tuple[str, int]] = set()  # (game, phase) whose resolution crashed

    # --- loading -----------------------------------------------------------------------
    def load(self, game_id: str) -> Loaded | None:
        row = self.store.game(game_id)
        if row is None:
            return None
        try:
            config = self.config.game(game_id)
        except KeyError:
            return None  # a game removed from the config is left alone, not deleted
        engine = find_game(row.kind)
        return Loaded(row, config, engine, engine.State.model_validate(row.state))

    def seats(self, game_id: str) -> list[Seat]:
        return [Seat(p.seat, p.name) for p in self.store.players(game_id)]

    def deadline_text(self, loaded: Loaded) -> str:
        if loaded.row.deadline_at is None or loaded.row.paused or loaded.row.finished:
            return phrase(loaded.lang, "no_deadline")
        return local_text(loaded.row.deadline_at, self.tz, loaded.lang)

    # --- config sync -------------------------------------------------------------------
    def sync(self) -> list[str]:
        """Bring the database in line with the config: start new games, take over changed
        names, addresses and deadlines. Returns the ids of games started now."""
        started = []
        for game_config in self.config.games:
            if self.store.game(game_config.id) is None:
                self.start_game(game_config)
                started.append(game_config.id)
            else:
                self._update_from_config(game_config)
        return started

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
            for player in game_config.players:
                self.store.update_player_from_config(
                    game_config.id, player.seat_id(), player.name, player.email
                )
            loaded = self.load(game_config.id)
            if loaded and not (loaded.row.finished or loaded.row.deadline_override):
                deadline = self._deadline_for(
                    loaded.config, loaded.engine, loaded.state, loaded.row.phase_started_at
                )
                if deadline != loaded.row.deadline_at:
                    self.store.set_deadline(game_config.id, deadline, override=False)

    def _deadline_for(
        self, config: GameConfig, engine: AnyGame, state: BaseModel, start: datetime
    ) -> datetime:
        return next_deadline(config.deadlines, engine.phase_type(state), start, self.tz)

    def start_game(self, config: GameConfig) -> None:
        engine = find_game(config.kind)
        seats = [Seat(p.seat_id(), p.name) for p in config.players]
        seed = config.seed or new_seed()
        state = engine.start(config.parsed_options(), seats, phase_rng(seed, 0, "start"))
        now = self.clock()
        deadline = self._deadline_for(config, engine, state, now)
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
            for player in config.players:
                self.store.insert_player(
                    config.id,
                    player.seat_id(),
                    player.name,
                    player.email,
                    player.code or _code(),
                )
            loaded = self.load(config.id)
            assert loaded is not None
            for player in self.store.players(config.id):
                self._queue_welcome(loaded, player)
        log.info("game %s started (%s, %d players)", config.id, config.kind, len(seats))

    def _queue_welcome(self, loaded: Loaded, player: PlayerRow) -> None:
        report = loaded.engine.welcome(loaded.state, player.seat, loaded.lang)
        text = render(
            loaded.lang,
            "welcome",
            game_id=loaded.row.id,
            title=loaded.title,
            game_name=_game_name(loaded),
            name=player.name,
            code=player.code,
            email=player.email,
            game_text=_with_private(report, player.seat),
            phase_label=loaded.label(),
            deadline=self.deadline_text(loaded),
            commitment=commitment(loaded.row.seed),
        )
        self.queue(loaded, "welcome", player, text, attachments=_attachments(report, player.seat))

    # --- mail --------------------------------------------------------------------------
    def queue(
        self,
        loaded: Loaded | None,
        purpose: str,
        player: PlayerRow | str,
        text: Text,
        *,
        in_reply_to: str | None = None,
        attachments: list[Attachment] | None = None,
        name: str | None = None,
    ) -> EmailMessage:
        """Compose a mail and put it into the outbox (inside the caller's transaction)."""
        mail = self.config.mail
        recipient = player.email if isinstance(player, PlayerRow) else player
        seat = player.seat if isinstance(player, PlayerRow) else ""
        game_id = loaded.row.id if loaded else None
        phase = str(loaded.row.phase) if loaded else ""
        message_id = new_message_id(mail.domain, game_id or "gm", purpose, seat, phase)
        message = compose(
            sender=mail.address,
            sender_name=mail.name,
            to=recipient,
            subject=text.subject,
            body=text.body,
            message_id=message_id,
            date=self.clock(),
            game_id=game_id,
            in_reply_to=in_reply_to,
            attachments=attachments or [],
        )
        self.store.enqueue(game_id, purpose, recipient, message_id, bytes(message), self.clock())
        return message

    # --- resolution --------------------------------------------------------------------
    def resolve(self, game_id: str, trigger: str, phase: int | None = None) -> bool:
        """Resolve the current phase now (NMR defaults for missing orders). ``phase`` is the
        phase the caller saw: when two triggers race, the second finds the game moved on and
        does nothing, instead of resolving the next phase as well."""
        with self.store.transaction():
            loaded = self.load(game_id)
            if loaded is None or loaded.row.finished:
                return False
            if phase is not None and loaded.row.phase != phase:
                return False
            key = (game_id, loaded.row.phase)
            if key in self._broken:
                return False
            try:
                return self._resolve_locked(loaded, trigger)
            except Exception:
                self._broken.add(key)
                log.exception("resolving %s phase %d failed; game held", game_id, key[1])
                raise

    def _resolve_locked(self, loaded: Loaded, trigger: str) -> bool:
        engine, state, row = loaded.engine, loaded.state, loaded.row
        on_file = {
            seat: engine.Orders.model_validate(data)
            for seat, data in self.store.orders(row.id, row.phase).items()
        }
        nmr = sorted(engine.owed(state) - on_file.keys())
        defaults = {seat: engine.default_orders(state, seat) for seat in nmr}
        orders = {**on_file, **defaults}
        resolution = engine.resolve(state, orders, phase_rng(row.seed, row.phase))
        now = self.clock()
        new_state = resolution.state
        deadline = (
            None
            if resolution.finished
            else self._deadline_for(loaded.config, engine, new_state, now)
        )
        new_phase = engine.phase_number(new_state)
        if new_phase <= row.phase and not resolution.finished:
            raise RuntimeError(f"{row.kind}: phase number did not increase ({new_phase})")
        if not self.store.advance_game(
            row.id,
            row.phase,
            new_state.model_dump(mode="json"),
            new_phase,
            now,
            deadline,
            resolution.finished,
        ):
            return False
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
            new_state.model_dump(mode="json"),
        )
        for seat, carried in resolution.carried.items():
            self.store.put_orders(
                row.id, new_phase, seat, carried.model_dump(mode="json"), now, None
            )
        after = self.load(row.id)
        assert after is not None
        self._queue_results(loaded, after, resolution, defaults)
        log.info(
            "game %s: %s resolved (%s, NMR: %s)",
            row.id,
            loaded.label(),
            trigger,
            ", ".join(nmr) or "none",
        )
        return True

    def _queue_results(
        self,
        before: Loaded,
        after: Loaded,
        resolution: Resolution[Any, Any],
        defaults: Mapping[str, BaseModel],
    ) -> None:
        lang = before.lang
        report = before.engine.report(before.state, resolution, lang)
        seats = {p.seat: p for p in self.store.players(before.row.id)}
        nmr_text = self._nmr_text(before, defaults, seats)
        closing = self._closing_text(after, resolution)
        state_file = json_attachment(
            f"{before.row.id}-{before.row.phase}.json",
            {
                "game": before.row.id,
                "kind": before.row.kind,
                "phase": after.row.phase,
                "finished": resolution.finished,
                "state": after.engine.public_state(after.state),
            },
        )
        for seat, player in seats.items():
            text = render(
                lang,
                "result",
                game_id=before.row.id,
                title=before.title,
                phase_label=before.label(),
                report=_with_private(report, seat),
                nmr=nmr_text,
                next=closing,
            )
            attachments = [*_attachments(report, seat), state_file]
            self.queue(after, "result", player, text, attachments=attachments)

    def _nmr_text(
        self, loaded: Loaded, defaults: Mapping[str, BaseModel], seats: Mapping[str, PlayerRow]
    ) -> str:
        lang = loaded.lang
        if not defaults:
            return "\n" + phrase(lang, "nmr_none") + "\n"
        lines = ["", phrase(lang, "nmr_heading")]
        for seat, orders in defaults.items():
            name = seats[seat].name if seat in seats else seat
            described = loaded.engine.describe_orders(loaded.state, seat, orders, lang)
            lines.append(f"- {name}: " + described.strip().replace("\n", "\n  "))
        return "\n".join(lines) + "\n"

    def _closing_text(self, after: Loaded, resolution: Resolution[Any, Any]) -> str:
        lang = after.lang
        if resolution.finished:
            reveal = phrase(
                lang, "seed_reveal", seed=after.row.seed, commitment=commitment(after.row.seed)
            )
            return "\n" + phrase(lang, "final_heading") + "\n" + reveal + "\n"
        return f"\n{phrase(lang, 'next_deadline')} {after.label()}: {self.deadline_text(after)}\n"

    # --- the clock's work --------------------------------------------------------------
    def due(self) -> list[str]:
        """Resolve every phase whose deadline has passed (or whose orders are all in, where
        the game allows early resolution) and send due reminders. Returns what it did."""
        done = []
        now = self.clock()
        for row in self.store.games():
            if row.finished or row.paused or self.load(row.id) is None:
                continue
            if row.deadline_at is not None and row.deadline_at <= now:
                if self._try_resolve(row.id, "deadline", row.phase):
                    done.append(f"{row.id}: deadline")
            elif self.all_orders_in(row.id):
                if self._try_resolve(row.id, "all orders in", row.phase):
                    done.append(f"{row.id}: all orders in")
            elif self._reminder_due(row, now):
                self.remind(row.id)
                done.append(f"{row.id}: reminder")
        return done

    def _try_resolve(self, game_id: str, trigger: str, phase: int) -> bool:
        try:
            return self.resolve(game_id, trigger, phase)
        except Exception as exc:  # logged in resolve; the loop must go on for the other games
            with self.store.transaction():
                self.tell_gm(
                    f"{game_id}: resolving phase {phase} failed",
                    f"Resolving {game_id}, phase {phase} ({trigger}) failed:\n\n"
                    f"{type(exc).__name__}: {exc}\n\nThe game is held; nothing was changed. "
                    "After a fix, restart the daemon or run gm-daemon resolve.\n",
                )
            return False

    def resolve_if_complete(self, game_id: str, phase: int) -> bool:
        """Right after accepted orders: a card play (or the last missing order of a game
        with ``resolve_early``) resolves at once instead of waiting for the next cycle."""
        return self.all_orders_in(game_id) and self._try_resolve(game_id, "all orders in", phase)

    def all_orders_in(self, game_id: str) -> bool:
        loaded = self.load(game_id)
        if loaded is None or loaded.row.finished or loaded.row.paused:
            return False
        early = loaded.engine.resolves_on_receipt or loaded.config.resolve_early
        if not early:
            return False
        owed = loaded.engine.owed(loaded.state)
        return bool(owed) and owed <= self.store.orders(game_id, loaded.row.phase).keys()

    def _reminder_due(self, row: GameRow, now: datetime) -> bool:
        config = self.config.game(row.id)
        if config.reminder is None or row.deadline_at is None or row.reminded_phase >= row.phase:
            return False
        return now >= row.deadline_at - parse_duration(config.reminder)

    def remind(self, game_id: str) -> None:
        with self.store.transaction():
            loaded = self.load(game_id)
            if loaded is None:
                return
            on_file = self.store.orders(game_id, loaded.row.phase)
            owed = loaded.engine.owed(loaded.state)
            for player in self.store.players(game_id):
                if player.seat in owed and player.seat not in on_file:
                    self.queue(
                        loaded,
                        "reminder",
                        player,
                        render(
                            loaded.lang,
                            "reminder",
                            game_id=game_id,
                            name=player.name,
                            phase_label=loaded.label(),
                            deadline=self.deadline_text(loaded),
                            nmr_rule=self.nmr_rule(loaded, player.seat),
                        ),
                    )
            self.store.set_reminded(game_id, loaded.row.phase)

    def nmr_rule(self, loaded: Loaded, seat: str) -> str:
        defaults = loaded.engine.default_orders(loaded.state, seat)
        return loaded.engine.describe_orders(loaded.state, seat, defaults, loaded.lang).strip()

    def wakeups(self) -> dict[str, datetime]:
        """Each running game's next deadline or reminder time."""
        moments = {}
        for row in self.store.games():
            if row.finished or row.paused or row.deadline_at is None:
                continue
            moment = row.deadline_at
            config = next((g for g in self.config.games if g.id == row.id), None)
            if config and config.reminder and row.reminded_phase < row.phase:
                moment = min(moment, row.deadline_at - parse_duration(config.reminder))
            moments[row.id] = moment
        return moments

    # --- GM overrides ------------------------------------------------------------------
    def extend(self, game_id: str, until: datetime) -> None:
        with self.store.transaction():
            self.store.set_deadline(game_id, until, override=True)
            self._announce(game_id, "deadline_moved")

    def _announce(self, game_id: str, key: str) -> None:
        """Tell every player of a game about a GM override, with the deadline now in force."""
        loaded = self.load(game_id)
        if loaded is None:
            return
        body = phrase(
            loaded.lang, key, phase_label=loaded.label(), deadline=self.deadline_text(loaded)
        )
        for player in self.store.players(game_id):
            self.notice(loaded, player, loaded.lang, f"{key}_subject", body, purpose=key)

    def notice(
        self,
        loaded: Loaded | None,
        player: PlayerRow,
        lang: str,
        subject_key: str,
        body: str,
        *,
        purpose: str,
        in_reply_to: str | None = None,
    ) -> None:
        """A short mail to one player: "[game] subject", a greeting and ``body``."""
        text = render(
            lang,
            "notice",
            game_id=player.game_id,
            name=player.name,
            subject=phrase(lang, subject_key),
            text=body,
        )
        self.queue(loaded, purpose, player, text, in_reply_to=in_reply_to)

    def tell_gm(self, subject: str, body: str, attachments: list[Attachment] | None = None) -> None:
        """A note to the human GM (``mail.gm_address``), inside the caller's transaction."""
        address = self.config.mail.gm_address
        if address:
            self.queue(
                None,
                "gm-notice",
                address,
                Text(f"[gm-daemon] {subject}", body),
                attachments=attachments,
            )

    def pause(self, game_id: str, paused: bool) -> None:
        """Pause: no deadline fires. Resume: a deadline that passed meanwhile is moved to
        the next one the schedule gives from now, so nobody is resolved by surprise."""
        with self.store.transaction():
            self.store.set_paused(game_id, paused)
            loaded = self.load(game_id)
            if (
                not paused
                and loaded
                and loaded.row.deadline_at is not None
                and (loaded.row.deadline_at <= self.clock())
            ):
                deadline = self._deadline_for(
                    loaded.config, loaded.engine, loaded.state, self.clock()
                )
                self.store.set_deadline(game_id, deadline, override=True)
            self._announce(game_id, "game_paused" if paused else "game_resumed")

    def replace_address(self, game_id: str, who: str, email: str) -> PlayerRow:
        with self.store.transaction():
            player = self.find_player(game_id, who)
            self.store.override_email(game_id, player.seat, email.strip().lower())
        return next(p for p in self.store.players(game_id) if p.seat == player.seat)

    def find_player(self, game_id: str, who: str) -> PlayerRow:
        from gm_daemon.games.text import fold, match_seat

        players = self.store.players(game_id)
        matches = match_seat(who, [Seat(p.seat, p.name) for p in players])
        if not matches:  # the GM may type just a first name: any whole word of the name
            words = set(fold(who).split())
            matches = [
                Seat(p.seat, p.name)
                for p in players
                if words and words <= set(fold(p.name).replace(".", " ").split())
            ]
        if len(matches) != 1:
            names = ", ".join(p.name for p in players)
            raise LookupError(
                f"{who!r} names {len(matches)} players of {game_id}; players: {names}"
            )
        return next(p for p in players if p.seat == matches[0].id)


def _game_name(loaded: Loaded) -> str:
    """ "Club round" (High Noon), or just "High Noon" when the game has no title of its own."""
    kind = loaded.engine.title.get(loaded.lang, loaded.row.kind)
    return f'"{loaded.title}"' + (f" ({kind})" if loaded.title != kind else "")


def _with_private(report: Report, seat: str) -> str:
    private = report.private.get(seat, "")
    return report.public.rstrip() + ("\n\n" + private.rstrip() if private.strip() else "") + "\n"


def _attachments(report: Report, seat: str) -> list[Attachment]:
    return [*report.attachments, *report.private_attachments.get(seat, [])]
