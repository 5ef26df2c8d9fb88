"""Mail straight from the mail server: the MTA hands each mail to the daemon over LMTP.

The protocol is aiosmtpd's LMTP server (the one GNU Mailman 3 takes its mail with), run in the
daemon's own event loop. Exactly-once with the MTA's help: a recipient gets ``250`` only after
the raw mail is committed to the inbox table (``take`` returned); anything that fails before
that is ``451``, so the MTA keeps the mail and delivers it again; a mail the daemon will never
take (not for the GM's address, too big) is ``550`` with the reason. A ``250`` lost on the way
(a crash right after the commit) makes the MTA deliver again, and the store drops the copy: the
key is a digest of the bytes, and Message-ID + sender + content as for every transport.

Intake from here on is the database's: ``fetch`` finds nothing (every mail is stored while it
is delivered) and ``done`` has nothing to mark.
"""

from __future__ import annotations

import asyncio
import contextlib
import grp
import hashlib
import logging
import os
import socket
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from aiosmtpd.lmtp import LMTP

from gm_daemon.config import LmtpSection
from gm_daemon.mail.transport import RawMail

log = logging.getLogger(__name__)

Take = Callable[[bytes], None]  # stores one mail for good, or raises
KEY_PREFIX = "lmtp:"
SESSION_TIMEOUT = 300.0  # seconds an idle MTA connection is kept (RFC 5321's 5 minutes)


def lmtp_key(data: bytes) -> str:
    """The mailbox key of a delivered mail: the same bytes delivered again (the MTA's retry
    after a lost ``250``) have the same key, so the store keeps them once."""
    return KEY_PREFIX + hashlib.sha256(data).hexdigest()


class GmHandler:
    """aiosmtpd's handler: which recipients are taken, and the per-recipient replies."""

    def __init__(self, address: str, take: Take, max_bytes: int) -> None:
        self.address = address.lower()
        self.take = take
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
        reply = self.store(envelope.original_content or b"")
        return "\r\n".join(reply for _ in envelope.rcpt_tos)

    def store(self, data: bytes) -> str:
        if len(data) > self.max_bytes:
            return (
                f"550 5.3.4 message too big: {len(data)} bytes, the game master takes at most "
                f"{self.max_bytes} (mail.lmtp.max_message_bytes)"
            )
        try:
            self.take(data)
        except Exception as exc:  # not stored: the MTA keeps the mail and tries again
            log.error("LMTP: mail not stored, answered 451 (the MTA retries): %s", exc)
            return "451 4.3.0 not stored, try again later"
        return "250 2.0.0 stored"


class LmtpInbox:
    """The ``Inbox`` of transport "lmtp": a listener instead of a mailbox. ``listen`` starts
    it with the daemon's ``take``; the daemon answers what ``take`` stored on its own."""

    def __init__(self, section: LmtpSection, address: str, hostname: str | None = None) -> None:
        self.section = section
        self.address = address
        self.hostname = hostname
        self._server: asyncio.AbstractServer | None = None

    async def listen(self, take: Take) -> None:
        handler = GmHandler(self.address, take, self.section.max_message_bytes)

        def protocol() -> LMTP:
            return LMTP(
                handler,
                data_size_limit=None,  # checked by the handler: a 550 per recipient
                enable_SMTPUTF8=True,
                hostname=self.hostname,
                ident="gm-daemon",
                timeout=SESSION_TIMEOUT,
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
        if not folder.is_dir():
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
