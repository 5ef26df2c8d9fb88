"""``gm-daemon`` as the GM starts it: the installed command in a process of its own, on a
Maildir config in a temporary directory, its stderr (the log) kept in a file.

Used where what matters is what the process does as a whole: its exit status, what reaches
stderr, how it answers signals.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

_INSTALLED = Path(sys.executable).with_name("gm-daemon")
# The console script pip made; without one (a checkout used in place), the same entry point.
GM_DAEMON = (
    [str(_INSTALLED)]
    if _INSTALLED.exists()
    else [sys.executable, "-c", "from gm_daemon.cli import entry; entry()"]
)


def highnoon(game_id: str, every: str = "3d") -> str:
    players = "".join(
        f'[[games.players]]\nname = "{name}"\nemail = "{name.lower()}@players.test"\n\n'
        for name in ("Egon", "Hans", "Vera", "Anna")
    )
    return (
        f'[[games]]\nid = "{game_id}"\nkind = "highnoon"\nseed = "{game_id}-seed"\n\n'
        f'[games.deadlines]\nevery = "{every}"\n\n{players}'
    )


def config_text(root: Path, games: str = "", database: Path | None = None, mail: str = "") -> str:
    """A whole config: database and Maildir folders under ``root`` unless told otherwise;
    ``mail`` is added to the [mail] table (transport = "imap" with its servers)."""
    mail = mail or f'[mail.maildir]\ninbox = "{root / "inbox"}"\noutbox = "{root / "outbox"}"\n'
    return (
        f'[daemon]\ndatabase = "{database or root / "gm.sqlite"}"\n\n'
        f'[mail]\naddress = "gm@gm.test"\n{mail}\n{games}'
    )


def write_config(root: Path, text: str) -> Path:
    path = root / "gm.toml"
    path.write_text(text, encoding="utf-8")
    return path


def run_command(
    *args: str, prefix: Sequence[str] = (), timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``gm-daemon ARGS`` to its end: exit status, stdout, stderr."""
    return subprocess.run(
        [*prefix, *GM_DAEMON, *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


class DaemonProcess:
    """``gm-daemon run`` in the background; its log is in ``log``."""

    def __init__(self, config: Path, log: Path, *extra: str):
        self.log = log
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [*GM_DAEMON, "run", "--config", str(config), *extra],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )

    def text(self) -> str:
        return self.log.read_text(encoding="utf-8")

    def wait_for(self, condition: Callable[[str], bool], what: str, timeout: float = 30) -> str:
        """The log once ``condition`` holds for it; AssertionError with the log if the
        process ends or the time runs out first."""
        deadline = time.monotonic() + timeout
        while not condition(text := self.text()):
            if self.process.poll() is not None:
                raise AssertionError(f"the daemon ended ({self.process.returncode}): {text}")
            if time.monotonic() > deadline:
                raise AssertionError(f"no {what} within {timeout} s: {text}")
            time.sleep(0.05)
        return text

    def stop(self, signum: int = signal.SIGTERM, timeout: float = 30) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signum)
        return self.process.wait(timeout)

    def __enter__(self) -> DaemonProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
