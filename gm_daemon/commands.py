"""Mail commands as small objects: names in both languages, a help line, a handler.

A command is the first word of the first line a mail has after its header lines
(``HILFE``, ``STAND``, ``BILD Anna``). The daemon's own three are below; a game kind adds
its own through the protocol's ``commands`` (``KARTE``, ``BILD <Name>``), wrapped here so
that both kinds look alike to intake. HELP and the welcome's list of commands are generated
from these objects, so they cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gm_daemon.games.kit.layout import table
from gm_daemon.games.protocol import Attachment, CommandError, GameCommand
from gm_daemon.games.text import fold
from gm_daemon.loaded import Loaded, game_commands
from gm_daemon.mailer import attachments, with_private
from gm_daemon.texts import Text, phrase, render

if TYPE_CHECKING:
    from gm_daemon.envelope import Mail, Services


@dataclass(frozen=True)
class Answer:
    """What a command (or a guard) says back: a whole mail for the sender."""

    purpose: str
    text: Text
    attachments: Sequence[Attachment] = ()


@dataclass(frozen=True)
class Command:
    names: Mapping[str, tuple[str, ...]]  # per language; the first one is shown
    usage: Mapping[str, str]
    help_key: str  # phrase key of the help line, or "" when ``help`` gives the line
    run: Callable[[Mail, str, Services], Answer]
    needs_code: bool = True  # HELP answers without the code: the player may have lost it
    needs_open: bool = False  # only while the player may send orders (WITHDRAW)
    help: Mapping[str, str] = field(default_factory=dict)

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
        deadline=services.referee.deadline_text(loaded),
    )
    return Answer("status", text, attachments(report, player.seat))


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


HELP = Command({"de": ("HILFE",), "en": ("HELP",)}, {}, "cmd_help", _help, needs_code=False)
STATUS = Command({"de": ("STAND",), "en": ("STATUS",)}, {}, "cmd_status", _status)
WITHDRAW = Command(
    {"de": ("ZURÜCKZIEHEN",), "en": ("WITHDRAW",)},
    {},
    "cmd_withdraw",
    _withdraw,
    needs_open=True,
)
CORE: tuple[Command, ...] = (HELP, STATUS, WITHDRAW)


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
        return Answer(
            "command",
            services.notice(mail, "command_subject", body),
            attachments(report, player.seat),
        )

    _wrapped = Command(game_command.names, game_command.usage, "", run, help=game_command.help)
    return _wrapped


def commands_of(loaded: Loaded) -> tuple[Command, ...]:
    return CORE + tuple(_wrap(c) for c in game_commands(loaded.engine))


def find(loaded: Loaded, word: str) -> Command | None:
    return next((c for c in commands_of(loaded) if c.matches(word)), None)


def listing(loaded: Loaded) -> str:
    """The commands of this game, one per line with its help, for HELP and the welcome."""
    rows = [c.line(loaded.lang) for c in commands_of(loaded)]
    return "\n".join("  " + line for line in table(rows))
