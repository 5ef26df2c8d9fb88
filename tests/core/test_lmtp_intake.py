"""The daemon over LMTP (no mail server: an LMTP client on the daemon's Unix socket, replies
into a Maildir): a delivered mail is committed before its ``250`` and answered without a loop
pass; a mail the store refuses is ``451`` and answered once when the MTA delivers it again; a
delivery repeated after a lost ``250`` is stored and answered once."""

from __future__ import annotations

import asyncio
import logging
import smtplib
import sqlite3
import time
from collections.abc import Callable
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest

from gm_daemon.config import Config, LmtpSection
from gm_daemon.daemon import Daemon
from gm_daemon.mail.lmtp import LmtpInbox
from gm_daemon.mail.maildir import MaildirSender
from gm_daemon.startup import EX_CONFIG
from tests.core.test_daemon_flow import GAMES
from tests.daemon_harness import DaemonHarness

GM = "gm@gm.test"


def _orders(sender: str, code: str, guess: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = GM
    msg["Subject"] = "[g1] orders"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(f"Code: {code}\n{guess}\n")
    return bytes(msg).replace(b"\n", b"\r\n")


def _deliver(socket_path: Path, sender: str, data: bytes) -> tuple[int, bytes]:
    """One LMTP transaction, as Postfix's lmtp client makes it; the reply after DATA."""
    with smtplib.LMTP(str(socket_path), timeout=10) as client:
        client.ehlo_or_helo_if_needed()
        assert client.mail(sender)[0] == 250
        assert client.rcpt(GM)[0] == 250
        return client.data(data)


class Running:
    """A daemon whose LMTP listener runs, but whose loop does not: whatever is answered is
    answered by the listener's side alone."""

    def __init__(self, tmp_path: Path) -> None:
        self.harness = DaemonHarness(tmp_path, GAMES)
        self.harness.run()  # the game starts: welcome mails
        self.socket = tmp_path / "lmtp.sock"

        def transports(config: Config) -> tuple[LmtpInbox, MaildirSender]:
            inbox = LmtpInbox(LmtpSection(socket=self.socket), config.mail.address)
            return inbox, MaildirSender(config.mail.maildir.outbox)

        self.daemon = Daemon(self.harness.config_path, self.harness.clock, transports)

    async def deliver(self, sender: str, data: bytes) -> tuple[int, bytes]:
        return await asyncio.to_thread(_deliver, self.socket, sender, data)

    async def until(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + 30
        while not condition():
            assert time.monotonic() < deadline, what
            await asyncio.sleep(0.01)

    def rows(self) -> list[tuple[str, str]]:
        with sqlite3.connect(self.harness.database) as db:
            return db.execute("SELECT message_id, status FROM inbox ORDER BY id").fetchall()


def test_stored_before_250_and_answered_without_a_loop_pass(tmp_path):
    run = Running(tmp_path)
    anna = _orders("anna@players.test", "ANNA-1111", 17)

    async def scenario() -> None:
        await run.daemon._listen()
        try:
            assert await run.deliver("anna@players.test", anna) == (250, b"2.0.0 stored")
            assert len(run.rows()) == 1  # committed: another connection sees it
            await run.until(lambda: len(run.harness._collect()) == 1, "the acknowledgement")
            assert run.daemon.cycles == 0  # no pass of the loop was needed
            # the MTA lost our 250 and delivers again: stored once, answered once
            assert await run.deliver("anna@players.test", anna) == (250, b"2.0.0 stored")
            await asyncio.sleep(0.2)
        finally:
            await run.daemon.close()

    asyncio.run(scenario())
    (ack,) = run.harness.sent[-1:]
    assert ack["To"] == "anna@players.test" and "accepted" in ack["Subject"]
    assert run.harness._collect() == []
    assert [status for _id, status in run.rows()] == ["done"]


def test_not_stored_is_451_and_the_retry_is_answered_once(tmp_path, monkeypatch):
    run = Running(tmp_path)
    bert = _orders("bert@players.test", "BERT-2222", 4)

    def full(*args: object, **kwargs: object) -> bool:
        raise sqlite3.OperationalError("database or disk is full")

    async def scenario() -> tuple[int, bytes]:
        await run.daemon._listen()
        try:
            with monkeypatch.context() as patch:
                patch.setattr(run.daemon.store, "store_incoming", full)
                refused = await run.deliver("bert@players.test", bert)
            assert run.rows() == []
            assert await run.deliver("bert@players.test", bert) == (250, b"2.0.0 stored")
            await run.until(lambda: len(run.harness._collect()) == 1, "the acknowledgement")
            return refused
        finally:
            await run.daemon.close()

    assert asyncio.run(scenario()) == (451, b"4.3.0 not stored, try again later")
    assert [status for _id, status in run.rows()] == ["done"]
    assert len([m for m in run.harness.sent if "accepted" in m["Subject"]]) == 1


def test_a_burst_is_answered_once_each_while_it_arrives(tmp_path):
    run = Running(tmp_path)
    mails = [
        _orders(sender, code, n)
        for n in range(1, 16)
        for sender, code in (("anna@players.test", "ANNA-1111"), ("bert@players.test", "BERT-2222"))
    ]

    async def scenario() -> None:
        await run.daemon._listen()
        try:
            replies = await asyncio.gather(
                *(run.deliver("x@players.test", data) for data in mails)  # 30 connections
            )
            assert set(replies) == {(250, b"2.0.0 stored")}
            await run.until(lambda: len(acks()) >= len(mails), "every mail answered")
            await asyncio.sleep(0.2)  # a second answer on its way would arrive now
        finally:
            await run.daemon.close()

    def acks() -> list[str]:
        run.harness._collect()
        return [m["In-Reply-To"] for m in run.harness.sent if "accepted" in str(m["Subject"])]

    asyncio.run(scenario())
    answered = acks()
    assert len(run.rows()) == len(mails) and {status for _id, status in run.rows()} == {"done"}
    wanted = [m.split(b"Message-ID: ")[1].split(b"\r\n")[0].decode() for m in mails]
    assert sorted(answered) == sorted(wanted)


LMTP_CHECKS = [
    # ([mail.lmtp] lines, exit code of check, what stderr names)
    ('socket = "{tmp}/run/lmtp.sock"', 0, ""),
    ('socket = "{tmp}/missing/lmtp.sock"', EX_CONFIG, "missing does not exist"),
    ('socket = "{tmp}/plain/lmtp.sock"', EX_CONFIG, "plain is not a directory"),
    ('socket = "{tmp}/run/lmtp.sock"\nsocket_group = "no-such-group"', EX_CONFIG, "no group"),
    ('host = "127.0.0.1"\nport = 2424', 0, ""),
    ('host = "192.0.2.1"\nport = 2424', EX_CONFIG, "is not a loopback address"),
]


@pytest.mark.parametrize(("lines", "code", "named"), LMTP_CHECKS)
def test_check_and_run_validate_the_lmtp_section(tmp_path, capsys, caplog, lines, code, named):
    (tmp_path / "run").mkdir()
    (tmp_path / "plain").write_text("a file, not a directory")
    extra = 'transport = "lmtp"\n'
    sections = f'[mail.lmtp]\n{lines.format(tmp=tmp_path)}\n\n[mail.smtp]\nhost = "127.0.0.1"\n\n'
    h = DaemonHarness(tmp_path, sections + GAMES)
    text = h.config_path.read_text().replace('transport = "maildir"\n', extra)
    h.config_path.write_text(text)
    assert h.cli("check")[0] == code
    assert named in capsys.readouterr().err
    if code:  # run refuses as check does, in one line, before any game starts
        with caplog.at_level(logging.CRITICAL, logger="gm_daemon"):
            assert h.cli("run")[0] == EX_CONFIG
        (refusal,) = [r.getMessage() for r in caplog.records if r.levelno == logging.CRITICAL]
        assert refusal.startswith("cannot start: ") and named in refusal, refusal
        assert "g1" not in h.cli("status")[1]  # nothing started


def test_lmtp_needs_smtp_for_the_replies(tmp_path, capsys):
    h = DaemonHarness(tmp_path, GAMES)
    text = h.config_path.read_text().replace('transport = "maildir"', 'transport = "lmtp"')
    h.config_path.write_text(text)
    assert h.cli("check")[0] == EX_CONFIG
    assert 'transport = "lmtp" needs [mail.smtp]' in capsys.readouterr().err
