"""The way of one order mail through the daemon's modules, traced: intake hands the mail
down (envelope, guards, commands, referee, mailer) and nothing below ever calls back up into
intake; the guards are entered once, as one table of what the daemon does with a mail."""

from __future__ import annotations

import asyncio
import sys
from collections import Counter

from gm_daemon.daemon import Daemon
from tests.core.test_daemon_flow import GAMES
from tests.daemon_harness import DaemonHarness


def _module(frame) -> str | None:  # type: ignore[no-untyped-def]
    name = frame.f_globals.get("__name__", "") if frame is not None else ""
    return name if name.startswith("gm_daemon") else None


def test_an_order_mail_goes_down_and_never_climbs_back_to_intake(tmp_path):
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    h.send("anna@players.test", "Code: ANNA-1111\n42")
    daemon = Daemon(h.config_path, clock=h.clock)
    asyncio.run(daemon.fetch_mail())
    (row,) = daemon.store.unprocessed()
    entered: Counter[str] = Counter()
    climbs: list[str] = []

    def trace(frame, event, arg):  # type: ignore[no-untyped-def]
        callee, caller = _module(frame), _module(frame.f_back)
        if event == "call" and callee and caller and callee != caller:
            entered[(caller, callee)] += 1
            if callee == "gm_daemon.intake":
                climbs.append(f"{caller} → intake.{frame.f_code.co_name}")

    sys.setprofile(trace)
    try:
        _, verdict = daemon.intake.process(row)
    finally:
        sys.setprofile(None)
    daemon.store.close()
    assert verdict.accepted
    assert climbs == []
    assert entered[("gm_daemon.intake", "gm_daemon.guards")] == 1
    assert entered[("gm_daemon.intake", "gm_daemon.mailer")] == 1  # the one reply
