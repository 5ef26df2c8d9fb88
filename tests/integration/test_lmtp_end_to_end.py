"""The High Noon example over LMTP: the real Postfix of the test stack hands the mail for the
GM's address to the daemon's Unix socket (``transport_maps`` → ``lmtp:unix:…``, the socket in
a directory of group postfix, as docs/lmtp.md sets it up), the replies go out by SMTP.
Welcome mails, orders in, acknowledgements out, a restart in the middle (a mail sent while no
daemon runs waits in Postfix's queue), a real deadline, results to everyone, nothing twice."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from pathlib import Path

import pytest

from tests.integration.real_stack import (
    PLAYERS,
    ROUND_SECONDS,
    Mailboxes,
    RunningDaemon,
    gm_config,
    kinds_of_every_mailbox,
    order_mail,
)
from tests.mailstack import MailStack

pytestmark = pytest.mark.mailstack


async def send_lmtp(stack: MailStack, player: str, message_id: str | None = None) -> None:
    """An order mail to the GM's LMTP address, submitted as any player's MTA would."""
    data = order_mail(player, message_id, to=stack.lmtp_gm)
    await asyncio.to_thread(stack.deliver, stack.lmtp_gm, data, player)


async def until_listening(stack: MailStack, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not stack.lmtp_socket.exists():
        assert time.monotonic() < deadline, "the daemon's LMTP socket did not appear"
        await asyncio.sleep(0.02)


def test_high_noon_over_lmtp(tmp_path: Path, empty_mailstack: MailStack) -> None:
    stack = empty_mailstack
    boxes = Mailboxes(stack)
    config = gm_config(tmp_path, stack, transport="lmtp")

    async def scenario() -> float:
        started = time.monotonic()
        first = RunningDaemon(config)
        try:
            for player in PLAYERS:
                assert "Willkommen" in " ".join(await boxes.until_subject(player, "Willkommen"))
            await until_listening(stack)
            await send_lmtp(stack, "player1@players.test")
            acks = await boxes.until_subject("player1@players.test", "angenommen", timeout=10)
            assert "angenommen" in " ".join(acks)
            await send_lmtp(stack, "player2@players.test")  # in flight while the daemon stops
        finally:
            await first.stop()
        assert not stack.lmtp_socket.exists()  # removed: Postfix finds nobody, and defers
        await send_lmtp(stack, "player3@players.test")  # waits in Postfix's queue
        second = RunningDaemon(config)
        try:
            await until_listening(stack)
            await asyncio.to_thread(stack.flush_queue)  # what Postfix's next queue run does
            for player in ("player2@players.test", "player3@players.test"):
                await boxes.until_subject(player, "angenommen", timeout=10)
            elapsed = time.monotonic() - started
            for player in PLAYERS:
                await boxes.until_subject(player, "Ergebnis", timeout=60)
        finally:
            await second.stop()
        return elapsed

    before_deadline = asyncio.run(scenario())
    assert before_deadline < ROUND_SECONDS, "orders came too late for round 1: test too slow"
    kinds_of_every_mailbox(boxes)
    assert stack.messages(stack.gm) == []  # nothing went to Dovecot for the GM
    with contextlib.closing(sqlite3.connect(tmp_path / "gm.sqlite")) as db:
        rows = db.execute("SELECT key, status FROM inbox").fetchall()
    assert len(rows) == 3 and all(k.startswith("lmtp:") and s == "done" for k, s in rows), rows
