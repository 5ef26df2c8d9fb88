"""The write-ahead log is folded back at the end of each pass, not inside a player's commit.

SQLite checkpoints by itself inside whichever commit finds the log over 1000 pages, syncing
the file meanwhile: the acknowledgement that commit belonged to waited for it. The daemon
checkpoints after each pass instead, while nobody waits. Observable without any timing: the
database file alone, without its ``-wal`` file, already holds what the pass did.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from contextlib import closing

from gm_daemon.daemon import Daemon
from tests.core.test_daemon_flow import GAMES
from tests.daemon_harness import DaemonHarness


def test_after_a_pass_the_database_file_holds_it_without_the_log(tmp_path):
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    h.send("anna@players.test", "Code: ANNA-1111\n17\n")
    daemon = Daemon(h.config_path, clock=h.clock)  # stays open: closing would checkpoint too
    try:
        asyncio.run(daemon.cycle())
        assert h.database.with_name(h.database.name + "-wal").exists()  # the log is in use
        alone = tmp_path / "copy.sqlite"
        shutil.copyfile(h.database, alone)  # the file only, as if the log were lost
        with closing(sqlite3.connect(alone)) as db:
            verdicts = [r[0] for r in db.execute("SELECT verdict FROM inbox")]
            purposes = [r[0] for r in db.execute("SELECT purpose FROM outbox")]
    finally:
        asyncio.run(daemon.close())
    assert verdicts == ["accepted"]
    assert "accepted" in purposes
