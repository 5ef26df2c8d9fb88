"""Intake: one stored mail in, a verdict and at most one reply out.

The way of a mail: decode it, read the envelope (code and game lines), run the guards of
``guards.GUARDS`` in their order, then run the command the mail starts with or read its
orders through the game's engine. Each mail is handled in one transaction together with its
reply and the orders it stores, so a crash half-way leaves the mail unprocessed and it is
handled again, whole, after the restart. A mail whose handling raises is set aside
("shunted") for the GM, and the loop goes on. Replies are composed by the mailer; orders are
stored by the referee; intake itself only keeps the inbox table.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import NamedTuple

from gm_daemon.commands import Answer
from gm_daemon.config import Config
from gm_daemon.envelope import Mail, Services, read_envelope
from gm_daemon.games.protocol import (
    Attachment,
    OrdersRejected,
)
from gm_daemon.greetings import OnlyGreetings, read_orders
from gm_daemon.guards import Stop, first_stop, no_orders
from gm_daemon.loaded import Loaded, as_written
from gm_daemon.mail.message import Incoming, order_lines, parse_incoming
from gm_daemon.mailer import Reply
from gm_daemon.referee import Referee
from gm_daemon.store import InboxRow, PlayerRow, Store
from gm_daemon.texts import phrase, refusal_text, render, warnings_text, with_warnings

log = logging.getLogger(__name__)

# Answers sent even beyond the sender's rate limit: a player's valid orders are always
# acknowledged, so forged mails in his name cannot make him believe his orders were lost;
# only orders that repeat those on file (a client in a loop) go unanswered then.
ALWAYS_ANSWERED = frozenset({"accepted"})
# Commands after which the game may owe nothing more this phase (a player on turn resigned
# and the next one has a plan on file): the phase is checked for completion, as after orders.
CHANGES_WHO_OWES = frozenset({"resigned"})


class Verdict(NamedTuple):
    summary: str
    game_id: str = ""
    accepted: bool = False
    phase: int | None = None  # the phase accepted orders are for
    owed_changed: bool = False  # a command changed who owes orders (``CHANGES_WHO_OWES``)


class Intake:
    def __init__(self, referee: Referee, store: Store, clock: Callable[[], datetime]):
        self.referee = referee
        self.mailer = referee.mailer
        self.store = store
        self.clock = clock
        # Mails the fetch just decoded to store them, by mailbox key: intake takes each
        # once instead of decoding it a second time (a restart decodes from the raw mail).
        self.decoded: dict[str, Incoming] = {}
        self.services = Services(
            referee, self.mailer, clock, store.recent_from, store.answered_since
        )

    @property
    def config(self) -> Config:
        return self.referee.config

    def process_pending(self) -> list[Verdict]:
        return [self.handle(row) for row in self.store.unprocessed()]

    def handle(self, row: InboxRow) -> Verdict:
        """One stored mail: processed in its transaction, then, when it completed a phase,
        the phase resolved in a transaction of its own."""
        loaded, verdict = self.process(row)
        if verdict.accepted and loaded is not None:
            self.referee.resolve_if_complete(loaded, verdict.phase)
        elif verdict.owed_changed:
            changed = self.referee.load(verdict.game_id)
            if changed is not None and not changed.row.finished:
                self.referee.resolve_if_complete(changed)
        return verdict

    def process(self, row: InboxRow) -> tuple[Loaded | None, Verdict]:
        try:
            incoming = self.decoded.pop(row.key, None) or parse_incoming(
                row.raw, self.config.mail.address
            )
            if incoming.unreadable:
                return None, self._set_aside(row, incoming)
            with self.store.transaction():
                mail = Mail(row, incoming, read_envelope(order_lines(incoming.text)))
                verdict = self._handle(mail)
                if mail.withheld:
                    verdict = verdict._replace(summary=f"{verdict.summary}; {mail.withheld}")
                self.store.finish_incoming(row.id, "done", verdict.summary, self.clock())
        except Exception as exc:
            log.exception("mail %s could not be processed; shunted", row.key)
            self._shunt(row, exc)
            return None, Verdict(f"shunted: {exc}")
        log.info("mail %s: %s", row.key, verdict.summary)
        return mail.game_or_none, verdict

    def _handle(self, mail: Mail) -> Verdict:
        stop = first_stop(mail, self.services)
        if stop is not None:
            return self._stopped(mail, stop)
        if mail.command is not None:
            answer = mail.command.run(mail, mail.args, self.services)
            self._reply(mail, answer)
            changed = answer.purpose in CHANGES_WHO_OWES
            return Verdict(answer.purpose.replace("-", " "), mail.game.id, owed_changed=changed)
        return self._orders(mail)

    def _stopped(self, mail: Mail, stop: Stop) -> Verdict:
        if stop.answer is not None:
            self._reply(mail, stop.answer, stop.to)
        game = mail.game_or_none
        return Verdict(stop.summary, game.id if game else "")

    # --- orders ------------------------------------------------------------------------
    def _orders(self, mail: Mail) -> Verdict:
        loaded, player = mail.game, mail.sender
        engine, lang = loaded.engine, loaded.lang
        on_file = self.referee.orders_on_file(loaded, player.seat)
        try:
            accepted = read_orders(engine, mail.lines, loaded.state, player.seat, lang, on_file)
        except OnlyGreetings:
            return self._stopped(mail, no_orders(mail, self.services, "only_greetings"))
        except OrdersRejected as rejected:
            text = render(
                lang,
                "rejected",
                game_id=loaded.id,
                name=player.name,
                phase_label=loaded.label(),
                problems=refusal_text(
                    as_written(rejected.problems, mail.header_lines),
                    as_written(rejected.warnings, mail.header_lines),
                    lang,
                ),
                in_force=self._in_force(loaded, player, on_file),
                deadline=self.referee.deadline_text(loaded),
            )
            self._reply(mail, Answer("rejected", text))
            return Verdict(f"rejected ({len(rejected.problems)} problems)", loaded.id)
        self.referee.store_orders(loaded, player.seat, accepted.orders, mail.row.id)
        if mail.quiet and accepted.orders == on_file:  # a client in a loop: nothing new to say
            mail.withheld = "no reply: rate limit, the orders on file repeated"
            return Verdict("accepted", loaded.id, accepted=True, phase=loaded.row.phase)
        described = engine.describe_orders(loaded.state, player.seat, accepted.orders, lang)
        at_once = engine.resolves_on_receipt and player.seat in engine.owed(loaded.state)
        # a game that resolves each play on receipt (one player moves at a time) says what
        # happens now, or that the orders wait for the sender's turn, not a round's deadline
        template = "accepted"
        if engine.resolves_on_receipt:
            template = "accepted-now" if at_once else "accepted-later"
        text = render(
            lang,
            template,
            game_id=loaded.id,
            name=player.name,
            phase_label=loaded.label(),
            phase=loaded.phase(),
            orders=described.rstrip(),
            warnings=warnings_text(as_written(accepted.warnings, mail.header_lines), lang),
            with_warnings=with_warnings(lang, accepted.warnings),
            deadline=self.referee.deadline_text(loaded),
            after=phrase(lang, "after_replace"),
        )
        self._reply(mail, Answer("accepted", text))
        return Verdict("accepted", loaded.id, accepted=True, phase=loaded.row.phase)

    def _in_force(self, loaded: Loaded, player: PlayerRow, on_file: object) -> str:
        if on_file is None:
            return phrase(loaded.lang, "no_orders_on_file")
        described = loaded.engine.describe_orders(loaded.state, player.seat, on_file, loaded.lang)
        return phrase(loaded.lang, "orders_in_force") + "\n" + described.rstrip()

    # --- replies -----------------------------------------------------------------------
    def _reply(self, mail: Mail, answer: Answer, to: PlayerRow | str | None = None) -> None:
        if mail.quiet and answer.purpose not in ALWAYS_ANSWERED:
            mail.withheld = "no reply: rate limit"
            return
        recipient = to or mail.sender_or_none or mail.incoming.sender
        game = mail.game_or_none
        if not isinstance(recipient, PlayerRow) or (game and game.id != recipient.game_id):
            game = None
        self.mailer.queue(
            game,
            answer.purpose,
            recipient,
            answer.text,
            in_reply_to=mail.incoming.message_id,
            attachments=answer.attachments,
        )

    # --- mails that could not be handled ------------------------------------------------
    def _set_aside(self, row: InboxRow, incoming: Incoming) -> Verdict:
        """A mail whose structure cannot be read is kept raw and never answered. The GM gets
        it once, when it claims to come from one of his players (and that address is not
        flooding us); a stranger's broken mail never makes the daemon write to anyone."""
        summary = f"set aside: unreadable ({incoming.unreadable})"
        hour_ago = self.clock() - timedelta(hours=1)
        tell = (
            not incoming.sender_problem
            and bool(self.referee.seats_of(incoming.sender))
            and self.store.recent_from(incoming.sender, hour_ago, row.id)
            <= self.config.mail.max_mails_per_hour
        )
        with self.store.transaction():
            self.store.finish_incoming(row.id, "shunted", summary, self.clock())
            if tell:
                self._tell_gm(
                    row,
                    f"mail #{row.id} from {incoming.sender} set aside",
                    f"Mail #{row.id} ({row.key}) from {incoming.sender} cannot be read:\n"
                    f"{incoming.unreadable}.\n\nIt was not answered.",
                )
        log.warning("mail %s: %s", row.key, summary)
        return Verdict(summary)

    def _tell_gm(self, row: InboxRow, subject: str, what: str, after_fix: str = "") -> None:
        """The GM hears of a mail set aside, with the raw mail attached."""
        self.mailer.tell_gm(
            subject,
            f"{what}\n\nThe mail is attached and kept in the database "
            f"(gm-daemon shunt show {row.id}{after_fix}).\n",
            [Attachment(f"mail-{row.id}.eml", "application/octet-stream", row.raw)],
        )

    def _shunt(self, row: InboxRow, exc: Exception) -> None:
        with self.store.transaction():
            self.store.finish_incoming(
                row.id, "shunted", f"{type(exc).__name__}: {exc}", self.clock()
            )
            self._tell_gm(
                row,
                f"mail #{row.id} set aside",
                f"Mail #{row.id} ({row.key}) could not be processed and was set aside:\n\n"
                f"{type(exc).__name__}: {exc}",
                f"; after a fix: gm-daemon shunt retry {row.id}",
            )
            try:
                incoming = parse_incoming(row.raw, self.config.mail.address)
            except Exception:
                return
            players = self.referee.seats_of(incoming.sender)
            if incoming.automated or not players:
                return
            try:  # the mail is set aside whatever happens here: the loop must go on
                lang = self.config.game(players[0].game_id).language_of(players[0].seat)
                reply = Reply("error_subject", phrase(lang, "error"), "error")
                self.mailer.notice(None, players[0], lang, reply, in_reply_to=incoming.message_id)
            except Exception:
                log.exception("could not tell %s that mail %s was set aside", players, row.key)
