"""``kill -9`` of ``gm-daemon run`` (a real process on the real Postfix + Dovecot) at random
moments while order mails arrive and a deadline resolves (the GM moves it to a moment a few
seconds ahead with ``gm-daemon extend``; the last two kill points fall after it). After the
last restart:

- every mail delivered is in the database exactly once, and read (none lost, none twice);
- each order mail has exactly one reply (one Message-ID) in the player's mailbox;
- the phase was resolved exactly once and each player has exactly one result;
- every mail in the GM's mailbox is marked seen.

At-least-once bound: a kill between the SMTP server's 250 and the outbox's "sent" commit sends
that same mail again on restart, with the same Message-ID (mail clients show it once). The
test allows such a copy and prints how many it saw; it never allows a second, different reply.

The short run (5 kill points, 40 mails) is in the default selection; the long one (50 kill
points, 200 mails) is marked slow:
``.venv/bin/pytest -m "slow and mailstack" tests/integration/test_kill_nine.py``.
"""

from __future__ import annotations

import contextlib
import random
import signal
import sqlite3
import time
from collections import Counter
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
    mails_of,
    order_mail,
    start_daemon,
    wait_until,
)
from tests.mailstack import MailStack

pytestmark = pytest.mark.mailstack


def test_kill_nine_short(tmp_path: Path, empty_mailstack: MailStack) -> None:
    _kill_run(tmp_path, empty_mailstack, mails=40, kills=5, seed=12)


@pytest.mark.slow
def test_kill_nine_fifty_kill_points(tmp_path: Path, empty_mailstack: MailStack) -> None:
    _kill_run(tmp_path, empty_mailstack, mails=200, kills=50, seed=1250)


def _kill_run(tmp_path: Path, stack: MailStack, mails: int, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    config = gm_config(tmp_path, stack, every="1d")
    log = tmp_path / "daemon.log"
    orders = [
        (f"<kill-{n}-{seed}@players.test>", list(PLAYERS)[n % len(PLAYERS)]) for n in range(mails)
    ]
    delivering = kills - 2  # the last two kill points fall around the deadline
    chunks = [orders[i::delivering] for i in range(delivering)]
    started = time.monotonic()
    for point in range(kills):
        daemon = start_daemon(config, log)
        try:  # a failing step must not leave a daemon behind that reads later tests' mail
            if point < delivering:
                for message_id, player in chunks[point]:
                    stack.deliver(stack.gm, order_mail(player, message_id), player)
            elif point == delivering:  # the GM moves the deadline to a moment just ahead
                # on a loaded machine every earlier start may have died before setting up the
                # game; the GM's tool needs it, so this daemon gets the time to do so
                wait_until(
                    lambda: game_started(tmp_path / "gm.sqlite"), 60, "the game started", log
                )
                # ahead by more than the GM's tool takes to start on a loaded machine (> 2 s)
                until = datetime.now(ZoneInfo("Europe/Berlin")).replace(microsecond=0)
                until += timedelta(seconds=10)
                gm_cli(config, "extend", "--game", "hn1", "--until", until.isoformat())
                time.sleep(max(0.0, (until - datetime.now(UTC)).total_seconds()))
            time.sleep(rng.uniform(0.3, 2.0))  # start-up, fetch, intake, resolution or sending
        finally:
            daemon.send_signal(signal.SIGKILL)
            daemon.wait(10)
    starts = log.read_text().count("gm-daemon running")
    final = start_daemon(config, log)
    try:  # SIGTERM before its handler is set would kill it (-15), not stop it
        started_again = lambda: log.read_text().count("gm-daemon running") > starts  # noqa: E731
        wait_until(started_again, 60, "the last start", log)
        answered = lambda: {rt for rt, _s, _m in mails_of(stack)} >= {m for m, _p in orders}  # noqa: E731
        wait_until(answered, 120, "every order answered", log)
        results = lambda: sum("Ergebnis" in s for _r, s, _m in mails_of(stack)) >= len(PLAYERS)  # noqa: E731
        wait_until(results, 60, "every result sent", log)
        time.sleep(1)  # a copy on its way would arrive now
    finally:
        final.send_signal(signal.SIGTERM)
        assert final.wait(30) == 0, log.read_text()[-3000:]
    copies = _check(tmp_path / "gm.sqlite", stack, orders)
    print(
        f"\nkill -9 x{kills}, {mails} mails: {time.monotonic() - started:.1f} s, "
        f"{copies} repeated copies (250-to-sent gap)"
    )


def _check(database: Path, stack: MailStack, orders: list[tuple[str, str]]) -> int:
    with contextlib.closing(sqlite3.connect(database)) as db:
        stored = Counter(r[0] for r in db.execute("SELECT message_id FROM inbox"))
        unread = db.execute("SELECT COUNT(*) FROM inbox WHERE status != 'done'").fetchone()[0]
        phases = db.execute("SELECT phase FROM phases WHERE game_id = 'hn1'").fetchall()
    assert all(stored[m] == 1 for m, _p in orders), "a mail lost or stored twice"
    assert unread == 0 and phases == [(1,)]
    copies = answered_once(stack, orders)
    flags = stack.flags(stack.gm)
    assert len(flags) == len(orders) and all("\\Seen" in f for _, f in flags)
    return copies
