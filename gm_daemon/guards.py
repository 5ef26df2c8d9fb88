"""The guards a mail passes before a game reads it, in the order intake runs them.

Each guard looks at the mail (and what the guards before it learnt: the sender's seats, the
game) and either lets it pass (None) or stops it with a ``Stop``: a summary for the log and
the inbox table, and the answer to send, if any. Guards never send mail themselves and never
change a game; adding a guard is adding an object to ``GUARDS``.
"""

from __future__ import annotations

import functools
import re
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, NamedTuple, Protocol

from gm_daemon.commands import Answer, find
from gm_daemon.config import parse_duration
from gm_daemon.deadlines import local_text
from gm_daemon.games.kit.layout import fit, wrap
from gm_daemon.games.protocol import Header
from gm_daemon.games.text import fold
from gm_daemon.loaded import header_line
from gm_daemon.patterns import on_first_use
from gm_daemon.store import PlayerRow
from gm_daemon.texts import Text, phrase, render

if TYPE_CHECKING:
    from gm_daemon.envelope import Mail, Services

_DONE_WORDS = {"fertig", "done"}
# ``fold`` depends on its text alone; the same short lines ("Hallo,", "Gruß") come in mail
# after mail, and every line of every mail is folded for ``_DONE_WORDS``.
_folded = functools.lru_cache(maxsize=4096)(fold)
_SUBJECT_TOKENS = re.compile(r"[^0-9a-z_.-]+")
_CODE_TOKENS = on_first_use(r"[^0-9a-z-]+")
_BRACKETED = on_first_use(r"\[([^\]\s]+)\]")
_HOUR = timedelta(hours=1)  # made once: a timedelta from keywords costs ~4 k instructions


class Stop(NamedTuple):
    summary: str
    answer: Answer | None = None
    to: PlayerRow | str | None = None  # None: the sender's seat in the game (or his address)


class Guard(Protocol):
    name: str

    def check(self, mail: Mail, services: Services) -> Stop | None: ...


class AutomatedMail:
    """Auto-replies, bounces and list mail are never answered: two robots must not talk."""

    name = "automated mail"

    def check(self, mail: Mail, services: Services) -> Stop | None:
        if mail.incoming.automated:
            return Stop(f"ignored: automated ({mail.incoming.automated})")
        return None


class WritableSender:
    """A sender address no real mailbox has (``@evil.test``, ``a@evil..test``, a name with
    spaces) is never written to, not even "unknown sender": the mail is stored and dropped."""

    name = "sender address"

    def check(self, mail: Mail, services: Services) -> Stop | None:
        if mail.incoming.sender_problem:
            return Stop(f"ignored: sender address ({mail.incoming.sender_problem})")
        return None


class RateLimit:
    """A sender beyond ``max_mails_per_hour`` gets no more answers this hour (a mail loop
    or a flood must not make the daemon a mail cannon). It caps replies, never orders: the
    mail goes on, so forged mails from a player's address cannot silence him; intake sends
    only the acknowledgement of valid orders (``ALWAYS_ANSWERED``) for a quiet mail."""

    name = "rate limit"

    def check(self, mail: Mail, services: Services) -> Stop | None:
        hour_ago = services.clock() - _HOUR
        recent = services.recent_from(mail.incoming.sender, hour_ago, mail.row.id)
        mail.quiet = recent > services.config.mail.max_mails_per_hour
        return None


class GmSender:
    """The GM's own address (``mail.gm_address``) that plays in no game: he is replying to a
    notice of the daemon, and the daemon takes no commands by mail from him. He is told so
    in the club's language, with the CLI commands he most likely wants (a game the subject
    names filled in), rather than the stranger's answer; like a stranger, once per
    ``mail.stranger_reply_every`` (two daemons that name each other as GM must not talk).
    A GM who also plays passes on."""

    name = "gm"

    def check(self, mail: Mail, services: Services) -> Stop | None:
        config = services.config
        sender = mail.incoming.sender
        gm = config.mail.gm_address
        if gm is None or sender.lower() != gm.lower():
            return None
        mail.players = services.referee.seats_of(sender)  # ``KnownSender`` takes them on
        if mail.players:
            return None
        period = parse_duration(config.mail.stranger_reply_every)
        if services.answered_since(sender, "gm-by-mail", services.clock() - period):
            return Stop("the GM's mail: no commands by mail (answered before)")
        lang = config.language
        values = {
            "sender": sender,
            "config": services.mailer.config_name(),
            "game_id": _game_in_subject(services, mail.incoming.subject) or "ID",
        }
        subject = f"[gm-daemon] {phrase(lang, 'gm_by_mail_subject')}"
        # ``wrap``, not ``fit``: the command lines stay whole, for the GM to copy
        text = Text(subject, wrap(phrase(lang, "gm_by_mail", **values)) + "\n", lang)
        return Stop("the GM's mail: no commands by mail", Answer("gm-by-mail", text), sender)


class ObserverSender:
    """An observer's mail is never read as orders. He is told so once, in his language,
    and not again however often he writes (a reply-all to every result must not make a
    conversation); an address that also plays in another game passes on as a player."""

    name = "observer"

    def check(self, mail: Mail, services: Services) -> Stop | None:
        sender = mail.incoming.sender
        mail.players = services.referee.seats_of(sender)  # ``KnownSender`` takes them on
        if mail.players:
            return None
        watched = [
            (game, observer)
            for game in services.config.games
            for observer in game.observers
            if observer.email == sender.lower()
        ]
        if not watched:
            return None
        if services.answered_since(sender, "observer", datetime.min.replace(tzinfo=UTC)):
            return Stop("observer (answered before)")
        game, observer = watched[0]
        lang = observer.language or game.language
        body = phrase(lang, "observer_no_orders", game_id=game.id)
        text = services.mailer.notice_to(
            lang, game.id, observer.name, "observer_no_orders_subject", body
        )
        return Stop("observer", Answer("observer", text), sender)


class KnownSender:
    """Only registered addresses play; a stranger is told so, in both languages, once per
    ``mail.stranger_reply_every``: twenty forged mails in a victim's name make one answer,
    and a robot without auto-reply headers gets one mail, not a conversation."""

    name = "sender"

    def check(self, mail: Mail, services: Services) -> Stop | None:
        if not mail.players:  # a guard before may have looked them up (``ObserverSender``)
            mail.players = services.referee.seats_of(mail.incoming.sender)
        if mail.players:
            return None
        sender = mail.incoming.sender
        period = parse_duration(services.config.mail.stranger_reply_every)
        later = _starts_later(sender, services)
        if later is not None:
            if services.answered_since(sender, "not-begun", services.clock() - period):
                return Stop("player of a game not begun (answered before)")
            return Stop("player of a game not begun", Answer("not-begun", later), sender)
        if services.answered_since(sender, "unknown-sender", services.clock() - period):
            return Stop("unknown sender (answered before)")
        parts = [phrase(lang, "unknown_sender", sender=sender) for lang in ("de", "en")]
        subject = " / ".join(phrase(lang, "unknown_sender_subject") for lang in ("de", "en"))
        text = Text(subject, fit("\n\n".join(parts)) + "\n")  # a reply like every other
        return Stop("unknown sender", Answer("unknown-sender", text), sender)


class ReadableContent:
    """An encrypted mail (S/MIME, PGP) with no line the daemon can read: the player is told,
    in his game's language, that encrypted mail cannot be read, rather than that his code
    is missing. Signing is fine and says nothing: signed mails are read."""

    name = "not encrypted"

    def check(self, mail: Mail, services: Services) -> Stop | None:
        how = mail.incoming.encrypted
        if how is None or mail.envelope.lines:
            return None
        subject = mail.incoming.subject
        named = [p for p in mail.players if _names_game(p.game_id, subject, mail.envelope.game)]
        player = (named or mail.players)[0]
        lang = services.config.game(player.game_id).language_of(player.seat)
        body = phrase(lang, "encrypted", how=how)
        text = services.mailer.notice_text(lang, player, "encrypted_subject", body)
        return Stop(f"not read: encrypted ({how})", Answer("encrypted", text), player)


class OneGame:
    """The game named in the subject or a ``Spiel:`` line, else the sender's only running
    game; a player in several games who names none is asked which one."""

    name = "game"

    def check(self, mail: Mail, services: Services) -> Stop | None:
        players, subject = mail.players, mail.incoming.subject
        named = [p for p in players if _names_game(p.game_id, subject, mail.envelope.game)]
        chosen = named[0] if len(named) == 1 else None
        if chosen is None:
            elsewhere = mail.envelope.game or _other_game_in_subject(services, players, subject)
            if not named and elsewhere:  # a game of this GM, or none, but not the sender's
                return self._ask(mail, services, "not_in_game", given=elsewhere)
            running = [p for p in players if not services.referee.finished(p.game_id)]
            candidates = named or running or players
            if len(candidates) != 1:
                return self._ask(mail, services, "which_game")
            chosen = candidates[0]
        loaded = services.referee.load(chosen.game_id)
        if loaded is None:
            return Stop("game left the config")
        # from here on the game speaks the sender's language: every answer is in it
        mail.game, mail.sender = loaded.for_seat(chosen.seat), loaded.player(chosen.seat)
        return None

    @staticmethod
    def _ask(mail: Mail, services: Services, key: str, **values: str) -> Stop:
        first = mail.players[0]
        lang = services.config.game(first.game_id).language_of(first.seat)
        games = ", ".join(f"[{p.game_id}]" for p in mail.players)
        body = phrase(lang, key, games=games, example=first.game_id, **values)
        text = services.mailer.notice_text(lang, first, "which_game_subject", body)
        return Stop("which game?", Answer(key, text), first)


class ReadBody:
    """Takes the game's phase headers and a leading command word out of the order lines.
    The engine says what its phase header looks like (``Phase: 1902 Bewegung``); the core
    never interprets one. Never stops a mail."""

    name = "phase header and command"

    def check(self, mail: Mail, services: Services) -> Stop | None:
        engine, state = mail.game.engine, mail.game.state
        lines = []
        for written in mail.envelope.lines:
            header = engine.read_header(written.text, state)
            if header is Header.OTHER:
                mail.stale_header = written.text.strip()
            line = written if header is None else header_line(mail.game, written, header)
            if line is None:
                continue
            if line is not written:
                mail.header_lines[line.no] = written.text
            word = _folded(line.text.strip().rstrip(".!"))
            if word in _DONE_WORDS:
                continue
            if not lines and mail.command is None:
                first, _, args = line.text.strip().partition(" ")
                command = find(mail.game, first.rstrip(".!:"))
                if command is not None:
                    mail.command, mail.args = command, args.strip()
                    continue
            lines.append(line)
        mail.lines = lines
        return None


class PlayerCode:
    """Every mail but HELP carries the player's code: letters and digits count, case and
    punctuation do not ("HANS-5678.", "hans 5678" and a code in quotes match HANS-5678)."""

    name = "player code"

    def check(self, mail: Mail, services: Services) -> Stop | None:
        if mail.command is not None and not mail.command.needs_code:
            return None
        if _code_ok(mail.sender, mail):
            return None
        envelope, lang = mail.envelope, mail.game.lang
        if envelope.code is None:
            body = phrase(lang, "bad_code")
        else:
            body = phrase(lang, "wrong_code", line=envelope.code_line, given=envelope.code)
        purpose = "bad_code" if envelope.code is None else "wrong_code"
        return Stop("bad code", Answer(purpose, services.notice(mail, "bad_code_subject", body)))


class GameOpen:
    """Orders only while the game runs, is not paused or waiting for the GM, and the player
    may send orders in this phase."""

    name = "game open"

    def check(self, mail: Mail, services: Services) -> Stop | None:
        if mail.command is not None and not mail.command.needs_open:
            return None
        loaded = mail.game
        lang = loaded.lang
        if loaded.row.waiting and not loaded.row.finished:
            body = phrase(lang, "waiting", phase=loaded.phase(), what=loaded.row.waiting)
            return Stop(
                "refused: waiting",
                Answer("waiting", services.notice(mail, "waiting_subject", body)),
            )
        reason = _refusal(mail)
        if reason is None:
            return None
        key = "game_over" if reason == "reason_finished" else "not_participant"
        body = phrase(lang, key, phase=loaded.phase(), reason=phrase(lang, reason))
        answer = Answer(key, services.notice(mail, "not_participant_subject", body))
        return Stop(f"refused: {reason}", answer)


class NotInPreview:
    """While the GM checks a previewed result, the game shows nothing of it and takes no
    orders: every mail but HELP is answered that the result is being checked."""

    name = "preview"

    def check(self, mail: Mail, services: Services) -> Stop | None:
        loaded = mail.game
        if loaded.row.preview_of is None:
            return None
        if mail.command is not None and not mail.command.needs_code:
            return None
        body = phrase(loaded.lang, "in_preview")
        answer = Answer("in-preview", services.notice(mail, "in_preview_subject", body))
        return Stop("refused: result in preview", answer)


class CurrentPhase:
    """A mail whose phase header names another phase is stale: nothing in it counts, and
    orders already on file stay in force."""

    name = "current phase"

    def check(self, mail: Mail, services: Services) -> Stop | None:
        if mail.stale_header is None or (mail.command and not mail.command.needs_open):
            return None
        loaded = mail.game
        current = loaded.phase()
        if current != loaded.label():  # the label is what the header line must say
            current += f" ({phrase(loaded.lang, 'quoted', text=loaded.label())})"
        body = phrase(
            loaded.lang, "stale", given=mail.stale_header, current=current, phase=loaded.phase()
        )
        return Stop("stale phase", Answer("stale", services.notice(mail, "stale_subject", body)))


class SomethingToRead:
    """A mail without a command and without order lines gets the order format back."""

    name = "orders present"

    def check(self, mail: Mail, services: Services) -> Stop | None:
        if mail.command is not None or mail.lines:
            return None
        return no_orders(mail, services, "empty")


def no_orders(mail: Mail, services: Services, key: str) -> Stop:
    """The answer to a mail without orders: why (``key``: no order lines at all, or only
    greetings), and the order format of the sender's game."""
    loaded, seat = mail.game, mail.sender.seat
    body = phrase(loaded.lang, key) + "\n\n" + loaded.engine.help(loaded.state, seat, loaded.lang)
    return Stop("no orders found", Answer("empty", services.notice(mail, "empty_subject", body)))


GUARDS: tuple[Guard, ...] = (
    AutomatedMail(),
    WritableSender(),
    RateLimit(),
    GmSender(),
    ObserverSender(),
    KnownSender(),
    ReadableContent(),
    OneGame(),
    ReadBody(),
    PlayerCode(),
    NotInPreview(),
    GameOpen(),
    CurrentPhase(),
    SomethingToRead(),
)


def first_stop(mail: Mail, services: Services) -> Stop | None:
    """Run the guards in their order; the first that stops the mail decides."""
    for guard in GUARDS:
        stop = guard.check(mail, services)
        if stop is not None:
            return stop
    return None


# --- helpers -------------------------------------------------------------------------------
def _starts_later(sender: str, services: Services) -> Text | None:
    """The answer to a player of a game whose ``start`` has not come (he has no seat yet):
    when it begins, rather than that his address is unknown."""
    referee = services.referee
    for game in services.config.games:
        start = referee.starts_at(game)
        player = next((p for p in game.players if p.email == sender.lower()), None)
        if start is not None and player is not None:
            lang = game.language_of(player.seat_id())
            when = local_text(start, referee.tz, lang)
            return render(
                lang,
                "notice",
                game_id=game.id,
                name=player.name,
                subject=phrase(lang, "not_begun_subject"),
                text=phrase(lang, "not_begun", game_id=game.id, start=when),
            )
    return None


def _refusal(mail: Mail) -> str | None:
    loaded = mail.game
    if loaded.row.finished:
        return "reason_finished"
    if loaded.row.paused:
        return "reason_paused"
    if mail.sender.seat not in loaded.participating:
        return "reason_out"
    return None


def _code_ok(player: PlayerRow, mail: Mail) -> bool:
    code = _letters_digits(player.code)
    envelope = mail.envelope
    if envelope.code is not None:
        written = envelope.code.split()
        return code in {_letters_digits(envelope.code), _letters_digits(written[0])}
    return player.code.lower() in _CODE_TOKENS.split(mail.incoming.subject.lower())


@functools.lru_cache(maxsize=4096)  # a player's code, and the same code in each of his mails
def _letters_digits(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def _names_game(game_id: str, subject: str, named: str | None) -> bool:
    if named is not None:
        return named.lower() == game_id.lower()
    tokens = _SUBJECT_TOKENS.split(subject.lower())
    return game_id.lower() in tokens


def _game_in_subject(services: Services, subject: str) -> str | None:
    """The first id of a configured game in the subject, as the config spells it: a
    player's mail brackets it ("Re: [hn1] …"), a notice to the GM does not ("[gm-daemon]
    hn1: …")."""
    ids = {g.id.lower(): g.id for g in services.config.games}
    tokens = _SUBJECT_TOKENS.split(subject.lower())
    return next((ids[token] for token in tokens if token in ids), None)


def _other_game_in_subject(
    services: Services, players: list[PlayerRow], subject: str
) -> str | None:
    """A bracketed game id of this GM in the subject ("[hn2]") that is not the sender's."""
    own = {p.game_id.lower() for p in players}
    for token in _BRACKETED.findall(subject):
        if token.lower() not in own and any(
            g.id.lower() == token.lower() for g in services.config.games
        ):
            return token
    return None
