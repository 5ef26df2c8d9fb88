"""``kill -9`` of ``gm-daemon run`` on transport "lmtp" at random moments while the real
Postfix of the test stack hands it a burst of order mails, and while a deadline resolves (the
GM moves it a few seconds ahead with ``gm-daemon extend``; the last two kill points fall
after it). What got no ``250`` stays in Postfix's queue and is delivered again once the
daemon is back (the queue flushed, as Postfix's next queue run would). After the last start:

- every order mail is in the database exactly once, and handled;
- each has exactly one reply (one Message-ID) in the player's mailbox;
- the phase was resolved once, each player has exactly one result;
- nothing is left in Postfix's queue.

At-least-once bound, as over IMAP: a kill between the SMTP server's 250 and the outbox's
"sent" commit sends that same reply again with the same Message-ID; allowed, counted, and
never a second, different reply.

The short runs (2 and 5 kill points) are in the default selection, the long one (20 points,
160 mails) is marked slow:
``.venv/bin/pytest -m "slow and mailstack" tests/integration/test_lmtp_kill_nine.py``.
"""

from __future__ import annotations

import contextlib
import random
import signal
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.integration.real_stack import (
    PLAYERS,
    answered_once,
    game_started,
    gm_cli,
    gm_config,
    kill_daemon,
    mails_of,
    order_mail,
    start_daemon,
    wait_until,
)
from tests.mailstack import MailStack

pytestmark = pytest.mark.mailstack


def test_lmtp_kill_nine_two_points(tmp_path: Path, empty_mailstack: MailStack) -> None:
    _kill_run(tmp_path, empty_mailstack, mails=16, kills=2, seed=2)


def test_lmtp_kill_nine_five_points(tmp_path: Path, empty_mailstack: MailStack) -> None:
    _kill_run(tmp_path, empty_mailstack, mails=40, kills=5, seed=5)


@pytest.mark.slow
def test_lmtp_kill_nine_twenty_points(tmp_path: Path, empty_mailstack: MailStack) -> None:
    _kill_run(tmp_path, empty_mailstack, mails=160, kills=20, seed=2020)


def _kill_run(tmp_path: Path, stack: MailStack, mails: int, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    config = gm_config(tmp_path, stack, every="1d", transport="lmtp")
    log = tmp_path / "daemon.log"
    log.touch()
    orders = [
        (f"<lmtp-kill-{n}-{seed}@players.test>", list(PLAYERS)[n % len(PLAYERS)])
        for n in range(mails)
    ]
    delivering = max(1, kills - 2)  # the last two kill points fall around the deadline
    chunks = [orders[i::delivering] for i in range(delivering)]
    started, deferred = time.monotonic(), _deferred(stack)
    for point in range(kills):
        daemon, sending = start_daemon(config, log), None
        try:  # a failing step must not leave a daemon behind that reads later tests' mail
            _listening(daemon, log)
            if point < delivering:  # killed while Postfix hands the burst over, or after
                sending = threading.Thread(target=_submit, args=(stack, chunks[point]))
                sending.start()
                time.sleep(rng.uniform(0.02, 0.25))
            else:
                _deadline_ahead(tmp_path, config, log, point == delivering)
                time.sleep(rng.uniform(0.0, 1.5))  # resolution and result mails going out
        finally:
            kill_daemon(daemon, signal.SIGKILL)
            if sending is not None:
                sending.join(60)
    final = start_daemon(config, log)
    try:  # SIGTERM before its handler is set would kill it (-15), not stop it
        _listening(final, log)
        wanted = {m for m, _p in orders}
        _wait_flushing(stack, lambda: {rt for rt, _s, _m in mails_of(stack)} >= wanted, log)
        results = lambda: sum("Ergebnis" in s for _r, s, _m in mails_of(stack)) >= len(PLAYERS)  # noqa: E731
        _wait_flushing(stack, results, log)
        time.sleep(1)  # a copy on its way would arrive now
    finally:
        assert kill_daemon(final, signal.SIGTERM) == 0, log.read_text()[-3000:]
    copies = _check(tmp_path / "gm.sqlite", stack, orders)
    print(
        f"\nLMTP kill -9 x{kills}, {mails} mails: {time.monotonic() - started:.1f} s, "
        f"{copies} repeated copies (250-to-sent gap), "
        f"{_deferred(stack) - deferred} deliveries deferred by Postfix and made again"
    )


def _deferred(stack: MailStack) -> int:
    """Postfix's deferred deliveries to the daemon's socket so far (its log)."""
    text = (stack.root / "postfix" / "maillog").read_text(errors="replace")
    return sum(
        "status=deferred" in line and str(stack.lmtp_socket) in line for line in text.splitlines()
    )


def _submit(stack: MailStack, chunk: list[tuple[str, str]]) -> None:
    """Each order to Postfix's MX port, as the players' servers would send them."""
    for message_id, player in chunk:
        stack.deliver(stack.lmtp_gm, order_mail(player, message_id, to=stack.lmtp_gm), player)


def _listening(daemon: subprocess.Popen[bytes], log: Path) -> None:
    """Until this daemon's listener is up (its log line; the socket file alone may be a
    stale one of the daemon killed before)."""
    before = log.read_text().count("LMTP: listening")
    deadline = time.monotonic() + 60
    while log.read_text().count("LMTP: listening") <= before:
        if daemon.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"the daemon did not start listening\n{log.read_text()[-3000:]}")
        time.sleep(0.02)


def _deadline_ahead(tmp_path: Path, config: Path, log: Path, first: bool) -> None:
    """At the first of the last kill points the GM moves the deadline a few seconds ahead;
    the daemon killed at either point may be resolving or sending results."""
    if not first:
        return
    wait_until(lambda: game_started(tmp_path / "gm.sqlite"), 60, "the game started", log)
    until = datetime.now(ZoneInfo("Europe/Berlin")).replace(microsecond=0)
    until += timedelta(seconds=6)  # ahead by more than the GM's tool takes to start
    gm_cli(config, "extend", "--game", "hn1", "--until", until.isoformat())
    time.sleep(max(0.0, (until - datetime.now(UTC)).total_seconds()))


def _wait_flushing(stack: MailStack, condition: Callable[[], bool], log: Path) -> None:
    """Until ``condition``, flushing Postfix's queue now and then: mail deferred while no
    daemon listened waits for a queue run, minutes away by default."""
    deadline = time.monotonic() + 120
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not done within 120 s\n{log.read_text()[-3000:]}")
        stack.flush_queue()
        time.sleep(1)


def _check(database: Path, stack: MailStack, orders: list[tuple[str, str]]) -> int:
    with contextlib.closing(sqlite3.connect(database)) as db:
        stored = dict(
            db.execute("SELECT message_id, COUNT(*) FROM inbox GROUP BY message_id").fetchall()
        )
        open_rows = db.execute("SELECT COUNT(*) FROM inbox WHERE status != 'done'").fetchone()[0]
        phases = db.execute("SELECT phase FROM phases WHERE game_id = 'hn1'").fetchall()
    assert all(stored.get(m) == 1 for m, _p in orders), "a mail lost or stored twice"
    assert len(stored) == len(orders) and open_rows == 0 and phases == [(1,)]
    copies = answered_once(stack, orders)
    stack.wait_for_queue(timeout=10)
    spool = stack.root / "postfix" / "spool"
    queued = [f for q in ("incoming", "active", "deferred") for f in (spool / q).rglob("*")]
    assert not [f for f in queued if f.is_file()], "mail left in Postfix's queue"
    assert stack.messages(stack.gm) == []  # nothing went to Dovecot for the GM
    return copies
