"""Production sending over SMTP with aiosmtplib: one kept-open connection, classified errors.

The outbox retries what we call transient and gives up on what we call permanent, so the
classification decides whether a player ever gets his mail:

* permanent (``SendError(permanent=True)``): the server refused *this message* for good:
  every recipient refused with 5xx, the data refused with 5xx, an address the server cannot
  take (e.g. non-ASCII without SMTPUTF8).
* transient: everything else, including problems of *our setup* that would otherwise fail
  every queued mail for good (login refused, our sender address refused, TLS trouble): those
  mails must wait until the operator fixes the configuration, not be thrown away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
import time
from collections.abc import Sequence
from typing import Literal

import aiosmtplib
from aiosmtplib import (
    SMTPAuthenticationError,
    SMTPException,
    SMTPNotSupported,
    SMTPRecipientsRefused,
    SMTPResponseException,
    SMTPSenderRefused,
)

from gm_daemon.mail.transport import SendError

log = logging.getLogger(__name__)

Security = Literal["tls", "starttls", "none"]
SECURITY_KEY = "mail.smtp.security"
CHECK_AFTER_IDLE = 30.0  # seconds; servers drop idle clients (Postfix after 300 s)


class SmtpSender:
    """Sender over one SMTP connection, opened on first use and re-opened when dropped.

    ``local_hostname`` is required: aiosmtplib would otherwise greet with socket.getfqdn(),
    a DNS lookup that may leave the machine and yields a name the server may reject.
    """

    def __init__(
        self,
        host: str,
        port: int,
        security: Security,
        username: str | None = None,
        password: str | None = None,
        *,
        local_hostname: str,
        ssl_context: ssl.SSLContext | None = None,
        timeout: float = 30,
    ) -> None:
        if security not in ("tls", "starttls", "none"):
            raise ValueError(f"{SECURITY_KEY} must be tls, starttls or none, not {security!r}")
        if not local_hostname:
            raise ValueError("local_hostname must be given (the domain of our address)")
        self._options = {
            "hostname": host,
            "port": port,
            "local_hostname": local_hostname,
            "timeout": timeout,
            # aiosmtplib upgrades to STARTTLS by itself whenever offered (start_tls=None);
            # say exactly what the configuration asks for.
            "use_tls": security == "tls",
            "start_tls": security == "starttls",
            "tls_context": ssl_context,
        }
        self._login = (username, password or "") if username else None
        self._client: aiosmtplib.SMTP | None = None
        self._last_used = 0.0
        self._lock = asyncio.Lock()

    async def send(self, message: bytes, sender: str, recipients: Sequence[str]) -> None:
        if not recipients:
            raise SendError("no recipients", permanent=True)
        async with self._lock:
            client = await self._connected()
            try:
                options = await _mail_options(client, sender, recipients)
                refused, _ = await client.sendmail(
                    sender, list(recipients), message, mail_options=options
                )
            except (SMTPException, OSError, TimeoutError, ValueError) as exc:
                if not isinstance(exc, SMTPResponseException | SMTPRecipientsRefused):
                    self._drop()  # state of the session unknown: start afresh next time
                raise _classify(exc) from exc
            self._last_used = time.monotonic()
        if refused:
            # Accepted for the others, so it must not be sent again: report, never retry.
            detail = "; ".join(f"{rcpt}: {r.code} {r.message}" for rcpt, r in refused.items())
            text = f"some recipients refused (sent to the others): {detail}"
            raise SendError(text, permanent=True)

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is None or not client.is_connected:
            return
        transport = client.transport
        with contextlib.suppress(SMTPException, OSError, TimeoutError):
            await client.quit(timeout=5)
        _abort(client, transport)
        await asyncio.sleep(0)  # let the transport's close callback release the socket

    async def _connected(self) -> aiosmtplib.SMTP:
        """The open connection, checked with NOOP when it sat idle long enough for the
        server to have dropped it; otherwise a fresh one (login included)."""
        client = self._client
        if client is not None and client.is_connected:
            if time.monotonic() - self._last_used < CHECK_AFTER_IDLE:
                return client
            try:
                await client.noop()
                self._last_used = time.monotonic()
                return client
            except (SMTPException, OSError, TimeoutError):
                log.info("SMTP connection went stale; reconnecting")
        self._drop()
        try:
            client = await self._open()
        except (SMTPException, OSError, TimeoutError) as exc:
            raise _connect_error(exc, self._options) from exc
        self._client, self._last_used = client, time.monotonic()
        return client

    async def _open(self) -> aiosmtplib.SMTP:
        """A fresh connection: greeting, EHLO, TLS as configured, AUTH. Raises aiosmtplib's
        (or the socket's) own error, for the caller to classify."""
        client = aiosmtplib.SMTP(**self._options)  # type: ignore[arg-type]
        try:
            await client.connect()
            if self._login is not None:  # not inside connect(): see _abort
                await client.login(*self._login)
        except BaseException:
            _abort(client, client.transport)
            raise
        return client

    async def probe(self, sender: str) -> None:
        """Connect and log in exactly as sending does (same options, same TLS context), then
        offer ``sender`` as MAIL FROM and take it back (RSET): a submission server that
        will not let this login send as this address says so now. Sends nothing. Raises
        aiosmtplib's own errors, for ``gm-daemon check --connect`` to name."""
        client = await self._open()
        try:
            await client.mail(sender)
            await client.rset()
        finally:
            with contextlib.suppress(SMTPException, OSError, TimeoutError):
                await client.quit(timeout=5)
            _abort(client, client.transport)
            await asyncio.sleep(0)

    def _drop(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            _abort(client, client.transport)


async def _mail_options(
    client: aiosmtplib.SMTP, sender: str, recipients: Sequence[str]
) -> list[str]:
    """SMTPUTF8 when an address needs it, as aiosmtplib's send_message would decide: we send
    the stored bytes with sendmail, so the choice is ours. Without server support the mail
    cannot go out at all: permanent."""
    try:
        (sender + "".join(recipients)).encode("ascii")
    except UnicodeEncodeError:
        if client.is_ehlo_or_helo_needed:
            await client.ehlo()
        if not client.supports_extension("smtputf8"):
            raise SMTPNotSupported("a non-ASCII address, but the server lacks SMTPUTF8") from None
        return ["SMTPUTF8"]
    return []


def _abort(client: aiosmtplib.SMTP, transport: asyncio.BaseTransport | None) -> None:
    """Close at once. A TLS transport's close() waits for close_notify over several loop
    turns and leaks the socket when the loop ends first; abort() releases it right away.
    (aiosmtplib's connect() closes gently by itself on a failed login, hence the separate
    login call.)"""
    if isinstance(transport, asyncio.Transport):
        transport.abort()  # also when already closing: a TLS close may still hold the socket
    client.close()


def _connect_error(exc: BaseException, options: dict[str, object]) -> SendError:
    """Connecting or logging in failed: always transient (see the module docstring)."""
    where = f"{options['hostname']}:{options['port']}"
    if isinstance(exc, SMTPAuthenticationError):
        return SendError(f"SMTP login at {where} refused: {exc.code} {exc.message}")
    if isinstance(exc, SMTPNotSupported):
        return SendError(f"SMTP server {where}: {exc}; check {SECURITY_KEY}")
    return SendError(f"cannot connect to SMTP server {where}: {_describe(exc)}")


def _classify(exc: Exception) -> SendError:
    if isinstance(exc, ValueError):  # an address aiosmtplib cannot even put on the wire
        return SendError(f"bad address: {exc}", permanent=True)
    if isinstance(exc, SMTPRecipientsRefused):
        codes = [r.code for r in exc.recipients]
        detail = "; ".join(f"{r.recipient}: {r.code} {r.message}" for r in exc.recipients)
        permanent = all(code >= 500 for code in codes)
        return SendError(f"recipients refused: {detail}", permanent=permanent)
    if isinstance(exc, SMTPSenderRefused):
        return SendError(f"our sender {exc.sender} refused: {exc.code} {exc.message}")
    if isinstance(exc, SMTPResponseException):
        return SendError(f"SMTP error {exc.code} {exc.message}", permanent=exc.code >= 500)
    if isinstance(exc, SMTPNotSupported):
        return SendError(f"server cannot take this message: {exc}", permanent=True)
    return SendError(f"SMTP failure: {_describe(exc)}")


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
