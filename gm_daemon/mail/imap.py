"""Production intake over IMAP with aioimaplib: UNSEEN mail in, \\Seen once stored, IDLE push.

One connection, used by one operation at a time. Every mail is fetched with BODY.PEEK[], so
reading never marks it; only ``done()`` sets \\Seen, after the daemon has stored the mail.
A dropped connection is re-opened with exponential back-off inside the call; since nothing
is marked before it is stored, a retry can only fetch a mail again, never lose one. A server
that stays away (stopped, unreachable) is not waited for inside a call: once a call has given
up, every later call fails at once until the next attempt is due, and the delay between
attempts keeps growing up to ``Backoff.cap``. So the daemon's deadlines and outbox never wait
for the mailbox, and a long outage costs one connection attempt per back-off step.

A connection can also die silently (a NAT or firewall forgets it; the server hangs): nothing
arrives, nothing fails. Every command has an answer timeout (``timeout``; a FETCH's timer
restarts with each chunk that arrives, so a large mail is not cut off), and IDLE is re-issued
every ``idle_renew`` seconds (at most RFC 2177's 29 minutes) after a NOOP: a dead connection
is noticed within ``idle_renew + timeout`` and replaced.

Keys are ``imap:<UIDVALIDITY>:<UID>``: if the server ever renumbers the folder (a new
UIDVALIDITY), old keys no longer match and ``done()`` leaves those mails alone; they come
back under new keys and the store recognises them by Message-ID.

With a ``processed_folder``, ``done()`` also moves the mail there (after \\Seen, so it arrives
read): UID MOVE where the server offers MOVE, else UID COPY, \\Deleted and UID EXPUNGE (plain
EXPUNGE without UIDPLUS). The folder is created (and subscribed) when missing. Folder names in
the config separate their levels with "/", whatever separator the server uses. A server that
refuses the move leaves the mail where it is, read: it is stored, so nothing is lost.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import ipaddress
import logging
import re
import ssl
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from aioimaplib import (
    IMAP4,
    STOP_WAIT_SERVER_PUSH,
    AioImapException,
    Command,
    Response,
)

from gm_daemon.mail.transport import RawMail

log = logging.getLogger(__name__)

Security = Literal["tls", "starttls", "none"]
SECURITY_KEY = "mail.imap.security"
PROCESSED_KEY = "mail.imap.processed_folder"
IDLE_RENEW_SECONDS = 29 * 60  # RFC 2177: servers may drop an IDLE older than 30 minutes
FETCH_ITEMS = "(UID BODY.PEEK[])"
STORE_BATCH = 500  # UIDs per UID STORE: one round trip for a burst, command lines stay short
T = TypeVar("T")


class ImapError(Exception):
    """A refusal that retrying will not fix (bad login, missing folder, no STARTTLS): the
    operator must change the configuration."""


class ImapUnavailable(ConnectionError):
    """The server could not be reached or kept failing, even after reconnecting."""


class _ConnectionLost(ConnectionError):
    """The socket closed under a running command."""


class _CommandFailed(AioImapException):
    """The server answered NO/BAD to a command that normally succeeds (retried)."""


class _MoveRefused(Exception):
    """The server refused to file handled mail away (quota, rights): logged, not retried."""


@dataclass(frozen=True)
class ImapProbe:
    """What one trial connection found (``ImapInbox.probe``)."""

    mails: int
    unseen: int
    processed_exists: bool | None  # None: no processed_folder configured


_TRANSIENT: tuple[type[BaseException], ...] = (
    OSError,  # includes ssl.SSLError, ConnectionError, ImapUnavailable, _ConnectionLost
    TimeoutError,  # asyncio.TimeoutError is this builtin since 3.11
    AioImapException,
)


@dataclass(frozen=True)
class Backoff:
    """Waits between reconnect attempts within one call: first, first·factor, … ≤ cap.
    Tests pass tiny values (the test switch), so they never sleep for long."""

    first: float = 1.0
    factor: float = 2.0
    cap: float = 60.0
    attempts: int = 3  # within one call; a longer outage is spaced out across calls

    def delay(self, failures: int) -> float:
        return min(self.cap, self.first * self.factor ** max(0, failures - 1))


@dataclass(frozen=True)
class _Outage:
    """The server has been unreachable since ``since``; the next attempt is due at
    ``next_at`` (both time.monotonic())."""

    since: float
    failures: int
    next_at: float
    reason: str


@dataclass
class _Session:
    """One logged-in connection with the folder selected."""

    client: IMAP4
    uidvalidity: int
    lost: asyncio.Future[Exception | None]
    idle: asyncio.Future[object] | None = None  # the running IDLE command, until reaped
    done_sent: bool = False  # DONE was sent for ``idle``
    exists: int = 0  # messages in the folder when it was selected
    processed: str | None = None  # the processed folder's name on the server, once it exists

    @property
    def capabilities(self) -> set[str]:
        return self.client.protocol.capabilities


class ImapInbox:
    """Inbox over an IMAP folder (see the module docstring for the guarantees)."""

    def __init__(
        self,
        host: str,
        port: int,
        security: Security,
        username: str,
        password: str,
        folder: str = "INBOX",
        idle: bool = True,
        poll_seconds: float = 60,
        ssl_context: ssl.SSLContext | None = None,
        *,
        timeout: float = 30.0,
        batch: int = 50,
        backoff: Backoff = Backoff(),
        idle_renew: float | None = None,
        processed_folder: str | None = None,
        ignore_capabilities: frozenset[str] = frozenset(),
    ) -> None:
        """``ignore_capabilities``: act as if the server lacked these (MOVE, UIDPLUS), so
        the tests take the fallbacks against a server that has them."""
        if security not in ("tls", "starttls", "none"):
            raise ValueError(f"{SECURITY_KEY} must be tls, starttls or none, not {security!r}")
        self._host, self._port, self._security = host, port, security
        self._username, self._password, self._folder = username, password, folder
        self._idle, self._poll_seconds = idle, poll_seconds
        self._ssl_context = ssl_context
        self._timeout, self._batch, self.backoff = timeout, batch, backoff
        self._idle_renew = idle_renew  # None: IDLE_RENEW_SECONDS
        self._processed_folder = processed_folder
        self._ignored = {name.upper() for name in ignore_capabilities}
        self._session: _Session | None = None
        self._outage: _Outage | None = None  # a call gave up: when to try again
        self._lock = asyncio.Lock()
        self._refused: tuple[float, ImapError] | None = None
        self._returned: set[tuple[int, int]] = set()  # (UIDVALIDITY, UID) fetched, not done
        if security == "none" and not _is_loopback(host):
            log.warning("IMAP to %s without TLS: the password travels in clear text", host)

    # --- the Inbox protocol ------------------------------------------------------------
    async def fetch(self, limit: int | None = None) -> Sequence[RawMail]:
        async with self._lock:
            return await self._retrying(lambda session: self._fetch_unseen(session, limit))

    async def done(self, key: str) -> None:
        await self.done_all([key])

    async def done_all(self, keys: Sequence[str]) -> None:
        parsed = [_parse_key(key) for key in keys]
        if not parsed:
            return
        async with self._lock:
            await self._retrying(lambda session: self._mark_all_seen(session, parsed))

    async def wait(self, timeout: float) -> None:
        """IDLE until the server reports new mail (EXISTS/RECENT) or ``timeout`` passes;
        without IDLE, sleep ``poll_seconds`` (at most ``timeout``). Never raises for a
        connection problem: the next fetch() reports (and repairs) it."""
        deadline = time.monotonic() + timeout
        async with self._lock:
            session = await self._idle_session()
            if session is None:
                pause = self._poll_seconds
                if self._outage is not None:  # wake when the next attempt is due
                    pause = self._outage.next_at - time.monotonic()
                await asyncio.sleep(max(0.0, min(pause, timeout)))
                return
            try:
                await self._idle_until(session, deadline)
            except _TRANSIENT as exc:
                log.warning("IMAP connection lost while waiting for mail: %s", _describe(exc))
                self._drop()

    async def close(self) -> None:
        """Log out politely (briefly), then close the socket whatever happens."""
        session, self._session = self._session, None
        if session is None:
            return
        self._end_idle(session)
        with contextlib.suppress(*_TRANSIENT):
            await self._call(session, session.client.logout(), timeout=min(2.0, self._timeout))
        transport = session.client.protocol.transport
        if transport is not None:
            transport.close()  # a TLS close needs a few loop turns for its close_notify
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(session.lost), 1.0)
        _abort(session.client)

    # --- connecting --------------------------------------------------------------------
    async def _retrying(self, operation: Callable[[_Session], Awaitable[T]]) -> T:
        """Run ``operation`` on a live session, reconnecting with back-off on transient
        failures; permanent refusals (ImapError) pass straight through. During an outage
        (an earlier call gave up) one attempt is made when it is due, none before."""
        outage = self._outage
        if outage is not None and time.monotonic() < outage.next_at:
            raise ImapUnavailable(
                f"IMAP {self._host}:{self._port} unavailable for "
                f"{time.monotonic() - outage.since:.0f} s ({outage.reason}); next attempt in "
                f"{outage.next_at - time.monotonic():.1f} s"
            )
        failures = outage.failures if outage is not None else 0
        attempts = failures + 1 if outage is not None else self.backoff.attempts
        while True:
            try:
                session = await self._connection()
                result = await operation(session)
            except ImapError:
                raise
            except _TRANSIENT as exc:
                self._drop()
                failures += 1
                delay = self.backoff.delay(failures)
                if failures >= attempts:
                    self._outage = _Outage(
                        since=outage.since if outage is not None else time.monotonic(),
                        failures=failures,
                        next_at=time.monotonic() + delay,
                        reason=_describe(exc),
                    )
                    raise ImapUnavailable(
                        f"IMAP {self._host}:{self._port} unavailable after {failures} attempts "
                        f"({_describe(exc)}); next attempt in {delay:.1f} s"
                    ) from exc
                log.warning("IMAP error (%s); reconnecting in %.1f s", _describe(exc), delay)
                await asyncio.sleep(delay)
            else:
                if self._outage is not None:
                    down = time.monotonic() - self._outage.since
                    log.warning("IMAP %s:%s back after %.0f s", self._host, self._port, down)
                    self._outage = None
                return result

    async def _connection(self) -> _Session:
        if self._session is not None and not self._session.lost.done():
            await self._reap_idle(self._session)
            return self._session
        self._drop()
        if self._refused is not None and time.monotonic() < self._refused[0]:
            raise self._refused[1]  # do not hammer a server that refused our login
        try:
            self._session = await self._connect()
        except ImapError as exc:
            self._refused = (time.monotonic() + self.backoff.cap, exc)
            raise
        self._refused = None
        return self._session

    async def _connect(self) -> _Session:
        loop = asyncio.get_running_loop()
        lost: asyncio.Future[Exception | None] = loop.create_future()

        def connection_lost(exc: Exception | None) -> None:
            if not lost.done():
                lost.set_result(exc)

        client = IMAP4(
            host=self._host,
            port=self._port,
            timeout=self._timeout,
            conn_lost_cb=connection_lost,
            ssl_context=self._tls_context() if self._security == "tls" else None,
        )
        try:
            await self._hello(client, lost)
            if self._security == "starttls":
                await self._starttls(client)
            session = _Session(client, 0, lost)
            await self._login(session)
            session.uidvalidity = await self._select(session)
        except BaseException:
            _abort(client)
            raise
        log.info("IMAP connected to %s:%s, %s selected", self._host, self._port, self._folder)
        return session

    async def _hello(self, client: IMAP4, lost: asyncio.Future[Exception | None]) -> None:
        """The greeting, or an error as soon as the socket closes (a server shutting down
        accepts and closes; aioimaplib alone would wait for its timeout)."""
        hello = asyncio.ensure_future(client.wait_hello_from_server())
        try:
            await asyncio.wait({hello, lost}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not hello.done():
                await reap(hello)
        if not hello.cancelled():
            hello.result()
            return
        reason = lost.result() or "by server"
        raise _ConnectionLost(f"connection closed before the greeting: {reason}")

    def _tls_context(self) -> ssl.SSLContext:
        return self._ssl_context or ssl.create_default_context()

    async def _starttls(self, client: IMAP4) -> None:
        """aioimaplib has no working STARTTLS: issue the command, then upgrade the socket
        under the same protocol object with the event loop's start_tls."""
        protocol = client.protocol
        if "STARTTLS" not in protocol.capabilities:
            raise ImapError(
                f"{self._host}:{self._port} offers no STARTTLS; set {SECURITY_KEY} to "
                '"tls" (port 993) or fix the server'
            )
        command = Command("STARTTLS", protocol.new_tag(), loop=protocol.loop)
        response = await asyncio.wait_for(protocol.execute(command), self._timeout)
        if response.result != "OK":
            raise ImapError(f"STARTTLS refused: {_text(response.lines)}")
        transport = await asyncio.get_running_loop().start_tls(
            protocol.transport, protocol, self._tls_context(), server_hostname=self._host
        )
        protocol.transport = transport
        await asyncio.wait_for(protocol.capability(), self._timeout)  # re-read after TLS

    async def _login(self, session: _Session) -> None:
        response = await self._call(
            session, session.client.login(_quote(self._username), self._password)
        )
        if response.result != "OK":
            text = _text(response.lines)
            if "UNAVAILABLE" in text.upper():
                raise _CommandFailed(f"login: {text}")
            raise ImapError(f"IMAP login as {self._username} refused: {text}")

    async def _select(self, session: _Session) -> int:
        mailbox = _quote(encode_mailbox(self._folder))
        response = await self._call(session, session.client.select(mailbox))
        text = _text(response.lines)
        if response.result != "OK":
            raise ImapError(f"cannot select IMAP folder {self._folder!r}: {text}")
        found = re.search(r"UIDVALIDITY (\d+)", text)
        if not found:
            raise ImapError(f"server sent no UIDVALIDITY for {self._folder!r}")
        exists = re.search(r"(\d+) EXISTS", text)
        session.exists = int(exists.group(1)) if exists else 0
        return int(found.group(1))

    def _drop(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            _abort(session.client)

    async def _call(
        self,
        session: _Session,
        awaitable: Awaitable[T],
        timeout: float | None = -1,
        *,
        cancel_safe: bool = False,
    ) -> T:
        """Await an aioimaplib call, but fail at once when the connection drops (aioimaplib
        itself would wait for its timeout) and after ``timeout`` (default: the inbox's).
        Cancelled halfway, a command leaves the session in an unknown state, so the session
        is dropped, unless the call is ``cancel_safe`` (waiting for an IDLE push is)."""
        task = asyncio.ensure_future(awaitable)
        limit = self._timeout if timeout == -1 else timeout
        try:
            done, _ = await asyncio.wait(
                {task, session.lost}, timeout=limit, return_when=asyncio.FIRST_COMPLETED
            )
            if task not in done:
                await reap(task)
        except asyncio.CancelledError:
            task.cancel()
            if not cancel_safe and self._session is session:
                self._drop()
            raise
        if task in done:
            return task.result()
        if session.lost.done():
            raise _ConnectionLost(f"connection closed: {session.lost.result() or 'by server'}")
        raise TimeoutError(f"no answer within {limit} s")

    # --- fetch and done ----------------------------------------------------------------
    async def _fetch_unseen(self, session: _Session, limit: int | None = None) -> list[RawMail]:
        uids = await self._unseen(session)
        if limit is not None:
            uids = uids[:limit]  # the oldest: UIDs grow with arrival
        mails: list[RawMail] = []
        for start in range(0, len(uids), self._batch):
            batch = uids[start : start + self._batch]
            mails.extend(await self._fetch_batch(session, batch))
        self._returned = {(session.uidvalidity, uid) for uid in uids}
        return mails

    async def _unseen(self, session: _Session) -> list[int]:
        """UIDs of unseen mail. NOOP first: Dovecot answers a SEARCH from the session's
        current view and reports newly arrived mail only after it, so without the sync a
        fresh mail would be missed and, already announced, would not wake IDLE either."""
        noop = await self._call(session, session.client.noop())
        if noop.result != "OK":
            raise _CommandFailed(f"NOOP: {_text(noop.lines)}")
        response = await self._call(session, session.client.uid_search("UNSEEN", charset=None))
        if response.result != "OK":
            raise _CommandFailed(f"UID SEARCH: {_text(response.lines)}")
        return sorted(parse_search(response.lines))

    async def _fetch_batch(self, session: _Session, uids: list[int]) -> list[RawMail]:
        uid_set = ",".join(map(str, uids))
        # No overall limit: aioimaplib's FETCH timer (``timeout``) restarts with every chunk,
        # so a large mail arrives whole while a connection that stalls halfway fails.
        response = await self._call(
            session, session.client.uid("fetch", uid_set, FETCH_ITEMS), timeout=None
        )
        if response.result != "OK":
            raise _CommandFailed(f"UID FETCH: {_text(response.lines)}")
        bodies = parse_fetch(response.lines)
        return [
            RawMail(key=f"imap:{session.uidvalidity}:{uid}", data=bodies[uid])
            for uid in uids
            if uid in bodies  # expunged meanwhile: nothing to fetch
        ]

    async def _mark_all_seen(self, session: _Session, keys: list[tuple[int, int]]) -> None:
        """One UID STORE per ``STORE_BATCH`` UIDs (then the move to the processed folder);
        a UID of an older UIDVALIDITY is skipped with a warning: it names another mail now."""
        current = sorted({uid for validity, uid in keys if validity == session.uidvalidity})
        if len(current) < len(keys):
            log.warning("not marking %d UIDs of an old UIDVALIDITY", len(keys) - len(current))
        for start in range(0, len(current), STORE_BATCH):
            batch = current[start : start + STORE_BATCH]
            uid_set = ",".join(map(str, batch))
            await self._store_flag(session, uid_set, r"(\Seen)")
            if self._processed_folder is not None:
                await self._file_away(session, uid_set)
            self._returned.difference_update((session.uidvalidity, uid) for uid in batch)

    async def _store_flag(self, session: _Session, uid_set: str, flags: str) -> None:
        store = session.client.uid("store", uid_set, "+FLAGS.SILENT", flags)
        response = await self._call(session, store)
        if response.result != "OK":
            raise _CommandFailed(f"UID STORE: {_text(response.lines)}")

    # --- the processed folder ------------------------------------------------------------
    async def _file_away(self, session: _Session, uid_set: str) -> None:
        """Move handled (stored, \\Seen) mail to the processed folder. Repeating it after a
        dropped connection is harmless: UIDs already moved match nothing. Refused (quota,
        rights, a folder that cannot be made), the mail stays here, read, and the GM reads
        why in the log; it is stored, so it is neither lost nor fetched again."""
        try:
            for attempt in (1, 2):
                target = await self._processed_mailbox(session)
                try:
                    await self._move(session, uid_set, target)
                    return
                except _MoveRefused as exc:
                    if attempt == 2 or "TRYCREATE" not in str(exc).upper():
                        raise
                    session.processed = None  # deleted meanwhile: make it again
        except (_MoveRefused, ImapError) as exc:
            log.error(
                "cannot move handled mail (UIDs %s) to %s: %s; it stays in %s, marked as read",
                uid_set,
                self._processed_folder,
                exc,
                self._folder,
            )

    async def _move(self, session: _Session, uid_set: str, target: str) -> None:
        if self._has(session, "MOVE"):
            await self._refusable(session, session.client.uid("move", uid_set, _quote(target)))
            return
        await self._refusable(session, session.client.uid("copy", uid_set, _quote(target)))
        await self._store_flag(session, uid_set, r"(\Deleted)")
        if self._has(session, "UIDPLUS"):
            expunge = session.client.uid("expunge", uid_set)
        else:  # also expunges what others flagged \Deleted here: RFC 3501 offers no less
            expunge = session.client.expunge()
        response = await self._call(session, expunge)
        if response.result != "OK":
            raise _CommandFailed(f"EXPUNGE: {_text(response.lines)}")

    async def _refusable(self, session: _Session, command: Awaitable[Response]) -> None:
        response = await self._call(session, command)
        if response.result != "OK":
            raise _MoveRefused(_text(response.lines))

    def _has(self, session: _Session, capability: str) -> bool:
        return capability not in self._ignored and capability in session.capabilities

    async def _processed_mailbox(self, session: _Session) -> str:
        """The processed folder's name on the server, created (and subscribed, so mail
        clients show it) when missing; asked once per connection."""
        if session.processed is None:
            assert self._processed_folder is not None
            name = await self._server_name(session, self._processed_folder)
            if not await self._mailbox_exists(session, name):
                await self._create(session, name)
            session.processed = name
        return session.processed

    async def _server_name(self, session: _Session, folder: str) -> str:
        """``folder`` ("GM/erledigt") in the server's terms: its personal namespace prefix
        and hierarchy separator (NAMESPACE, else LIST "" ""), each level in modified UTF-7."""
        prefix, delimiter = "", None
        if "NAMESPACE" in session.capabilities:
            response = await self._call(session, session.client.protocol.namespace())
            if response.result == "OK":
                prefix, delimiter = parse_namespace(response.lines)
        if delimiter is None:
            response = await self._call(session, session.client.list('""', '""'))
            if response.result != "OK":
                raise _CommandFailed(f"LIST: {_text(response.lines)}")
            delimiter = parse_delimiter(response.lines)
        return server_mailbox(folder, prefix, delimiter)

    async def _mailbox_exists(self, session: _Session, name: str) -> bool:
        response = await self._call(session, session.client.list('""', _quote(name)))
        if response.result != "OK":
            raise _CommandFailed(f"LIST: {_text(response.lines)}")
        return any(
            isinstance(line, bytes) and line.startswith(b"(") and b"\\NonExistent" not in line
            for line in response.lines[:-1]
        )

    async def _create(self, session: _Session, name: str) -> None:
        response = await self._call(session, session.client.create(_quote(name)))
        text = _text(response.lines)
        if response.result != "OK" and "ALREADYEXISTS" not in text.upper():
            raise ImapError(
                f"cannot create IMAP folder {self._processed_folder!r} ({PROCESSED_KEY}): {text}"
            )
        log.info("IMAP folder %s created for handled mail", self._processed_folder)
        with contextlib.suppress(*_TRANSIENT):  # only for the GM's mail client: no harm
            await self._call(
                session, session.client.protocol.simple_command("SUBSCRIBE", _quote(name))
            )

    # --- a trial connection --------------------------------------------------------------
    async def probe(self) -> ImapProbe:
        """Connect, log in and select exactly as the daemon does (same TLS context, same
        login), once, without retries, and count what the folder holds; marks, moves and
        creates nothing. Raises what connecting raised, for ``gm-daemon check --connect``
        to name."""
        async with self._lock:
            self._drop()
            session = self._session = await self._connect()
            try:
                unseen = len(await self._unseen(session))
                processed = None
                if self._processed_folder is not None:
                    name = await self._server_name(session, self._processed_folder)
                    processed = await self._mailbox_exists(session, name)
                return ImapProbe(session.exists, unseen, processed)
            finally:
                await self.close()

    # --- waiting -----------------------------------------------------------------------
    async def _idle_session(self) -> _Session | None:
        """A session that can IDLE, or None to fall back to polling."""
        if not self._idle:
            return None
        try:
            session = await self._retrying(_same)
        except (ImapUnavailable, ImapError) as exc:
            log.warning("cannot wait with IDLE: %s", exc)
            return None
        return session if "IDLE" in session.capabilities else None

    async def _idle_until(self, session: _Session, deadline: float) -> None:
        """IDLE in rounds of at most ``idle_renew`` seconds. Before each round, look for mail
        that came while we were not idling (after the last fetch(), or in the gap between
        two rounds): the server announces such mail only once, outside of any IDLE. The
        NOOP that starts each round is also the liveness check: a connection that died
        silently fails it (or the answer to the ended IDLE) within ``timeout``."""
        renew = self._idle_renew or IDLE_RENEW_SECONDS
        while (remaining := deadline - time.monotonic()) > 0:
            await self._reap_idle(session)
            unseen = {(session.uidvalidity, uid) for uid in await self._unseen(session)}
            if unseen - self._returned:
                return
            if await self._idle_once(session, min(remaining, renew)):
                return

    async def _idle_once(self, session: _Session, seconds: float) -> bool:
        """One IDLE command; True when new mail was announced, False after ``seconds``."""
        client = session.client
        _drain(client.protocol.idle_queue)
        try:
            session.idle = await self._call(session, client.idle_start(seconds))
            session.done_sent = False
        except BaseException:
            self._drop()  # an IDLE may be in flight that nobody would end
            raise
        try:
            until = time.monotonic() + seconds
            while (remaining := until - time.monotonic()) > 0:
                try:
                    push = await self._call(
                        session, client.wait_server_push(), remaining + 1, cancel_safe=True
                    )
                except TimeoutError:
                    return False
                if push == STOP_WAIT_SERVER_PUSH:
                    return False
                if _announces_mail(push):
                    return True
            return False
        finally:
            self._end_idle(session)

    @staticmethod
    def _end_idle(session: _Session) -> None:
        """Send DONE now (synchronously, so this also works while being cancelled); the
        server's answer is collected before the next command (_reap_idle)."""
        idle = session.idle
        if idle is not None and not idle.done() and not session.done_sent:
            session.done_sent = True
            if not session.lost.done():
                session.client.idle_done()

    async def _reap_idle(self, session: _Session) -> None:
        """Wait for the tagged answer to an ended IDLE before the next command."""
        idle = session.idle
        if idle is None:
            return
        self._end_idle(session)
        await self._call(session, asyncio.shield(idle))
        session.idle = None


# --- parsing (pure, tested on their own) ---------------------------------------------------


def parse_search(lines: Sequence[bytes | bytearray]) -> set[int]:
    """UIDs of a UID SEARCH answer: aioimaplib gives the numbers, then the tagged text."""
    uids: set[int] = set()
    for line in lines[:-1]:
        if isinstance(line, bytes):
            uids.update(int(n) for n in re.findall(rb"\d+", line.removeprefix(b"SEARCH")))
    return uids


_FETCH_START = re.compile(rb"^\d+ FETCH \(")
_UID = re.compile(rb"\bUID (\d+)")
_LITERAL = re.compile(rb"\{(\d+)\}$")


def parse_fetch(lines: Sequence[bytes | bytearray]) -> dict[int, bytes]:
    """UID → message bytes from a UID FETCH (UID BODY.PEEK[]) answer. aioimaplib gives
    ``b'N FETCH (UID u BODY[] {size}'``, the literal as a bytearray, then ``b')'`` (servers
    may also put the UID after the literal). Flag-only FETCH pushes are skipped."""
    found: dict[int, bytes] = {}
    uid: int | None = None
    body: bytes | None = None
    expected = -1

    def flush() -> None:
        if uid is not None and body is not None and len(body) == expected:
            found[uid] = body

    for line in lines:
        if isinstance(line, bytearray):
            body = bytes(line)
            continue
        if _FETCH_START.match(line):
            flush()
            uid, body, expected = None, None, -1
        if (match := _UID.search(line)) is not None:
            uid = int(match.group(1))
        if (match := _LITERAL.search(line)) is not None:
            expected = int(match.group(1))
    flush()
    return found


_NAMESPACE = re.compile(rb'^(?:NAMESPACE )?\(\("((?:[^"\\]|\\.)*)" (?:"((?:[^"\\]|\\.)*)"|NIL)\)')
_LIST_DELIMITER = re.compile(rb'^\([^)]*\) (?:"((?:[^"\\]|\\.)*)"|NIL)')


def parse_namespace(lines: Sequence[bytes | bytearray]) -> tuple[str, str | None]:
    """(prefix, separator) of the first personal namespace of a NAMESPACE answer (RFC
    2342), e.g. ``("INBOX.", ".")`` on Courier; ``("", None)`` when there is none."""
    for line in lines:
        found = _NAMESPACE.match(bytes(line))
        if found:
            prefix, delimiter = (_unquote(g) if g is not None else None for g in found.groups())
            return prefix or "", delimiter
    return "", None


def parse_delimiter(lines: Sequence[bytes | bytearray]) -> str | None:
    """The hierarchy separator of a LIST "" "" answer; None for a flat server (NIL)."""
    for line in lines:
        found = _LIST_DELIMITER.match(bytes(line))
        if found:
            return _unquote(found.group(1)) if found.group(1) is not None else None
    return None


def server_mailbox(folder: str, prefix: str, delimiter: str | None) -> str:
    """A config folder name ("GM/erledigt", levels split by "/") as the server spells it:
    its separator between the levels, its personal prefix in front (unless given), each
    level in modified UTF-7. A level holding the server's separator would silently become
    two levels, so it is refused, as is a nested name on a server without levels."""
    levels = folder.split("/")
    if delimiter is None and len(levels) > 1:
        raise ImapError(
            f"{PROCESSED_KEY} {folder!r}: this server has no folder levels; name one folder "
            'without "/"'
        )
    for level in levels:
        if delimiter is not None and delimiter != "/" and delimiter in level:
            raise ImapError(
                f"{PROCESSED_KEY} {folder!r}: the server separates folder levels with "
                f'{delimiter!r}, so {level!r} would become two; separate levels with "/" '
                f"and leave {delimiter!r} out of the names"
            )
    name = encode_mailbox((delimiter or "/").join(levels))
    if prefix and not name.startswith(prefix) and name.upper() != "INBOX":
        name = prefix + name
    return name


def encode_mailbox(name: str) -> str:
    """Modified UTF-7 (RFC 3501, 5.1.3), as IMAP folder names travel: printable ASCII as it
    is ("&" as "&-"), every other run as "&" + base64 of its UTF-16BE (with "," for "/") +
    "-"; so "Erledigte Züge" becomes "Erledigte Z&APw-ge"."""
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            data = "".join(run).encode("utf-16-be")
            out.append(
                "&" + base64.b64encode(data).decode("ascii").rstrip("=").replace("/", ",") + "-"
            )
            run.clear()

    for char in name:
        if " " <= char <= "~":
            flush()
            out.append("&-" if char == "&" else char)
        else:
            run.append(char)
    flush()
    return "".join(out)


def _unquote(value: bytes) -> str:
    return re.sub(rb"\\(.)", rb"\1", value).decode("utf-8", "replace")


def _parse_key(key: str) -> tuple[int, int]:
    match = re.fullmatch(r"imap:(\d+):(\d+)", key)
    if not match:
        raise ValueError(f"not an IMAP key: {key!r}")
    return int(match.group(1)), int(match.group(2))


def _announces_mail(push: object) -> bool:
    lines = push if isinstance(push, list) else []
    return any(
        isinstance(line, bytes | bytearray) and re.search(rb"\d+ (EXISTS|RECENT)", line)
        for line in lines
    )


def _quote(value: str) -> str:
    """An IMAP quoted string (aioimaplib sends user names and folders unquoted)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text(lines: Sequence[bytes | bytearray]) -> str:
    return " ".join(
        bytes(line).decode("utf-8", "replace") for line in lines if isinstance(line, bytes)
    )


async def reap(task: asyncio.Future[Any]) -> None:
    """Cancel a helper task the caller has given up on and wait until it has ended, whatever
    it ended with: its outcome no longer matters (it is marked retrieved, so asyncio does not
    log it as lost). The caller's own cancellation, while it waits, is not swallowed: a
    daemon that is stopping stops."""
    task.cancel()
    await asyncio.wait({task})
    if not task.cancelled():
        task.exception()


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _drain(queue: asyncio.Queue[object]) -> None:
    """Forget pushes left over from an earlier IDLE."""
    while not queue.empty():
        queue.get_nowait()


async def _same(session: _Session) -> _Session:
    return session


def _abort(client: IMAP4) -> None:
    """Close the socket and cancel aioimaplib's helper tasks, leaving nothing pending."""
    task = getattr(client, "_client_task", None)  # the connect task of aioimaplib
    if task is not None and not task.done():
        task.cancel()
    for pending in [*client.tasks, *client.protocol.tasks]:
        pending.cancel()
    transport = client.protocol.transport
    if transport is not None:
        transport.abort()  # also closes the socket under a TLS layer at once


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
