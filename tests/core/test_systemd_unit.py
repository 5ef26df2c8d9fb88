"""The shipped systemd unit: systemd itself finds nothing wrong with it, and a config the GM
must fix stops the service instead of restarting it every ten seconds.

``systemd-analyze verify`` reads a unit file without a running systemd (it works in a
container); scripts/install-mailstack.sh installs it. It insists that every command of the
unit exists, so the test verifies a copy whose gm-daemon is the one installed here.
"""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gm_daemon.startup import EX_CONFIG

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "gm-daemon.service"
INSTALLED_AT = "/opt/gm-daemon/venv/bin/gm-daemon"  # where systemd/README.md installs it


def service() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read_string(UNIT.read_text(encoding="utf-8"))
    return parser["Service"]


def verify(unit_text: str, folder: Path) -> subprocess.CompletedProcess[str]:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail("no systemd-analyze: run scripts/install-mailstack.sh (package systemd)")
    unit = folder / "gm-daemon.service"
    unit.write_text(unit_text, encoding="utf-8")
    return subprocess.run(
        [analyze, "verify", "--man=no", str(unit)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


def installed_copy() -> str:
    gm_daemon = Path(sys.executable).with_name("gm-daemon")
    assert gm_daemon.exists(), "the tests run in the virtualenv pip installed gm-daemon into"
    text = UNIT.read_text(encoding="utf-8")
    assert INSTALLED_AT in text
    return text.replace(INSTALLED_AT, str(gm_daemon))


def test_systemd_finds_nothing_wrong_with_the_unit(tmp_path: Path) -> None:
    done = verify(installed_copy(), tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr  # verify warns with status 0


@pytest.mark.parametrize(
    ("mistake", "complaint"),
    [
        ("RestartPreventExitStatus=78", "RestartPreventExitStatus=EX_CONFIGURATION"),
        ("RestartSec=10", "RestartSecs=10"),
    ],
)
def test_verify_would_catch_a_mistake_in_the_unit(tmp_path: Path, mistake, complaint) -> None:
    """The verification above is not silent whatever the unit says."""
    text = installed_copy()
    assert mistake in text
    done = verify(text.replace(mistake, complaint, 1), tmp_path)
    assert complaint.split("=")[0] in done.stderr or "parse" in done.stderr, done.stderr


def test_a_config_the_gm_must_fix_is_not_restarted() -> None:
    unit = service()
    assert unit["Restart"] == "on-failure"
    assert unit["RestartPreventExitStatus"] == str(EX_CONFIG)
    # RestartPreventExitStatus= applies to the main process only: a failing ExecStartPre
    # would still be restarted for ever, so run does all start-up checks itself.
    assert "ExecStartPre" not in unit
    assert unit["ExecStart"].split()[1:3] == ["run", "--config"]
