"""What keeps the daemon honest when things around it break: one daemon per database, mail
that cannot be stored is never acknowledged, and the GM hears of mail the server refused.

Small pieces used by ``daemon.py``; each exists because a fault test showed the need (see
docs/reliability.md).
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import os
from pathlib import Path
from typing import IO

from gm_daemon.mail.message import Incoming
from gm_daemon.mailer import Mailer
from gm_daemon.passwords import user_name
from gm_daemon.startup import StartupProblem
from gm_daemon.store import Store

log = logging.getLogger(__name__)


class CannotStore(RuntimeError):
    """The database refused a fetched mail (disk full, read-only): intake stops here, and the
    mail stays unseen on the server, so nothing is acknowledged that is not kept."""


class AlreadyRunning(StartupProblem):
    """Another daemon holds the database's lock file."""


def content_digest(incoming: Incoming, raw: bytes) -> str:
    """What a mail says, for deduplication: subject and decoded text, or the raw bytes of a
    mail that could not be decoded. Two deliveries of one mail agree; a forger reusing a
    Message-ID with other words does not."""
    if incoming.unreadable:
        return hashlib.sha256(raw).hexdigest()
    said = f"{incoming.subject}\n{incoming.text}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(said).hexdigest()


class DaemonLock:
    """An exclusive ``flock`` on ``<database>.lock``: a second daemon on the same database
    refuses to start instead of answering every mail twice. The kernel releases the lock
    when the process ends, even by ``kill -9``, so a crash never leaves a stale lock."""

    def __init__(self, database: Path):
        self.path = database.with_name(database.name + ".lock")
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle = self.path.open("a+", encoding="utf-8")
        except OSError as exc:
            raise StartupProblem(
                f"lock file {self.path.absolute()}: cannot be created by user {user_name()}: "
                f"{exc.strerror or exc}"
            ) from exc
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise AlreadyRunning(
                f"another gm-daemon ({holder}) runs on this database; lock file {self.path}"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}\n")
        handle.flush()
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None


_REPORTED = "failed_mail_reported_upto"


def report_failed_mail(store: Store, mailer: Mailer) -> int:
    """Tell the GM once about each mail the server refused for good (a player's address
    went dead): the other recipients got theirs, this one needs a new address. Returns the
    number of refusals reported."""
    upto = int(store.note(_REPORTED) or 0)
    fresh = [row for row in store.failed_mails() if row["id"] > upto]
    if not fresh:
        return 0
    lines = [
        f"- {row['recipient']} ({row['game_id'] or 'no game'}, {row['purpose']}): "
        f"{row['last_error']}"
        for row in fresh
        if row["purpose"] != "gm-notice"
    ]
    with store.transaction():
        if lines:
            mailer.tell_gm(
                f"{len(lines)} mail(s) refused by the mail server",
                "The mail server refused these mails for good; everyone else got theirs.\n\n"
                + "\n".join(lines)
                + "\n\nFix the address (gm-daemon replace-player) and tell the player.\n",
            )
        store.set_note(_REPORTED, str(max(row["id"] for row in fresh)))
    return len(lines)
