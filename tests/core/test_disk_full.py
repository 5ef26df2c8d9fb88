"""A real full disk under the database: a small tmpfs, filled up. Needs a machine that lets
the test mount one (root, and mount allowed, as on the test machine); elsewhere it skips and
says why. The SQLite-level simulation (max_page_count) in test_daemon_faults.py runs
everywhere."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from gm_daemon.daemon import Daemon
from gm_daemon.startup import StartupProblem
from tests.core.test_daemon_flow import GAMES
from tests.daemon_harness import DaemonHarness

DISK = "2m"  # a tmpfs of 2 MB: the database of a small game fits, a filler takes the rest


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """An empty tmpfs of ``DISK`` mounted on tmp_path/disk, unmounted afterwards."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    try:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={DISK},mode=0700", "tmpfs", str(mount_point)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=30,
        )
    except OSError as exc:
        pytest.skip(f"cannot mount a tmpfs for a real full disk: {exc}")
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip() or f"exit {done.returncode}"
        pytest.skip(f"cannot mount a tmpfs for a real full disk: {why}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], capture_output=True, timeout=30)


def _fill(disk: Path) -> Path:
    """Fill the disk to the last block; the filler file is returned to be removed later."""
    filler = disk / "filler"
    chunk = b"\0" * 4096
    with filler.open("wb", buffering=0) as out:
        with contextlib.suppress(OSError):
            while True:
                out.write(chunk)
        with contextlib.suppress(OSError):  # the last partial block, byte by byte
            while True:
                out.write(b"\0")
    with pytest.raises(OSError) as full:
        (disk / "probe").write_bytes(b"x")
    assert full.value.errno == errno.ENOSPC
    return filler


def _sent(h: DaemonHarness) -> int:
    """Mails the daemon handed to the (Maildir) mail server; the database cannot be read
    while the disk is full, so they are counted where they land."""
    return len(list((h.outbox_dir / "new").iterdir()))


def _started(tmp_path: Path, disk: Path) -> DaemonHarness:
    h = DaemonHarness(tmp_path, GAMES)
    h.database = disk / "gm.sqlite"
    h.write_config(GAMES)
    assert len(h.run()) == 2  # the welcome mails: the database works on the small disk
    h.send("anna@players.test", "Code: ANNA-1111\n17\n" + "padding line\n" * 2000)
    return h


def test_the_disk_filling_up_under_a_running_daemon_leaves_mail_unseen(
    tmp_path: Path, small_disk: Path, caplog: pytest.LogCaptureFixture
) -> None:
    h = _started(tmp_path, small_disk)
    daemon = Daemon(h.config_path, clock=h.clock)  # running: the database is open
    filler = _fill(small_disk)
    with caplog.at_level(logging.ERROR):
        asyncio.run(daemon.run_once())
    assert any(
        "intake stopped: cannot store mail" in m and "database or disk is full" in m
        for m in caplog.messages
    ), caplog.messages
    assert _sent(h) == 2  # nothing acknowledged
    assert len(list((h.inbox_dir / "new").iterdir())) == 1  # still unseen on the server
    filler.unlink()  # space again: the same mail is read, once
    (ack,) = h.run()
    assert "accepted" in ack["Subject"]
    assert h.run() == []


def test_a_daemon_started_on_a_full_disk_stops_before_it_takes_mail(
    tmp_path: Path, small_disk: Path
) -> None:
    """SQLite cannot even open the database in WAL mode (its shared-memory file cannot
    grow): the daemon stops at once, naming the database, before anything is fetched (a
    start-up problem: one line and exit 78 from ``gm-daemon run``)."""
    h = _started(tmp_path, small_disk)
    filler = _fill(small_disk)
    with pytest.raises(StartupProblem, match=r"gm\.sqlite: (disk I/O error|.*full)"):
        asyncio.run(Daemon(h.config_path, clock=h.clock).run_once())
    assert _sent(h) == 2
    assert len(list((h.inbox_dir / "new").iterdir())) == 1
    filler.unlink()
    (ack,) = h.run()
    assert "accepted" in ack["Subject"]
