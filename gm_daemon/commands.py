"""Mail commands as small objects: names in both languages, a help line, a handler.

A command is the first word of the first line a mail has after its header lines
(``HILFE``, ``STAND``, ``BILD Anna``). The daemon's own three are below; a game kind adds
its own through the protocol's ``commands`` (``KARTE``, ``BILD <Name>``), wrapped here so
that both kinds look alike to intake. HELP and the welcome's list of commands are generated
from these objects, so they cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from gm_daemon.absences import AbsenceProblem, read_request, usage_example
from gm_daemon.games.kit.layout import table
from gm_daemon.games.protocol import Attachment, CommandError, GameCommand
from gm_daemon.games.text import fold
from gm_daemon.loaded import Loaded, can_leave, game_commands, leave_meaning
from gm_daemon.mailer import attachments, with_private
from gm_daemon.store import AbsenceRow, from_iso, iso
from gm_daemon.texts import Text, phrase, render

if TYPE_CHECKING:
    from gm_daemon.envelope import Mail, Services


class Answer(NamedTuple):
    """What a command (or a guard) says back: a whole mail for the sender."""

    purpose: str
    text: Text
    attachments: Sequence[Attachment] = ()


class Command(NamedTuple):
    names: Mapping[str, tuple[str, ...]]  # per language; the first one is shown
    usage: Mapping[str, str]
    help_key: str  # phrase key of the help line, or "" when ``help`` gives the line
    run: Callable[[Mail, str, Services], Answer]
    needs_code: bool = True  # HELP answers without the code: the player may have lost it
    needs_open: bool = False  # only while the player may send orders (WITHDRAW)
    help: Mapping[str, str] = MappingProxyType({})  # read only: one empty mapping for all

    def matches(self, word: str) -> bool:
        return any(fold(word) == fold(name) for names in self.names.values() for name in names)

    def line(self, lang: str) -> tuple[str, str]:
        names = self.names.get(lang) or self.names["en"]
        usage = self.usage.get(lang, "")
        text = phrase(lang, self.help_key) if self.help_key else self.help.get(lang, "")
        return (f"{names[0]} {usage}".strip(), text)


# --- the daemon's own commands ---------------------------------------------------------------
def _help(mail: Mail, args: str, services: Services) -> Answer:
    loaded, player = mail.game, mail.sender
    text = render(
        loaded.lang,
        "help",
        game_id=loaded.id,
        name=player.name,
        help=loaded.engine.help(loaded.state, player.seat, loaded.lang).rstrip(),
        commands=listing(loaded),
    )
    return Answer("help", text)


def _status(mail: Mail, args: str, services: Services) -> Answer:
    loaded, player = mail.game, mail.sender
    report = loaded.engine.status(loaded.state, player.seat, loaded.lang)
    text = render(
        loaded.lang,
        "status",
        game_id=loaded.id,
        name=player.name,
        phase_label=loaded.label(),
        status=with_private(report, player.seat).rstrip(),
        orders=_orders_on_file(mail, services),
        deadline=_deadline_with_note(loaded, services),
    )
    return Answer("status", text, attachments(report, player.seat))


def _deadline_with_note(loaded: Loaded, services: Services) -> str:
    """The deadline, and why it is not the schedule's when an absence moved it."""
    note = services.referee.deadline_note(loaded)
    deadline = services.referee.deadline_text(loaded)
    return f"{deadline}\n{note}" if note else deadline


def _orders_on_file(mail: Mail, services: Services) -> str:
    """The sender's orders for the phase now open; none for a finished game, which has no
    phase to send orders for."""
    loaded, seat = mail.game, mail.sender.seat
    if loaded.row.finished:
        return ""
    heading = phrase(loaded.lang, "your_orders", phase=loaded.phase())
    orders = services.referee.orders_on_file(loaded, seat)
    if orders is None:
        return f"{heading}\n{phrase(loaded.lang, 'no_orders_on_file')}"
    described = loaded.engine.describe_orders(loaded.state, seat, orders, loaded.lang)
    return f"{heading}\n{described.rstrip()}"


def _withdraw(mail: Mail, args: str, services: Services) -> Answer:
    loaded, player = mail.game, mail.sender
    if services.referee.withdraw(loaded, player.seat):
        body = phrase(
            loaded.lang,
            "withdrawn",
            phase=loaded.phase(),
            nmr_rule=services.referee.nmr_rule(loaded, player.seat),
        )
        purpose = "withdrawn"
    else:
        body = phrase(loaded.lang, "nothing_to_withdraw")
        purpose = "nothing-to-withdraw"
    return Answer(purpose, services.notice(mail, "withdrawn_subject", body))


def _absent(mail: Mail, args: str, services: Services) -> Answer:
    """ABWESEND: list, announce or cancel the sender's absences in this game."""
    loaded, player = mail.game, mail.sender
    register, lang = services.referee.absence_register, loaded.lang
    try:
        request = read_request(args)
        if request.action == "add":
            assert request.first is not None and request.last is not None
            absence = register.announce(loaded, player.seat, request.first, request.last)
            body = phrase(lang, "absence_taken", first=absence.first_day, last=absence.last_day)
            body += _running_phase_note(mail, services, absence)
            purpose = "absence-taken"
        elif request.action == "cancel":
            dropped = register.cancel(loaded.id, player.seat)
            key = "absence_cancelled" if dropped else "absence_none_to_cancel"
            key = key if dropped or loaded.config.absences.enabled else "absence_off"
            body = phrase(lang, key, listing=_dates(dropped, lang))
            purpose = "absence-cancelled"
        else:
            body = _listing(mail, services)
            purpose = "absence-list"
    except AbsenceProblem as problem:
        body = phrase(lang, problem.key, **problem.values)
        if problem.key != "absence_off":  # how to use a command the game does not offer: no
            body += "\n\n" + _usage(mail, services)
        purpose = "absence-refused"
    return Answer(purpose, services.notice(mail, "absence_subject", body))


def _running_phase_note(mail: Mail, services: Services, absence: AbsenceRow) -> str:
    """The round already running keeps its deadline even when it falls into the new
    absence: said, so the player does not count on it."""
    row = mail.game.row
    if row.deadline_at is None:
        return ""
    day = row.deadline_at.astimezone(services.referee.tz).date()
    if not absence.first_day <= day <= absence.last_day:
        return ""
    deadline = services.referee.deadline_text(mail.game)
    return "\n\n" + phrase(mail.game.lang, "absence_running_phase", deadline=deadline)


def _listing(mail: Mail, services: Services) -> str:
    loaded, lang = mail.game, mail.game.lang
    if not loaded.config.absences.enabled:
        return phrase(lang, "absence_off")
    own = services.referee.absence_register.running(loaded.id, mail.sender.seat)
    limits = loaded.config.absences
    key = "absence_list" if own else "absence_list_none"
    text = phrase(lang, key, listing=_dates(own, lang))
    limits_text = phrase(
        lang, "absence_limits", max_days=limits.max_days, max_per_player=limits.max_per_player
    )
    return f"{text}\n\n{limits_text}\n\n{_usage(mail, services)}"


def _usage(mail: Mail, services: Services) -> str:
    """How to use ABWESEND, with an absence this game would take if sent as it stands."""
    today = services.referee.absence_register.today()
    first, last = usage_example(today, mail.game.config.absences)
    dotted = f"{first.day}.{first.month}.{first.year}"
    return phrase(mail.game.lang, "absence_usage", first=first, last=last, first_dotted=dotted)


def _dates(rows: Sequence[AbsenceRow], lang: str) -> str:
    return "\n".join(
        "  " + phrase(lang, "absence_span", first=a.first_day, last=a.last_day) for a in rows
    )


HELP = Command({"de": ("HILFE",), "en": ("HELP",)}, {}, "cmd_help", _help, needs_code=False)
STATUS = Command({"de": ("STAND",), "en": ("STATUS",)}, {}, "cmd_status", _status)
WITHDRAW = Command(
    {"de": ("ZURÜCKZIEHEN",), "en": ("WITHDRAW",)},
    {},
    "cmd_withdraw",
    _withdraw,
    needs_open=True,
)
ABSENT = Command(
    {"de": ("ABWESEND",), "en": ("ABSENT",)},
    {"de": "[VON bis BIS]", "en": "[FROM to TO]"},
    "cmd_absent",
    _absent,
)
CORE: tuple[Command, ...] = (HELP, STATUS, WITHDRAW, ABSENT)


# --- resigning: AUFGEBEN, then AUFGEBEN BESTÄTIGT within a day ---------------------------------
RESIGN_WINDOW = timedelta(hours=24)
_CONFIRMED = {fold(word) for word in ("BESTÄTIGT", "BESTAETIGT", "CONFIRMED", "CONFIRM")}


def _resign(mail: Mail, args: str, services: Services) -> Answer:
    """A resignation counts only when confirmed by a second mail within a day: a forged or
    hasty mail alone changes nothing."""
    loaded, player = mail.game, mail.sender
    store, lang = services.referee.store, loaded.lang
    asked_note = f"resign:{loaded.id}:{player.seat}"
    if loaded.row.finished or store.note(f"left:{loaded.id}:{player.seat}") is not None:
        reason = "reason_finished" if loaded.row.finished else "reason_out"
        body = phrase(
            lang,
            "not_participant",
            phase_label=loaded.label(),
            phase=loaded.phase(),
            reason=phrase(lang, reason),
        )
        return Answer("resign-refused", services.notice(mail, "not_participant_subject", body))
    if fold(args.rstrip(".!")) not in _CONFIRMED:
        store.set_note(asked_note, iso(services.clock()))
        body = phrase(lang, "resign_asked", meaning=leave_meaning(loaded.engine, lang))
        return Answer("resign-asked", services.notice(mail, "resign_asked_subject", body))
    asked = store.note(asked_note)
    store.set_note(asked_note, None)
    if asked is None or from_iso(asked) < services.clock() - RESIGN_WINDOW:
        body = phrase(lang, "resign_unasked")
        return Answer("resign-unasked", services.notice(mail, "resign_asked_subject", body))
    services.referee.season.leave_locked(loaded, player.seat, None, resigned=True, answered=player)
    body = phrase(lang, "player_left_you", meaning=leave_meaning(loaded.engine, lang))
    return Answer("resigned", services.notice(mail, "resign_confirmed_subject", body))


RESIGN = Command({"de": ("AUFGEBEN",), "en": ("RESIGN",)}, {}, "cmd_resign", _resign)


# --- a game's own commands ---------------------------------------------------------------------
def _wrap(game_command: GameCommand[Any]) -> Command:
    def run(mail: Mail, args: str, services: Services) -> Answer:
        loaded, player = mail.game, mail.sender
        try:
            report = game_command.run(loaded.state, player.seat, args, loaded.lang)
        except CommandError as exc:
            usage = " ".join(_wrapped.line(loaded.lang)[0].split())
            body = f"{exc}\n\n{phrase(loaded.lang, 'command_usage')} {usage}"
            return Answer("command-refused", services.notice(mail, "command_refused_subject", body))
        body = with_private(report, player.seat)
        word = (_wrapped.names.get(loaded.lang) or _wrapped.names["en"])[0]
        what = report.subject or f"{word} {args}".strip()  # an engine's own, else the request
        return Answer(
            "command",
            services.notice(mail, "command_subject", body, title=loaded.title, what=what),
            attachments(report, player.seat),
        )

    _wrapped = Command(game_command.names, game_command.usage, "", run, help=game_command.help)
    return _wrapped


class _Kept(NamedTuple):
    """An engine's commands, wrapped once, and looked up by folded name (``find``)."""

    engine: object
    game_commands: object  # the engine's own ``commands`` as they were when wrapped
    leaves: bool  # ``can_leave``: RESIGN is offered
    commands: tuple[Command, ...]
    by_name: dict[str, Command]


# By engine (its id, the engine kept so the id stays its own): the commands are a property
# of the kind, not of a game or phase, so one wrapping serves every mail; made again when the
# engine's ``commands`` is another object than the one wrapped, or its ``leave`` came or went.
_KEPT: dict[int, _Kept] = {}


def _kept(engine: Any) -> _Kept:
    game, leaves = getattr(engine, "commands", ()), can_leave(engine)
    kept = _KEPT.get(id(engine))
    if (
        kept is None
        or kept.engine is not engine
        or kept.game_commands is not game
        or kept.leaves != leaves
    ):
        resign = (RESIGN,) if leaves else ()
        commands = CORE + resign + tuple(_wrap(c) for c in game_commands(engine))
        by_name: dict[str, Command] = {}
        for command in commands:  # the first command with a name wins, as in a scan
            for names in command.names.values():
                for name in names:
                    by_name.setdefault(fold(name), command)
        kept = _Kept(engine, game, leaves, commands, by_name)
        if len(_KEPT) >= 64:  # engines made by tests; the real ones are a handful
            _KEPT.clear()
        _KEPT[id(engine)] = kept
    return kept


def commands_of(loaded: Loaded) -> tuple[Command, ...]:
    return _kept(loaded.engine).commands


def find(loaded: Loaded, word: str) -> Command | None:
    """The command named ``word`` (folded: ``hilfe``, ``Zurueckziehen``), as the first of
    ``commands_of`` whose ``matches`` it would be."""
    return _kept(loaded.engine).by_name.get(fold(word))


def listing(loaded: Loaded) -> str:
    """The commands of this game, one per line with its help, for HELP and the welcome."""
    shown = [c for c in commands_of(loaded) if c is not ABSENT or loaded.config.absences.enabled]
    rows = [c.line(loaded.lang) for c in shown]
    return "\n".join("  " + line for line in table(rows))
