"""Work per loop pass, per mail and per signal does not grow with games that are not due.

No timings: each test counts what the daemon did (SQL statements, game loads) or checks
that a signal had its effect, with 10 and with 300 games on the same Maildir setup.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from gm_daemon.daemon import Daemon
from tests.daemon_harness import DaemonHarness

MANY = 300


def games_toml(count: int) -> str:
    """``count`` guess games g000…, two players each, every player in one game only."""
    return "".join(
        f'[[games]]\nid = "g{i:03d}"\nkind = "guess"\nlanguage = "en"\n\n'
        f'[games.deadlines]\nevery = "2d"\n\n'
        f'[[games.players]]\nname = "Anna {i}"\nemail = "anna{i}@players.test"\n'
        f'code = "ANNA-{i:04d}"\n\n'
        f'[[games.players]]\nname = "Bert {i}"\nemail = "bert{i}@players.test"\n'
        f'code = "BERT-{i:04d}"\n\n'
        for i in range(count)
    )


def started(tmp_path: Path, count: int) -> DaemonHarness:
    """Games started and their welcome mails sent: from here on nothing is due."""
    (tmp_path / str(count)).mkdir()
    h = DaemonHarness(tmp_path / str(count), games_toml(count))
    assert len(h.run()) == 2 * count
    return h


def game_loads(statements: list[str]) -> int:
    return sum("FROM games WHERE id" in s for s in statements)


def one_pass(h: DaemonHarness, before: Callable[[], None] = lambda: None) -> list[str]:
    """The SQL of one loop pass (cycle and the wait's timeout) of a daemon that has already
    made its first pass."""
    daemon = Daemon(h.config_path, clock=h.clock)

    async def scenario() -> list[str]:
        try:
            await daemon.cycle()
            before()

            async def measured() -> None:
                await daemon.cycle()
                daemon._timeout()

            statements: list[str] = []
            daemon.store.db.set_trace_callback(statements.append)
            await measured()
            daemon.store.db.set_trace_callback(None)
            return statements
        finally:
            await daemon.close()

    return asyncio.run(scenario())


def test_an_idle_pass_costs_the_same_for_10_and_300_games(tmp_path: Path) -> None:
    few, many = one_pass(started(tmp_path, 10)), one_pass(started(tmp_path, MANY))
    assert len(few) == len(many)
    assert game_loads(many) == 0
    assert all("SELECT * FROM games" not in s for s in many)


def test_one_order_mail_loads_its_own_game_only(tmp_path: Path) -> None:
    def one_mail(h: DaemonHarness) -> list[str]:
        return one_pass(h, lambda: h.send("anna7@players.test", "Code: ANNA-0007\n17"))

    few_h, many_h = started(tmp_path, 10), started(tmp_path, MANY)
    few, many = one_mail(few_h), one_mail(many_h)
    assert len(few) == len(many)
    assert game_loads(few) == game_loads(many) >= 1
    (ack,) = many_h._collect()
    assert ack["To"] == "anna7@players.test" and "accepted" in ack["Subject"].lower()


def run_until(daemon: Daemon, signum: signal.Signals, h: DaemonHarness) -> None:
    """Run the real daemon loop; the signal arrives while it re-syncs all its games."""
    sync, sent = daemon.referee.sync, []

    def sync_and_signal() -> list[str]:
        if not sent:
            sent.append(signum)
            os.kill(os.getpid(), signum)
        return sync()

    daemon.referee.sync = sync_and_signal  # type: ignore[method-assign]
    if signum == signal.SIGHUP:
        h.write_config(games_toml(MANY + 1))  # the reload must start the new game

    async def scenario() -> None:
        task = asyncio.ensure_future(daemon.run())
        if signum == signal.SIGHUP:
            while h_game_count(h) <= MANY and not task.done():
                await asyncio.sleep(0.05)
            daemon.request_exit()
        await asyncio.wait_for(task, timeout=120)  # a guard against hanging, not a timing

    asyncio.run(scenario())


def h_game_count(h: DaemonHarness) -> int:
    with sqlite3.connect(h.database) as db:
        return int(db.execute("SELECT count(*) FROM games").fetchone()[0])


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_during_a_large_resync_ends_the_loop(
    tmp_path: Path, signum: signal.Signals
) -> None:
    h = started(tmp_path, MANY)
    daemon = Daemon(h.config_path, clock=h.clock)
    run_until(daemon, signum, h)
    assert daemon.should_exit and daemon.cycles == 1


def test_a_reload_signal_during_a_large_resync_is_honoured(tmp_path: Path) -> None:
    h = started(tmp_path, MANY)
    daemon = Daemon(h.config_path, clock=h.clock)
    run_until(daemon, signal.SIGHUP, h)
    assert h_game_count(h) == MANY + 1
    assert daemon.cycles >= 1


def test_a_senders_seats_are_found_through_an_index_not_by_reading_every_seat(
    tmp_path: Path,
) -> None:
    """Every mail looks its sender up among the seats of all games: with a thousand games
    that is ten thousand rows, unless the address is indexed."""
    h = started(tmp_path, 10)
    daemon = Daemon(h.config_path, clock=h.clock)
    try:
        statements: list[str] = []
        daemon.store.db.set_trace_callback(statements.append)
        (seat,) = daemon.store.players_by_email("anna7@players.test")
        daemon.store.db.set_trace_callback(None)
        (query,) = [s for s in statements if "FROM players" in s]  # besides data_version
        plan = daemon.store.db.execute("EXPLAIN QUERY PLAN " + query).fetchall()
    finally:
        asyncio.run(daemon.close())
    assert seat.game_id == "g007"
    details = " ".join(str(row["detail"]) for row in plan)
    assert "USING INDEX players_address" in details, details
