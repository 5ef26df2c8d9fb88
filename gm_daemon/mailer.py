"""The one place that turns what happened into outgoing mail.

Intake's verdicts (replies, notices), the referee's results, welcomes and reminders, the GM's
overrides and the notes to the human GM are all composed here and put into the outbox table
inside the caller's transaction (the outbox pattern). Nothing here decides anything about a
game; nothing elsewhere composes a mail.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import BaseModel

from gm_daemon.config import Config, ObserverConfig
from gm_daemon.deadlines import local_text
from gm_daemon.games.kit.layout import wrap
from gm_daemon.games.protocol import Attachment, Report, Resolution
from gm_daemon.mail.compose import compose_bytes, json_attachment, new_message_id
from gm_daemon.rng import commitment
from gm_daemon.store import PlayerRow, Store
from gm_daemon.texts import Text, phrase, render

if TYPE_CHECKING:
    from pathlib import Path

    from gm_daemon.loaded import Loaded


class Reply(NamedTuple):
    """A short answer to one mail: "[game] subject", a greeting and ``body``."""

    subject_key: str
    body: str
    purpose: str


class Mailer:
    def __init__(
        self,
        config: Config,
        store: Store,
        clock: Callable[[], datetime],
        config_path: Path | None = None,
    ):
        self.config = config
        self.store = store
        self.clock = clock
        self.config_path = config_path  # named in the commands the GM is told to run

    def config_name(self) -> str:
        """The config file as the commands a mail tells the GM to run name it: each needs
        ``--config``, and the GM copies the line as it stands (the daemon's and the CLI's
        own file; "CONFIG" where none is known)."""
        return str(self.config_path) if self.config_path else "CONFIG"

    # --- the one way into the outbox -----------------------------------------------------
    def queue(
        self,
        loaded: Loaded | None,
        purpose: str,
        recipient: PlayerRow | str,
        text: Text,
        *,
        in_reply_to: str | None = None,
        attachments: Sequence[Attachment] = (),
    ) -> None:
        """Compose a mail and put it into the outbox (inside the caller's transaction): its
        bytes, built once here, are what the sender sends."""
        mail = self.config.mail
        address = recipient.email if isinstance(recipient, PlayerRow) else recipient
        seat = recipient.seat if isinstance(recipient, PlayerRow) else ""
        game_id = loaded.row.id if loaded else None
        phase = str(loaded.row.phase) if loaded else ""
        owner = game_id or (recipient.game_id if isinstance(recipient, PlayerRow) else None)
        message_id = new_message_id(mail.domain, game_id or "gm", purpose, seat, phase)
        now = self.clock()  # the Date header and the outbox row's moment: the same one
        message = compose_bytes(
            sender=mail.address,
            sender_name=mail.name or phrase(text.lang or "de", "gm_name"),
            to=address,
            subject=text.subject,
            body=text.body,
            message_id=message_id,
            date=now,
            game_id=game_id,
            in_reply_to=in_reply_to,
            attachments=named_for(owner, attachments),
        )
        self.store.enqueue(game_id, purpose, address, message_id, message, now)

    # --- short notices -------------------------------------------------------------------
    @staticmethod
    def notice_text(
        lang: str, player: PlayerRow, subject_key: str, body: str, **subject: str
    ) -> Text:
        """ "[game] subject", a greeting and ``body``; ``subject`` fills the subject's fields."""
        return Mailer.notice_to(lang, player.game_id, player.name, subject_key, body, **subject)

    @staticmethod
    def notice_to(
        lang: str, game_id: str, name: str, subject_key: str, body: str, **subject: str
    ) -> Text:
        """A notice to anyone of a game by name: a player, or an observer (no seat)."""
        return render(
            lang,
            "notice",
            game_id=game_id,
            name=name,
            subject=phrase(lang, subject_key, **subject),
            text=body,
        )

    def notice(
        self,
        loaded: Loaded | None,
        player: PlayerRow,
        lang: str,
        reply: Reply,
        *,
        in_reply_to: str | None = None,
        attachments: Sequence[Attachment] = (),
    ) -> None:
        text = self.notice_text(lang, player, reply.subject_key, reply.body)
        self.queue(
            loaded,
            reply.purpose,
            player,
            text,
            in_reply_to=in_reply_to,
            attachments=attachments,
        )

    def deadline_text(self, loaded: Loaded) -> str:
        """The deadline in force, in local time and the language of ``loaded``."""
        row = loaded.row
        if row.finished:
            return phrase(loaded.lang, "no_deadline_over")
        if row.paused:
            return phrase(loaded.lang, "no_deadline_paused")
        if row.waiting:
            return phrase(
                loaded.lang, "no_deadline_waiting", phase=loaded.phase(), what=row.waiting
            )
        if row.deadline_at is None:
            return phrase(loaded.lang, "no_deadline")
        return local_text(row.deadline_at, self.config.daemon.tz, loaded.lang)

    def site_link(self, loaded: Loaded) -> str:
        """The last line of a welcome or result: the game's page, when [site] has a url."""
        site = self.config.site
        url = site.game_url(loaded.row.id) if site else None
        return phrase(loaded.lang, "site_link", url=url) if url else ""

    def announce(
        self,
        loaded: Loaded,
        key: str,
        reason: str | None = None,
        extra: Callable[[Loaded, PlayerRow | None], str] | None = None,
    ) -> None:
        """Tell every player and observer of a game about a GM override, each in his own
        language, with the deadline now in force, the GM's reason if he gave one, and what
        ``extra`` adds for the player (None: an observer)."""

        def body(view: Loaded, player: PlayerRow | None) -> str:
            text = phrase(
                view.lang,
                key,
                phase_label=view.label(),
                phase=view.phase(),
                deadline=self.deadline_text(view),
            )
            text = with_reason(view.lang, text, reason)
            return text + (extra(view, player) if extra else "")

        self.to_everyone(loaded, key, f"{key}_subject", body)

    def to_everyone(
        self,
        loaded: Loaded,
        purpose: str,
        subject_key: str,
        body: Callable[[Loaded, PlayerRow | None], str],
    ) -> None:
        """One notice per player and observer, each in his language: ``body`` gets the game
        speaking that language and the player (None for an observer)."""
        for player in loaded.players:
            view = loaded.for_seat(player.seat)
            reply = Reply(subject_key, body(view, player), purpose)
            self.notice(view, player, view.lang, reply)
        for observer in loaded.config.observers:
            view = loaded.for_observer(observer)
            said = body(view, None)
            text = self.notice_to(view.lang, loaded.id, observer.name, subject_key, said)
            self.queue(view, purpose, observer.email, text)

    def tell_gm(self, subject: str, body: str, attachments: Sequence[Attachment] = ()) -> None:
        """A note to the human GM (``mail.gm_address``), inside the caller's transaction."""
        address = self.config.mail.gm_address
        if address:
            text = Text(f"[gm-daemon] {subject}", body)
            self.queue(None, "gm-notice", address, text, attachments=attachments)

    # --- game mails ----------------------------------------------------------------------
    def welcome(
        self, loaded: Loaded, recipient: PlayerRow | ObserverConfig, commands: str = ""
    ) -> None:
        """A player's welcome, in his language: his code, his part of the game and the mail
        ``commands``. An observer's: who plays and what he will get, no code (he sends no
        orders) and no player's private part. Both name the phase running and its deadline,
        the seed's commitment and the game's page."""
        if isinstance(recipient, PlayerRow):
            view = loaded.for_seat(recipient.seat)
            report = view.engine.welcome(view.state, recipient.seat, view.lang)
            template, to = "welcome", recipient
            files = attachments(report, recipient.seat)
            values = {
                "code": recipient.code,
                "email": recipient.email,
                "game_text": with_private(report, recipient.seat),
                "commands": commands,
            }
        else:
            view = loaded.for_observer(recipient)
            template, to, files = "welcome-observer", recipient.email, []
            values = {"players": "\n".join(f"  {p.name}" for p in view.players)}
        text = render(
            view.lang,
            template,
            game_id=view.row.id,
            title=view.title,
            game_name=view.game_name(),
            name=recipient.name,
            phase_label=view.label(),
            deadline=self.deadline_text(view),
            seed_text=seed_text(view),
            site_link=self.site_link(view),
            **values,
        )
        self.queue(view, template, to, text, attachments=files)

    def report_to_each(
        self,
        loaded: Loaded,
        purpose: str,
        report_for: Callable[[Loaded, PlayerRow], Report],
        key: str,
        *,
        head: Callable[[Loaded, PlayerRow | None], str] | None = None,
        skip: PlayerRow | None = None,
    ) -> None:
        """A game's report (a new board, the state now) to every player but ``skip``, with
        his own part, in his language; observers hear that the phase runs, with its
        deadline. ``head`` (what happened, for a player or None: an observer) goes first."""
        for player in loaded.players:
            if skip is not None and player.seat == skip.seat:
                continue
            view = loaded.for_seat(player.seat)
            report = report_for(view, player)
            body = _headed(head(view, player) if head else "", with_private(report, player.seat))
            self.notice(
                view,
                player,
                view.lang,
                Reply(f"{key}_subject", body, purpose),
                attachments=attachments(report, player.seat),
            )
        for observer in loaded.config.observers:
            view = loaded.for_observer(observer)
            line = phrase(
                view.lang,
                "next_deadline",
                phase_label=view.label(),
                deadline=self.deadline_text(view),
            )
            body = _headed(head(view, None) if head else "", line)
            text = self.notice_to(view.lang, loaded.id, observer.name, f"{key}_subject", body)
            self.queue(view, purpose, observer.email, text)

    def reminder(self, loaded: Loaded, player: PlayerRow, deadline: str, nmr_rule: str) -> None:
        """``loaded`` speaks the player's language."""
        text = render(
            loaded.lang,
            "reminder",
            game_id=loaded.row.id,
            name=player.name,
            phase_label=loaded.label(),
            phase=loaded.phase(),
            deadline=deadline,
            nmr_rule=nmr_rule,
        )
        self.queue(loaded, "reminder", player, text)

    def results(
        self,
        before: Loaded,
        after: Loaded,
        resolution: Resolution[Any, Any],
        defaults: Mapping[str, BaseModel],
        closing: Callable[[Loaded], str],
        *,
        preview: bool = False,
    ) -> None:
        """The result to every player (public report and his private part) and observer
        (the public report only), each in his language. The report is rendered once per
        language in use, not once per recipient: a club of twenty gets two renderings.
        With ``preview`` each player's mail goes to the GM only, marked, and observers get
        nothing yet: ``gm-daemon publish`` sends them all, rendered again from the record."""
        state_file = self._state_files(before, after, resolution)
        rendered = {
            lang: self._rendered_result(before.speaking(lang), after.speaking(lang), resolution,
                                        defaults, closing)
            for lang in before.languages()
        }  # fmt: skip

        def send(lang: str, recipient: PlayerRow | str, name: str, seat: str | None) -> None:
            report, values = rendered[lang]
            body = with_private(report, seat) if seat else observer_view(report)
            files = attachments(report, seat) if seat else list(report.attachments)
            text = render(lang, "result", name=name, report=body, **values)
            files = [*files, state_file(seat)]
            if preview and isinstance(recipient, PlayerRow):
                self._preview(after, values["phase_label"], recipient, text, files)
            else:
                self.queue(after, "result", recipient, text, attachments=files)

        spoken = before.config.languages_by_seat()
        for player in after.players:
            lang = spoken.get(player.seat, before.config.language)
            send(lang, player, player.name, player.seat)
        if preview:
            return
        for observer in before.config.observers:
            lang = observer.language or before.config.language
            send(lang, observer.email, observer.name, None)

    @staticmethod
    def _state_files(
        before: Loaded, after: Loaded, resolution: Resolution[Any, Any]
    ) -> Callable[[str | None], Attachment]:
        """The JSON file of each result mail, by the seat it goes to (None: an observer).
        An engine with ``mail_state`` (protocol: ``SplitsMailState``) gives a part for all
        and one per seat; without it every mail carries the whole ``public_state``."""
        name = f"{before.row.id}-{before.row.phase}.json"
        head = {
            "game": before.row.id,
            "kind": before.row.kind,
            "phase": after.row.phase,
            "finished": resolution.finished,
        }
        split = getattr(after.engine, "mail_state", None)
        if split is None:
            whole = json_attachment(name, {**head, "state": after.engine.public_state(after.state)})
            return lambda seat: whole
        shared, own = split(after.state, [p.seat for p in after.players])
        for_all = json_attachment(name, {**head, "state": shared})

        def file(seat: str | None) -> Attachment:
            if seat is None:
                return for_all
            return json_attachment(name, {**head, "state": shared, "own": own.get(seat, {})})

        return file

    def _preview(
        self,
        loaded: Loaded,
        phase_label: str,
        player: PlayerRow,
        text: Text,
        files: Sequence[Attachment],
    ) -> None:
        """One player's result mail to the GM, as it will go out, under a marker naming
        the commands that publish or discard it."""
        address = self.config.mail.gm_address
        assert address is not None, "the config requires gm_address for preview = true"
        lang = text.lang or loaded.lang
        marker = phrase(
            lang,
            "preview_marker",
            name=player.name,
            email=player.email,
            game_id=loaded.id,
            phase_label=phase_label,
            config=self.config_name(),
        )
        subject = f"[{loaded.id}] " + phrase(
            lang, "preview_subject", phase_label=phase_label, name=player.name
        )
        body = f"{wrap(marker)}\n\nSubject: {text.subject}\n\n{text.body}"
        self.queue(loaded, "preview", address, Text(subject, body, lang), attachments=files)

    def _rendered_result(
        self,
        before: Loaded,
        after: Loaded,
        resolution: Resolution[Any, Any],
        defaults: Mapping[str, BaseModel],
        closing: Callable[[Loaded], str],
    ) -> tuple[Report, dict[str, str]]:
        """One language's report and the parts of the result mail all its readers share."""
        lang = before.lang
        report = before.engine.report(before.state, resolution, lang)
        state_name = f"{before.row.id}-{before.row.phase}.json"
        values = {
            "game_id": before.row.id,
            "title": before.title,
            "phase_label": before.label(),
            "nmr": self._nmr_text(before, defaults),
            "next": closing(after),
            "state_file": wrap(self._state_file_text(before, state_name)),
            "site_link": self.site_link(before),
        }
        return report, values

    def _state_file_text(self, loaded: Loaded, name: str) -> str:
        """What the attached JSON holds; where a kind sends each player only his own part
        (``mail_state``), also where the whole phase is: its file on the game's site."""
        lang = loaded.lang
        if not hasattr(loaded.engine, "mail_state"):
            return phrase(lang, "state_file", file=name)
        text = phrase(lang, "state_file_own", file=name)
        site = self.config.site
        url = site.game_url(loaded.row.id) if site else None
        if url:
            text += " " + phrase(lang, "state_file_all", url=f"{url}phase-{loaded.row.phase}.json")
        return text

    def _nmr_text(self, loaded: Loaded, defaults: Mapping[str, BaseModel]) -> str:
        """The defaults applied, as the engine describes them; nothing for an engine whose
        report already tells what each default did (``reports_nmr``), so no player is
        listed twice."""
        lang = loaded.lang
        if getattr(loaded.engine, "reports_nmr", False):
            return ""
        if not defaults and loaded.engine.resolves_on_receipt:
            return ""  # "all orders were in" means nothing where one player moves at a time
        if not defaults:
            return "\n" + phrase(lang, "nmr_none") + "\n"
        names = {p.seat: p.name for p in loaded.players}
        lines = ["", phrase(lang, "nmr_heading")]
        for seat, orders in defaults.items():
            described = loaded.engine.describe_orders(loaded.state, seat, orders, lang)
            lines.append(f"- {names.get(seat, seat)}: " + described.strip().replace("\n", "\n  "))
        return "\n".join(lines) + "\n"


def _headed(head: str, text: str) -> str:
    return f"{head.rstrip()}\n\n{text}" if head.strip() else text


def leaves_chance(loaded: Loaded) -> bool:
    """False for a game whose engine says its seed decides nothing (``seed_decides`` empty):
    such a game promises no seed in the welcome and reveals none at the end."""
    decides = getattr(loaded.engine, "seed_decides", None)
    return decides is None or bool(decides.get(loaded.lang))


def seed_text(loaded: Loaded) -> str:
    """The commitment paragraph, saying what the seed decides in this game (the optional
    ``seed_decides`` of the engine); empty for a game that leaves nothing to chance."""
    if not leaves_chance(loaded):
        return ""
    decides = getattr(loaded.engine, "seed_decides", None)
    what = decides[loaded.lang] if decides else phrase(loaded.lang, "seed_decides_default")
    text = phrase(loaded.lang, "seed_promise", commitment=commitment(loaded.row.seed), decides=what)
    return wrap(text)


def observer_view(report: Report) -> str:
    """What an observer reads of a report: the public part, never a seat's own."""
    return report.public.rstrip() + "\n"


def with_reason(lang: str, text: str, reason: str | None) -> str:
    """A notice of a GM's action with his reason quoted under it, when he gave one: every
    override (extend, pause, replace, and the like) says why the same way."""
    if not reason or not reason.strip():
        return text
    return text.rstrip() + "\n\n" + phrase(lang, "gm_reason", reason=" ".join(reason.split()))


def with_deadline(loaded: Loaded, player: PlayerRow, deadline: str, note: str = "") -> Report:
    """The seat's status report with the deadline now in force under it, and why it is not
    the schedule's (``Referee.deadline_note``) when an absence moved it."""
    report = loaded.engine.status(loaded.state, player.seat, loaded.lang)
    line = phrase(loaded.lang, "next_deadline", phase_label=loaded.label(), deadline=deadline)
    line += f"\n{note}" if note else ""
    return replace(report, public=report.public.rstrip() + "\n\n" + line + "\n")


def with_private(report: Report, seat: str) -> str:
    private = report.private.get(seat, "")
    return report.public.rstrip() + ("\n\n" + private.rstrip() if private.strip() else "") + "\n"


def named_for(game_id: str | None, files: Sequence[Attachment]) -> list[Attachment]:
    """Every file of a game's mail is named with the game's id in front (``hl1-1903-
    bewegung.png``), whatever kind of game it is: a player in two games finds each picture
    in his downloads, and two games never send files of the same name. Engines name what a
    file shows; they do not know the id."""
    if game_id is None:
        return list(files)
    prefix = f"{game_id}-"
    return [
        f if f.filename.startswith(prefix) else f._replace(filename=prefix + f.filename)
        for f in files
    ]


def attachments(report: Report, seat: str) -> list[Attachment]:
    return [*report.attachments, *report.private_attachments.get(seat, [])]
