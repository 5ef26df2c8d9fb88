"""Faults around the daemon that need no mail server: a second daemon on the same database,
a database that cannot take more data, a recipient refused for good, safe mode at a deadline
that looks like an accident, and the clock jumping back. Real daemon, Maildir, injected clock."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3

import pytest

from gm_daemon.daemon import Daemon, make_transports
from gm_daemon.reliability import AlreadyRunning
from gm_daemon.safemode import suspicious
from tests.core.test_daemon_flow import GAMES
from tests.core.test_faults import FlakySender, run_with
from tests.daemon_harness import DaemonHarness

GM = 'gm_address = "boss@club.test"'


def test_a_second_daemon_on_the_same_database_refuses_to_run(tmp_path):
    h = DaemonHarness(tmp_path, GAMES)

    async def scenario() -> None:
        first = Daemon(h.config_path)
        task = asyncio.create_task(first.run())
        while first.cycles == 0:
            await asyncio.sleep(0.05)
        with pytest.raises(AlreadyRunning, match=r"gm\.sqlite\.lock"):
            await Daemon(h.config_path).run_once()
        code, _out = await asyncio.to_thread(h.cli, "run", "--once")
        assert code == 78  # EX_CONFIG: the command line says so and exits
        first.request_exit()
        await asyncio.wait_for(task, 10)
        await Daemon(h.config_path).run_once()  # the lock went with the first daemon

    asyncio.run(scenario())


def test_a_full_database_leaves_mail_unseen_and_unanswered(tmp_path, caplog):
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    h.send("anna@players.test", "Code: ANNA-1111\n17\n" + "padding line\n" * 2000)
    daemon = Daemon(h.config_path, clock=h.clock)
    pages = daemon.store.db.execute("PRAGMA page_count").fetchone()[0]
    daemon.store.db.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's "disk is full"
    with caplog.at_level(logging.ERROR):
        asyncio.run(daemon.run_once())
    assert h._collect() == []
    assert "intake stopped: cannot store mail" in caplog.text and "full" in caplog.text
    assert len(list((h.inbox_dir / "new").iterdir())) == 1  # still unseen on the server
    (ack,) = h.run()  # space again: the same mail is read, once
    assert "accepted" in ack["Subject"]


def test_a_read_only_database_stops_the_daemon_before_it_takes_mail(tmp_path):
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    h.send("anna@players.test", "Code: ANNA-1111\n17")
    daemon = Daemon(h.config_path, clock=h.clock)
    daemon.store.db.execute("PRAGMA query_only = 1")  # what a read-only file gives SQLite
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        asyncio.run(daemon.run_once())
    assert h._collect() == []
    assert len(list((h.inbox_dir / "new").iterdir())) == 1
    assert len(h.run()) == 1


def test_a_recipient_refused_for_good_is_reported_to_the_gm_once(tmp_path):
    h = DaemonHarness(tmp_path, GAMES, extra_toml=GM)
    mails = run_with(h, lambda s: FlakySender(s, failures=1, permanent=True))
    assert sorted(m["To"] for m in mails) == ["bert@players.test", "boss@club.test"]
    (note,) = h.mails_to("boss@club.test")
    assert "anna@players.test" in h.body(note) and "421" in h.body(note)
    assert h.run() == []


SAFE = GM + "\n[daemon.safe_mode]\nmax_nmr_share = 0.5\n"


def test_safe_mode_extends_when_most_players_nmr_and_the_gm_confirms(tmp_path):
    h = DaemonHarness(tmp_path, GAMES, extra_toml=SAFE)
    h.run()
    h.advance(days=2, seconds=1)
    mails = h.run()
    assert h.phase("g1") == 1  # not resolved
    assert sorted(m["To"] for m in mails) == [
        "anna@players.test",
        "bert@players.test",
        "boss@club.test",
    ]
    (note,) = h.mails_to("boss@club.test")
    assert "safe mode" in note["Subject"] and "gm-daemon resolve --game g1" in h.body(note)
    h.advance(hours=1)
    assert h.run() == []  # extended by 24 h: nothing until then
    assert h.cli("resolve", "--game", "g1")[0] == 0
    assert h.phase("g1") == 2


def test_safe_mode_lets_an_ordinary_deadline_resolve(tmp_path):
    h = DaemonHarness(tmp_path, GAMES, extra_toml=SAFE)
    h.run()
    h.send("anna@players.test", "Code: ANNA-1111\n17")  # one of two NMR: not more than half
    h.run()
    h.advance(days=2, seconds=1)
    h.run()
    assert h.phase("g1") == 2


def test_safe_mode_after_intake_was_down_before_the_deadline(tmp_path):
    safe = GM + '\n[daemon.safe_mode]\nmax_intake_gap = "6h"\n'
    h = DaemonHarness(tmp_path, GAMES, extra_toml=safe)
    h.run()
    h.send("anna@players.test", "Code: ANNA-1111\n17")
    h.send("bert@players.test", "Code: BERT-2222\n18")

    def broken(config):
        inbox, sender = make_transports(config)

        async def fetch():
            raise ConnectionRefusedError("imap down")

        inbox.fetch = fetch  # type: ignore[method-assign]
        return inbox, sender

    h.advance(days=2, seconds=1)
    asyncio.run(Daemon(h.config_path, clock=h.clock, transports=broken).run_once())
    assert h.phase("g1") == 1
    assert "mailbox could not be read" in h.body(h._collect()[-1])
    h.run()  # the mailbox is back: both orders are read and they complete nothing early
    assert h.phase("g1") == 1
    h.advance(days=1)
    h.run()
    assert h.phase("g1") == 2
    with contextlib.closing(sqlite3.connect(h.database)) as db:
        (nmr,) = db.execute("SELECT nmr FROM phases WHERE game_id = 'g1'").fetchone()
    assert nmr == "[]"  # the orders sent during the outage counted


def test_suspicious_is_a_pure_rule():
    from datetime import UTC, datetime, timedelta

    from gm_daemon.config import SafeMode

    now = datetime(2026, 1, 1, tzinfo=UTC)
    rules = SafeMode(max_nmr_share=0.5, max_intake_gap="6h")
    assert suspicious(rules, {"a", "b"}, {"a"}, now, now) is None
    assert "2 of 3" in (suspicious(rules, {"a", "b", "c"}, {"a"}, now, now) or "")
    assert suspicious(rules, set(), set(), now, now) is None
    assert "7.0 h" in (suspicious(rules, {"a"}, {"a"}, now - timedelta(hours=7), now) or "")
    assert suspicious(SafeMode(), {"a", "b"}, set(), None, now) is None  # off by default


def test_the_clock_jumping_back_resolves_nothing_twice(tmp_path):
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    h.advance(days=2, seconds=1)
    assert len(h.run()) == 2 and h.phase("g1") == 2
    h.advance(hours=-1)  # the wall clock goes back an hour (DST end, NTP step)
    assert h.run() == [] and h.phase("g1") == 2
    h.advance(hours=2)
    assert h.run() == [] and h.phase("g1") == 2
