"""Intake: one stored mail in, a verdict and at most one reply out.

Guards run in the order the architecture gives: automated mail (never answered) → rate limit
→ sender → game → player code → command or orders. Each mail is handled in one transaction
together with its reply and the orders it stores, so a crash half-way leaves the mail
unprocessed and it is handled again, whole, after the restart. A mail whose handling raises is
set aside ("shunted") for the GM, and the loop goes on.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from gm_daemon.games.protocol import Attachment, Line, OrdersRejected
from gm_daemon.games.text import fold
from gm_daemon.mail.message import Incoming, order_lines, parse_incoming
from gm_daemon.referee import Loaded, Referee
from gm_daemon.store import InboxRow, PlayerRow, Store
from gm_daemon.texts import Text, phrase, problems_text, render, warnings_text

log = logging.getLogger(__name__)

# Header lines the daemon reads itself. "Code" and the round markers may drop the colon
# ("Code X", "Runde 5"), but a round marker must carry a number, so an order line such as
# "Zug: Nord+" or "Zugabgabe: ..." still reaches the game; "Spiel:" needs its colon.
_HEADER = re.compile(
    r"^\s*[\"'„“‚‘»«]?\s*(?:(?P<game>spiel|game)\s*[:=]\s*(?P<game_id>\S+)"
    r"|(?:mein\s+|my\s+)?code\b\s*[:=]?\s*(?P<code>[^\s:=].*?)"
    r"|(?P<marker>runde|round|zug|turn|phase)\b\s*[:=]?\s*(?P<number>\d+)\b.*"
    r")\s*$",
    re.IGNORECASE,
)
_DONE_WORDS = {"fertig", "done"}
_COMMANDS = {
    "hilfe": "help",
    "help": "help",
    "stand": "status",
    "status": "status",
    "zurueckziehen": "withdraw",
    "withdraw": "withdraw",
}


@dataclass
class Envelope:
    """What the daemon itself reads out of a mail before the game sees it."""

    code: str | None = None
    code_line: int | None = None
    game: str | None = None
    phase: int | None = None
    phase_text: str = ""
    command: str | None = None
    lines: list[Line] = field(default_factory=list)


def read_envelope(lines: Sequence[Line]) -> Envelope:
    """Split header lines (Code, Spiel, Runde …) and a command word from the order lines."""
    envelope = Envelope()
    for line in lines:
        match = _HEADER.match(line.text)
        if match:
            if match["code"]:
                envelope.code = match["code"]
                envelope.code_line = line.no
            elif match["game_id"]:
                envelope.game = match["game_id"].strip("[]\"'„“”»«")
            else:
                envelope.phase_text = line.text.strip()
                envelope.phase = int(match["number"])
            continue
        word = fold(line.text.strip().rstrip(".!"))
        if word in _DONE_WORDS:
            continue
        if not envelope.lines and not envelope.command and word in _COMMANDS:
            envelope.command = _COMMANDS[word]
            continue
        envelope.lines.append(line)
    return envelope


@dataclass(frozen=True)
class Verdict:
    summary: str
    game_id: str = ""
    accepted: bool = False
    phase: int | None = None  # the phase accepted orders are for


class Intake:
    def __init__(self, referee: Referee, store: Store, clock: Callable[[], datetime]):
        self.referee = referee
        self.store = store
        self.clock = clock
        self.config = referee.config

    def process_pending(self) -> list[Verdict]:
        verdicts = []
        for row in self.store.unprocessed():
            verdict = self.process(row)
            verdicts.append(verdict)
            if verdict.accepted and verdict.phase is not None:
                self.referee.resolve_if_complete(verdict.game_id, verdict.phase)
        return verdicts

    def process(self, row: InboxRow) -> Verdict:
        try:
            incoming = parse_incoming(row.raw, self.config.mail.address)
            with self.store.transaction():
                verdict = self._handle(row, incoming)
                self.store.finish_incoming(row.id, "done", verdict.summary, self.clock())
        except Exception as exc:
            log.exception("mail %s could not be processed; shunted", row.key)
            self._shunt(row, exc)
            return Verdict(f"shunted: {exc}")
        log.info("mail %s: %s", row.key, verdict.summary)
        return verdict

    def _shunt(self, row: InboxRow, exc: Exception) -> None:
        with self.store.transaction():
            self.store.finish_incoming(
                row.id, "shunted", f"{type(exc).__name__}: {exc}", self.clock()
            )
            self.referee.tell_gm(
                f"mail #{row.id} set aside",
                f"Mail #{row.id} ({row.key}) could not be processed and was set aside:\n\n"
                f"{type(exc).__name__}: {exc}\n\nThe mail is attached and kept in the database "
                "(gm-daemon status lists it).\n",
                [Attachment(f"mail-{row.id}.eml", "application/octet-stream", row.raw)],
            )
            try:
                incoming = parse_incoming(row.raw, self.config.mail.address)
            except Exception:
                return
            configured = {game.id for game in self.config.games}
            players = [
                p for p in self.store.players_by_email(incoming.sender) if p.game_id in configured
            ]
            if incoming.automated or not players:
                return
            try:  # the mail is set aside whatever happens here: the loop must go on
                lang = self.config.game(players[0].game_id).language
                self._notice(None, players[0], incoming, lang, "error_subject", "error")
            except Exception:
                log.exception("could not tell %s that mail %s was set aside", players, row.key)

    # --- the guards --------------------------------------------------------------------
    def _handle(self, row: InboxRow, incoming: Incoming) -> Verdict:
        if incoming.automated:
            return Verdict(f"ignored: automated ({incoming.automated})")
        hour_ago = self.clock() - timedelta(hours=1)
        recent = self.store.recent_from(incoming.sender, hour_ago, row.id)
        if recent > self.config.mail.max_mails_per_hour:
            return Verdict("ignored: rate limit")
        players = [
            p
            for p in self.store.players_by_email(incoming.sender)
            if self.referee.load(p.game_id) is not None
        ]
        if not players:
            self._unknown_sender(incoming)
            return Verdict("unknown sender")
        envelope = read_envelope(order_lines(incoming.text))
        player = self._choose_game(players, incoming, envelope)
        if player is None:
            return Verdict("which game?")
        loaded = self.referee.load(player.game_id)
        assert loaded is not None
        if envelope.command == "help":
            return self._help(loaded, player, incoming)
        if not self._code_ok(player, incoming, envelope):
            if envelope.code is None:
                self._notice(loaded, player, incoming, loaded.lang, "bad_code_subject", "bad_code")
            else:
                self._notice(
                    loaded,
                    player,
                    incoming,
                    loaded.lang,
                    "bad_code_subject",
                    "wrong_code",
                    line=envelope.code_line,
                    given=envelope.code,
                )
            return Verdict("bad code", player.game_id)
        return self._for_game(row, loaded, player, incoming, envelope)

    def _for_game(
        self,
        row: InboxRow,
        loaded: Loaded,
        player: PlayerRow,
        incoming: Incoming,
        envelope: Envelope,
    ) -> Verdict:
        if envelope.command == "status":
            return self._status(loaded, player, incoming)
        refusal = self._refusal(loaded, player)
        if refusal:
            self._notice(
                loaded,
                player,
                incoming,
                loaded.lang,
                "not_participant_subject",
                "game_over" if refusal == "reason_finished" else "not_participant",
                phase_label=loaded.label(),
                reason=phrase(loaded.lang, refusal),
            )
            return Verdict(f"refused: {refusal}", loaded.row.id)
        if envelope.phase is not None and envelope.phase != loaded.row.phase:
            self._notice(
                loaded,
                player,
                incoming,
                loaded.lang,
                "stale_subject",
                "stale",
                given=envelope.phase_text,
                phase_label=loaded.label(),
            )
            return Verdict("stale phase", loaded.row.id)
        if envelope.command == "withdraw":
            return self._withdraw(loaded, player, incoming)
        if not envelope.lines:
            body = phrase(loaded.lang, "empty") + "\n\n" + loaded.engine.help(loaded.lang)
            self._notice(loaded, player, incoming, loaded.lang, "empty_subject", "empty", body=body)
            return Verdict("no orders found", loaded.row.id)
        return self._orders(row, loaded, player, incoming, envelope.lines)

    def _refusal(self, loaded: Loaded, player: PlayerRow) -> str | None:
        if loaded.row.finished:
            return "reason_finished"
        if loaded.row.paused:
            return "reason_paused"
        if player.seat not in loaded.engine.participants(loaded.state):
            return "reason_out"
        return None

    def _choose_game(
        self, players: list[PlayerRow], incoming: Incoming, envelope: Envelope
    ) -> PlayerRow | None:
        """The game named in the subject or a ``Spiel:`` line; else the sender's only
        running game. None (after asking back) when it stays unclear."""
        named = [p for p in players if _names_game(p.game_id, incoming.subject, envelope.game)]
        if len(named) == 1:
            return named[0]
        lang = self.config.game(players[0].game_id).language
        games = ", ".join(f"[{p.game_id}]" for p in players)
        elsewhere = envelope.game or self._other_game_in_subject(players, incoming.subject)
        if not named and elsewhere:  # a game of this GM, or none, but not the sender's
            self._notice(
                None,
                players[0],
                incoming,
                lang,
                "which_game_subject",
                "not_in_game",
                given=elsewhere,
                games=games,
                example=players[0].game_id,
            )
            return None
        running = [p for p in players if not self.store.game(p.game_id).finished]  # type: ignore[union-attr]
        candidates = named or running or players
        if len(candidates) == 1:
            return candidates[0]
        self._notice(
            None,
            players[0],
            incoming,
            lang,
            "which_game_subject",
            "which_game",
            games=games,
            example=players[0].game_id,
        )
        return None

    def _other_game_in_subject(self, players: list[PlayerRow], subject: str) -> str | None:
        """A bracketed game id of this GM in the subject ("[hn2]") that is not the sender's."""
        own = {p.game_id.lower() for p in players}
        for token in re.findall(r"\[([^\]\s]+)\]", subject):
            if token.lower() not in own and any(
                g.id.lower() == token.lower() for g in self.config.games
            ):
                return token
        return None

    @staticmethod
    def _code_ok(player: PlayerRow, incoming: Incoming, envelope: Envelope) -> bool:
        """Letters and digits count, case and punctuation do not: "HANS-5678.", "hans 5678"
        and a code copied with the welcome mail's quotes all match HANS-5678."""
        code = _letters_digits(player.code)
        if envelope.code is not None:
            written = envelope.code.split()
            return code in {_letters_digits(envelope.code), _letters_digits(written[0])}
        return player.code.lower() in re.split(r"[^0-9a-z-]+", incoming.subject.lower())

    # --- commands ----------------------------------------------------------------------
    def _help(self, loaded: Loaded, player: PlayerRow, incoming: Incoming) -> Verdict:
        text = render(
            loaded.lang,
            "help",
            game_id=loaded.row.id,
            help=loaded.engine.help(loaded.lang).rstrip(),
        )
        self._reply(loaded, player, incoming, "help", text)
        return Verdict("help", loaded.row.id)

    def _status(self, loaded: Loaded, player: PlayerRow, incoming: Incoming) -> Verdict:
        text = render(
            loaded.lang,
            "status",
            game_id=loaded.row.id,
            name=player.name,
            phase_label=loaded.label(),
            status=loaded.engine.status(loaded.state, player.seat, loaded.lang).rstrip(),
            orders=self._orders_on_file(loaded, player),
            deadline=self.referee.deadline_text(loaded),
        )
        self._reply(loaded, player, incoming, "status", text)
        return Verdict("status", loaded.row.id)

    def _withdraw(self, loaded: Loaded, player: PlayerRow, incoming: Incoming) -> Verdict:
        deleted = self.store.delete_orders(loaded.row.id, loaded.row.phase, player.seat)
        if deleted:
            body = phrase(
                loaded.lang,
                "withdrawn",
                phase_label=loaded.label(),
                nmr_rule=self.referee.nmr_rule(loaded, player.seat),
            )
        else:
            body = phrase(loaded.lang, "nothing_to_withdraw")
        self._notice(
            loaded, player, incoming, loaded.lang, "withdrawn_subject", "withdrawn", body=body
        )
        return Verdict("withdrawn" if deleted else "nothing to withdraw", loaded.row.id)

    # --- orders ------------------------------------------------------------------------
    def _orders(
        self,
        row: InboxRow,
        loaded: Loaded,
        player: PlayerRow,
        incoming: Incoming,
        lines: list[Line],
    ) -> Verdict:
        engine, lang = loaded.engine, loaded.lang
        try:
            accepted = engine.read_orders(lines, loaded.state, player.seat, lang)
        except OrdersRejected as rejected:
            text = render(
                lang,
                "rejected",
                game_id=loaded.row.id,
                name=player.name,
                phase_label=loaded.label(),
                problems=problems_text(rejected.problems, lang),
                in_force=self._in_force(loaded, player),
                deadline=self.referee.deadline_text(loaded),
            )
            self._reply(loaded, player, incoming, "rejected", text)
            return Verdict(f"rejected ({len(rejected.problems)} problems)", loaded.row.id)
        self.store.put_orders(
            loaded.row.id,
            loaded.row.phase,
            player.seat,
            accepted.orders.model_dump(mode="json"),
            self.clock(),
            row.id,
        )
        described = engine.describe_orders(loaded.state, player.seat, accepted.orders, lang)
        text = render(
            lang,
            "accepted",
            game_id=loaded.row.id,
            name=player.name,
            phase_label=loaded.label(),
            orders=described.rstrip(),
            warnings=warnings_text(accepted.warnings, lang),
            deadline=self.referee.deadline_text(loaded),
            after=phrase(
                lang, "after_at_once" if self._takes_effect_now(loaded, player) else "after_replace"
            ),
        )
        self._reply(loaded, player, incoming, "accepted", text)
        return Verdict("accepted", loaded.row.id, accepted=True, phase=loaded.row.phase)

    @staticmethod
    def _takes_effect_now(loaded: Loaded, player: PlayerRow) -> bool:
        """A card play by the player on turn is made on receipt: it cannot be replaced."""
        return loaded.engine.resolves_on_receipt and player.seat in loaded.engine.owed(loaded.state)

    def _orders_on_file(self, loaded: Loaded, player: PlayerRow) -> str:
        data = self.store.orders(loaded.row.id, loaded.row.phase).get(player.seat)
        if data is None:
            return phrase(loaded.lang, "no_orders_on_file")
        orders = loaded.engine.Orders.model_validate(data)
        return loaded.engine.describe_orders(
            loaded.state, player.seat, orders, loaded.lang
        ).rstrip()

    def _in_force(self, loaded: Loaded, player: PlayerRow) -> str:
        on_file = self.store.orders(loaded.row.id, loaded.row.phase).get(player.seat)
        if on_file is None:
            return phrase(loaded.lang, "no_orders_on_file")
        return phrase(loaded.lang, "orders_in_force") + "\n" + self._orders_on_file(loaded, player)

    # --- replies -----------------------------------------------------------------------
    def _reply(
        self,
        loaded: Loaded | None,
        player: PlayerRow | str,
        incoming: Incoming,
        purpose: str,
        text: Text,
    ) -> None:
        self.referee.queue(loaded, purpose, player, text, in_reply_to=incoming.message_id)

    def _notice(
        self,
        loaded: Loaded | None,
        player: PlayerRow,
        incoming: Incoming,
        lang: str,
        subject_key: str,
        text_key: str,
        **values: object,
    ) -> None:
        body = values.pop("body", None)
        text = body if isinstance(body, str) else phrase(lang, text_key, **values)
        self.referee.notice(
            loaded,
            player,
            lang,
            subject_key,
            text,
            purpose=text_key,
            in_reply_to=incoming.message_id,
        )

    def _unknown_sender(self, incoming: Incoming) -> None:
        """Answered in both languages: we do not know which one the sender reads."""
        parts = [phrase(lang, "unknown_sender", sender=incoming.sender) for lang in ("de", "en")]
        subject = " / ".join(phrase(lang, "unknown_sender_subject") for lang in ("de", "en"))
        self._reply(
            None,
            incoming.sender,
            incoming,
            "unknown-sender",
            Text(subject, "\n\n".join(parts) + "\n"),
        )


def _letters_digits(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def _names_game(game_id: str, subject: str, named: str | None) -> bool:
    if named is not None:
        return named.lower() == game_id.lower()
    tokens = re.split(r"[^0-9a-z_.-]+", subject.lower())
    return game_id.lower() in tokens
