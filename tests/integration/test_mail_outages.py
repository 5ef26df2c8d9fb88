"""The real daemon against the real Postfix + Dovecot when mail breaks: Postfix stopped while
a deadline resolves, one recipient refused for good, the IMAP connection dropped, Dovecot
stopped for a while, an IMAP connection that dies silently (while idling, or halfway through
a FETCH) behind a loopback proxy."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
import sqlite3
import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from gm_daemon.mail import imap
from gm_daemon.outbox import Backoff
from tests.integration.real_stack import (
    PLAYERS,
    Mailboxes,
    RunningDaemon,
    gm_cli,
    gm_config,
    send_orders,
    subject_of,
)
from tests.mailstack import MailStack
from tests.mailstack.proxy import TcpProxy

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
    config = gm_config(tmp_path, stack, every="1d")
    database = tmp_path / "gm.sqlite"

    async def scenario() -> None:
        running = RunningDaemon(config)
        running.daemon.outbox.backoff = FAST  # the test switch: retries within seconds
        for player in PLAYERS:
            await boxes.until_subject(player, "Willkommen")
        _stop_postfix(stack)
        try:
            await asyncio.to_thread(gm_cli, config, "resolve", "--game", "hn1")
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
        subjects = [subject_of(m) for m in asyncio.run(boxes.of(player))]
        assert sum("Ergebnis" in s for s in subjects) == 1, subjects
    assert {status for _p, status, _a in _outbox(database)} == {"sent"}


def test_one_recipient_refused_for_good_the_others_served_the_gm_told(
    tmp_path: Path, empty_mailstack: MailStack
) -> None:
    stack, boxes = empty_mailstack, Mailboxes(empty_mailstack)
    config = gm_config(tmp_path, stack, every="1d")
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
    config = gm_config(tmp_path, stack, every="1d")

    async def scenario() -> None:
        running = RunningDaemon(config)
        await boxes.until_subject("player1@players.test", "Willkommen")
        for _drop in range(3):
            stack.kick(stack.gm)
            await asyncio.sleep(0.3)
        await send_orders(stack, "player1@players.test")
        await send_orders(stack, "player2@players.test")
        for player in ("player1@players.test", "player2@players.test"):
            subjects = await boxes.until_subject(player, "angenommen", timeout=30)
            assert sum("angenommen" in s for s in subjects) == 1
        await running.stop()

    asyncio.run(scenario())


# --- the IMAP side: Dovecot gone for a while, connections dying silently --------------------

ORDERING = ("player1@players.test", "player2@players.test", "player3@players.test")


def _imap_config(
    tmp_path: Path, stack: MailStack, port: int | None = None, *, plain: bool = False
) -> Path:
    """The end-to-end config with the IMAP test switches: answers within 2 s, IDLE renewed
    every 2 s (production: 30 s and 29 minutes), optionally through a proxy on ``port``
    (``plain``: IMAP without TLS, so the proxy can see what passes)."""
    config = gm_config(tmp_path, stack, every="1d")
    text = config.read_text()
    if port is not None:
        text = text.replace(f"port = {stack.imaps_port}\n", f"port = {port}\n", 1)
    if plain:
        text = text.replace('security = "tls"\n', 'security = "none"\n', 1)
    text = text.replace(
        "[mail.imap]\n", "[mail.imap]\ntimeout_seconds = 2\nidle_renew_seconds = 2\n", 1
    )
    config.write_text(text)
    return config


def _phases(database: Path) -> list[int]:
    with contextlib.closing(sqlite3.connect(database, timeout=30)) as db:
        return [r[0] for r in db.execute("SELECT phase FROM phases WHERE game_id = 'hn1'")]


def _inbox_ids(database: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(database, timeout=30)) as db:
        return [r[0] for r in db.execute("SELECT message_id FROM inbox WHERE status = 'done'")]


async def _acknowledged_once(boxes: Mailboxes, players: tuple[str, ...]) -> None:
    for player in players:
        await boxes.until_subject(player, "angenommen", timeout=60)
    await asyncio.sleep(1)  # a second answer would arrive now
    for player in players:
        subjects = [subject_of(m) for m in await boxes.of(player)]
        assert sum("angenommen" in s for s in subjects) == 1, (player, subjects)


def test_dovecot_stopped_for_a_while_mail_waits_deadlines_do_not(
    tmp_path: Path, empty_mailstack: MailStack, caplog: pytest.LogCaptureFixture
) -> None:
    """Dovecot (IMAP, and with it LMTP delivery and SMTP AUTH) is stopped for 10 s, longer
    than several back-off steps, while players send orders (Postfix queues them) and a
    deadline the GM set falls due. The deadline resolves on time all the same; the daemon
    tries again with growing pauses, not in a tight loop; when Dovecot is back and Postfix
    delivers its queue, every mail is read once and answered once, and the results go out."""
    caplog.set_level(logging.WARNING, logger="gm_daemon")
    stack, boxes = empty_mailstack, Mailboxes(empty_mailstack)
    config = _imap_config(tmp_path, stack)
    database = tmp_path / "gm.sqlite"
    figures: dict[str, float] = {}

    async def scenario() -> None:
        running = RunningDaemon(config)
        running.daemon.inbox.backoff = imap.Backoff(first=0.5, factor=2, cap=4, attempts=2)
        running.daemon.outbox.backoff = FAST
        for player in PLAYERS:
            await boxes.until_subject(player, "Willkommen")
        await asyncio.to_thread(stack.stop_dovecot)
        down = time.monotonic()
        try:
            for player in ORDERING:
                await send_orders(stack, player)  # queued by Postfix: LMTP to Dovecot fails
            until = datetime.now(ZoneInfo("Europe/Berlin")).replace(microsecond=0)
            until += timedelta(seconds=4)
            await asyncio.to_thread(
                gm_cli, config, "extend", "--game", "hn1", "--until", until.isoformat()
            )
            while not _phases(database):
                assert datetime.now(UTC) < until + timedelta(seconds=15), "not resolved"
                await asyncio.sleep(0.1)
            figures["resolved_late"] = (datetime.now(UTC) - until).total_seconds()
            await asyncio.sleep(max(0.0, 10 - (time.monotonic() - down)))
        finally:
            await asyncio.to_thread(stack.start_dovecot)
        back = time.monotonic()
        figures["down"] = back - down
        await asyncio.to_thread(stack.flush_queue)
        await _acknowledged_once(boxes, ORDERING)
        figures["caught_up"] = time.monotonic() - back - 1
        for player in PLAYERS:
            await boxes.until_subject(player, "Ergebnis", timeout=60)
        await running.stop()

    asyncio.run(scenario())
    assert figures["resolved_late"] < 3, figures  # the deadline did not wait for the mailbox
    assert _phases(database) == [1]
    for player in PLAYERS:
        subjects = [subject_of(m) for m in asyncio.run(boxes.of(player))]
        assert sum("Ergebnis" in s for s in subjects) == 1, subjects
    assert sorted(_inbox_ids(database)) == sorted(set(_inbox_ids(database)))
    assert len(_inbox_ids(database)) == len(ORDERING)
    assert all("\\Seen" in flags for _, flags in stack.flags(stack.gm))
    pauses = [
        float(m.group(1))
        for r in caplog.records
        if (m := re.search(r"next attempt in (\d+\.\d) s\)?$", r.getMessage()))
        and "after" in r.getMessage()
    ]
    assert len(pauses) >= 3 and max(pauses) == 4.0, pauses  # grew to the cap, then held
    assert len(pauses) <= 8, pauses  # one attempt per back-off step, not a tight loop
    print(f"\nDovecot down {figures['down']:.1f} s, pauses {pauses}; {figures}")


def test_an_idle_connection_that_dies_silently_is_noticed_and_replaced(
    tmp_path: Path, empty_mailstack: MailStack
) -> None:
    """The daemon idles through a proxy that then stops passing data without closing
    anything (a NAT that forgot the connection). Mail arrives meanwhile: the daemon notices
    at its next IDLE renewal (the NOOP or the end of IDLE gets no answer within
    timeout_seconds), connects anew and reads the mail, each once."""
    stack, boxes = empty_mailstack, Mailboxes(empty_mailstack)

    async def scenario() -> float:
        async with TcpProxy(stack.imaps_port) as proxy:
            running = RunningDaemon(_imap_config(tmp_path, stack, proxy.port))
            await boxes.until_subject("player1@players.test", "Willkommen")
            await asyncio.sleep(1)  # idling now
            assert proxy.freeze() == 1
            frozen = time.monotonic()
            for player in ORDERING[:2]:
                await send_orders(stack, player)
            await _acknowledged_once(boxes, ORDERING[:2])
            noticed = time.monotonic() - frozen - 1
            assert proxy.connections >= 2
            await running.stop()
            return noticed

    noticed = asyncio.run(scenario())
    assert noticed < 20  # idle_renew 2 s + timeout 2 s, and the round trips
    print(f"\nsilent IMAP death noticed and mail answered after {noticed:.1f} s")


@pytest.mark.parametrize("close", [True, False], ids=["closed", "stalled"])
def test_a_connection_lost_halfway_through_a_fetch_is_fetched_again(
    tmp_path: Path, empty_mailstack: MailStack, close: bool
) -> None:
    """The server's answer to UID FETCH stops 100 bytes into the mail: the connection is
    closed there, or stays open with nothing more coming (FETCH's timer, timeout_seconds,
    runs out). Nothing was marked seen, so the mail is fetched again on a new connection and
    answered once."""
    stack, boxes = empty_mailstack, Mailboxes(empty_mailstack)

    async def scenario() -> None:
        async with TcpProxy(stack.imap_port) as proxy:
            running = RunningDaemon(_imap_config(tmp_path, stack, proxy.port, plain=True))
            await boxes.until_subject("player1@players.test", "Willkommen")
            proxy.cut_after(b"BODY[] {", 100, close=close)
            await send_orders(stack, "player1@players.test")
            await asyncio.wait_for(proxy.cut_done.wait(), 30)
            await _acknowledged_once(boxes, ORDERING[:1])
            assert proxy.connections >= 2
            await running.stop()

    asyncio.run(scenario())
    assert len(_inbox_ids(tmp_path / "gm.sqlite")) == 1
