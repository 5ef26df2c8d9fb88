"""The LMTP listener on its own: which recipients it takes, one reply per recipient, 250 only
once ``take`` returned, 451 when it raised, 550 for what it will never take; its socket; the
config and ``check``'s view of the section. A real LMTP client talks to it over a real Unix
socket (a raw socket client where the per-recipient replies are what is looked at)."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Sequence
from pathlib import Path

import pytest
from pydantic import ValidationError

from gm_daemon.config import LMTP_SOCKET, LmtpSection
from gm_daemon.mail.lmtp import LmtpInbox, lmtp_key, lmtp_problems, remove_stale_socket

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
