"""The real daemon, in this test's event loop, on transport "imap" against the real Dovecot
(IDLE on) and Postfix: welcome mails out, orders in by SMTP, acknowledgements out, a restart
in the middle of it, a real deadline passing, result mails to everyone, nothing twice."""

from __future__ import annotations

import asyncio
import signal
import time
from collections import Counter
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
    reply_ids,
    send_orders,
    start_daemon,
    wait_until,
)
from tests.mailstack import MailStack

pytestmark = pytest.mark.mailstack


def test_orders_acks_restart_deadline_results(tmp_path: Path, empty_mailstack: MailStack) -> None:
    stack = empty_mailstack
    boxes = Mailboxes(stack)
    config = gm_config(tmp_path, stack)

    async def scenario() -> float:
        started = time.monotonic()
        first = RunningDaemon(config)
        for player in PLAYERS:
            assert "Willkommen" in " ".join(await boxes.until_subject(player, "Willkommen"))
        await send_orders(stack, "player1@players.test")
        assert "angenommen" in " ".join(
            await boxes.until_subject("player1@players.test", "angenommen", timeout=10)
        )
        await send_orders(stack, "player2@players.test")  # in flight while the daemon stops
        await first.stop()
        await send_orders(stack, "player3@players.test")  # arrives while no daemon runs
        second = RunningDaemon(config)
        for player in ("player2@players.test", "player3@players.test"):
            await boxes.until_subject(player, "angenommen", timeout=10)
        elapsed = time.monotonic() - started
        for player in PLAYERS:
            await boxes.until_subject(player, "Ergebnis", timeout=60)
        await second.stop()
        return elapsed

    before_deadline = asyncio.run(scenario())
    assert before_deadline < ROUND_SECONDS, "orders came too late for round 1: test too slow"
    kinds_of_every_mailbox(boxes)
    gm_box = stack.flags(stack.gm)
    assert len(gm_box) == 3
    assert all("\\Seen" in flags for _, flags in gm_box), gm_box


# --- a hard crash: gm-daemon run as a process, killed with SIGKILL mid-burst ----------------


def test_sigkill_mid_burst_loses_nothing(tmp_path: Path, empty_mailstack: MailStack) -> None:
    stack = empty_mailstack
    config = gm_config(tmp_path, stack, every="1d")
    log = tmp_path / "daemon.log"
    orders = {
        f"<burst-{i}-{player.split('@')[0]}@players.test>": player
        for i in range(8)
        for player in PLAYERS
    }
    pending = list(orders.items())
    first = start_daemon(config, log)
    try:
        wait_until(lambda: len(reply_ids(stack)) >= len(PLAYERS), 30, "welcome mails", log)
        while pending:  # one by one while the daemon works, until its first acknowledgement
            message_id, player = pending.pop(0)
            stack.deliver(stack.gm, order_mail(player, message_id), player)
            if any(rt in orders for rt, _ in reply_ids(stack)):
                break
    finally:
        first.send_signal(signal.SIGKILL)  # in the middle of the burst
        first.wait(10)
    for message_id, player in pending:  # the rest arrives while no daemon runs
        stack.deliver(stack.gm, order_mail(player, message_id), player)
    second = start_daemon(config, log)
    try:
        wait_until(lambda: log.read_text().count("gm-daemon running") == 2, 30, "restart", log)
        answered = lambda: {rt for rt, _ in reply_ids(stack)} >= set(orders)  # noqa: E731
        wait_until(answered, 60, "all answered", log)
    finally:
        second.send_signal(signal.SIGTERM)
        assert second.wait(30) == 0, log.read_text()[-3000:]
    replies = [(rt, mid) for rt, mid in reply_ids(stack) if rt in orders]
    distinct = {rt: {mid for r, mid in replies if r == rt} for rt in orders}
    assert all(len(ids) == 1 for ids in distinct.values()), distinct
    # A copy of the *same* reply may go out again only if the kill hit between the SMTP
    # server's 250 and the outbox commit (at-least-once sending); never a second reply.
    copies = Counter(mid for _, mid in replies)
    assert max(copies.values()) <= 2, copies
    gm_box = stack.flags(stack.gm)
    assert len(gm_box) == len(orders)
    assert all("\\Seen" in flags for _, flags in gm_box)
