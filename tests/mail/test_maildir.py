"""The embedded Maildir transport: what fetch() returns, what done() changes, how wait() wakes."""

from __future__ import annotations

import asyncio
import email
import email.policy
import errno
import mailbox
import os
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gm_daemon.mail import maildir
from gm_daemon.mail.maildir import MaildirInbox, MaildirSender
from gm_daemon.mail.transport import Outgoing, SendError


def _deliver(root: Path, text: str, *, subdir: str = "new", flags: str = "") -> str:
    """Deliver like an MTA (or a mail reader that moved the file) would; returns the key."""
    for sub in ("new", "cur", "tmp"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    box = mailbox.Maildir(root)
    msg = mailbox.MaildirMessage(text.encode())
    msg.set_subdir(subdir)
    msg.set_flags(flags)
    return box.add(msg)


@pytest.mark.parametrize("folder", ["missing", "."])
def test_fetch_creates_maildir_structure_and_is_empty(tmp_path: Path, folder: str) -> None:
    inbox = MaildirInbox(tmp_path / folder)
    assert asyncio.run(inbox.fetch()) == []
    assert all((tmp_path / folder / sub).is_dir() for sub in ("new", "cur", "tmp"))


def test_fetch_returns_new_and_unseen_cur_but_not_seen(tmp_path: Path) -> None:
    k1 = _deliver(tmp_path, "Subject: a\n\nA\n")
    k2 = _deliver(tmp_path, "Subject: b\n\nB\n", subdir="cur", flags="R")
    _deliver(tmp_path, "Subject: c\n\nC\n", subdir="cur", flags="RS")
    got = asyncio.run(MaildirInbox(tmp_path).fetch())
    assert sorted(m.key for m in got) == sorted([f"maildir:{k1}", f"maildir:{k2}"])
    assert {email.message_from_bytes(m.data)["Subject"] for m in got} == {"a", "b"}


def test_done_moves_to_cur_with_seen_flag_and_keeps_key(tmp_path: Path) -> None:
    key = _deliver(tmp_path, "Subject: a\n\nA\n")
    inbox = MaildirInbox(tmp_path)

    async def scenario() -> None:
        (mail,) = await inbox.fetch()
        await inbox.done(mail.key)
        await inbox.done(mail.key)  # repeated after a crash: harmless
        assert await inbox.fetch() == []

    asyncio.run(scenario())
    assert not list((tmp_path / "new").iterdir())
    (stored,) = list((tmp_path / "cur").iterdir())
    assert stored.name == f"{key}:2,S"
    assert mailbox.Maildir(tmp_path)[key].get_flags() == "S"


def test_done_keeps_other_flags_and_rejects_foreign_keys(tmp_path: Path) -> None:
    key = _deliver(tmp_path, "x\n", subdir="cur", flags="RF")
    inbox = MaildirInbox(tmp_path)
    asyncio.run(inbox.done(f"maildir:{key}"))
    assert [p.name for p in (tmp_path / "cur").iterdir()] == [f"{key}:2,FRS"]
    with pytest.raises(ValueError, match="not a Maildir key"):
        asyncio.run(inbox.done("imap:1:2"))


def test_fetch_keeps_delivery_order(tmp_path: Path) -> None:
    keys = [_deliver(tmp_path, f"Subject: {i}\n\n{i}\n") for i in range(5)]
    for age, key in enumerate(reversed(keys)):  # older files first, whatever the names say
        path = next((tmp_path / "new").glob(f"{key}*"))
        stamp = time.time() - 100 * (age + 1)
        os.utime(path, (stamp, stamp))
    got = asyncio.run(MaildirInbox(tmp_path).fetch())
    assert [m.key for m in got] == [f"maildir:{k}" for k in keys]


def test_wait_returns_on_new_mail_and_ignores_fetched_ones(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path, poll_interval=0.01)
    _deliver(tmp_path, "Subject: old\n\nx\n")

    async def scenario() -> tuple[float, float]:
        await inbox.fetch()  # fetched but not done: must not wake wait()
        start = time.monotonic()
        await inbox.wait(0.1)
        idle = time.monotonic() - start
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, _deliver, tmp_path, "Subject: new\n\ny\n")
        start = time.monotonic()
        await inbox.wait(5)
        return idle, time.monotonic() - start

    idle, woken = asyncio.run(scenario())
    assert idle >= 0.1
    assert woken < 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")
@pytest.mark.parametrize("how", ["moved", "written"])
def test_wait_wakes_when_a_file_arrives_without_waiting_for_the_poll(
    tmp_path: Path, how: str
) -> None:
    """The poll is an hour here: only the kernel's word on the new file can end the wait
    (moved into new/ as an MTA delivers, or written there directly); one that came before
    the wait began is found by its first look."""
    inbox = MaildirInbox(tmp_path, poll_interval=3600)
    _deliver(tmp_path, "Subject: old\n\nx\n")

    def arrive() -> None:
        if how == "moved":
            _deliver(tmp_path, "Subject: new\n\ny\n")
        else:
            (tmp_path / "new" / "direct.host").write_bytes(b"Subject: new\n\ny\n")

    async def scenario() -> None:
        await inbox.fetch()
        await inbox.wait(0)  # the watch is set up; nothing new
        asyncio.get_running_loop().call_later(0.05, arrive)
        await asyncio.wait_for(inbox.wait(3600), 60)
        arrive()  # between two waits: the next one returns at its first look
        await asyncio.wait_for(inbox.wait(3600), 60)
        await inbox.close()

    asyncio.run(scenario())


def test_done_all_marks_many_at_once_and_leaves_the_rest(tmp_path: Path) -> None:
    k1 = _deliver(tmp_path, "Subject: a\n\nA\n")
    k2 = _deliver(tmp_path, "Subject: b\n\nB\n", subdir="cur", flags="R")
    k3 = _deliver(tmp_path, "Subject: c\n\nC\n")
    inbox = MaildirInbox(tmp_path)

    async def scenario() -> list[str]:
        await inbox.fetch()
        await inbox.done_all([f"maildir:{k1}", f"maildir:{k2}", f"maildir:{k1}"])
        await inbox.done_all([])
        return [mail.key for mail in await inbox.fetch()]

    assert asyncio.run(scenario()) == [f"maildir:{k3}"]
    assert sorted(p.name for p in (tmp_path / "cur").iterdir()) == sorted(
        [f"{k1}:2,S", f"{k2}:2,RS"]
    )
    with pytest.raises(ValueError):
        asyncio.run(inbox.done_all(["imap:1:2"]))


def test_sender_writes_message_with_envelope(tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["From"] = "Spielleiter <gm@gm.test>"
    msg["To"] = "egon@example.org"
    msg["Subject"] = "Ergebnis Runde 3 – Grüße"
    msg.set_content("Billy fällt.\n")
    sender = MaildirSender(tmp_path / "out")

    async def scenario() -> None:
        await sender.send(bytes(msg), "gm@gm.test", ["egon@example.org", "anna@example.org"])
        await sender.close()

    asyncio.run(scenario())
    (path,) = list((tmp_path / "out" / "new").iterdir())
    stored = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert stored["Return-Path"] == "<gm@gm.test>"
    assert stored["X-Envelope-To"] == "egon@example.org, anna@example.org"
    assert stored["Subject"] == "Ergebnis Runde 3 – Grüße"
    assert stored.get_content() == "Billy fällt.\n"
    assert not list((tmp_path / "out" / "tmp").iterdir())


def test_sender_without_recipients_is_a_permanent_error(tmp_path: Path) -> None:
    with pytest.raises(SendError) as caught:
        asyncio.run(MaildirSender(tmp_path).send(b"", "gm@gm.test", []))
    assert caught.value.permanent


def _outgoing(key: str, to: str = "egon@example.org") -> Outgoing:
    body = f"From: gm@gm.test\r\nTo: {to}\r\nSubject: {key}\r\n\r\nText\r\n"
    return Outgoing(key, body.encode(), "gm@gm.test", [to])


@pytest.fixture(params=["nameless", "named"])
def files(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """A batch's files written nameless in tmp/ (Linux's O_TMPFILE, linked in from the open
    file), or named there as where the system has no such files: both ways deliver alike."""
    if request.param == "named":
        monkeypatch.setattr(maildir, "_nameless_files_work", lambda folder: False)
    elif not maildir._nameless_files_work(tempfile.gettempdir()):
        pytest.skip("no O_TMPFILE here")
    return str(request.param)


def test_send_all_writes_each_mail_under_a_name_its_key_gives(tmp_path: Path, files: str) -> None:
    sender = MaildirSender(tmp_path)
    mails = [_outgoing("<a@gm.test>"), _outgoing("<b@gm.test>", "anna@example.org")]

    async def scenario() -> list[SendError | None]:
        try:
            return await sender.send_all(mails)
        finally:
            await sender.close()

    assert asyncio.run(scenario()) == [None, None]
    files = sorted((tmp_path / "new").iterdir())
    assert len(files) == 2 and all(f.name.startswith("gm-") for f in files)
    stored = {email.message_from_bytes(f.read_bytes())["Subject"]: f for f in files}
    data = stored["<b@gm.test>"].read_bytes()
    assert data.startswith(b"Return-Path: <gm@gm.test>\nX-Envelope-To: anna@example.org\n")
    assert b"\r\n" not in data
    assert not list((tmp_path / "tmp").iterdir())


def test_a_batch_sent_again_after_a_crash_is_recognised_not_written_twice(
    tmp_path: Path, files: str
) -> None:
    """The crash came after the files were delivered and before the outbox's commit. At the
    start the outbox asks which were delivered (one of them read by a mail client meanwhile,
    so in cur/); a mail handed over again finds its file and is not written twice."""
    first = MaildirSender(tmp_path)
    mails = [_outgoing("<a@gm.test>"), _outgoing("<b@gm.test>")]
    asyncio.run(first.send_all(mails))
    (read,) = [f for f in (tmp_path / "new").iterdir() if b"Subject: <a@" in f.read_bytes()]
    read.rename(tmp_path / "cur" / f"{read.name}:2,S")
    again = MaildirSender(tmp_path)
    keys = ["<a@gm.test>", "<b@gm.test>", "<never@gm.test>"]
    assert asyncio.run(again.delivered(keys)) == {"<a@gm.test>", "<b@gm.test>"}
    assert asyncio.run(again.send_all([mails[1], _outgoing("<c@gm.test>")])) == [None, None]
    files = [*(tmp_path / "new").iterdir(), *(tmp_path / "cur").iterdir()]
    subjects = sorted(email.message_from_bytes(f.read_bytes())["Subject"] for f in files)
    assert subjects == ["<a@gm.test>", "<b@gm.test>", "<c@gm.test>"]
    assert not list((tmp_path / "tmp").iterdir())


def test_the_first_batch_removes_what_a_crash_left_in_tmp(tmp_path: Path, files: str) -> None:
    """A named file left in tmp/ by a crash after its link into new/ (so delivered: no
    batch writes it again) is removed by the next sender's first batch; a file of another
    name, and one of ours written after the sender began (another sender's, now), stay."""
    first = MaildirSender(tmp_path)
    asyncio.run(first.send_all([_outgoing("<a@gm.test>")]))
    (delivered,) = (tmp_path / "new").iterdir()
    left = tmp_path / "tmp" / delivered.name
    os.link(delivered, left)  # the crash came before its removal from tmp/
    os.utime(left, (time.time() - 60, time.time() - 60))
    foreign = tmp_path / "tmp" / "1700000000.M1P2Q3.host"  # mailbox.Maildir's kind of name
    foreign.write_bytes(b"x")
    os.utime(foreign, (time.time() - 60, time.time() - 60))
    again = MaildirSender(tmp_path)
    newer = tmp_path / "tmp" / ("gm-" + "0" * 32)
    newer.write_bytes(b"being written by another sender")
    os.utime(newer, (time.time() + 60, time.time() + 60))
    assert asyncio.run(again.send_all([_outgoing("<b@gm.test>")])) == [None]
    assert sorted(f.name for f in (tmp_path / "tmp").iterdir()) == sorted(
        [foreign.name, newer.name]
    )
    assert len(list((tmp_path / "new").iterdir())) == 2


def test_send_all_refuses_a_mail_without_recipients_and_delivers_the_rest(
    tmp_path: Path, files: str
) -> None:
    sender = MaildirSender(tmp_path)
    nobody = Outgoing("<x@gm.test>", b"Subject: x\r\n\r\nx\r\n", "gm@gm.test", [])
    results = asyncio.run(sender.send_all([nobody, _outgoing("<a@gm.test>")]))
    assert isinstance(results[0], SendError) and results[0].permanent
    assert results[1] is None
    assert len(list((tmp_path / "new").iterdir())) == 1


@pytest.mark.parametrize("together", [False, True], ids=["two calls", "done_all_then_fetch"])
def test_a_burst_is_listed_once_and_what_came_since_follows_it(
    tmp_path: Path, together: bool
) -> None:
    """The same steps whether a chunk is marked and the next read in two calls or in one
    (``done_all_then_fetch``, the daemon's read-ahead)."""
    old = [_deliver(tmp_path, f"Subject: {i}\n\n{i}\n") for i in range(3)]
    inbox = MaildirInbox(tmp_path)
    taken: list[str] = []  # fetched, not yet marked

    async def step(limit: int | None = 2) -> list[str]:
        # as the daemon marks each step before the next is read
        if together and limit is not None:
            keys = [m.key for m in await inbox.done_all_then_fetch(taken, limit)]
        else:
            await inbox.done_all(taken)
            keys = [m.key for m in await inbox.fetch(limit=limit)]
        taken[:] = keys
        return keys

    async def scenario() -> list[list[str]]:
        first = await step()
        late = _deliver(tmp_path, "Subject: late\n\nx\n")
        second = await step()  # the listing's last one
        third = await step()  # listed afresh
        after = await step(None)
        await inbox.done_all(taken)
        return [first, second, third, after, [f"maildir:{late}"]]

    first, second, third, after, late = asyncio.run(scenario())
    assert first + second == [f"maildir:{k}" for k in old]
    assert third == late
    assert after == []
    assert len(list((tmp_path / "cur").iterdir())) == 4


@pytest.mark.parametrize(
    "tail", [b"", b"y\n", b"grown " * 40_000], ids=["cut", "same size", "grown"]
)
def test_a_mail_is_read_whole_however_its_size_changed_since_the_listing(
    tmp_path: Path, tail: bytes
) -> None:
    """The listing's size is only the first read's hint: a file written on after it was
    listed (or cut short) is read as it is when read."""
    keys = [_deliver(tmp_path, f"Subject: {i}\n\n{i}\n") for i in range(2)]
    inbox = MaildirInbox(tmp_path)

    async def scenario() -> list[bytes]:
        first = await inbox.fetch(limit=1)  # both listed, one read
        (path,) = (tmp_path / "new").glob(f"{keys[1]}*")
        path.write_bytes(b"Subject: 1\n\n" + tail)
        return [m.data for m in [*first, *await inbox.fetch(limit=1)]]

    assert asyncio.run(scenario()) == [b"Subject: 0\n\n0\n", b"Subject: 1\n\n" + tail]


def test_done_finds_a_mail_that_moved_after_it_was_fetched(tmp_path: Path) -> None:
    key = _deliver(tmp_path, "Subject: a\n\nA\n")
    inbox = MaildirInbox(tmp_path)

    async def scenario() -> None:
        (mail,) = await inbox.fetch()
        (path,) = (tmp_path / "new").iterdir()
        path.rename(tmp_path / "cur" / f"{key}:2,F")  # a mail client read and flagged it
        await inbox.done_all([mail.key])

    asyncio.run(scenario())
    assert [p.name for p in (tmp_path / "cur").iterdir()] == [f"{key}:2,FS"]


def test_a_batch_that_could_not_be_flushed_is_not_delivered(
    tmp_path: Path, files: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mail is delivered (linked into new/) only after every file of its batch is on the
    disk; when a flush fails, every mail of the batch is a transient error (retried, never
    marked sent), new/ stays empty and nothing of the batch is left in tmp/."""

    def failing(fds: list[int]) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(maildir, "_sync_each", failing)
    sender = MaildirSender(tmp_path)
    mails = [_outgoing(f"<{n}@gm.test>") for n in range(3)]

    async def scenario() -> list[SendError | None]:
        try:
            return await sender.send_all(mails)
        finally:
            await sender.close()

    results = asyncio.run(scenario())
    assert all(isinstance(r, SendError) and not r.permanent for r in results)
    assert "Input/output error" in str(results[0])
    assert not list((tmp_path / "new").iterdir())
    assert not list((tmp_path / "tmp").iterdir())


def test_every_file_of_a_batch_is_flushed_before_any_is_delivered(
    tmp_path: Path, files: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each file is synced once, while new/ is still empty; then all are there."""
    synced: list[int] = []
    in_new: list[int] = []
    real = os.fdatasync

    def watching(fd: int) -> None:
        in_new.append(len(list((tmp_path / "new").iterdir())))
        synced.append(fd)
        real(fd)

    monkeypatch.setattr(maildir.os, "fdatasync", watching)
    sender = MaildirSender(tmp_path)
    mails = [_outgoing(f"<{n}@gm.test>") for n in range(MaildirSender.SYNC_THREADS + 3)]

    async def scenario() -> list[SendError | None]:
        try:
            return await sender.send_all(mails)
        finally:
            await sender.close()

    assert asyncio.run(scenario()) == [None] * len(mails)
    assert len(synced) == len(set(synced)) == len(mails)
    assert in_new == [0] * len(mails)
    assert len(list((tmp_path / "new").iterdir())) == len(mails)


@given(st.lists(st.sampled_from([b"\r\n", b"\r", b"\n", b"a", b"\r\r\n", b"=0D"]), max_size=12))
def test_a_mail_s_lines_unix_as_every_crlf_replaced(parts: list[bytes]) -> None:
    """The CRs deleted where each is one of a CRLF, the pairs replaced where one is not:
    always what replacing every CRLF gives (a CR alone, doubled, at either end)."""
    message = b"".join(parts)
    assert maildir._unix_lines(message) == message.replace(b"\r\n", b"\n")
