"""The LMTP listener on its own: which recipients it takes, one reply per recipient, 250 only
once ``take`` returned, 451 when it raised, 550 for what it will never take; its socket; the
config and ``check``'s view of the section. A real LMTP client talks to it over a real Unix
socket (a raw socket client where the per-recipient replies are what is looked at)."""

from __future__ import annotations

import asyncio
import os
import pwd
import socket
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from aiosmtpd.smtp import SMTP
from pydantic import ValidationError

from gm_daemon.config import LMTP_SOCKET, LmtpSection
from gm_daemon.mail import lmtp
from gm_daemon.mail.lmtp import (
    NOT_STORED,
    STORED,
    GmLmtp,
    GroupCommit,
    LmtpInbox,
    lmtp_key,
    lmtp_problems,
    remove_stale_socket,
)

GM = "gm@gm.test"
MAIL = (
    b"From: anna@players.test\r\nTo: gm@gm.test\r\nSubject: [g1]\r\n\r\nCode: ANNA-1111\r\n17\r\n"
)


class Taken:
    """``take`` of the daemon: records what it stored, or raises as a full disk would."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.mails: list[bytes] = []

    def __call__(self, mails: Sequence[bytes]) -> None:
        if self.fail:
            raise OSError("database or disk is full")
        self.mails.extend(mails)


def _exchange(path: Path, lines: list[bytes], data: bytes | None, replies_after: int) -> list[str]:
    """LHLO, the envelope lines, then DATA with ``data``; the reply lines after DATA's end
    (``replies_after`` of them: one per accepted recipient)."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(str(path))
        stream = sock.makefile("rb")

        def reply() -> str:
            line = stream.readline().decode()
            while line[3:4] == "-":
                line = stream.readline().decode()
            return line.strip()

        reply()
        sock.sendall(b"LHLO mx.gm.test\r\n")
        envelope = [reply()]
        for line in lines:
            sock.sendall(line + b"\r\n")
            envelope.append(reply())
        if data is None:
            return envelope
        sock.sendall(b"DATA\r\n")
        envelope.append(reply())
        sock.sendall(data + b".\r\n")
        return envelope + [stream.readline().decode().strip() for _ in range(replies_after)]


def _talk(tmp_path: Path, take: Taken, lines: list[bytes], data: bytes | None, n: int, **kw: int):
    section = LmtpSection(socket=tmp_path / "lmtp.sock", **kw)

    async def run() -> list[str]:
        inbox = LmtpInbox(section, GM)
        await inbox.listen(take)
        try:
            return await asyncio.to_thread(_exchange, section.socket, lines, data, n)
        finally:
            await inbox.close()

    replies = asyncio.run(run())
    assert section.socket is not None and not section.socket.exists()  # removed at close
    return replies


ENVELOPES = [
    # (recipients, replies expected after DATA's end)
    ([GM], ["250 2.0.0 stored"]),
    (["GM@gm.test"], ["250 2.0.0 stored"]),  # an address compares without case
    ([GM, "other@gm.test", GM], ["250 2.0.0 stored", "250 2.0.0 stored"]),
]


@pytest.mark.parametrize(("recipients", "after"), ENVELOPES)
def test_one_reply_per_accepted_recipient_and_stored_once(tmp_path, recipients, after):
    take = Taken()
    lines = [b"MAIL FROM:<anna@players.test>"] + [f"RCPT TO:<{r}>".encode() for r in recipients]
    replies = _talk(tmp_path, take, lines, MAIL, len(after))
    rcpt = replies[2 : 2 + len(recipients)]
    for address, answer in zip(recipients, rcpt, strict=True):
        wanted = "250 " if address.lower() == GM else "550 5.1.1 <other@gm.test>: not the game"
        assert answer.startswith(wanted), (address, answer)
    assert replies[-len(after) :] == after
    assert take.mails == [MAIL]


def test_not_stored_is_451_for_every_recipient(tmp_path):
    lines = [b"MAIL FROM:<anna@players.test>", f"RCPT TO:<{GM}>".encode(), b"RCPT TO:<gm@gm.test>"]
    replies = _talk(tmp_path, Taken(fail=True), lines, MAIL, 2)
    assert replies[-2:] == ["451 4.3.0 not stored, try again later"] * 2


def test_too_big_is_550_with_the_reason_and_not_stored(tmp_path):
    take = Taken()
    big = MAIL + (b"x" * 70 + b"\r\n") * 30
    lines = [b"MAIL FROM:<anna@players.test>", f"RCPT TO:<{GM}>".encode()]
    (answer,) = _talk(tmp_path, take, lines, big, 1, max_message_bytes=1024)[-1:]
    assert answer.startswith("550 5.3.4 message too big")
    assert "1024" in answer and "mail.lmtp.max_message_bytes" in answer
    assert take.mails == []


def test_helo_and_ehlo_are_not_lmtp(tmp_path):
    with_helo = _talk(tmp_path, Taken(), [b"HELO x", b"EHLO x"], None, 0)
    assert [r[:3] for r in with_helo[1:]] == ["500", "500"]


def test_the_same_bytes_have_the_same_key_other_bytes_another():
    assert lmtp_key(MAIL) == lmtp_key(bytes(MAIL))
    assert lmtp_key(MAIL) != lmtp_key(MAIL + b"\r\n")
    assert lmtp_key(MAIL).startswith("lmtp:")


def test_stale_socket_removed_live_one_and_other_files_refused(tmp_path):
    path = tmp_path / "lmtp.sock"
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(path))
    stale.close()  # bound, never listening: what a killed daemon leaves
    remove_stale_socket(path)
    assert not path.exists()
    with socket.socket(socket.AF_UNIX) as live:
        live.bind(str(path))
        live.listen()
        with pytest.raises(OSError, match="another process listens"):
            remove_stale_socket(path)
    os.unlink(path)
    path.write_text("not a socket")
    with pytest.raises(OSError, match="not a socket"):
        remove_stale_socket(path)


def test_socket_mode_and_group(tmp_path):
    section = LmtpSection(socket=tmp_path / "s.sock", socket_mode="0620", socket_group="root")

    async def run() -> int:
        inbox = LmtpInbox(section, GM)
        await inbox.listen(Taken())
        try:
            info = os.stat(tmp_path / "s.sock")
            assert info.st_gid == 0
            return info.st_mode & 0o777
        finally:
            await inbox.close()

    assert asyncio.run(run()) == 0o620


SECTIONS = [
    # (fields, problem expected in the message, or None when valid)
    ({}, None),
    ({"socket": "/tmp/x.sock"}, None),
    ({"host": "127.0.0.1", "port": 2424}, None),
    ({"host": "::1", "port": 2424}, None),
    ({"host": "localhost", "port": 2424}, None),
    ({"host": "192.0.2.7", "port": 2424}, "not a loopback address"),
    ({"host": "192.0.2.7", "port": 2424, "allow_remote": True}, None),
    ({"host": "127.0.0.1"}, "needs a port"),
    ({"port": 2424}, "port needs host"),
    ({"host": "127.0.0.1", "port": 2424, "socket": "/tmp/x.sock"}, "not both"),
    ({"socket_mode": "rw-rw----"}, "socket_mode"),
    ({"max_message_bytes": 10}, "max_message_bytes"),
]


@pytest.mark.parametrize(("fields", "problem"), SECTIONS)
def test_section_validation(fields, problem):
    if problem is None:
        section = LmtpSection(**fields)
        assert (section.socket is None) == ("host" in fields)
        if not fields:
            assert section.socket == LMTP_SOCKET
        return
    with pytest.raises(ValidationError) as caught:
        LmtpSection(**fields)
    assert problem in str(caught.value)


def test_check_names_a_missing_or_closed_directory_and_an_unknown_group(tmp_path):
    assert lmtp_problems(LmtpSection(socket=tmp_path / "lmtp.sock")) == []
    assert lmtp_problems(LmtpSection(host="127.0.0.1", port=2424)) == []
    (missing,) = lmtp_problems(LmtpSection(socket=tmp_path / "no" / "lmtp.sock"))
    assert "does not exist" in missing and "RuntimeDirectory" in missing
    (group,) = lmtp_problems(LmtpSection(socket=tmp_path / "l.sock", socket_group="no-such-grp"))
    assert "mail.lmtp.socket_group" in group


class Batches:
    """``take`` recording each commit's mails; a mail named in ``poison`` fails any commit
    it is part of, as a mail the store cannot take would."""

    def __init__(self, poison: bytes | None = None) -> None:
        self.poison = poison
        self.commits: list[list[bytes]] = []

    def __call__(self, mails: Sequence[bytes]) -> None:
        if self.poison in mails:
            raise ValueError("cannot store this one")
        self.commits.append(list(mails))


def _stored_together(take: Batches, mails: list[bytes]) -> list[str]:
    """Every mail handed to one ``GroupCommit`` in the same loop turn, as a burst over as
    many connections would be."""

    async def run() -> list[str]:
        commits = GroupCommit(take)
        return list(await asyncio.gather(*(commits.store(m) for m in mails)))

    return asyncio.run(run())


def test_mails_of_one_loop_turn_are_one_commit():
    take = Batches()
    mails = [MAIL + str(n).encode() for n in range(5)]
    assert _stored_together(take, mails) == [STORED] * 5
    assert take.commits == [mails]


def test_a_mail_that_fails_the_commit_is_451_alone_the_others_stored():
    mails = [MAIL + str(n).encode() for n in range(4)]
    take = Batches(poison=mails[2])
    assert _stored_together(take, mails) == [STORED, STORED, NOT_STORED, STORED]
    assert take.commits == [[mails[0]], [mails[1]], [mails[3]]]


PATHS = [
    # MAIL/RCPT arguments: the quick reader must agree with aiosmtpd's own
    "<anna@players.test>",
    "<anna@players.test> SIZE=100 BODY=8BITMIME",
    " <a.b+c@x-y.z>",
    "<a@x.y>  ",
    "<a@x.y>\tSIZE=5",
    "<a@x.y> (comment) SIZE=1",
    "<>",
    "anna@x.y",
    '<"a b"@x.y>',
    "<a..b@x.y>",
    "<.a@x.y>",
    "<@relay.test:a@x.y>",
    "<a@[192.0.2.1]>",
    "<müller@x.y>",
    "<a@x.y",
    "<a@x.y> <b@c.d>",
]


@pytest.mark.parametrize("arg", PATHS)
def test_quick_path_reading_agrees_with_aiosmtpd(arg):
    async def both() -> tuple[object, object]:
        server = GmLmtp(object(), sessions=set())
        return server._getaddr(arg), SMTP._getaddr(server, arg)

    quick, full = asyncio.run(both())
    assert quick == full


def test_pipelined_envelope_and_quit_are_answered_in_order(tmp_path):
    """MAIL, RCPT and DATA in one write (as Postfix pipelines them), the mail, then QUIT:
    every reply arrives, in order, the goodbye before the connection closes."""
    section = LmtpSection(socket=tmp_path / "lmtp.sock")
    take = Taken()

    def client() -> list[bytes]:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.connect(str(section.socket))
            stream = sock.makefile("rb")
            stream.readline()
            sock.sendall(b"LHLO mx.gm.test\r\n")
            while stream.readline()[3:4] == b"-":
                pass
            envelope = f"MAIL FROM:<anna@players.test>\r\nRCPT TO:<{GM}>\r\nDATA\r\n"
            sock.sendall(envelope.encode() + MAIL + b".\r\nQUIT\r\n")
            return [line.strip() for line in stream.readlines()]

    async def run() -> list[bytes]:
        inbox = LmtpInbox(section, GM)
        await inbox.listen(take)
        try:
            return await asyncio.to_thread(client)
        finally:
            await inbox.close()

    replies = asyncio.run(run())
    assert [r[:3] for r in replies] == [b"250", b"250", b"354", b"250", b"221"]
    assert take.mails == [MAIL]


def test_handling_waits_while_a_connection_is_within_a_mail(tmp_path, monkeypatch):
    """``quiet`` returns at once when nothing is being delivered; right after a commit it
    waits (bounded) while a connection has sent MAIL but not yet its data; a connection that
    stays within a mail long after the last commit no longer holds handling up."""
    monkeypatch.setattr(lmtp, "MOST_DEFERRED", 0.2)
    monkeypatch.setattr(lmtp, "BURST_ONLY", 1.5)
    section = LmtpSection(socket=tmp_path / "lmtp.sock")

    async def replies(reader: asyncio.StreamReader, count: int) -> None:
        for _reply in range(count):  # each ends with a line "NNN …"
            while (await reader.readline())[3:4] == b"-":
                pass

    async def quiet(inbox: LmtpInbox) -> float:
        start = time.monotonic()
        await inbox.quiet()
        return time.monotonic() - start

    async def run() -> list[float]:
        inbox = LmtpInbox(section, GM)
        await inbox.listen(Taken())
        reader, writer = await asyncio.open_unix_connection(str(section.socket))
        try:
            await replies(reader, 1)
            idle = await quiet(inbox)
            envelope = f"MAIL FROM:<anna@players.test>\r\nRCPT TO:<{GM}>\r\nDATA\r\n"
            writer.write(b"LHLO mx.gm.test\r\n" + envelope.encode() + MAIL + b".\r\n")
            writer.write(b"MAIL FROM:<anna@players.test>\r\n")  # the next mail begins
            await replies(reader, 6)  # LHLO, MAIL, RCPT, DATA, after the data, MAIL
            within = await quiet(inbox)
            await asyncio.sleep(1.5)
            hanging = await quiet(inbox)
            return [idle, within, hanging]
        finally:
            writer.close()
            await inbox.close()

    idle, within, hanging = asyncio.run(run())
    assert idle < 0.2 <= within and hanging < 0.2


def test_check_names_a_directory_this_user_cannot_write(tmp_path):
    """With the directory's mode read and search only, looked at by a user other than its
    owner: ``nobody``, in a forked child, when the tests run as root (whom permissions do
    not stop)."""
    folder = Path(tempfile.mkdtemp(dir="/tmp"))  # not under tmp_path: nobody may search it
    section = LmtpSection(socket=folder / "lmtp.sock")
    try:
        folder.chmod(0o555)
        problems = lmtp_problems(section) if os.geteuid() else _as_nobody(section)
    finally:
        folder.chmod(0o755)
        folder.rmdir()
    (problem,) = problems
    assert f"directory {folder} is not writable for this user" in problem


def _as_nobody(section: LmtpSection) -> list[str]:
    nobody = pwd.getpwnam("nobody")
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        try:
            os.setgid(nobody.pw_gid)
            os.setuid(nobody.pw_uid)
            os.write(write, "\n".join(lmtp_problems(section)).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        found = pipe.read().decode()
    os.waitpid(child, 0)
    return found.splitlines()
