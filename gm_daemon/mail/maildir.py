"""The embedded default transport: mail in and out through Maildir folders, no server needed.

An MTA (or a test, or ``gm-daemon inject``) drops incoming mail into the inbox Maildir; the
daemon reads ``new/`` and unseen ``cur/`` entries and marks a message done by moving it to
``cur/`` with the ``S`` flag, as any Maildir mail reader would. Outgoing mail is written into
a second Maildir, from where an operator's mail client or a relay script picks it up.
"""

from __future__ import annotations

import asyncio
import contextlib
import mailbox
import os
import time
from collections.abc import Sequence
from pathlib import Path

from gm_daemon.mail.transport import RawMail, SendError

_PREFIX = "maildir:"
_INFO_SEP = ":"  # Maildir's "unique:2,FLAGS" separator, as mailbox.Maildir uses it


def _open(path: str | os.PathLike[str]) -> mailbox.Maildir:
    """Open the Maildir, creating new/ cur/ tmp/ when missing. mailbox.Maildir creates them
    only when the folder itself is missing, not in an existing empty folder."""
    for sub in ("new", "cur", "tmp"):
        os.makedirs(os.path.join(path, sub), mode=0o700, exist_ok=True)
    return mailbox.Maildir(os.fspath(path), factory=None, create=False)


def _split(name: str) -> tuple[str, str]:
    """File name → (unique key, flags). Names without "2," info have no flags."""
    key, _, info = name.partition(_INFO_SEP)
    return key, info[2:] if info.startswith("2,") else ""


class MaildirInbox:
    """Inbox over a Maildir. Keys are ``maildir:<unique name>``, stable when the file moves
    from new/ to cur/ (the unique part of the name never changes)."""

    def __init__(self, path: str | os.PathLike[str], *, poll_interval: float = 0.5) -> None:
        _open(path)
        self._root = Path(path)
        self._poll_interval = poll_interval
        self._seen_new: set[str] = set()

    async def fetch(self, limit: int | None = None) -> Sequence[RawMail]:
        return await asyncio.to_thread(self._fetch, limit)

    def _fetch(self, limit: int | None = None) -> list[RawMail]:
        """Unseen mail in delivery order (modification time, then name); only the first
        ``limit`` files are read."""
        waiting: list[tuple[float, str, Path]] = []
        self._seen_new = set(self._names("new"))
        for sub in ("new", "cur"):
            for name in self._names(sub):
                key, flags = _split(name)
                if "S" in flags:
                    continue
                try:
                    waiting.append(
                        (os.stat(self._root / sub / name).st_mtime, key, self._root / sub / name)
                    )
                except FileNotFoundError:
                    continue  # moved by someone else in between
        found: list[RawMail] = []
        for _mtime, key, path in sorted(waiting):
            if limit is not None and len(found) >= limit:
                break
            mail = self._read(path, key)
            if mail is not None:
                found.append(mail)
        return found

    def _names(self, sub: str) -> list[str]:
        try:
            return [n for n in os.listdir(self._root / sub) if not n.startswith(".")]
        except FileNotFoundError:
            return []

    @staticmethod
    def _read(path: Path, key: str) -> RawMail | None:
        """The mail, or None when the file vanished meanwhile."""
        try:
            return RawMail(key=_PREFIX + key, data=path.read_bytes())
        except FileNotFoundError:
            return None

    async def done(self, key: str) -> None:
        await asyncio.to_thread(self._done, key)

    def _done(self, key: str) -> None:
        """Move to cur/ with flag S. A key that is already done or gone is no error: done()
        may be repeated after a crash between the store commit and this call."""
        if not key.startswith(_PREFIX):
            raise ValueError(f"not a Maildir key: {key!r}")
        unique = key.removeprefix(_PREFIX)
        for sub in ("new", "cur"):
            for name in self._names(sub):
                found, flags = _split(name)
                if found != unique or "S" in flags:
                    continue
                flags = "".join(sorted(set(flags) | {"S"}))
                target = self._root / "cur" / f"{unique}{_INFO_SEP}2,{flags}"
                try:
                    os.rename(self._root / sub / name, target)
                except FileNotFoundError:
                    continue  # moved by someone else in between
                return

    async def done_all(self, keys: Sequence[str]) -> None:
        await asyncio.to_thread(self._done_all, keys)

    def _done_all(self, keys: Sequence[str]) -> None:
        """As ``_done`` for each key, listing the folders once rather than once per key."""
        wanted = {self._unique(key) for key in keys}
        for sub in ("new", "cur"):
            for name in self._names(sub):
                unique, flags = _split(name)
                if unique not in wanted or "S" in flags:
                    continue
                flags = "".join(sorted(set(flags) | {"S"}))
                with contextlib.suppress(FileNotFoundError):  # moved by someone else
                    os.rename(self._root / sub / name, self._root / "cur" / f"{unique}:2,{flags}")

    @staticmethod
    def _unique(key: str) -> str:
        if not key.startswith(_PREFIX):
            raise ValueError(f"not a Maildir key: {key!r}")
        return key.removeprefix(_PREFIX)

    async def wait(self, timeout: float) -> None:
        """Poll new/ until a file appears that the last fetch() did not see, or timeout.
        Files that were fetched but not yet done do not wake us, so a message the daemon
        could not store does not turn this into a busy loop."""
        deadline = time.monotonic() + timeout
        while True:
            if not set(self._names("new")) <= self._seen_new:
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            await asyncio.sleep(min(self._poll_interval, remaining))

    async def close(self) -> None:
        """Nothing to release: every operation opens and closes its own files."""


class MaildirSender:
    """Sender that files each outgoing message into a Maildir (atomically: written to tmp/,
    then moved to new/). The envelope, which a Maildir cannot hold, is recorded in a
    ``Return-Path`` and an ``X-Envelope-To`` header on top of the stored copy."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._maildir = _open(path)

    async def send(self, message: bytes, sender: str, recipients: Sequence[str]) -> None:
        """The stored bytes as they are, but with Unix line ends, as Maildir files have."""
        if not recipients:
            raise SendError("no recipients", permanent=True)
        data = self._envelope(sender, recipients) + message.replace(b"\r\n", b"\n")
        try:
            await asyncio.to_thread(self._maildir.add, data)
        except OSError as exc:
            raise SendError(f"cannot write to the outbox Maildir: {exc}") from exc

    @staticmethod
    def _envelope(sender: str, recipients: Sequence[str]) -> bytes:
        lines = f"Return-Path: <{sender}>\nX-Envelope-To: {', '.join(recipients)}\n"
        return lines.encode("utf-8")

    async def close(self) -> None:
        """Nothing to release: mailbox.Maildir keeps no file open between adds."""
