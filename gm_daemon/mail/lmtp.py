"""Mail straight from the mail server: the MTA hands each mail to the daemon over LMTP.

The protocol is aiosmtpd's LMTP server (the one GNU Mailman 3 takes its mail with), run in the
daemon's own event loop. Exactly-once with the MTA's help: a recipient gets ``250`` only after
the raw mail is committed to the inbox table (``take`` returned); anything that fails before
that is ``451``, so the MTA keeps the mail and delivers it again; a mail the daemon will never
take (not for the GM's address, too big) is ``550`` with the reason. A ``250`` lost on the way
(a crash right after the commit) makes the MTA deliver again, and the store drops the copy: the
key is a digest of the bytes, and Message-ID + sender + content as for every transport.

Mails delivered in the same turn of the event loop (a burst over several connections) are
committed together (``GroupCommit``), and each connection hears its ``250`` once that one
commit is done. Intake from here on is the database's: ``fetch`` finds nothing (every mail is
stored while it is delivered) and ``done`` has nothing to mark.
"""

from __future__ import annotations

import asyncio
import contextlib
import grp
import hashlib
import logging
import os
import re
import socket
import stat
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from aiosmtpd.lmtp import LMTP

from gm_daemon.config import LmtpSection
from gm_daemon.mail.transport import RawMail

log = logging.getLogger(__name__)

Take = Callable[[Sequence[bytes]], None]  # stores the mails for good in one commit, or raises
KEY_PREFIX = "lmtp:"
SESSION_TIMEOUT = 300.0  # seconds an idle MTA connection is kept (RFC 5321's 5 minutes)
STORED = "250 2.0.0 stored"
NOT_STORED = "451 4.3.0 not stored, try again later"
# Handling waits while the MTA is in the middle of handing mail over (``LmtpInbox.quiet``):
# a connection is within a mail, or the last commit is less than GAP seconds ago (the MTA's
# round trip from a 250 to its next MAIL). It looks every QUIET seconds, but never waits
# longer than MOST_DEFERRED, so that a stream without gaps is still answered meanwhile.
GAP = 0.02
QUIET = 0.001
MOST_DEFERRED = 0.25
BURST_ONLY = 1.0  # seconds after the last commit that a connection within a mail counts
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
# A reverse or forward path as MTAs write it: <local@domain>, then parameters
_SIMPLE_PATH = re.compile(
    rf"\s*<(({_ATOM}(?:\.{_ATOM})*)@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)>(.*)\Z", re.S
)


def lmtp_key(data: bytes) -> str:
    """The mailbox key of a delivered mail: the same bytes delivered again (the MTA's retry
    after a lost ``250``) have the same key, so the store keeps them once."""
    return KEY_PREFIX + hashlib.sha256(data).hexdigest()


class GroupCommit:
    """One transaction for the mails that are delivered in the same turn of the event loop:
    with several MTA connections a commit serves each of them, and each hears ``250`` only
    after it. A mail that cannot be stored with the others is tried alone, so one bad mail
    does not make the others ``451``."""

    def __init__(self, take: Take) -> None:
        self.take = take
        self.last = 0.0  # monotonic time of the last commit
        self._waiting: list[tuple[bytes, asyncio.Future[str]]] = []

    @property
    def waiting(self) -> bool:
        return bool(self._waiting)

    async def store(self, data: bytes) -> str:
        """``STORED`` once ``data`` is committed, ``NOT_STORED`` if it could not be."""
        loop = asyncio.get_running_loop()
        if not self._waiting:
            loop.call_soon(self._commit)  # after the other connections' turns of this pass
        answer: asyncio.Future[str] = loop.create_future()
        self._waiting.append((data, answer))
        return await answer

    def _commit(self) -> None:
        batch, self._waiting = self._waiting, []
        if self._take([data for data, _answer in batch]):
            replies = [STORED] * len(batch)
        elif len(batch) == 1:
            replies = [NOT_STORED]
        else:  # not stored together: each alone
            replies = [STORED if self._take([data]) else NOT_STORED for data, _ in batch]
        for (_data, answer), reply in zip(batch, replies, strict=True):
            if not answer.done():  # cancelled: the connection was lost meanwhile
                answer.set_result(reply)
        self.last = time.monotonic()

    def _take(self, mails: list[bytes]) -> bool:
        try:
            self.take(mails)
        except Exception as exc:  # not stored: the MTA keeps the mail and tries again
            log.error(
                "LMTP: %d mail(s) not stored, answered 451 (the MTA retries): %s", len(mails), exc
            )
            return False
        return True


class GmHandler:
    """aiosmtpd's handler: which recipients are taken, and the per-recipient replies."""

    def __init__(self, address: str, commits: GroupCommit, max_bytes: int) -> None:
        self.address = address.lower()
        self.commits = commits
        self.max_bytes = max_bytes

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if address.lower() != self.address:
            return f"550 5.1.1 <{address}>: not the game master's address ({self.address})"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        """One reply line per accepted recipient (RFC 2033 section 4.2), all alike: every
        recipient is the GM's address, and the mail is stored once for all of them."""
        reply = await self.store(envelope.original_content or b"")
        if isinstance(server, GmLmtp):
            server.reply_at_once()  # the MTA waits for this one
        return "\r\n".join(reply for _ in envelope.rcpt_tos)

    async def store(self, data: bytes) -> str:
        if len(data) > self.max_bytes:
            return (
                f"550 5.3.4 message too big: {len(data)} bytes, the game master takes at most "
                f"{self.max_bytes} (mail.lmtp.max_message_bytes)"
            )
        return await self.commits.store(data)


class GmLmtp(LMTP):
    """aiosmtpd's LMTP server, its positive replies to the envelope written together: the
    MTA pipelines MAIL, RCPT and DATA, and their three replies leave in one write at the end
    of the loop turn instead of one system call (and one wake-up of the MTA's process) each.
    The replies after the mail's data, and any other (an error, the goodbye before a close),
    are written at once, with what waits."""

    def __init__(self, *args: Any, sessions: set[GmLmtp], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._replies: list[bytes] = []
        self._at_once = False
        self._sessions = sessions  # the listener's open connections

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._sessions.add(self)

    def connection_lost(self, error: Exception | None) -> None:
        self._sessions.discard(self)
        super().connection_lost(error)

    @property
    def in_transaction(self) -> bool:
        """Between MAIL and the reply after the mail's data (aiosmtpd starts a new envelope
        after DATA and RSET)."""
        return self.envelope is not None and self.envelope.mail_from is not None

    def reply_at_once(self) -> None:
        """The next reply is written as soon as it is pushed."""
        self._at_once = True

    def _getaddr(self, arg: str) -> tuple[str | None, str | None]:
        """``<local@domain>`` with a dot-atom local part read directly; anything else by
        aiosmtpd's own reader (the email package's header parser, a fifth of the CPU a
        delivered mail costs, for the two addresses of every envelope)."""
        simple = _SIMPLE_PATH.match(arg)
        if (
            simple is None
            or "(" in simple[3]  # a comment: the parser's to skip
            or (self.local_part_limit and len(simple[2]) > self.local_part_limit)
        ):
            return super()._getaddr(arg)  # type: ignore[no-any-return]
        return simple[1], simple[3].lstrip()

    async def push(self, status: str | bytes) -> None:
        line = (status.encode() if isinstance(status, str) else status) + b"\r\n"
        if not self._replies:
            self.loop.call_soon(self._flush)
        self._replies.append(line)
        if self._at_once or line[:3] not in (b"250", b"354"):
            self._at_once = False
            self._flush()
            await self._writer.drain()

    def _flush(self) -> None:
        if self._replies and self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"".join(self._replies))
        self._replies.clear()


class LmtpInbox:
    """The ``Inbox`` of transport "lmtp": a listener instead of a mailbox. ``listen`` starts
    it with the daemon's ``take``; the daemon answers what ``take`` stored on its own."""

    def __init__(self, section: LmtpSection, address: str, hostname: str | None = None) -> None:
        self.section = section
        self.address = address
        self.hostname = hostname
        self._server: asyncio.AbstractServer | None = None
        self._commits: GroupCommit | None = None
        self._sessions: set[GmLmtp] = set()

    async def listen(self, take: Take) -> None:
        self._commits = GroupCommit(take)
        handler = GmHandler(self.address, self._commits, self.section.max_message_bytes)

        def protocol() -> LMTP:
            return GmLmtp(
                handler,
                data_size_limit=None,  # checked by the handler: a 550 per recipient
                enable_SMTPUTF8=True,
                hostname=self.hostname,
                ident="gm-daemon",
                timeout=SESSION_TIMEOUT,
                sessions=self._sessions,
            )

        loop = asyncio.get_running_loop()
        path = self.section.socket
        if path is None:
            assert self.section.host is not None and self.section.port is not None
            self._server = await loop.create_server(protocol, self.section.host, self.section.port)
            log.info("LMTP: listening on %s port %d", self.section.host, self.section.port)
            return
        remove_stale_socket(path)
        self._server = await loop.create_unix_server(protocol, str(path))
        self._permit(path)
        log.info("LMTP: listening on %s", path)

    def _permit(self, path: Path) -> None:
        """Mode and group, so that the MTA's LMTP client (user postfix) may connect."""
        if self.section.socket_group is not None:
            os.chown(path, -1, grp.getgrnam(self.section.socket_group).gr_gid)
        os.chmod(path, self.section.mode)

    async def fetch(self, limit: int | None = None) -> Sequence[RawMail]:
        """Nothing: every mail was stored while it was delivered."""
        return ()

    async def done(self, key: str) -> None:
        """Nothing to mark: the ``250`` was the receipt."""

    async def done_all(self, keys: Sequence[str]) -> None:
        """Nothing to mark (see ``done``)."""

    async def quiet(self) -> None:
        """Return once no connection is in the middle of a mail and none has just had its
        ``250`` (or ``MOST_DEFERRED`` later): handling a mail takes the event loop for a
        millisecond or more, and while a burst arrives that time goes to storing it, so the
        MTA hears its ``250``s first."""
        until = time.monotonic() + MOST_DEFERRED
        while self._busy() and time.monotonic() < until:
            await asyncio.sleep(QUIET)

    def _busy(self) -> bool:
        commits = self._commits
        if commits is None:
            return False
        since = time.monotonic() - commits.last
        if commits.waiting or since < GAP:
            return True
        # a connection within a mail counts while the MTA is storing: one that hangs
        # there must not slow the handling of what came before it
        return since < BURST_ONLY and any(s.in_transaction for s in self._sessions)

    async def wait(self, timeout: float) -> None:
        """Deliveries are answered as they come (the daemon's ``answer_delivered``), so the
        loop only waits for its timers."""
        await asyncio.sleep(timeout)

    async def close(self) -> None:
        if self._server is None:
            return
        self._server.close()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._server.wait_closed(), 5)
        self._server = None
        if self.section.socket is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.section.socket)


def remove_stale_socket(path: Path) -> None:
    """A socket left by a daemon that was killed is removed; one that still answers belongs to
    a running daemon, and anything else at the path is not ours to delete."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise OSError(f"{path} exists and is not a socket (mail.lmtp.socket); remove it")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            os.unlink(path)
            return
    raise OSError(f"{path}: another process listens there already (mail.lmtp.socket)")


def lmtp_problems(section: LmtpSection) -> list[str]:
    """What ``check`` says about the LMTP section before the daemon would fail on it: the
    socket's directory must exist and be writable by this user, the group must exist."""
    problems = []
    if section.socket is not None:
        folder = section.socket.parent
        if folder.exists() and not folder.is_dir():
            problems.append(
                f"mail.lmtp.socket: {folder} is not a directory; name a socket path in a "
                "directory (systemd: RuntimeDirectory=gm-daemon gives /run/gm-daemon)"
            )
        elif not folder.is_dir():
            problems.append(
                f"mail.lmtp.socket: directory {folder} does not exist; create it (systemd: "
                "RuntimeDirectory=gm-daemon) or name another socket path"
            )
        elif not os.access(folder, os.W_OK | os.X_OK):
            problems.append(
                f"mail.lmtp.socket: directory {folder} is not writable for this user; the "
                "daemon creates its socket there"
            )
        if section.socket_group is not None:
            try:
                grp.getgrnam(section.socket_group)
            except KeyError:
                problems.append(
                    f"mail.lmtp.socket_group: no group {section.socket_group!r} on this machine"
                )
    return problems
