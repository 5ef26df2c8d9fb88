"""The running daemon acts at once on what the GM's CLI changes, and an idle daemon stays
idle: the real service loop in the test's event loop, on the wall clock, Maildir transport."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

from gm_daemon.daemon import Daemon
from tests.core import guessgame
from tests.core.test_daemon_flow import GAMES
from tests.daemon_harness import DaemonHarness, until


def test_a_resolution_by_the_cli_leaves_within_two_seconds(tmp_path):
    h = DaemonHarness(tmp_path, GAMES, now=datetime.now(UTC))

    async def scenario() -> float:
        daemon = Daemon(h.config_path)
        task = asyncio.create_task(daemon.run())
        await until(lambda: h.count_sent("Welcome") >= 2)
        await asyncio.sleep(0.5)  # the loop is waiting now
        code, out = await asyncio.to_thread(h.cli, "resolve", "--game", "g1")
        assert code == 0, out
        assert "Round 1 resolved" in out and "next Round 2, deadline" in out
        took = await until(lambda: h.count_sent("results") >= 2)
        daemon.request_exit()
        await asyncio.wait_for(task, timeout=10)
        return took

    assert asyncio.run(scenario()) < 2.0


def test_a_held_game_does_not_wake_the_loop(tmp_path, monkeypatch):
    """A game whose resolution raises is held: its past deadline must not make the loop
    spin (it once ran ~8 500 cycles and 3 CPU-seconds per 3 s)."""
    h = DaemonHarness(tmp_path, GAMES, now=datetime.now(UTC) - timedelta(days=10))
    h.run()  # started ten days ago: the deadline has long passed

    def broken(self, state, orders, rng, defaulted=frozenset()):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(guessgame.GuessGame, "resolve", broken)

    async def scenario() -> tuple[int, float]:
        daemon = Daemon(h.config_path)
        task = asyncio.create_task(daemon.run())
        await asyncio.sleep(0.5)  # start-up: one failed resolution, the game held
        cycles, cpu = daemon.cycles, time.process_time()
        await asyncio.sleep(3)
        used = (daemon.cycles - cycles, time.process_time() - cpu)
        daemon.request_exit()
        await asyncio.wait_for(task, timeout=10)
        return used

    cycles, cpu = asyncio.run(scenario())
    assert cycles <= 2
    assert cpu < 0.5
    _, out = h.cli("status")
    assert "HELD: resolving phase 1 failed: engine bug" in out


def test_a_mail_that_completes_a_phase_loads_the_game_once_and_once_more_to_resolve(
    tmp_path, monkeypatch
):
    from gm_daemon.intake import Intake
    from gm_daemon.referee import Referee

    h = DaemonHarness(tmp_path, GAMES.replace('reminder = "12h"', "resolve_early = true"))
    h.run()
    h.send("anna@players.test", "Code: ANNA-1111\n42")
    h.run()
    loads: list[str] = []
    counting = {"on": False}
    original_loaded, original_handle = Referee._loaded, Intake.handle

    def loaded(self, row):
        if counting["on"]:
            loads.append(row.id)
        return original_loaded(self, row)

    def handle(self, row):  # intake of one stored mail, and the resolution it may trigger
        counting["on"] = True
        try:
            return original_handle(self, row)
        finally:
            counting["on"] = False

    monkeypatch.setattr(Referee, "_loaded", loaded)
    monkeypatch.setattr(Intake, "handle", handle)
    h.send("bert@players.test", "Code: BERT-2222\n17")
    mails = h.run()
    assert sum("results" in m["Subject"] for m in mails) == 2  # the phase was resolved
    assert loads == ["g1", "g1"]  # the mail, and the resolution in its own transaction
