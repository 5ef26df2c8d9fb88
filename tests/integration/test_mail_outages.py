"""The real daemon against the real Postfix + Dovecot when mail breaks: Postfix stopped while
a deadline resolves, one recipient refused for good, the IMAP connection dropped."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sqlite3
import subprocess
import time
from datetime import timedelta
from pathlib import Path

import pytest

from gm_daemon.outbox import Backoff
from tests.integration.test_end_to_end import (
    PLAYERS,
    Mailboxes,
    RunningDaemon,
    _config,
    _send,
    _subject,
)
from tests.integration.test_kill_nine import _deadline_now
from tests.mailstack import MailStack

pytestmark = pytest.mark.mailstack
FAST = Backoff(first_delay=timedelta(seconds=1), max_delay=timedelta(seconds=2))


def _stop_postfix(stack: MailStack) -> None:
    log = stack.root / "postfix-stop.log"
    with log.open("ab") as out:
        cmd = ["postfix", "-c", str(stack.postfix_dir), "stop"]
        subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=out, timeout=60)
    deadline = time.monotonic() + 15
    while _listening(stack.smtp_port):
        assert time.monotonic() < deadline, "postfix did not stop"
        time.sleep(0.1)


def _start_postfix(stack: MailStack) -> None:
    """Again after a stop; the old master may take a moment to be gone."""
    for _attempt in range(20):
        try:
            stack._start_postfix()
            return
        except Exception:
            time.sleep(0.5)
    stack._start_postfix()


def _listening(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
        return True
    return False


def _outbox(database: Path) -> list[tuple[str, str, int]]:
    with contextlib.closing(sqlite3.connect(database)) as db:
        return db.execute("SELECT purpose, status, attempts FROM outbox ORDER BY id").fetchall()


def test_results_wait_while_smtp_is_down_and_go_out_once(
    tmp_path: Path, empty_mailstack: MailStack
) -> None:
    stack, boxes = empty_mailstack, Mailboxes(empty_mailstack)
    config = _config(tmp_path, stack, every="1d")
    database = tmp_path / "gm.sqlite"

    async def scenario() -> None:
        running = RunningDaemon(config)
        running.daemon.outbox.backoff = FAST  # the test switch: retries within seconds
        for player in PLAYERS:
            await boxes.until_subject(player, "Willkommen")
        _stop_postfix(stack)
        try:
            _deadline_now(database)
            limit = time.monotonic() + 30
            while not [r for r in _outbox(database) if r[0] == "result" and r[2] >= 2]:
                assert time.monotonic() < limit, _outbox(database)
                await asyncio.sleep(0.2)  # the results are queued and have failed twice
        finally:
            _start_postfix(stack)
        for player in PLAYERS:
            await boxes.until_subject(player, "Ergebnis")
        await asyncio.sleep(2)  # a second copy would arrive now
        await running.stop()

    asyncio.run(scenario())
    for player in PLAYERS:
        subjects = [_subject(m) for m in asyncio.run(boxes.of(player))]
        assert sum("Ergebnis" in s for s in subjects) == 1, subjects
    assert {status for _p, status, _a in _outbox(database)} == {"sent"}


def test_one_recipient_refused_for_good_the_others_served_the_gm_told(
    tmp_path: Path, empty_mailstack: MailStack
) -> None:
    stack, boxes = empty_mailstack, Mailboxes(empty_mailstack)
    config = _config(tmp_path, stack, every="1d")
    text = config.read_text().replace("player4@players.test", "ghost@players.test")
    config.write_text(
        text.replace(
            'transport = "imap"', 'transport = "imap"\ngm_address = "player8@players.test"'
        )
    )

    async def scenario() -> list[str]:
        running = RunningDaemon(config)
        for player in list(PLAYERS)[:3]:
            await boxes.until_subject(player, "Willkommen")
        notes = await boxes.until_subject("player8@players.test", "refused")
        await running.stop()
        return notes

    (note,) = asyncio.run(scenario())
    assert "1 mail(s) refused" in note
    body = asyncio.run(boxes.of("player8@players.test"))[0].get_content()
    assert "ghost@players.test" in body and "550" in body


def test_a_dropped_imap_connection_is_reopened_and_mail_caught_up(
    tmp_path: Path, empty_mailstack: MailStack
) -> None:
    stack, boxes = empty_mailstack, Mailboxes(empty_mailstack)
    config = _config(tmp_path, stack, every="1d")

    async def scenario() -> None:
        running = RunningDaemon(config)
        await boxes.until_subject("player1@players.test", "Willkommen")
        for _drop in range(3):
            stack.kick(stack.gm)
            await asyncio.sleep(0.3)
        await _send(stack, "player1@players.test")
        await _send(stack, "player2@players.test")
        for player in ("player1@players.test", "player2@players.test"):
            subjects = await boxes.until_subject(player, "angenommen", timeout=30)
            assert sum("angenommen" in s for s in subjects) == 1
        await running.stop()

    asyncio.run(scenario())
