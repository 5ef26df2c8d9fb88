"""Old mail bodies leave the database; what deduplication and ``status`` need stays."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3

from gm_daemon.daemon import Daemon
from tests.core.test_daemon_flow import GAMES
from tests.daemon_harness import DaemonHarness


def _rows(h: DaemonHarness, sql: str) -> list[tuple]:
    with contextlib.closing(sqlite3.connect(h.database)) as db:
        return db.execute(sql).fetchall()


def _played_and_paused(tmp_path) -> tuple[DaemonHarness, bytes]:
    """Welcomes out, one order mail in and acknowledged; the game paused so that a month
    can pass without deadlines. Returns the harness and the order mail as delivered."""
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    h.send("anna@players.test", "Code: ANNA-1111\n17")
    (order,) = [p.read_bytes() for p in (h.inbox_dir / "new").iterdir()]
    assert len(h.run()) == 1
    assert h.cli("pause", "--game", "g1")[0] == 0
    assert len(h.run()) == 2  # "paused" to both players
    return h, order


def test_a_month_later_bodies_are_gone_but_rows_and_ids_stay(tmp_path):
    h, _ = _played_and_paused(tmp_path)
    outbox_before = _rows(h, "SELECT id, message_id, recipient, status FROM outbox")
    inbox_before = _rows(h, "SELECT id, key, message_id, sender, status, verdict FROM inbox")
    h.advance(days=31)
    h.run()
    assert _rows(h, "SELECT id, message_id, recipient, status FROM outbox") == outbox_before
    assert _rows(h, "SELECT id, key, message_id, sender, status, verdict FROM inbox") == (
        inbox_before
    )
    assert _rows(h, "SELECT max(length(message)) FROM outbox") == [(0,)]
    assert _rows(h, "SELECT max(length(raw)) FROM inbox") == [(0,)]
    code, out = h.cli("status", "--json")
    assert code == 0 and json.loads(out)["outbox"] == {"sent": 5}
    assert "database:" in h.cli("status")[1]


def test_a_pruned_mail_delivered_again_is_still_recognised(tmp_path):
    h, order = _played_and_paused(tmp_path)
    h.advance(days=31)
    h.run()
    h.send_raw(order)  # the same Message-ID once more, as a confused mail server might
    assert h.run() == []
    assert _rows(h, "SELECT count(*) FROM inbox") == [(1,)]


def test_recent_pending_and_shunted_mail_keep_their_bodies(tmp_path):
    h, _ = _played_and_paused(tmp_path)
    h.advance(days=29)
    h.run()
    assert _rows(h, "SELECT min(length(message)) FROM outbox")[0][0] > 0
    assert _rows(h, "SELECT min(length(raw)) FROM inbox")[0][0] > 0
    with contextlib.closing(sqlite3.connect(h.database)) as db, db:
        db.execute("UPDATE outbox SET status = 'failed'")
        db.execute("UPDATE inbox SET status = 'shunted'")
    h.advance(days=60)
    h.run()
    assert _rows(h, "SELECT min(length(message)) FROM outbox")[0][0] > 0
    assert _rows(h, "SELECT min(length(raw)) FROM inbox")[0][0] > 0


def test_pruning_runs_at_most_once_an_hour_also_across_restarts(tmp_path):
    h, _ = _played_and_paused(tmp_path)
    h.run()  # pruned now (nothing old yet): the hour starts

    def prunes_after(minutes: int) -> bool:
        h.advance(minutes=minutes)
        daemon = Daemon(h.config_path, clock=h.clock)
        try:
            return daemon.prune_if_due()
        finally:
            asyncio.run(daemon.close())

    assert not prunes_after(30)
    assert not prunes_after(29)
    assert prunes_after(2)
    assert not prunes_after(1)
