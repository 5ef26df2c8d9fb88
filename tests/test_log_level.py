"""``[daemon] log_level`` decides what ``gm-daemon run`` logs: the daemon is started as the
GM starts it, in a process of its own, so the logging set-up is the real one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

MAIN = "from gm_daemon.cli import main; raise SystemExit(main())"
CONFIG = """
[daemon]
database = "{root}/gm.sqlite"
log_level = "{level}"

[mail]
address = "gm@example.org"

[mail.maildir]
inbox = "{root}/inbox"
outbox = "{root}/outbox"

[[games]]
id = "hn1"
kind = "highnoon"
[games.deadlines]
every = "3d"
[[games.players]]
name = "Anna"
email = "anna@example.org"
[[games.players]]
name = "Bert"
email = "bert@example.org"
[[games.players]]
name = "Carl"
email = "carl@example.org"
"""


def run_once(tmp_path: Path, level: str) -> str:
    config = tmp_path / "gm.toml"
    config.write_text(CONFIG.format(root=tmp_path, level=level), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", MAIN, "run", "--once", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


@pytest.mark.parametrize(
    ("level", "logged"),
    [("INFO", True), ("DEBUG", True), ("WARNING", False), ("ERROR", False)],
)
def test_log_level_decides_whether_the_start_of_a_game_is_logged(tmp_path, level, logged):
    stderr = run_once(tmp_path, level)
    assert ("game hn1 started" in stderr) is logged, stderr
