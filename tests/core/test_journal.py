"""The daemon's life in its log: one line at the start (version, games, transport), one per
reload (what changed), one at the stop (signal, what the last drain sent and left), as text
or as one JSON object per line. The real ``gm-daemon run`` on the Maildir transport, reloaded
with SIGHUP and stopped with SIGTERM as systemd does."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import signal
from pathlib import Path

import pytest

from gm_daemon import __version__
from gm_daemon.config import load_config
from gm_daemon.daemon import Daemon, make_transports
from gm_daemon.journal import games_text, transport_text
from tests.core.daemon_process import DaemonProcess, config_text, highnoon, write_config
from tests.core.test_daemon_flow import GAMES
from tests.core.test_faults import FlakySender
from tests.daemon_harness import DaemonHarness

START = "gm-daemon running"
RELOADED = "config reloaded"


def _life(tmp_path: Path, *options: str) -> tuple[str, Path]:
    """Start with hn1 and hn2; reload with hn2 gone, hn3 new and hn1's deadlines changed;
    stop. The whole log, and the outbox."""
    config = write_config(tmp_path, config_text(tmp_path, highnoon("hn1") + highnoon("hn2")))
    with DaemonProcess(config, tmp_path / "daemon.log", *options) as daemon:
        daemon.wait_for(lambda log: START in log, "start line")
        config.write_text(config_text(tmp_path, highnoon("hn1", every="4d") + highnoon("hn3")))
        daemon.process.send_signal(signal.SIGHUP)
        daemon.wait_for(lambda log: RELOADED in log, "reload line")
        assert daemon.stop(signal.SIGTERM) == 0, daemon.text()
        return daemon.text(), tmp_path / "outbox"


def test_start_reload_and_stop_each_leave_one_line(tmp_path):
    log, outbox = _life(tmp_path)
    (start,) = [line for line in log.splitlines() if START in line]
    assert f"version {__version__}, config {tmp_path / 'gm.toml'}" in start
    assert "2 games: hn1 (highnoon), hn2 (highnoon)" in start
    assert start.endswith(f"transport maildir (in {tmp_path / 'inbox'}, out {outbox})")
    (reload,) = [line for line in log.splitlines() if RELOADED in line]
    assert reload.endswith(
        "config reloaded: games added: hn3; games removed: hn2; games changed: hn1 (deadlines);"
        " games started: hn3"
    )
    (stop,) = [line for line in log.splitlines() if "stopped" in line]
    # every mail (4 welcomes for each of three games) left in the loop's own passes
    assert stop.endswith("gm-daemon stopped by SIGTERM; outbox drained: 0 mails sent, 0 left")
    assert len(list((outbox / "new").iterdir())) == 12
    assert "Traceback" not in log and "ERROR" not in log


def test_log_format_json_gives_one_object_per_line_with_the_facts(tmp_path):
    log, _outbox = _life(tmp_path, "--log-format", "json")
    entries = [json.loads(line) for line in log.splitlines()]  # each line one object
    assert all({"time", "level", "logger", "message"} <= set(entry) for entry in entries)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:.]+\+00:00", e["time"]) for e in entries)
    events = {entry["event"]: entry for entry in entries if "event" in entry}
    assert list(events) == ["start", "reload", "stop"]
    start, reload, stop = events["start"], events["reload"], events["stop"]
    assert (start["version"], start["games"], start["transport"]) == (
        __version__,
        ["hn1", "hn2"],
        "maildir",
    )
    assert START in start["message"] and start["level"] == "INFO"
    assert (reload["added"], reload["removed"], reload["changed"], reload["started"]) == (
        ["hn3"],
        ["hn2"],
        ["hn1 (deadlines)"],
        ["hn3"],
    )
    assert (stop["signal"], stop["sent"], stop["left"]) == ("SIGTERM", 0, 0)


@pytest.mark.parametrize(("later", "sent", "left"), [(31, 1, 0), (0, 0, 1)])
def test_the_stop_line_counts_what_the_last_drain_sent_and_left(
    tmp_path, caplog, later, sent, left
):
    """One welcome mail fails once (the server said 421) and waits 30 s for its retry.
    Stopped after that moment, the last drain sends it; stopped before, it is left."""
    h = DaemonHarness(tmp_path, GAMES)

    def flaky(config):
        inbox, sender = make_transports(config)
        return inbox, FlakySender(sender, failures=1)

    async def life() -> None:
        daemon = Daemon(h.config_path, clock=h.clock, transports=flaky)
        task = asyncio.create_task(daemon.run())
        await asyncio.wait_for(_outbox(daemon, {"sent": 1, "pending": 1}), 10)
        h.advance(seconds=later)
        daemon.request_exit("SIGTERM")
        await asyncio.wait_for(task, 10)

    with caplog.at_level(logging.INFO, logger="gm_daemon"):
        asyncio.run(life())
    (stop,) = [r for r in caplog.records if getattr(r, "event", None) == "stop"]
    mails = "mail" if sent == 1 else "mails"
    assert stop.getMessage() == (
        f"gm-daemon stopped by SIGTERM; outbox drained: {sent} {mails} sent, {left} left"
    )
    assert (stop.signal, stop.sent, stop.left) == ("SIGTERM", sent, left)
    assert len(h._collect()) == 1 + sent


async def _outbox(daemon: Daemon, counts: dict[str, int]) -> None:
    while daemon.store.outbox_counts() != counts:
        await asyncio.sleep(0.02)


# (what the GM edits in the config, what the reload line says it changed)
EDITS = [
    (lambda text: text, "nothing changed"),
    (lambda text: text.replace('every = "2d"', 'every = "3d"'), "games changed: g1 (deadlines)"),
    (
        lambda text: text.replace("Bert Bär", "Bert Baer").replace('"12h"', '"6h"'),
        "games changed: g1 (reminder, players)",
    ),
    (
        lambda text: text.replace("[daemon]\n", '[daemon]\nkeep_mail = "60d"\n'),
        "settings changed: [daemon]",
    ),
    (
        lambda text: text.replace('id = "g1"', 'id = "g2"'),
        "games added: g2; games removed: g1",
    ),
]


@pytest.mark.parametrize(("edit", "said"), EDITS)
def test_the_reload_line_says_what_changed(tmp_path, caplog, edit, said):
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    daemon = Daemon(h.config_path, clock=h.clock)
    h.config_path.write_text(edit(h.config_path.read_text(encoding="utf-8")), encoding="utf-8")
    with caplog.at_level(logging.INFO, logger="gm_daemon"):
        daemon.reload()
    asyncio.run(daemon.close())
    (line,) = [r.getMessage() for r in caplog.records if getattr(r, "event", None) == "reload"]
    assert line.startswith(f"config reloaded: {said}; games started: "), line


def test_the_start_line_names_the_mail_servers_never_a_password(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_TEST_PASSWORD", "s3cret-pw")
    servers = (
        'transport = "imap"\n\n[mail.imap]\nhost = "imap.club.test"\nusername = "gm"\n'
        'password_env = "GM_TEST_PASSWORD"\n\n[mail.smtp]\nhost = "smtp.club.test"\n'
        'username = "gm"\npassword_env = "GM_TEST_PASSWORD"\n'
    )
    config = load_config(write_config(tmp_path, config_text(tmp_path, mail=servers)))
    assert transport_text(config) == (
        "imap gm@imap.club.test:993 (tls, folder INBOX), smtp smtp.club.test:587 (starttls)"
    )
    assert games_text(config) == "0 games"


def test_the_start_line_names_twenty_games_and_counts_the_rest(tmp_path):
    games = "".join(highnoon(f"g{i}") for i in range(22))
    config = load_config(write_config(tmp_path, config_text(tmp_path, games)))
    named = ", ".join(f"g{i} (highnoon)" for i in range(20))
    assert games_text(config) == f"22 games: {named}, and 2 more"
