"""What intake asks the database per order mail, counted with sqlite3's trace callback: after
the first mail of a seat, its game, seats and orders on file come from what the store keeps
(nothing of ``games``, ``players`` or ``orders`` is read again, nor the sender's recent
mails the rate limit counts), and a mail costs its orders, its reply and its inbox row: three
statements (no savepoint: a group is done again with savepoints only when a mail fails). A
statement more per mail is ~2 % of intake; this test says when one comes back."""

from __future__ import annotations

import asyncio
import collections
from email.message import EmailMessage

import pytest

from gm_daemon.daemon import Daemon
from gm_daemon.mail.transport import RawMail
from tests.core.test_daemon_flow import GAMES
from tests.daemon_harness import DaemonHarness

SEATS = {"anna@players.test": "ANNA-1111", "bert@players.test": "BERT-2222"}
READS = ("FROM games", "FROM players", "FROM orders", "FROM inbox WHERE sender")


def _order(number: int, sender: str) -> RawMail:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "gm@gm.test"
    message["Subject"] = f"[g1] orders {number}"
    message["Message-ID"] = f"<statements-{number}@players.test>"
    message.set_content(f"Code: {SEATS[sender]}\n{number % 90 + 1}")
    return RawMail(key=f"memory:{number:04d}", data=bytes(message))


def _statements(daemon: Daemon, mails: list[RawMail]) -> list[str]:
    """The statements intake ran for ``mails``, stored beforehand as a fetch stores them."""
    daemon._store_all(mails)
    ran: list[str] = []
    daemon.store.db.set_trace_callback(ran.append)
    try:
        asyncio.run(daemon._process_pending())
    finally:
        daemon.store.db.set_trace_callback(None)
    return ran


@pytest.mark.parametrize("mails", [1, 4, 9])
def test_an_order_mail_of_a_known_seat_costs_three_statements(tmp_path, mails: int) -> None:
    harness = DaemonHarness(tmp_path, GAMES)
    harness.run()  # the game started, its welcomes sent
    daemon = Daemon(harness.config_path, clock=harness.clock)
    try:
        senders = list(SEATS)
        first = [_order(n, senders[n % 2]) for n in range(2)]
        _statements(daemon, first)  # each seat's first mail reads its orders on file
        later = [_order(n, senders[n % 2]) for n in range(2, 2 + mails)]
        ran = _statements(daemon, later)
        accepted = daemon.store.db.execute(
            "SELECT count(*) FROM outbox WHERE purpose = 'accepted'"
        ).fetchone()[0]
    finally:
        asyncio.run(daemon.close())
    assert accepted == 2 + mails  # every mail answered: the statements did the whole work
    reads = [sql for sql in ran if any(table in sql for table in READS)]
    assert reads == []
    kinds = collections.Counter(" ".join(sql.split()[:2]) for sql in ran)
    groups = kinds["BEGIN IMMEDIATE"]
    assert groups == kinds["COMMIT"] >= 1
    assert kinds["PRAGMA data_version"] == groups
    assert kinds["SELECT id,"] == 1  # the mails waiting, once
    per_mail = len(ran) - 3 * groups - 1  # BEGIN, a look at data_version and COMMIT a group
    assert kinds["SAVEPOINT step"] == kinds["RELEASE step"] == 0
    assert per_mail <= 3 * mails, kinds
