"""The GM's one config file (TOML), validated with pydantic.

Every problem is reported with its key path (``games[0].players[2].email``) so that
``gm-daemon check`` tells the GM exactly what to fix. Secrets never live in this file: IMAP and
SMTP passwords come from a file or an environment variable.
"""

import functools
import ipaddress
import re
from datetime import UTC, datetime, timedelta
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Literal, Self
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from gm_daemon.disk_cache import parsed_toml
from gm_daemon.games import UnknownKind, find_game
from gm_daemon.games.protocol import Shape, empty_dict, empty_list
from gm_daemon.passwords import read_password_env, read_password_file

_DURATION = re.compile(r"(\d+)\s*([wdhms])")
_UNITS = {"w": "weeks", "d": "days", "h": "hours", "m": "minutes", "s": "seconds"}
_ADDRESS = re.compile(r"^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$")


def parse_duration(text: str) -> timedelta:
    """ "7d", "24h", "1d12h", "90m" -> timedelta; anything else is an error."""
    cleaned = text.strip().lower()
    parts = _DURATION.findall(cleaned)
    if not parts or _DURATION.sub("", cleaned).strip():
        raise ValueError(f"{text!r} is not a duration; write e.g. '7d', '24h', '1d12h' or '90m'")
    delta = timedelta(**{_UNITS[unit]: 0 for unit in _UNITS})
    for amount, unit in parts:
        delta += timedelta(**{_UNITS[unit]: int(amount)})
    if delta <= timedelta(0):
        raise ValueError("a duration must be longer than zero")
    return delta


def _check_duration(text: str) -> str:
    parse_duration(text)
    return text


def check_address(text: str) -> str:
    if not _ADDRESS.match(text.strip()):
        raise ValueError(f"{text!r} is not an email address")
    return text.strip().lower()


def _check_timezone(name: str) -> str:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {name!r}; use e.g. 'Europe/Berlin'") from exc
    return name


def _check_cron(expr: str) -> str:
    """APScheduler is imported here, for the configs that have a cron schedule (~20 ms of
    every start otherwise)."""
    from apscheduler.triggers.cron import CronTrigger

    try:
        CronTrigger.from_crontab(expr)
    except ValueError as exc:
        raise ValueError(f"bad cron expression {expr!r}: {exc}") from exc
    return expr


Duration = Annotated[
    str,
    AfterValidator(_check_duration),
    Shape('duration: numbers with units w, d, h, m, s, e.g. "90m", "24h", "7d", "1d12h"'),
]
Address = Annotated[str, AfterValidator(check_address), Shape("email address")]
Slug = Annotated[
    str,
    Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$"),
    Shape("short name: 1 to 40 letters, digits, `_`, `.` or `-`, the first a letter or digit"),
]
TimeZone = Annotated[
    str, AfterValidator(_check_timezone), Shape("time zone name (IANA), e.g. Europe/Berlin")
]
Cron = Annotated[
    str, AfterValidator(_check_cron), Shape("cron expression: minute hour day month weekday")
]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Secret(Strict):
    """Where a password comes from: a file (first line) or an environment variable."""

    password_file: Path | None = Field(
        None,
        description="A file whose first line is the password for this server. Make it "
        "readable only by the user the daemon runs as (`chmod 0640`, group of the service). "
        "Give `password_file` or `password_env` (with both, the file wins).",
        examples=["/etc/gm-daemon/mail-password"],
    )
    password_env: str | None = Field(
        None,
        description="The name of an environment variable holding the password, instead of "
        "`password_file` (for containers or a systemd `EnvironmentFile=`).",
        examples=["GM_MAIL_PASSWORD"],
    )

    def password(self) -> str | None:
        if self.password_file is not None:
            return read_password_file(self.password_file)
        if self.password_env is not None:
            return read_password_env(self.password_env)
        return None


class SafeMode(Strict):
    """When a deadline looks like an accident rather than a round (most players silent, or
    the mailbox unreadable for hours before it), the daemon extends instead of resolving and
    asks the GM. Off by default: a share of 1.0 is never exceeded."""

    max_nmr_share: Annotated[float, Field(ge=0.0, le=1.0)] = Field(
        1.0,
        description="When more than this share of the players who owe orders have none on "
        "file at a deadline, the deadline is not resolved but extended by `extend`, and the "
        "GM is asked to confirm. 0.5 means: more than half silent looks like a broken mail "
        "path, not forgetful players. 1.0 (the default) switches this rule off.",
        examples=[0.5],
    )
    max_intake_gap: Duration | None = Field(
        None,
        description="When the mailbox could not be read for longer than this before a "
        "deadline, the deadline is extended by `extend` instead of resolved (orders may be "
        "stuck on the server). Unset: this rule is off.",
        examples=["6h"],
    )
    extend: Duration = Field(
        "24h",
        description="How far safe mode moves a deadline it holds back. The players are told "
        "the new deadline; the GM gets a mail and resolves with `gm-daemon resolve --game "
        "ID` when all is well. If the rule still holds at the new deadline, it happens again.",
        examples=["12h"],
    )

    @property
    def active(self) -> bool:
        """Whether either rule can ever hold a deadline back."""
        return self.max_nmr_share < 1.0 or self.max_intake_gap is not None


class DaemonSection(Strict):
    database: Path = Field(
        Path("var/gm.sqlite"),
        description="The SQLite database holding every game, its players and codes, the "
        "orders, the phase records and the mail in and out. Created on the first start, "
        "with its directory. Back it up; it cannot change while the daemon runs. "
        "A relative path is taken from the directory the daemon runs in.",
        examples=["/var/lib/gm-daemon/gm.sqlite"],
    )
    timezone: TimeZone = Field(
        "Europe/Berlin",
        description="The time zone of every deadline: `first` in `[games.deadlines]`, the "
        "deadlines in mails (shown with their UTC offset), and the times given to "
        "`gm-daemon extend --until` and `resolve --due-before`.",
        examples=["Europe/Vienna"],
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        "INFO",
        description="How much `gm-daemon run` logs (to stderr; under systemd to the journal), "
        "read when the daemon starts. "
        "INFO: start, reloads, every resolution and every batch of mail sent; WARNING: only "
        "problems (a server that cannot be reached, a config edit that is ignored); ERROR: "
        "only failures; DEBUG: everything, for hunting a fault.",
        examples=["WARNING"],
    )
    safe_mode: SafeMode = Field(
        SafeMode(),
        description="Safe mode for every game (a game may have its own `[games.safe_mode]`): "
        "a deadline that looks like an accident — most players silent, or the mailbox "
        "unreadable for hours before it — is extended instead of resolved, and the GM is "
        "asked. Off by default.",
    )
    keep_mail: Duration = Field(
        "30d",
        description="How long the texts of sent and handled mail stay in the database. Older "
        "ones are emptied (at most once an hour); their rows (Message-ID, address, status) "
        "stay, so nothing is handled twice and `status` is unchanged. Mail still waiting to "
        "be sent, failed or set aside keeps its text.",
        examples=["90d"],
    )

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def keep_mail_for(self) -> timedelta:
        return parse_duration(self.keep_mail)


def _check_folder(name: str | None) -> str | None:
    """An IMAP folder name the daemon can create and move mail to: levels split by "/",
    none empty or padded with spaces, no control characters, no LIST wildcards."""
    if name is None:
        return None
    if not name.strip():
        raise ValueError('an empty folder name; write e.g. "GM/erledigt", or leave the key out')
    if not name.isprintable():
        raise ValueError(f"{name!r} contains a line break or control character")
    wildcards = sorted(set(name) & {"*", "%"})
    if wildcards:
        raise ValueError(f"{name!r}: IMAP folder names cannot hold {' or '.join(wildcards)}")
    levels = name.split("/")
    if any(level != level.strip() or not level for level in levels):
        raise ValueError(
            f'{name!r}: every level between "/" needs a name without spaces at its ends, '
            'e.g. "GM/erledigt"'
        )
    return name


def _same_folder(one: str, other: str) -> bool:
    """INBOX is case-insensitive in IMAP; every other name is compared as written."""
    if "INBOX" in (one.upper(), other.upper()):
        return one.upper() == other.upper()
    return one == other


class MaildirSection(Strict):
    inbox: Path = Field(
        Path("var/mail/inbox"),
        description="A Maildir the daemon reads players' mail from (new mail in its `new/`): "
        "for trying the daemon without a mail server, or behind a local mail system that "
        "delivers to Maildir. Used when `mail.transport` is `maildir`.",
        examples=["/home/gm/Maildir"],
    )
    outbox: Path = Field(
        Path("var/mail/outbox"),
        description="A Maildir the daemon writes every outgoing mail to (in its `new/`) "
        "instead of sending it. Used when `mail.transport` is `maildir`.",
        examples=["/srv/gm/outbox"],
    )


class ImapSection(Secret):
    host: str = Field(
        description="The IMAP server the players' mail arrives at (the GM address's mailbox).",
        examples=["imap.example.org"],
    )
    port: int = Field(
        993,
        description="The IMAP server's port: 993 for `tls`, usually 143 for `starttls`.",
        examples=[143],
    )
    security: Literal["tls", "starttls", "none"] = Field(
        "tls",
        description="How the connection is protected: `tls` from the first byte (port 993), "
        "`starttls` (plain connection switched to TLS, port 143), `none` (no encryption: "
        "only for a server on the same machine; the password would travel in clear text).",
        examples=["starttls"],
    )
    username: str = Field(
        description="The login name at the IMAP server, often the GM address itself.",
        examples=["gm@example.org"],
    )
    folder: str = Field(
        "INBOX",
        description="The mailbox folder the daemon reads. Every unread mail in it is handled "
        "and then marked read (\\Seen); it stays in the folder unless `processed_folder` "
        "names another.",
        examples=["Spielleitung"],
    )
    idle: bool = Field(
        True,
        description="Use IMAP IDLE: the server reports new mail at once, so players get "
        "their acknowledgement within seconds. `false` asks the server every "
        "`poll_seconds` instead (for servers without IDLE). A server that does not offer "
        "IDLE is polled anyway.",
        examples=[False],
    )
    poll_seconds: Annotated[int, Field(ge=5)] = Field(
        60,
        description="How often the mailbox is checked when IDLE is off or not offered.",
        examples=[120],
    )
    ca_file: Path | None = Field(
        None,
        description="A CA certificate file (PEM) to trust for this server, in place of the "
        "system's trusted authorities: for a server with a self-signed certificate or a "
        "club's own CA. Unset: the system's trust store is used, as by any mail program.",
        examples=["/etc/gm-daemon/club-ca.pem"],
    )
    timeout_seconds: Annotated[float, Field(ge=1, le=600)] = Field(
        30,
        description="How long one IMAP command may wait for the server's answer before the "
        "connection counts as dead and a new one is made. A silently dead connection is "
        "noticed within `idle_renew_seconds` + `timeout_seconds`.",
        examples=[60],
    )
    idle_renew_seconds: Annotated[float, Field(ge=1, le=29 * 60)] = Field(
        29 * 60,
        description="How often a waiting IDLE is ended and started again (with a NOOP in "
        "between), which also proves the connection alive. RFC 2177 asks for at most 29 "
        "minutes; lower it when a router drops quiet connections sooner.",
        examples=[600],
    )
    processed_folder: Annotated[str | None, AfterValidator(_check_folder)] = Field(
        default=None,
        description=(
            "Where handled mail goes: once a mail is stored in the database it is moved to this "
            "IMAP folder (created when missing), marked as read. Levels are separated by '/' "
            "whatever the server uses. Without it, handled mail stays in `folder`, marked as "
            "read."
        ),
        examples=["GM/erledigt"],
    )

    @model_validator(mode="after")
    def _processed_is_another_folder(self) -> Self:
        if self.processed_folder is not None and _same_folder(self.processed_folder, self.folder):
            raise ValueError(
                f"processed_folder {self.processed_folder!r} is the folder mail is read from "
                "(folder); name another one, or leave processed_folder out to keep handled "
                "mail there, marked as read"
            )
        return self


class SmtpSection(Secret):
    host: str = Field(
        description="The SMTP server every mail of the daemon is sent through.",
        examples=["smtp.example.org"],
    )
    port: int = Field(
        587,
        description="The SMTP server's port: 587 for `starttls` (submission), 465 for `tls`.",
        examples=[465],
    )
    security: Literal["tls", "starttls", "none"] = Field(
        "starttls",
        description="How the connection is protected: `starttls` (port 587), `tls` from the "
        "first byte (port 465), `none` (no encryption: only for a server on the same "
        "machine).",
        examples=["tls"],
    )
    username: str | None = Field(
        None,
        description="The login name at the SMTP server. Unset: the daemon sends without "
        "logging in (a local relay that trusts the machine).",
        examples=["gm@example.org"],
    )
    ca_file: Path | None = Field(
        None,
        description="A CA certificate file (PEM) to trust for this server instead of the "
        "system's trusted authorities (self-signed certificate, a club's own CA).",
        examples=["/etc/gm-daemon/club-ca.pem"],
    )


LMTP_SOCKET = Path("/run/gm-daemon/lmtp.sock")


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class LmtpSection(Strict):
    """Where the mail server (Postfix) hands the GM's mail to the daemon over LMTP."""

    socket: Path | None = Field(
        default=None,
        description=(
            "Unix socket the daemon listens on for LMTP (default /run/gm-daemon/lmtp.sock when "
            "no host is given). Postfix: virtual_transport or transport_maps → lmtp:unix:<socket>."
        ),
        examples=["/run/gm-daemon/lmtp.sock"],
    )
    host: str | None = Field(
        default=None,
        description=(
            "Listen on TCP instead of a Unix socket, on this address (with port). Loopback only "
            "(127.0.0.1, ::1, localhost) unless allow_remote is true."
        ),
        examples=["127.0.0.1"],
    )
    port: Annotated[int, Field(ge=1, le=65535)] | None = Field(
        default=None, description="TCP port for LMTP, with host.", examples=[2424]
    )
    allow_remote: bool = Field(
        default=False,
        description=(
            "Allow a host that is not loopback. LMTP has no login: anyone who can reach the "
            "port can hand the daemon mail, so only for a network you trust."
        ),
    )
    socket_mode: Annotated[str, Field(pattern=r"^0?[0-7]{3}$")] = Field(
        default="0660",
        description=(
            "Permissions of the Unix socket, octal. The MTA's LMTP client (user postfix) must "
            "be able to write to it: through socket_group, or the daemon's group."
        ),
    )
    socket_group: str | None = Field(
        default=None,
        description=(
            "Group given to the Unix socket (e.g. postfix); default: the daemon's own group."
        ),
        examples=["postfix"],
    )
    max_message_bytes: Annotated[int, Field(ge=1024)] = Field(
        default=10 * 1024 * 1024,
        description=(
            "Larger mails are refused for good (550 with the reason), not stored; an order "
            "mail is a few kilobytes."
        ),
    )

    @model_validator(mode="after")
    def _one_place(self) -> Self:
        if self.host is None:
            if self.port is not None:
                raise ValueError("port needs host (or leave both out for the Unix socket)")
            if self.socket is None:
                self.socket = LMTP_SOCKET
            return self
        if self.socket is not None:
            raise ValueError("give either socket or host and port, not both")
        if self.port is None:
            raise ValueError(f"host {self.host!r} needs a port, e.g. port = 2424")
        if not self.allow_remote and not _is_loopback(self.host):
            raise ValueError(
                f"host {self.host!r} is not a loopback address: LMTP has no login, so listen "
                "on 127.0.0.1 or ::1, or set allow_remote = true for a network you trust"
            )
        return self

    @property
    def mode(self) -> int:
        return int(self.socket_mode, 8)


class MailSection(Strict):
    address: Address = Field(
        description="The game master's address: players send their orders here, and every "
        "mail of the daemon comes from it.",
        examples=["gm@example.org"],
    )
    name: str | None = Field(
        None,
        description='The sender name players see. Unset: "Spielleiter" in German games, '
        '"Game master" in English ones.',
        examples=["Spielleiter Schachklub Musterstadt"],
    )
    transport: Literal["maildir", "imap", "lmtp"] = Field(
        "maildir",
        description="Where mail comes from and goes to: `maildir` reads and writes the two "
        "local folders of `[mail.maildir]` (trying things out, no server needed); `imap` "
        "reads the mailbox of `[mail.imap]` and sends through `[mail.smtp]` (both needed); "
        "`lmtp`: the mail server hands each mail to the daemon over LMTP (`[mail.lmtp]`, "
        "docs/lmtp.md), replies go through `[mail.smtp]`.",
        examples=["imap"],
    )
    maildir: MaildirSection = Field(
        MaildirSection(),
        description='The two local Maildir folders used when `transport = "maildir"`.',
    )
    imap: ImapSection | None = Field(
        None,
        description="The IMAP server the daemon reads the players' mail from; needed when "
        '`transport = "imap"`.',
    )
    lmtp: LmtpSection = Field(
        default_factory=LmtpSection,
        description='Where the daemon listens for mail when `transport = "lmtp"`.',
    )
    smtp: SmtpSection | None = Field(
        None,
        description="The SMTP server the daemon sends through; needed when `transport` is "
        '"imap" or "lmtp".',
    )
    max_mails_per_hour: Annotated[int, Field(ge=1)] = Field(
        60,
        description="How many mails one sender gets answered within an hour. Beyond that he "
        "gets no more answers until the hour has passed (a mail loop with an auto-responder "
        "or a flood must not turn the daemon into a mail cannon). His orders are still read "
        "and stored, and valid orders are still acknowledged, so forged mails in a player's "
        "name cannot silence him.",
        examples=[30],
    )
    gm_address: Address | None = Field(
        None,
        description="The human GM's own address. He is mailed when a mail could not be "
        "handled (set aside, with the mail attached), when resolving a phase fails, when "
        "safe mode holds a deadline back, when a game waits for him, and when a mail "
        "cannot be delivered for good. Unset: "
        "nobody is told; `gm-daemon status` and `shunt list` still show it all. The daemon "
        "takes no commands by mail from this address: a reply from it is answered with the "
        "CLI commands to use instead (unless the GM also plays in a game: then it is his "
        "player's address as ever).",
        examples=["spielleiter@example.org"],
    )
    stranger_reply_every: Duration = Field(
        "7d",
        description="A sender who plays in no game is told so (in German and English) at "
        "most once in this period; further mails from him are ignored meanwhile. Twenty "
        "forged mails make one answer. The same holds for the answer to mail from "
        "`gm_address` (that the daemon takes no commands by mail).",
        examples=["1d"],
    )

    @model_validator(mode="after")
    def _servers_for_imap(self) -> Self:
        if self.transport == "imap":
            missing = [key for key in ("imap", "smtp") if getattr(self, key) is None]
            if missing:
                sections = ", ".join(f"[mail.{m}]" for m in missing)
                raise ValueError(f'transport = "imap" needs {sections}')
        if self.transport == "lmtp" and self.smtp is None:
            raise ValueError('transport = "lmtp" needs [mail.smtp]: replies go out by SMTP')
        return self

    @property
    def domain(self) -> str:
        return self.address.split("@", 1)[1]


class Deadlines(BaseModel):
    """When phases end. Either a grid (``first`` + ``every``, or ``cron``) in local time, or
    a length per phase type (``turn = "48h"``), counted from the start of the phase."""

    model_config = ConfigDict(extra="allow")

    # Any other key is a phase type's length; typing the extra keys makes pydantic check
    # each as a duration with its key path, and lets the config reference list them.
    __pydantic_extra__: dict[str, Duration] = Field(
        init=False,
        title="phase type",
        description="The length of every phase of this phase type, counted from the start "
        "of the phase; it wins over the grid (`first`/`every`, `cron`). The key is the phase "
        "type; each game kind's section below names its phase types. Without a grid every "
        "phase type needs a length.",
        examples=[{"movement": "72h"}, {"round": "7d"}],
    )

    first: datetime | None = Field(
        None,
        description="The first deadline of the grid, local time in `daemon.timezone` (no UTC "
        "offset); with `every` the deadlines are `first`, `first + every`, … Points of the "
        "grid keep their wall-clock time across daylight saving changes.",
        examples=["2026-01-02T18:00"],
    )
    every: Duration | None = Field(
        None,
        description="The step of the deadline grid that starts at `first`. Without `first`, "
        "each phase ends this long after its start.",
        examples=["7d"],
    )
    cron: Cron | None = Field(
        None,
        description="The deadline grid as a cron expression in local time (instead of "
        "`first`/`every`): minute, hour, day of month, month, weekday.",
        examples=["0 18 * * fri"],
    )
    min_notice: Duration = Field(
        "24h",
        description="A grid deadline closer than this to the start of a phase is skipped and "
        "the next grid point taken, so a round that starts late (or after an early "
        "resolution) still gets at least this long.",
        examples=["48h"],
    )

    @model_validator(mode="after")
    def _one_schedule(self) -> Self:
        if self.cron and (self.first or self.every):
            raise ValueError("give either cron or first/every, not both")
        if not (self.first or self.every or self.cron or self.model_extra):
            raise ValueError("give first and every, or cron, or a length per phase type")
        if self.first is not None and self.first.tzinfo is not None:
            raise ValueError("first is local time in [daemon] timezone; leave out the offset")
        return self

    def lengths(self) -> dict[str, timedelta]:
        return {key: parse_duration(value) for key, value in (self.model_extra or {}).items()}


def _one_line(text: str) -> str:
    """A name goes into subjects and greetings: a line break there would start a new mail
    header (header injection), so names and titles are one printable line."""
    if not text.isprintable():
        raise ValueError(f"{text!r} contains a line break or control character")
    return text


OneLine = Annotated[str, AfterValidator(_one_line)]


Language = Literal["de", "en"]


class PlayerConfig(Strict):
    name: Annotated[OneLine, Field(min_length=1)] = Field(
        description="The player's name as the other players read it in mails and results "
        "(one line). Orders name other players by it, loosely (`V.Pech`, `Pech`).",
        examples=["V. Pech"],
    )
    email: Address = Field(
        description="The address the player sends from and gets his mail at. Mail from any "
        "other address is not taken as his. Changing it in the config (and reloading) "
        "moves him to the new address; `gm-daemon replace-player` does so without an edit.",
        examples=["vera@example.org"],
    )
    code: Annotated[str, Field(pattern=r"^[A-Za-z0-9-]{4,40}$")] | None = Field(
        None,
        description="The player's secret code (4 to 40 letters, digits or `-`), which every "
        "order mail must carry, so that a forged sender address is not enough. Unset: one "
        "is drawn when the game starts; the welcome mail tells him, `gm-daemon status` "
        "shows it. Fixed when the game starts.",
        examples=["VERA-9012"],
    )
    id: Slug | None = Field(
        None,
        description="The player's seat id: the game keeps his orders, hand and results "
        "under it, and `gm-daemon parse` / `replace-player --player` accept it. Unset: made "
        "from the name "
        "(`V. Pech` → `v-pech`). Give it when a player's name may change during a game: a "
        "changed name changes the made-up id, and a started game admits no new ids. With "
        "the id kept, a new name counts from the next reload: mails, results and the "
        "reading of orders use it.",
        examples=["vera"],
    )
    language: Language | None = Field(
        default=None,
        description="This player's language, overriding the game's: every mail to him "
        '(welcome, answers, results, reminders, notices) is in it. "de" or "en".',
    )

    def seat_id(self) -> str:
        return self.id or slugify(self.name)


class AbsencesConfig(Strict):
    """How players may announce absences by mail (``ABWESEND`` / ``ABSENT``)."""

    max_days: Annotated[int, Field(ge=0)] = Field(
        14,
        description="The longest absence a player may announce, in days (first to last day). "
        "0 switches absences off.",
        examples=[21],
    )
    max_per_player: Annotated[int, Field(ge=0)] = Field(
        3,
        description="How many absences a player may have announced at once (those not yet "
        "over). 0 switches absences off.",
        examples=[5],
    )
    public: bool = Field(
        False,
        description="Name the absent player in the notice that a deadline moved. Unset: the "
        "players are told that, and why, but not whose absence it was.",
        examples=[True],
    )

    @property
    def enabled(self) -> bool:
        return self.max_days > 0 and self.max_per_player > 0


class ObserverConfig(Strict):
    """Someone who follows a game without playing: the club's chronicler, a player-to-be."""

    name: Annotated[OneLine, Field(min_length=1)] = Field(
        description="The observer's name, as mails greet him."
    )
    email: Address = Field(description="Where his mails go; mails from it are no orders.")
    language: Language | None = Field(
        default=None, description='His language, overriding the game\'s: "de" or "en".'
    )


class GameConfig(Strict):
    id: Slug = Field(
        description="The game's short name. Players write it in the subject (`[hn1]`) when "
        "they play in more than one game; every mail of the game carries it, and the "
        "`gm-daemon` commands take it as `--game`. Never change it once the game has started: "
        "a new id is a new game.",
        examples=["hn1"],
    )
    kind: str = Field(
        description="Which game is played: one of the kinds whose options are listed "
        "below. Never change it once the game has started.",
        examples=["highlander"],
    )
    title: OneLine | None = Field(
        None,
        description="The game's name in mails (one line). Unset: the game kind's name.",
        examples=["High Noon – Clubrunde"],
    )
    language: Language = Field(
        "de",
        description="The language of every mail of this game: `de` German, `en` English. "
        "Players may write orders with German or English keywords either way.",
        examples=["en"],
    )
    seed: str | None = Field(
        None,
        description="Fixes every random draw of the game (dice, pairings, deals), so the same "
        "orders give the same results: for examples and tests. Unset (as in every real "
        "game): a secret seed is drawn; the welcome mail publishes its checksum and the "
        "final result reveals it, so players can verify nothing was changed.",
        examples=["example-seed"],
    )
    reminder: Duration | list[Duration] | None = Field(
        None,
        description="This long before a deadline, players who owe orders and have none on "
        'file get a reminder: "24h", or several, each sent once per phase: ["48h", "6h"]. '
        "Unset: no reminders.",
        examples=["24h", ["48h", "6h"]],
    )
    resolve_early: bool = Field(
        False,
        description="Resolve a phase as soon as every player who owes orders has sent them, "
        "instead of at the deadline. Without it, players may change their orders until the "
        "deadline; with it, the last orders to arrive end the phase.",
        examples=[True],
    )
    preview: bool = Field(
        False,
        description="Send a resolution's result mails to `mail.gm_address` only, marked as "
        "a preview; the game then waits (no deadline, no reminder) until `gm-daemon publish` "
        "sends them to the players and starts the next phase, or `gm-daemon rollback` "
        "discards them. Needs `gm_address`.",
        examples=[True],
    )
    start: datetime | None = Field(
        None,
        description="Local time the game begins (the `[daemon]` timezone): nothing is sent "
        "before it; then the welcomes go out and the first deadline counts from it. Unset: "
        "the game begins when the daemon first reads it.",
        examples=["2026-12-07T18:00"],
    )
    absences: AbsencesConfig = Field(
        default_factory=AbsencesConfig,
        description="Absences players announce by mail (`ABWESEND 2026-12-20 bis 2027-01-06`): "
        "a deadline inside one moves to the same time on the day after it.",
    )
    safe_mode: SafeMode | None = Field(
        None,
        description="This game's own safe mode, in place of `[daemon.safe_mode]`.",
    )
    deadlines: Deadlines = Field(
        description="When phases end: a grid in local time (`first` + `every`, or `cron`), "
        'or a length per phase type (`movement = "72h"`), or both (the length wins).',
    )
    players: list[PlayerConfig] = Field(
        description="The players, one `[[games.players]]` table each. The order matters "
        "where a game says so (seats, Highlander's `fixed_setup`). Players cannot join a "
        "started game; one may leave it (`gm-daemon remove-player`, or `AUFGEBEN` by mail); "
        "name and address may change.",
    )
    observers: list[ObserverConfig] = Field(
        default_factory=empty_list,
        description="People who follow the game: a welcome without a code, every public "
        "result, announcement and notice, never a player's private part.",
    )
    options: dict[str, Any] = Field(
        default_factory=empty_dict,
        description="The game kind's own rule options; see the section of the kind below. "
        'Unknown keys are refused. A value `{ file = "boards/turm.txt" }` is replaced by '
        "that file's text, found relative to the config file.",
        examples=[{"life": 12}],
    )

    @field_validator("start")
    @classmethod
    def _local_start(cls, start: datetime | None) -> datetime | None:
        if start is not None and start.tzinfo is not None:
            raise ValueError("start is local time in [daemon] timezone; leave out the offset")
        return start

    def start_at(self, tz: ZoneInfo) -> datetime | None:
        """The configured start as an aware moment, or None for "at once"."""
        return None if self.start is None else self.start.replace(tzinfo=tz).astimezone(UTC)

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, kind: str) -> str:
        try:
            find_game(kind)
        except UnknownKind as exc:
            raise ValueError(str(exc)) from exc
        return kind

    # Each check below is a field validator, not one check after the model: pydantic then
    # reports every field's problem of a game in one go (an unknown kind, a bad deadline and a
    # shared address together), and ``check`` names them all at once with their key paths.
    @field_validator("deadlines")
    @classmethod
    def _deadlines_fit_the_kind(cls, deadlines: Deadlines, info: ValidationInfo) -> Deadlines:
        kind = info.data.get("kind")
        if kind is not None:
            types = tuple(getattr(find_game(kind), "phase_types", ()))
            _check_phase_types(kind, types, deadlines)
        return deadlines

    @field_validator("players")
    @classmethod
    def _distinct_players(cls, players: list[PlayerConfig]) -> list[PlayerConfig]:
        problems = []
        seen_ids: dict[str, int] = {}
        seen_emails: dict[str, int] = {}
        seen_codes: dict[str, int] = {}
        for i, player in enumerate(players):
            for seen, value, what in (
                (seen_ids, player.seat_id(), "id"),
                (seen_emails, player.email, "email"),
                (seen_codes, (player.code or "").lower(), "code"),
            ):
                if value and value in seen:
                    problems.append(
                        f"players[{i}] and players[{seen[value]}] share the {what} {value!r}; "
                        f"every player needs his own"
                    )
                seen.setdefault(value, i)
        if problems:
            raise ValueError("; ".join(problems))
        return players

    @field_validator("options")
    @classmethod
    def _options_fit_the_kind(cls, options: dict[str, Any], info: ValidationInfo) -> dict[str, Any]:
        kind = info.data.get("kind")
        if kind is not None:
            try:
                find_game(kind).Options.model_validate(options)
            except ValidationError as exc:
                raise ValueError(_describe(exc, prefix="options")) from exc
        return options

    @field_validator("observers")
    @classmethod
    def _observers_do_not_play(
        cls, observers: list[ObserverConfig], info: ValidationInfo
    ) -> list[ObserverConfig]:
        """An address that plays and observes would get every result twice, and its order
        mails could not be told from an observer's."""
        playing = {p.email for p in info.data.get("players") or ()}
        seen: set[str] = set()
        problems = []
        for i, observer in enumerate(observers):
            if observer.email in playing:
                problems.append(f"observers[{i}]: {observer.email} plays in this game")
            elif observer.email in seen:
                problems.append(f"observers[{i}]: {observer.email} is listed twice")
            seen.add(observer.email)
        if problems:
            raise ValueError("; ".join(problems) + "; an observer needs his own address")
        return observers

    def parsed_options(self) -> BaseModel:
        return find_game(self.kind).Options.model_validate(self.options)

    def reminders(self) -> list[timedelta]:
        """The reminder lead times, longest first (the order they fall due)."""
        given = [self.reminder] if isinstance(self.reminder, str) else self.reminder or []
        return sorted({parse_duration(text) for text in given}, reverse=True)

    def language_of(self, seat: str) -> str:
        """A player's own language, else the game's (also for a seat no longer configured)."""
        return self._own_languages().get(seat) or self.language

    @cached_property
    def _seat_index(self) -> "_SeatIndex":
        return _SeatIndex()

    def _own_languages(self) -> dict[str, Language | None]:
        """Each configured seat's own language (None: the game's), the first player of a
        seat id winning as a walk through them finds him: every mail and every reply asks,
        and a game of 200 players is not walked for it. Made again when ``players`` is
        another list or changed its length; a reload makes a new config."""
        index = self._seat_index
        if index.players is not self.players or index.count != len(self.players):
            own: dict[str, Language | None] = {}
            for player in self.players:
                own.setdefault(player.seat_id(), player.language)
            index.players, index.count, index.own = self.players, len(self.players), own
        return index.own

    def languages_by_seat(self) -> dict[str, str]:
        """``language_of`` for every configured seat at once: a result to 200 players asks
        200 times, and each ``language_of`` walks the players."""
        return {p.seat_id(): p.language or self.language for p in self.players}


def _check_phase_types(kind: str, types: tuple[str, ...], deadlines: Deadlines) -> None:
    """Per-phase-type lengths must name the kind's phase types (a typo such as ``movment``
    would otherwise be ignored), and without a grid every phase type needs one."""
    lengths = deadlines.lengths()
    known = ", ".join(types) or "none"
    unknown = [key for key in lengths if key not in types]
    if unknown:
        raise ValueError(
            "; ".join(
                f"deadlines.{key}: {kind} has no phase type {key!r} (its phase types: {known})"
                for key in unknown
            )
        )
    grid = deadlines.first or deadlines.every or deadlines.cron
    missing = [t for t in types if t not in lengths]
    if missing and not grid:
        raise ValueError(
            f"deadlines: no length for the phase type(s) {', '.join(missing)} of {kind}; give "
            f'each a length (e.g. {missing[0]} = "72h") or a grid (first + every, or cron)'
        )


class SiteSection(Strict):
    """The static web site of every game (``gm_daemon.site``): public results only."""

    dir: Path = Field(
        default=Path("var/site"),
        description="Where the pages are written (the web server's document root for them); "
        "relative paths count from the directory the daemon runs in.",
    )
    url: str | None = Field(
        default=None,
        description="The address the site is published at, e.g. "
        '"https://club.example/gm/". When set, result and welcome mails end with the link '
        "to the game's page.",
        examples=["https://club.example/gm/"],
    )
    title: OneLine | None = Field(
        default=None,
        description='The heading of the index page; default "Spiele" / "Games" by language.',
    )
    show_who_sent: bool = Field(
        default=True,
        description="Whether a running game's page names the players who have sent orders "
        "for the current phase (names only, never what they sent).",
    )

    def game_url(self, game_id: str) -> str | None:
        """The game page's address, or None when the site has no ``url``."""
        if not self.url:
            return None
        return self.url.rstrip("/") + f"/{game_id}/"


class Config(Strict):
    daemon: DaemonSection = Field(
        DaemonSection(),
        description="The daemon itself: database, time zone, logging, safe mode.",
    )
    mail: MailSection = Field(description="Mail in and out: the GM address and the servers.")
    games: list[GameConfig] = Field(
        default_factory=empty_list,
        description="The games, one `[[games]]` table each. A game is started when the daemon "
        "first sees it (at start-up or on reload); removing it from the config stops it, "
        "adding it back resumes it.",
    )
    site: SiteSection | None = Field(
        default=None,
        description="The static web site of every game; without [site] none is written "
        "(`gm-daemon site` then says so and writes nothing, unless given `--out DIR`).",
    )

    @model_validator(mode="after")
    def _unique_games(self) -> Self:
        ids = [g.id.lower() for g in self.games]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"game ids used twice: {', '.join(dupes)}")
        previews = [g.id for g in self.games if g.preview]
        if previews and self.mail.gm_address is None:
            raise ValueError(
                f"preview = true ({', '.join(previews)}) sends the results to the GM first: "
                'set [mail] gm_address = "you@example.org"'
            )
        return self

    @property
    def language(self) -> str:
        """The club's language where no game or player decides it (the site's index, an
        answer to the GM): the first game's, else German."""
        return self.games[0].language if self.games else "de"

    def game(self, game_id: str) -> GameConfig:
        try:
            return self._games_by_id()[game_id]
        except KeyError:
            raise KeyError(game_id) from None

    def has_game(self, game_id: str) -> bool:
        return game_id in self._games_by_id()

    @cached_property
    def _game_index(self) -> "_GameIndex":
        return _GameIndex()

    def _games_by_id(self) -> dict[str, GameConfig]:
        """``games`` by id: every mail asks for its game's config (and whether its sender's
        games are configured), and a thousand games are not walked for it. Made again when
        ``games`` is another list or changed its length; a reload makes a new ``Config``.
        Kept outside the fields: a config equals another of the same content."""
        index = self._game_index
        if index.games is not self.games or index.count != len(self.games):
            by_id: dict[str, GameConfig] = {}
            for game in self.games:
                by_id.setdefault(game.id, game)  # the first, as a walk through them finds
            index.games, index.count, index.by_id = self.games, len(self.games), by_id
        return index.by_id


class _SeatIndex:
    """Plain classes, the two indexes: nothing compares or prints them (a config's equality
    leaves them out), and a dataclass's generated methods are compiled on every start."""

    __slots__ = ("count", "own", "players")

    def __init__(self) -> None:
        self.players: list[PlayerConfig] | None = None
        self.count = 0
        self.own: dict[str, Language | None] = {}


class _GameIndex:
    __slots__ = ("by_id", "count", "games")

    def __init__(self) -> None:
        self.games: list[GameConfig] | None = None
        self.count = 0
        self.by_id: dict[str, GameConfig] = {}


class ConfigError(Exception):
    """Every problem in a config file, one per line, each with its key path."""

    def __init__(self, path: Path, problems: list[str]):
        self.path = path
        self.problems = problems
        super().__init__(f"{path}: " + "; ".join(problems))


@functools.lru_cache(maxsize=4096)
def slugify(name: str) -> str:
    """A seat id made from a name. Kept per name: every mail asks for the seat ids of its
    game's players (``language_of``), and the answer depends on the name alone."""
    from gm_daemon.games.text import fold

    return re.sub(r"[^a-z0-9]+", "-", fold(name)).strip("-") or "player"


def _describe(exc: ValidationError, prefix: str = "") -> str:
    return "; ".join(_problem_lines(exc, prefix))


def _problem_lines(exc: ValidationError, prefix: str = "") -> list[str]:
    lines = []
    for error in exc.errors():
        parts = [prefix] if prefix else []
        for loc in error["loc"]:
            if isinstance(loc, int):
                parts[-1:] = [f"{parts[-1]}[{loc}]"] if parts else [f"[{loc}]"]
            else:
                parts.append(str(loc))
        key = ".".join(parts) or "(top level)"
        message = error["msg"].removeprefix("Value error, ")
        lines.append(f"{key}: {message}")
    return lines


def load_config(path: Path) -> Config:
    """Read and validate; raise ConfigError naming every problem with its key path."""
    text = _config_text(path)
    try:
        raw = parsed_toml(text, path)
    except ValueError as exc:  # tomllib.TOMLDecodeError: tomllib is imported to parse only
        raise ConfigError(path, [f"not valid TOML: {exc}"]) from exc
    problems = _include_option_files(raw, path.parent)
    try:
        config = Config.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(path, problems + _problem_lines(exc)) from exc
    if problems:
        raise ConfigError(path, problems)
    return config


def _config_text(path: Path) -> str:
    """The file's text, or a ConfigError saying why it cannot be had: the daemon started by
    systemd as its own user, meeting a file root wrote with mode 0600 or an editor's Latin-1,
    must stop with the cause in one line (exit 78), not with a traceback it is restarted
    after every ten seconds."""
    from gm_daemon.passwords import user_name

    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise ConfigError(path, ["file not found"]) from exc
    except PermissionError as exc:
        raise ConfigError(
            path,
            [
                f"cannot be read by user {user_name()} (give that user read access, "
                "e.g. chmod 0640 and the service's group)"
            ],
        ) from exc
    except IsADirectoryError as exc:
        raise ConfigError(path, ["is a directory (name the config file itself)"]) from exc
    except OSError as exc:
        raise ConfigError(path, [f"cannot be read: {exc.strerror or exc}"]) from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(path, [_not_utf8(data, exc)]) from exc


def _not_utf8(data: bytes, exc: UnicodeDecodeError) -> str:
    """Where a file stops being UTF-8, as a GM finds it in his editor: line and column."""
    before = data[: exc.start]
    line = before.count(b"\n") + 1
    column = len(before) - (before.rfind(b"\n") + 1) + 1
    return (
        f"not UTF-8 text: byte 0x{data[exc.start]:02x} at line {line}, column {column} "
        "(save the file as UTF-8)"
    )


def _include_option_files(raw: dict[str, Any], base: Path) -> list[str]:
    """Replace every ``{ file = "boards/turm.txt" }`` in a game's options by the file's text,
    found relative to the config file, so the GM can keep a Hexenhalma board in its own file;
    a missing file is a problem with its key path."""
    problems: list[str] = []

    def resolve(value: Any, where: str) -> Any:
        if isinstance(value, dict) and set(value) == {"file"} and isinstance(value["file"], str):
            target = base / value["file"]
            try:
                data = target.read_bytes()
            except OSError as exc:
                problems.append(f"{where}: cannot read {target}: {exc.strerror or exc}")
                return ""
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError as exc:
                problems.append(f"{where}: {target}: {_not_utf8(data, exc)}")
                return ""
        if isinstance(value, dict):
            return {k: resolve(v, f"{where}.{k}") for k, v in value.items()}
        if isinstance(value, list):
            return [resolve(v, f"{where}[{i}]") for i, v in enumerate(value)]
        return value

    games = raw.get("games")
    if isinstance(games, list):
        for i, game in enumerate(games):
            if isinstance(game, dict) and isinstance(game.get("options"), dict):
                game["options"] = resolve(game["options"], f"games[{i}].options")
    return problems
