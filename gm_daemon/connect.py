"""``gm-daemon check --connect``: the daemon's own IMAP and SMTP connections, tried once before
going live, each answered by one line.

The connections are the production ones (``make_imap_inbox``, ``make_smtp_sender``: the same
TLS context, the same login), so what works here works for ``run``, and what fails fails the
same way. A failure names what happened, in the server's own words where it answered, and
what to check, by config key: a GM reads "certificate not trusted … ca_file", not a
traceback. Nothing is sent, marked, moved or created.
"""

from __future__ import annotations

import asyncio
import os
import socket
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from gm_daemon.config import Config, ImapSection, Secret, SmtpSection

Section = Literal["imap", "smtp"]
SMTP_TIMEOUT = 30.0  # SmtpSender's answer timeout, as the daemon uses it


@dataclass(frozen=True)
class Outcome:
    ok: bool
    line: str


async def try_servers(config: Config) -> list[Outcome]:
    """One outcome per server (IMAP, then SMTP), or per Maildir directory."""
    mail = config.mail
    if mail.transport == "maildir":
        return _maildirs(config)
    if mail.transport == "lmtp":
        assert mail.smtp is not None  # the config guarantees it
        return [_lmtp(config), await _try_smtp(config, mail.smtp)]
    assert mail.imap is not None and mail.smtp is not None  # the config guarantees both
    return [await _try_imap(config, mail.imap), await _try_smtp(config, mail.smtp)]


# --- IMAP ----------------------------------------------------------------------------------


async def _try_imap(config: Config, imap: ImapSection) -> Outcome:
    from gm_daemon.daemon import make_imap_inbox

    where = _where("IMAP", imap.host, imap.port, imap.security)
    try:
        inbox = make_imap_inbox(config)
    except (OSError, ValueError, IndexError) as exc:
        return _failed(where, f"cannot read the password: {exc}", _secret_hint("imap", imap))
    try:
        probe = await asyncio.wait_for(inbox.probe(), 4 * imap.timeout_seconds)
    except Exception as exc:
        await inbox.close()
        return _failed(where, *_diagnose(exc, "imap", imap, imap.timeout_seconds))
    line = (
        f"{where}: logged in as {imap.username}, folder {imap.folder} holds "
        f"{_mails(probe.mails)}, {probe.unseen} unread (the daemon takes unread mail as new)"
    )
    if imap.processed_folder is not None:
        state = "exists" if probe.processed_exists else "created with the first handled mail"
        line += f"; handled mail goes to {imap.processed_folder} ({state})"
    return Outcome(True, line)


def _mails(count: int) -> str:
    return f"{count} mail" if count == 1 else f"{count} mails"


# --- SMTP ----------------------------------------------------------------------------------


async def _try_smtp(config: Config, smtp: SmtpSection) -> Outcome:
    from gm_daemon.daemon import make_smtp_sender

    where = _where("SMTP", smtp.host, smtp.port, smtp.security)
    try:
        sender = make_smtp_sender(config)
    except (OSError, ValueError, IndexError) as exc:
        return _failed(where, f"cannot read the password: {exc}", _secret_hint("smtp", smtp))
    address = config.mail.address
    try:
        await asyncio.wait_for(sender.probe(address), 4 * SMTP_TIMEOUT)
    except Exception as exc:
        return _failed(where, *_diagnose(exc, "smtp", smtp, SMTP_TIMEOUT, address))
    login = f"logged in as {smtp.username}" if smtp.username else "connected (no login set)"
    return Outcome(True, f"{where}: {login}, sender {address} accepted, nothing sent")


# --- what went wrong -----------------------------------------------------------------------


def _diagnose(
    exc: BaseException,
    section: Section,
    server: ImapSection | SmtpSection,
    timeout: float,
    address: str = "",
) -> tuple[str, str]:
    """(what happened, what to check) for a failed trial connection."""
    import aiosmtplib

    from gm_daemon.mail.imap import ImapError

    key = f"mail.{section}"
    for cause in _chain(exc):
        if isinstance(cause, ssl.SSLCertVerificationError):
            return _untrusted(cause, key, server)
        if isinstance(cause, ssl.SSLError):
            return (
                f"TLS failed: {cause.reason or cause}",
                f'is this port TLS from the start? {key}.security = "tls" fits ports 993/465, '
                '"starttls" fits 143/587',
            )
        if isinstance(cause, aiosmtplib.SMTPAuthenticationError):
            return f"login refused: {cause.code} {cause.message}", _secret_hint(section, server)
        if isinstance(cause, aiosmtplib.SMTPSenderRefused):
            return (
                f"sender {address} refused: {cause.code} {cause.message}",
                f"the server does not let {server.username or 'this connection'} send as "
                f"mail.address; ask the provider, or log in with the account of {address}",
            )
        if isinstance(cause, ImapError):
            return _imap_refusal(str(cause), key, server)
        if isinstance(cause, aiosmtplib.SMTPResponseException):
            return f"the server answered {cause.code} {cause.message}", _port_hint(key)
        if isinstance(cause, aiosmtplib.SMTPException) and "STARTTLS" in str(cause):
            return "STARTTLS not offered", _no_starttls_hint(key)
        if isinstance(cause, aiosmtplib.SMTPException) and "AUTH" in str(cause):
            return "no login (AUTH) offered", _no_auth_hint(key, server)
        if isinstance(cause, ConnectionRefusedError):
            return "connection refused (port closed)", _port_hint(key)
        if isinstance(cause, socket.gaierror):
            return f"host name not found ({cause.strerror or cause})", f"check {key}.host"
        if isinstance(cause, TimeoutError):
            return f"no answer within {timeout:g} s", (
                f"check {key}.host and {key}.port and that no firewall drops the connection; a "
                f'port that speaks TLS at once (993/465) needs {key}.security = "tls"'
            )
    if isinstance(exc, ConnectionError | OSError):
        return f"connection failed: {_describe(exc)}", _port_hint(key)
    return _describe(exc), f"check the [{key}] section"


def _untrusted(
    cause: ssl.SSLCertVerificationError, key: str, server: ImapSection | SmtpSection
) -> tuple[str, str]:
    reason = cause.verify_message or cause.reason or str(cause)
    if "hostname mismatch" in reason.lower() or "ip address mismatch" in reason.lower():
        return (
            f"certificate not trusted: {reason}",
            f"set {key}.host to the name the certificate is made out for",
        )
    if server.ca_file is not None:
        hint = f"{key}.ca_file ({server.ca_file}) does not vouch for it; name the certificate "
        hint += "(PEM) of the CA that signed the server's, or the server's own if self-signed"
    else:
        hint = f"a self-signed or private-CA certificate: name it (PEM) in {key}.ca_file"
    return f"certificate not trusted: {reason}", hint


def _imap_refusal(text: str, key: str, server: ImapSection | SmtpSection) -> tuple[str, str]:
    if "login" in text.lower():
        return text, _secret_hint("imap", server)
    if "STARTTLS" in text:
        return "STARTTLS not offered", _no_starttls_hint(key)
    if "select" in text.lower():
        return text, f"check {key}.folder (INBOX, or a folder that exists)"
    return text, f"check the [{key}] section"


def _secret_hint(section: Section, server: Secret) -> str:
    key = f"mail.{section}"
    username = getattr(server, "username", None)
    if server.password_file is not None:
        source = f"{key}.password_file ({server.password_file})"
    elif server.password_env is not None:
        source = f"{key}.password_env (${server.password_env})"
    else:
        source = f"{key}.password_file (none set)"
    return f"wrong password? check {key}.username ({username}) and the password in {source}"


def _no_starttls_hint(key: str) -> str:
    return f'set {key}.security = "tls" with the server\'s TLS port (993/465), or ask the provider'


def _no_auth_hint(key: str, server: ImapSection | SmtpSection) -> str:
    if server.security == "none":
        return f'servers offer login only over TLS: set {key}.security = "starttls" (port 587)'
    return (
        f"this port takes no login (a domain's MX?): use the submission port (587 with "
        f"STARTTLS, 465 with TLS), or leave out {key}.username if the server lets you send"
    )


def _port_hint(key: str) -> str:
    return f"check {key}.host and {key}.port, and that the server runs and lets you in"


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """The error and what caused it: aiosmtplib wraps the socket's own error."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _where(protocol: str, host: str, port: int, security: str) -> str:
    mode = {"tls": "TLS", "starttls": "STARTTLS", "none": "no TLS"}[security]
    return f"{protocol} {host}:{port} ({mode})"


def _failed(where: str, what: str, hint: str) -> Outcome:
    return Outcome(False, f"{where}: FAILED: {what} - {hint}")


# --- LMTP ----------------------------------------------------------------------------------


def _lmtp(config: Config) -> Outcome:
    """Nothing to connect to: the mail server connects to the daemon. Whether it can listen."""
    from gm_daemon.mail.lmtp import lmtp_problems

    lmtp = config.mail.lmtp
    where = f"LMTP {lmtp.socket}" if lmtp.socket else f"LMTP {lmtp.host} port {lmtp.port}"
    problems = lmtp_problems(lmtp)
    if problems:
        return Outcome(False, f"{where}: FAILED: {'; '.join(problems)}")
    return Outcome(True, f"{where}: the mail server delivers here (docs/lmtp.md)")


# --- Maildir -------------------------------------------------------------------------------


def _maildirs(config: Config) -> list[Outcome]:
    """No server: say so, and check that the two directories can be used."""
    maildir = config.mail.maildir
    lines = [Outcome(True, 'mail.transport = "maildir": no server to connect to')]
    for name, path in (("inbox", maildir.inbox), ("outbox", maildir.outbox)):
        lines.append(_directory(f"mail.maildir.{name}", path))
    return lines


def _directory(key: str, path: Path) -> Outcome:
    where = f"Maildir {key} {path.absolute()}"
    if path.is_dir():
        if not os.access(path, os.R_OK | os.W_OK | os.X_OK):
            return Outcome(False, f"{where}: FAILED: not readable and writable by this user")
        waiting = len(list((path / "new").glob("*"))) if (path / "new").is_dir() else 0
        return Outcome(True, f"{where}: readable and writable, {_mails(waiting)} in new/")
    if path.exists():
        return Outcome(False, f"{where}: FAILED: not a directory - check {key}")
    parent = next(p for p in path.absolute().parents if p.exists())
    if not parent.is_dir():
        return Outcome(False, f"{where}: FAILED: {parent} is a file, not a directory - check {key}")
    if not os.access(parent, os.W_OK | os.X_OK):
        return Outcome(False, f"{where}: FAILED: missing, and {parent} is not writable")
    return Outcome(True, f"{where}: created at the first start (in {parent})")
