"""The GM's one config file (TOML), validated with pydantic.

Every problem is reported with its key path (``games[0].players[2].email``) so that
``gm-daemon check`` tells the GM exactly what to fix. Secrets never live in this file: IMAP and
SMTP passwords come from a file or an environment variable.
"""

from __future__ import annotations

import ipaddress
import os
import re
import tomllib
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from apscheduler.triggers.cron import CronTrigger
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

from gm_daemon.games import UnknownKind, find_game

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
    try:
        CronTrigger.from_crontab(expr)
    except ValueError as exc:
        raise ValueError(f"bad cron expression {expr!r}: {exc}") from exc
    return expr


Duration = Annotated[str, AfterValidator(_check_duration)]
Address = Annotated[str, AfterValidator(check_address)]
Slug = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Secret(Strict):
    """Where a password comes from: a file (first line) or an environment variable."""

    password_file: Path | None = None
    password_env: str | None = None

    def password(self) -> str | None:
        if self.password_file is not None:
            return self.password_file.read_text(encoding="utf-8").splitlines()[0].strip()
        if self.password_env is not None:
            value = os.environ.get(self.password_env)
            if value is None:
                raise ValueError(f"environment variable {self.password_env} is not set")
            return value
        return None


class SafeMode(Strict):
    """When a deadline looks like an accident rather than a round (most players silent, or
    the mailbox unreadable for hours before it), the daemon extends instead of resolving and
    asks the GM. Off by default: a share of 1.0 is never exceeded."""

    max_nmr_share: Annotated[float, Field(ge=0.0, le=1.0)] = 1.0
    max_intake_gap: Duration | None = None  # intake down longer than this before a deadline
    extend: Duration = "24h"

    @property
    def active(self) -> bool:
        """Whether either rule can ever hold a deadline back."""
        return self.max_nmr_share < 1.0 or self.max_intake_gap is not None


class DaemonSection(Strict):
    database: Path = Path("var/gm.sqlite")
    timezone: Annotated[str, AfterValidator(_check_timezone)] = "Europe/Berlin"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    safe_mode: SafeMode = SafeMode()
    # How long the bodies of sent and handled mail stay in the database; their rows stay.
    keep_mail: Annotated[str, AfterValidator(_check_duration)] = "30d"

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
    inbox: Path = Path("var/mail/inbox")
    outbox: Path = Path("var/mail/outbox")


class ImapSection(Secret):
    host: str
    port: int = 993
    security: Literal["tls", "starttls", "none"] = "tls"
    username: str
    folder: str = "INBOX"
    idle: bool = True
    poll_seconds: Annotated[int, Field(ge=5)] = 60
    ca_file: Path | None = None  # trust this CA (self-signed test servers)
    # How long a command may wait for the server's answer; a dead connection is noticed
    # within idle_renew_seconds + timeout_seconds (RFC 2177: renew IDLE within 29 minutes).
    timeout_seconds: Annotated[float, Field(ge=1, le=600)] = 30
    idle_renew_seconds: Annotated[float, Field(ge=1, le=29 * 60)] = 29 * 60
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
    def _processed_is_another_folder(self) -> ImapSection:
        if self.processed_folder is not None and _same_folder(self.processed_folder, self.folder):
            raise ValueError(
                f"processed_folder {self.processed_folder!r} is the folder mail is read from "
                "(folder); name another one, or leave processed_folder out to keep handled "
                "mail there, marked as read"
            )
        return self


class SmtpSection(Secret):
    host: str
    port: int = 587
    security: Literal["tls", "starttls", "none"] = "starttls"
    username: str | None = None
    ca_file: Path | None = None


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
    def _one_place(self) -> LmtpSection:
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
    address: Address
    name: str | None = None  # shown as the sender; default: "Spielleiter" / "Game master"
    transport: Literal["maildir", "imap", "lmtp"] = Field(
        default="maildir",
        description=(
            "How mail comes in: maildir (folders on disk), imap (a mailbox, read over IMAP) or "
            "lmtp (the mail server hands each mail to the daemon, [mail.lmtp]). Mail goes out "
            "by SMTP for imap and lmtp."
        ),
    )
    maildir: MaildirSection = MaildirSection()
    imap: ImapSection | None = None
    lmtp: LmtpSection = Field(
        default_factory=LmtpSection,
        description='Where the daemon listens for mail with transport = "lmtp".',
    )
    smtp: SmtpSection | None = None
    max_mails_per_hour: Annotated[int, Field(ge=1)] = 60  # per sender; beyond: no answer
    gm_address: Address | None = None  # the human GM: told of mails set aside and GM overrides
    stranger_reply_every: Duration = "7d"  # an unknown sender gets one answer per period

    @model_validator(mode="after")
    def _servers_for_imap(self) -> MailSection:
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

    first: datetime | None = None
    every: Duration | None = None
    cron: Annotated[str, AfterValidator(_check_cron)] | None = None
    min_notice: Duration = "24h"  # a grid deadline closer than this after a phase start is skipped

    @model_validator(mode="after")
    def _one_schedule(self) -> Deadlines:
        if self.cron and (self.first or self.every):
            raise ValueError("give either cron or first/every, not both")
        for key, value in (self.model_extra or {}).items():
            if not isinstance(value, str):
                raise ValueError(f"{key}: a phase-type length must be a duration like '48h'")
            parse_duration(value)
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


class PlayerConfig(Strict):
    name: Annotated[OneLine, Field(min_length=1)]
    email: Address
    code: Annotated[str, Field(pattern=r"^[A-Za-z0-9-]{4,40}$")] | None = None
    id: Slug | None = None

    def seat_id(self) -> str:
        return self.id or slugify(self.name)


class GameConfig(Strict):
    id: Slug
    kind: str
    title: OneLine | None = None
    language: Literal["de", "en"] = "de"
    seed: str | None = None
    reminder: Duration | None = None
    resolve_early: bool = False
    safe_mode: SafeMode | None = None  # this game's own; else [daemon.safe_mode]
    deadlines: Deadlines
    players: list[PlayerConfig]
    options: dict[str, Any] = Field(default_factory=dict)

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

    def parsed_options(self) -> BaseModel:
        return find_game(self.kind).Options.model_validate(self.options)


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


class Config(Strict):
    daemon: DaemonSection = DaemonSection()
    mail: MailSection
    games: list[GameConfig] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique_games(self) -> Config:
        ids = [g.id.lower() for g in self.games]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"game ids used twice: {', '.join(dupes)}")
        return self

    def game(self, game_id: str) -> GameConfig:
        for game in self.games:
            if game.id == game_id:
                return game
        raise KeyError(game_id)


class ConfigError(Exception):
    """Every problem in a config file, one per line, each with its key path."""

    def __init__(self, path: Path, problems: list[str]):
        self.path = path
        self.problems = problems
        super().__init__(f"{path}: " + "; ".join(problems))


def slugify(name: str) -> str:
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
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(path, ["file not found"]) from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, [f"not valid TOML: {exc}"]) from exc
    problems = _include_option_files(raw, path.parent)
    try:
        config = Config.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(path, problems + _problem_lines(exc)) from exc
    if problems:
        raise ConfigError(path, problems)
    return config


def _include_option_files(raw: dict[str, Any], base: Path) -> list[str]:
    """Replace every ``{ file = "boards/turm.txt" }`` in a game's options by the file's text,
    found relative to the config file, so the GM can keep a Hexenhalma board in its own file;
    a missing file is a problem with its key path."""
    problems: list[str] = []

    def resolve(value: Any, where: str) -> Any:
        if isinstance(value, dict) and set(value) == {"file"} and isinstance(value["file"], str):
            target = base / value["file"]
            try:
                return target.read_text(encoding="utf-8")
            except OSError as exc:
                problems.append(f"{where}: cannot read {target}: {exc.strerror or exc}")
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
