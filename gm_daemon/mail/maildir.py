"""The embedded default transport: mail in and out through Maildir folders, no server needed.

An MTA (or a test, or ``gm-daemon inject``) drops incoming mail into the inbox Maildir; the
daemon reads ``new/`` and unseen ``cur/`` entries and marks a message done by moving it to
``cur/`` with the ``S`` flag, as any Maildir mail reader would. Outgoing mail is written into
a second Maildir, from where an operator's mail client or a relay script picks it up.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import os
import time
import weakref
from collections import deque
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from gm_daemon.mail.transport import Outgoing, RawMail, SendError
from gm_daemon.patterns import on_first_use

if TYPE_CHECKING:
    import mailbox

_PREFIX = "maildir:"
_INFO_SEP = ":"  # Maildir's "unique:2,FLAGS" separator, as mailbox.Maildir uses it


def _open(path: str | os.PathLike[str]) -> None:
    """Make the Maildir's new/ cur/ tmp/ when missing. mailbox.Maildir creates them only
    when the folder itself is missing, not in an existing empty folder."""
    for sub in ("new", "cur", "tmp"):
        os.makedirs(os.path.join(path, sub), mode=0o700, exist_ok=True)


def _split(name: str) -> tuple[str, str]:
    """File name → (unique key, flags). Names without "2," info have no flags."""
    key, _, info = name.partition(_INFO_SEP)
    return key, info[2:] if info.startswith("2,") else ""


class MaildirInbox:
    """Inbox over a Maildir. Keys are ``maildir:<unique name>``, stable when the file moves
    from new/ to cur/ (the unique part of the name never changes).

    A burst is read in steps (``fetch(limit=…)``): the folders are listed (and every waiting
    file's time looked up) once, and the steps take the next files of that listing until it
    is used up; only then are they listed again. A mail fetched is marked done where it was
    found, without listing the folders for it."""

    def __init__(self, path: str | os.PathLike[str], *, poll_interval: float = 0.05) -> None:
        _open(path)
        # paths as strings: they are joined, a few per mail, in the fetching thread while it
        # holds the interpreter (intake's thread waits for it then)
        self._root = os.fspath(path)
        self._poll_interval = poll_interval
        self._seen_new: set[str] = set()
        self._waiting: deque[tuple[str, str, int]] = deque()  # listed, not yet fetched
        self._found_at: dict[str, str] = {}  # unique name → file, of mails fetched
        self._arrivals: _Arrivals | None = None  # made by the first wait()

    async def fetch(self, limit: int | None = None) -> Sequence[RawMail]:
        return await asyncio.to_thread(self._fetch, limit)

    def _fetch(self, limit: int | None = None) -> list[RawMail]:
        """Unseen mail in delivery order (modification time, then name); only the first
        ``limit`` files are read."""
        if limit is None or not self._waiting:
            self._waiting = deque(self._list())
            self._found_at = {}
        found: list[RawMail] = []
        while self._waiting and (limit is None or len(found) < limit):
            key, path, size = self._waiting.popleft()
            mail = self._read(path, key, size)
            if mail is not None:  # else moved by someone else since the listing
                found.append(mail)
                self._found_at[key] = path
        return found

    def _list(self) -> list[tuple[str, str, int]]:
        """Every unseen mail in new/ and cur/ with its size, in delivery order."""
        waiting: list[tuple[float, str, str, int]] = []
        new = self._names("new")
        self._seen_new = set(new)
        for sub, names in (("new", new), ("cur", self._names("cur"))):
            for name in names:
                key, flags = _split(name)
                if "S" in flags:
                    continue
                path = f"{self._root}/{sub}/{name}"
                try:
                    found = os.stat(path)
                except FileNotFoundError:
                    continue  # moved by someone else in between
                waiting.append((found.st_mtime, key, path, found.st_size))
        return [(key, path, size) for _mtime, key, path, size in sorted(waiting)]

    def _names(self, sub: str) -> list[str]:
        try:
            return [n for n in os.listdir(f"{self._root}/{sub}") if not n.startswith(".")]
        except FileNotFoundError:
            return []

    @staticmethod
    def _read(path: str, key: str, size: int) -> RawMail | None:
        """The mail, or None when the file vanished meanwhile. Read in one call of the
        listed ``size`` and one byte more, not as ``open().read()`` reads it, which asks the
        file's size and position again and reads once more to find the end: each system
        call of this thread lets go of the interpreter, which intake's thread then waits to
        have back. A read of a regular file that returns less than asked for has met the
        end; only a file that grew since the listing is read on to its end."""
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            return None
        try:
            data = os.read(fd, size + 1)
            if len(data) > size:
                parts = [data]
                while part := os.read(fd, 1 << 16):
                    parts.append(part)
                data = b"".join(parts)
        finally:
            os.close(fd)
        return RawMail(key=_PREFIX + key, data=data)

    async def done(self, key: str) -> None:
        await asyncio.to_thread(self._done_all, [key])

    async def done_all(self, keys: Sequence[str]) -> None:
        await asyncio.to_thread(self._done_all, keys)

    def done_all_then_fetch(self, keys: Sequence[str], limit: int) -> asyncio.Future[list[RawMail]]:
        """``done_all``, then ``fetch(limit=…)``, in one hand-over to a thread that starts
        at once: the daemon's read-ahead (``Daemon._mark_and_read_on``) needs both while its
        main thread answers the chunk before. Two awaits (or a coroutine) would start the
        work only when that thread next lets the event loop run, after its next group of
        mails, and it would then wait for the fetch; handed over together and at once, the
        next chunk is read while it works."""
        loop = asyncio.get_running_loop()
        return loop.run_in_executor(None, self._done_all_then_fetch, keys, limit)

    def _done_all_then_fetch(self, keys: Sequence[str], limit: int) -> list[RawMail]:
        self._done_all(keys)
        return self._fetch(limit)

    def _done_all(self, keys: Sequence[str]) -> None:
        """Move to cur/ with flag S. A key that is already done or gone is no error: it may
        be marked again after a crash between the store commit and this call. A mail is
        moved from where it was fetched; the folders are listed (once) only for those that
        were not there any more, or were never fetched by this inbox."""
        wanted = {self._unique(key) for key in keys}
        for unique in list(wanted):
            path = self._found_at.pop(unique, None)
            if path is not None and self._mark_seen(path, unique):
                wanted.discard(unique)
        if not wanted:
            return
        for sub in ("new", "cur"):
            for name in self._names(sub):
                unique, _flags = _split(name)
                if unique in wanted:
                    self._mark_seen(f"{self._root}/{sub}/{name}", unique)

    def _mark_seen(self, path: str, unique: str) -> bool:
        """The file into cur/ with flag S added to its flags; False when it is not there
        (moved by someone else)."""
        flags = _split(os.path.basename(path))[1]
        if "S" in flags:
            return True
        flags = "".join(sorted(set(flags) | {"S"}))
        try:
            os.rename(path, f"{self._root}/cur/{unique}{_INFO_SEP}2,{flags}")
        except FileNotFoundError:
            return False
        return True

    @staticmethod
    def _unique(key: str) -> str:
        if not key.startswith(_PREFIX):
            raise ValueError(f"not a Maildir key: {key!r}")
        return key.removeprefix(_PREFIX)

    async def wait(self, timeout: float) -> None:
        """Poll new/ until a file appears that the last fetch() did not see, or timeout.
        Files that were fetched but not yet done do not wake us, so a message the daemon
        could not store does not turn this into a busy loop. Polled often (``poll_interval``,
        50 ms): a listing of the empty new/ of an idle daemon costs microseconds. Where the
        kernel tells of new files (Linux's inotify, ``_Arrivals``), a file moved or written
        into new/ ends the pause at once: a mail dropped in waits for no poll (half the
        interval on average, the whole of it at worst); the polling stays for file systems
        that tell nothing (NFS). The next pass lists the folders afresh."""
        self._waiting.clear()
        deadline = time.monotonic() + timeout
        if self._arrivals is None:
            self._arrivals = _Arrivals(f"{self._root}/new")
        arrivals = self._arrivals
        arrivals.clear()  # before the listing: whatever comes after it wakes the pause
        while True:
            if not set(self._names("new")) <= self._seen_new:
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            await arrivals.pause(min(self._poll_interval, remaining))

    async def close(self) -> None:
        """Only the watch on new/ to release: every operation opens and closes its own
        files."""
        if self._arrivals is not None:
            self._arrivals.close()
            self._arrivals = None


class _Arrivals:
    """Linux's inotify on one folder, to end a pause as soon as a file is created in it or
    moved into it. Where it cannot be had (another system, the watches or instances used
    up) a pause is a sleep, as before. Called through ctypes with the process's own C
    library: two calls and a readable descriptor are all that is needed (a wrapper package
    would find the library by running ``ldconfig`` and decode every event into objects,
    while these events are only read to be dropped)."""

    _MASK = 0x100 | 0x80  # IN_CREATE | IN_MOVED_TO

    def __init__(self, folder: str) -> None:
        self._fd = _watch(folder, self._MASK)
        # an inbox dropped without close() (a test, a failed start) must not keep it open
        self._release = None if self._fd is None else weakref.finalize(self, os.close, self._fd)

    def clear(self) -> None:
        """Drop the events queued so far: the caller lists the folder next."""
        if self._fd is None:
            return
        with contextlib.suppress(BlockingIOError):
            while os.read(self._fd, 65536):
                pass

    async def pause(self, seconds: float) -> None:
        """Sleep ``seconds``, or less when a file arrived (since the last ``clear``)."""
        if self._fd is None:
            await asyncio.sleep(seconds)
            return
        loop = asyncio.get_running_loop()
        woken = loop.create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        loop.add_reader(self._fd, wake)
        timer = loop.call_later(seconds, wake)
        try:
            await woken
        finally:
            timer.cancel()
            loop.remove_reader(self._fd)
        self.clear()

    def close(self) -> None:
        if self._release is not None:
            self._release()  # closes the descriptor, once
        self._fd = None


def _watch(folder: str, mask: int) -> int | None:
    """A non-blocking inotify descriptor watching ``folder`` for ``mask``, or None."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        init, add = libc.inotify_init1, libc.inotify_add_watch
    except (ImportError, OSError, AttributeError):  # no ctypes, no inotify: not Linux
        return None
    fd = init(os.O_NONBLOCK | os.O_CLOEXEC)
    if fd < 0:
        return None
    if add(fd, os.fsencode(folder), ctypes.c_uint32(mask)) < 0:
        os.close(fd)
        return None
    return fd


class MaildirSender:
    """Sender that files each outgoing message into a Maildir (atomically: written to tmp/,
    then moved to new/). The envelope, which a Maildir cannot hold, is recorded in a
    ``Return-Path`` and an ``X-Envelope-To`` header on top of the stored copy.

    The outbox hands it a batch at a time (``send_all``): every file is written to tmp/, then
    all of them are flushed to the disk together (``fdatasync`` on a few threads at once, so
    the file system commits them as one group, instead of one wait per file), then linked
    into new/. A file is named after its key (``gm-`` and a digest of the Message-ID), so
    a batch written again after a crash finds its files already there and writes no second
    copy, and ``delivered`` finds them in new/ or cur/ (a reader moves what it read).

    Where the system has them (Linux: ``O_TMPFILE``, ``/proc`` for ``linkat``), the files
    are written nameless in tmp/ and linked into new/ from their open descriptor: no name
    made and removed again in tmp/ (two system calls and two changes of that folder less
    per mail), and a crash leaves no half-written file behind. Elsewhere they are named in
    tmp/ as ``mailbox.Maildir`` does it; a crash between a named file's link into new/ and
    its removal from tmp/ leaves it there, delivered, and no batch writes it again (or
    a sender that writes nameless never looks at it). The first batch of a sender removes
    such files, named as this sender names them and older than the sender itself (a
    file another sender on the same folder is writing now is newer)."""

    SYNC_THREADS = 8

    def __init__(self, path: str | os.PathLike[str]) -> None:
        _open(path)
        self._root = Path(path)
        # the folders as strings: a mail's paths are joined in its batch's thread, which
        # holds the interpreter meanwhile (pathlib's joins cost more than the file's writing)
        self._tmp = os.path.join(os.fspath(path), "tmp")
        self._new = os.path.join(os.fspath(path), "new")
        self._syncing: ThreadPoolExecutor | None = None
        self._single: mailbox.Maildir | None = None  # see _maildir
        self._nameless: bool | None = None  # files written nameless: found out once
        self._born = time.time()  # files of ours in tmp/ older than this: a crash's
        self._swept = False

    async def send(self, message: bytes, sender: str, recipients: Sequence[str]) -> None:
        """The stored bytes as they are, but with Unix line ends, as Maildir files have."""
        if not recipients:
            raise SendError("no recipients", permanent=True)
        data = self._envelope(sender, recipients) + _unix_lines(message)
        try:
            await asyncio.to_thread(self._maildir().add, data)
        except OSError as exc:
            raise SendError(f"cannot write to the outbox Maildir: {exc}") from exc

    def _maildir(self) -> mailbox.Maildir:
        """The standard library's Maildir, for a single mail's ``send``; imported on first
        use: the daemon sends its batches without it, and ``mailbox`` costs ~10 ms of every
        start."""
        if self._single is None:
            import mailbox

            self._single = mailbox.Maildir(os.fspath(self._root), factory=None, create=False)
        return self._single

    async def send_all(self, mails: Sequence[Outgoing]) -> list[SendError | None]:
        return await asyncio.to_thread(self._send_all, mails)

    def _send_all(self, mails: Sequence[Outgoing]) -> list[SendError | None]:
        if not self._swept:
            self._swept = True
            _sweep(self._tmp, self._born)
        if self._nameless is None:
            self._nameless = _nameless_files_work(self._tmp)  # None: named, asked again
        results: list[SendError | None] = []
        written: list[tuple[int, str]] = []  # (open file, name) in tmp/, or nameless there
        try:
            for mail in mails:
                if not mail.recipients:
                    results.append(SendError("no recipients", permanent=True))
                    continue
                name = _file_name(mail.key)
                try:
                    written.append((self._write(mail, name), name))
                except OSError as exc:
                    results += _untried(exc, len(mails) - len(results))
                    break
                results.append(None)
            failed = self._flush([fd for fd, _ in written])
            if failed is not None:  # nothing of the batch is delivered: every file is retried
                if not self._nameless:
                    self._discard(name for _, name in written)
                return [result or failed for result in results]
            link = self._link_open if self._nameless else self._link
            for name in link(written):
                results[_index_of(mails, name)] = SendError("cannot move a written mail to new/")
            return results
        finally:
            for fd, _ in written:
                os.close(fd)

    def _write(self, mail: Outgoing, name: str) -> int:
        """The mail in tmp/, nameless or under its ``name`` (a copy left there by a crash is
        overwritten); returns the open file, not yet flushed to the disk."""
        data = self._envelope(mail.sender, mail.recipients)
        data += _unix_lines(mail.message)
        if self._nameless:
            fd = os.open(self._tmp, os.O_WRONLY | os.O_TMPFILE, 0o600)
        else:
            fd = os.open(f"{self._tmp}/{name}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _flush(self, fds: list[int]) -> SendError | None:
        """Every written file on the disk before any is delivered: a mail marked sent must
        survive a power cut, as with one fsync per file, but the waits overlap."""
        if not fds:
            return None
        if self._syncing is None:
            self._syncing = ThreadPoolExecutor(self.SYNC_THREADS, "maildir-sync")
        # a share of the files for each thread, not a task per file: as many waits overlap,
        # and the batch's thread hands out 8 tasks instead of a hundred
        shares = [fds[i :: self.SYNC_THREADS] for i in range(min(self.SYNC_THREADS, len(fds)))]
        try:
            list(self._syncing.map(_sync_each, shares))
        except OSError as exc:
            return SendError(f"cannot write to the outbox Maildir: {exc}")
        return None

    def _link(self, written: list[tuple[int, str]]) -> list[str]:
        """Each file written under its name into new/ (a link, so a copy delivered before
        is never replaced), then out of tmp/; returns the names that could not be moved."""
        failed = []
        for _fd, name in written:
            tmp = f"{self._tmp}/{name}"
            try:
                _link_or_move(tmp, f"{self._new}/{name}")
            except FileExistsError:
                pass  # delivered before, and not yet marked sent
            except OSError:
                failed.append(name)
                continue
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        return failed

    def _link_open(self, written: list[tuple[int, str]]) -> list[str]:
        """Each nameless file linked into new/ under its name, from its open descriptor (a
        link never replaces a copy delivered before); returns the names that failed. new/
        is opened for each batch: a folder the GM moved or made anew is found again."""
        try:
            new = os.open(self._new, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            return [name for _fd, name in written]
        failed = []
        try:
            for fd, name in written:
                try:
                    os.link(f"/proc/self/fd/{fd}", name, dst_dir_fd=new)  # linkat, following
                except FileExistsError:
                    pass  # delivered before, and not yet marked sent
                except OSError:
                    failed.append(name)
        finally:
            os.close(new)
        return failed

    def _discard(self, names: Iterable[str]) -> None:
        for name in names:
            with contextlib.suppress(OSError):
                os.unlink(f"{self._tmp}/{name}")

    async def delivered(self, keys: Sequence[str]) -> set[str]:
        return await asyncio.to_thread(self._delivered, keys)

    def _delivered(self, keys: Sequence[str]) -> set[str]:
        by_name = {_file_name(key): key for key in keys}
        found = set()
        for sub in ("new", "cur"):
            with contextlib.suppress(FileNotFoundError):
                for name in os.listdir(self._root / sub):
                    key = by_name.get(_split(name)[0])
                    if key is not None:
                        found.add(key)
        return found

    @staticmethod
    def _envelope(sender: str, recipients: Sequence[str]) -> bytes:
        lines = f"Return-Path: <{sender}>\nX-Envelope-To: {', '.join(recipients)}\n"
        return lines.encode("utf-8")

    async def close(self) -> None:
        """The flushing threads end; no file stays open between batches."""
        if self._syncing is not None:
            self._syncing.shutdown(wait=False)
            self._syncing = None


_OUR_NAME = on_first_use(r"gm-[0-9a-f]{32}")


def _sweep(folder: str, before: float) -> None:
    """Remove the named files a crashed sender left in ``folder`` (tmp/): ours by their
    name, and written before ``before``. Each was either delivered already (linked into
    new/ before the crash) or is written again by the batch that failed; none is read."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if not _OUR_NAME.fullmatch(entry.name):
                continue
            with contextlib.suppress(OSError):
                if entry.stat(follow_symlinks=False).st_mtime < before:
                    os.unlink(entry.path)


def _file_name(key: str) -> str:
    """The unique part of a mail's file name, the same whenever the same mail is written."""
    return "gm-" + hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:32]


# What a system or file system without nameless files (or without naming them from /proc)
# answers; any other error (a full disk) says nothing about it, so it is tried again later
_NO_NAMELESS = frozenset(
    {errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT, errno.EXDEV, errno.EPERM}
)


def _nameless_files_work(folder: str) -> bool | None:
    """Whether a file can be written nameless in ``folder`` (``O_TMPFILE``: Linux, and a
    file system that has it) and then be given a name (``linkat`` of ``/proc/self/fd/N``:
    ``/proc`` mounted, hard links allowed); None when that cannot be told now. Tried with
    an empty file, named and removed again."""
    if not hasattr(os, "O_TMPFILE"):
        return False
    probe = f".nameless-{os.getpid()}-{os.urandom(4).hex()}"
    try:
        fd = os.open(folder, os.O_WRONLY | os.O_TMPFILE, 0o600)
        try:
            there = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.link(f"/proc/self/fd/{fd}", probe, dst_dir_fd=there)
                os.unlink(probe, dir_fd=there)
            finally:
                os.close(there)
        finally:
            os.close(fd)
    except OSError as exc:
        return False if exc.errno in _NO_NAMELESS else None
    return True


def _unix_lines(message: bytes) -> bytes:
    """``message.replace(b"\\r\\n", b"\\n")``: a Maildir file has Unix line ends. Every
    mail the daemon writes has a CR only before an LF; then deleting each CR is the same,
    and a search for one byte costs a third of the search for two (bytes.replace), so the
    CRs are deleted and their count checked against the CRLFs' (~3 k instructions less a
    mail of 1.1 KB; callgrind). A CR alone anywhere: the pairs replaced, as before."""
    lines = message.replace(b"\r", b"")
    if len(message) - len(lines) == message.count(b"\r\n"):
        return lines
    return message.replace(b"\r\n", b"\n")


def _sync_each(fds: Sequence[int]) -> None:
    for fd in fds:
        os.fdatasync(fd)


def _link_or_move(source: str, target: str) -> None:
    """A link where the file system has them (it never replaces a file), else a rename, as
    ``mailbox.Maildir.add`` does."""
    try:
        os.link(source, target)
    except PermissionError:
        os.rename(source, target)


def _untried(error: OSError, count: int) -> list[SendError | None]:
    failure = SendError(f"cannot write to the outbox Maildir: {error}")
    return [failure] * count


def _index_of(mails: Sequence[Outgoing], name: str) -> int:
    return next(i for i, mail in enumerate(mails) if _file_name(mail.key) == name)
