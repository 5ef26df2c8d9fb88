"""A daemon that cannot start says why in one line and exits 78 (EX_CONFIG), which the
systemd unit does not restart; a bug still shows its traceback and is not taken for the GM's
mistake. Each case starts the installed ``gm-daemon run`` as a process of its own.

Root reads and writes any file, so a test that needs a permission to hold runs the daemon
through ``setpriv`` without the two capabilities that override permissions
(CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH): still root, owner of the test's files, but bound by
their modes as the service user is. Each such test first shows that the permission holds.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gm_daemon.cli import main as cli_main
from gm_daemon.startup import EX_CONFIG, EX_SOFTWARE
from tests.core.daemon_process import (
    DaemonProcess,
    config_text,
    highnoon,
    run_command,
    write_config,
)


def imap(secret: str, smtp: str = "") -> str:
    """The [mail] lines of a real-mail config; the servers are never reached."""
    return (
        'transport = "imap"\n\n[mail.imap]\nhost = "127.0.0.1"\nport = 1\nusername = "gm"\n'
        f'{secret}\n\n[mail.smtp]\nhost = "127.0.0.1"\nport = 1\n{smtp}\n'
    )


def unprivileged() -> list[str]:
    """A command prefix under which file permissions hold for this process's user."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")  # util-linux, on every Debian
    if setpriv is None:
        pytest.fail("setpriv (util-linux) is needed to run the daemon bound by permissions")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search", "--"]


def assert_denied(prefix: list[str], code: str) -> None:
    """``code`` fails with PermissionError under ``prefix``: the premise of a test."""
    probe = f"try:\n    {code}\nexcept PermissionError:\n    raise SystemExit(13)"
    done = subprocess.run(
        [*prefix, sys.executable, "-c", probe], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 13, f"not denied under {prefix}: {done.returncode} {done.stderr}"


def assert_refused(done, *fragments: str) -> str:
    """Exit 78, one line on stderr naming the problem, no traceback; the line."""
    lines = done.stderr.splitlines()
    assert done.returncode == EX_CONFIG, (done.returncode, done.stderr)
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "cannot start: " in lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


# (case, password lines of [mail.imap], file content or None for no file, fragments)
PASSWORD_CASES = [
    ("missing file", "password_file = '{file}'", None, ["does not exist"]),
    ("empty file", "password_file = '{file}'", "", ["is empty"]),
    ("blank file", "password_file = '{file}'", " \n", ["is empty"]),
    ("two lines", "password_file = '{file}'", "gm\ns3cret\n", ["has 2 lines"]),
    ("a directory", "password_file = '{dir}'", None, ["is a directory"]),
    ("variable unset", "password_env = 'GM_TEST_UNSET'", None, ["GM_TEST_UNSET is not set"]),
    ("variable empty", "password_env = 'GM_TEST_EMPTY'", None, ["GM_TEST_EMPTY is empty"]),
    ("no password", "", None, ["mail.imap: the server needs a password"]),
]


def _password_config(
    tmp_path: Path, secret: str, content: str | None, smtp: str = ""
) -> tuple[Path, Path]:
    file = tmp_path / "secrets" / "imap-password"
    file.parent.mkdir()
    if content is not None:
        file.write_text(content, encoding="utf-8")
    secret = secret.format(file=file, dir=file.parent)
    mail = imap(secret, smtp)
    config = write_config(tmp_path, config_text(tmp_path, highnoon("hn1"), mail=mail))
    return config, file


@pytest.mark.parametrize(
    ("secret", "content", "fragments"),
    [case[1:] for case in PASSWORD_CASES],
    ids=[case[0] for case in PASSWORD_CASES],
)
def test_check_names_each_password_fault_with_its_key_path(
    tmp_path, monkeypatch, capsys, secret, content, fragments
):
    monkeypatch.delenv("GM_TEST_UNSET", raising=False)
    monkeypatch.setenv("GM_TEST_EMPTY", "")
    config, file = _password_config(tmp_path, secret, content)
    assert cli_main(["check", "--config", str(config)]) == EX_CONFIG
    problems = capsys.readouterr().err.splitlines()[1:]
    assert len(problems) == 1, problems
    key = "mail.imap" if not secret else f"mail.imap.{secret.split(' = ')[0]}"
    assert problems[0].strip().startswith(f"{key}: "), problems
    if "password_file" in secret:
        assert str(file if "{file}" in secret else file.parent) in problems[0]
    assert all(fragment in problems[0] for fragment in fragments), problems


def test_check_reads_good_passwords_and_says_which(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GM_TEST_SMTP", "smtp-s3cret")
    smtp = 'username = "gm"\npassword_env = "GM_TEST_SMTP"'
    config, file = _password_config(tmp_path, "password_file = '{file}'", "s3cret\n", smtp)
    assert cli_main(["check", "--config", str(config)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert f"mail.imap.password_file ({file})" in out and "$GM_TEST_SMTP" in out
    assert "s3cret" not in out
    assert ("check ran as root" in out) == (os.geteuid() == 0)


def test_check_finds_a_password_file_the_service_user_cannot_read(tmp_path):
    config, file = _password_config(tmp_path, "password_file = '{file}'", "s3cret\n")
    file.chmod(0o000)
    prefix = unprivileged()
    assert_denied(prefix, f"open({str(file)!r}).read()")
    done = run_command("check", "--config", str(config), prefix=prefix)
    assert done.returncode == EX_CONFIG, done.stderr
    assert f"mail.imap.password_file: {file} cannot be read by user" in done.stderr
    assert "Traceback" not in done.stderr
    done = run_command("run", "--config", str(config), prefix=prefix)
    assert_refused(done, f"mail.imap.password_file: {file} cannot be read by user")


@pytest.mark.parametrize("content", [None, ""], ids=["missing", "empty"])
def test_run_with_a_bad_password_file_refuses_in_one_line(tmp_path, content):
    config, file = _password_config(tmp_path, "password_file = '{file}'", content)
    done = run_command("run", "--config", str(config))
    what = "does not exist" if content is None else "is empty"
    assert_refused(done, f"mail.imap.password_file: {file} {what}")
    assert not (tmp_path / "gm.sqlite").exists()  # refused before anything was touched


def test_run_with_bad_toml_refuses_in_one_line(tmp_path):
    config = write_config(tmp_path, config_text(tmp_path, highnoon("hn1")) + "[games\n")
    done = run_command("run", "--config", str(config))
    assert_refused(done, f"config {config}: not valid TOML", "line ")


# (case, how the config file is spoilt, fragments of the one line); "unreadable" runs as the
# service user would: root bound by the file's mode
CONFIG_FILE_CASES = [
    ("unreadable", "mode 0600, another owner", ["cannot be read by user", "chmod 0640"]),
    ("latin-1", "saved as Latin-1", ["not UTF-8 text: byte 0xfc at line 1, column 17"]),
    ("a directory", "a directory", ["is a directory (name the config file itself)"]),
]


@pytest.mark.parametrize(
    ("spoilt", "fragments"),
    [case[1:] for case in CONFIG_FILE_CASES],
    ids=[case[0] for case in CONFIG_FILE_CASES],
)
def test_a_config_file_that_cannot_be_read_refuses_in_one_line(tmp_path, spoilt, fragments):
    text = "# Spielleiter: Jürgen\n" + config_text(tmp_path, highnoon("hn1"))
    config = write_config(tmp_path, text)
    prefix: list[str] = []
    if spoilt == "saved as Latin-1":
        config.write_bytes(text.encode("latin-1"))
    elif spoilt == "a directory":
        config.unlink()
        config.mkdir()
    else:
        config.chmod(0o000)
        prefix = unprivileged()
        assert_denied(prefix, f"open({str(config)!r}).read()")
    for command in ("check", "run"):
        done = run_command(command, "--config", str(config), prefix=prefix)
        assert done.returncode == EX_CONFIG and "Traceback" not in done.stderr, done.stderr
        assert all(fragment in done.stderr for fragment in fragments), done.stderr
    assert_refused(done, f"config {config}: ", *fragments)
    assert not (tmp_path / "gm.sqlite").exists()  # refused before anything was touched


def test_run_with_an_invalid_config_names_every_fault_on_one_line(tmp_path):
    broken = highnoon("hn1").replace('every = "3d"', 'every = "3 days"')
    broken = broken.replace('"hn1"', '"hn 1"', 1)
    config = write_config(tmp_path, config_text(tmp_path, broken))
    done = run_command("run", "--config", str(config))
    assert_refused(done, "games[0].id:", "games[0].deadlines.every:")


@pytest.mark.parametrize("database", ["new", "existing"])
def test_run_with_the_database_in_a_read_only_directory_refuses(tmp_path, database):
    folder = tmp_path / "state"
    folder.mkdir()
    config = write_config(
        tmp_path, config_text(tmp_path, highnoon("hn1"), database=folder / "gm.sqlite")
    )
    if database == "existing":
        assert run_command("run", "--once", "--config", str(config)).returncode == 0
        for leftover in folder.glob("gm.sqlite?*"):  # -wal, -shm, .lock: SQLite must make them
            leftover.unlink()
    folder.chmod(0o555)
    prefix = unprivileged()
    assert_denied(prefix, f"open({str(folder / 'probe')!r}, 'w')")
    done = run_command("run", "--config", str(config), prefix=prefix)
    hint = "must exist and be writable by user" if database == "new" else "is read-only for user"
    assert_refused(done, f"daemon.database {folder / 'gm.sqlite'}: ", f"{folder} {hint}")
    folder.chmod(0o755)


def test_a_second_daemon_on_the_same_database_refuses_in_one_line(tmp_path):
    config = write_config(tmp_path, config_text(tmp_path, highnoon("hn1")))
    with DaemonProcess(config, tmp_path / "first.log") as first:
        first.wait_for(lambda log: "gm-daemon running" in log, "start")
        done = run_command("run", "--config", str(config))
        pid = first.process.pid
        assert_refused(done, f"(pid {pid}) runs on this database", f"{tmp_path}/gm.sqlite.lock")
        assert first.stop() == 0
    assert run_command("run", "--once", "--config", str(config)).returncode == 0  # lock gone


BUGS = {
    "a lookup error": "r.Referee.sync = lambda self: [][0]",
    "an SQL error": "s.Store.games = lambda self: self.db.execute('SELECT * FROM no_table')",
}


@pytest.mark.parametrize("bug", BUGS.values(), ids=BUGS.keys())
@pytest.mark.parametrize("log_format", ["text", "json"])
def test_a_bug_at_start_keeps_its_traceback_and_is_not_taken_for_a_config_fault(
    tmp_path, bug, log_format
):
    """The code is broken on purpose in the daemon's process: the error is no fault of the
    config, so it is logged with its traceback and the status is 70 (EX_SOFTWARE), which
    systemd restarts."""
    config = write_config(tmp_path, config_text(tmp_path, highnoon("hn1")))
    broken = (
        "import sys, gm_daemon.referee as r, gm_daemon.store as s\n"
        f"{bug}\n"
        "from gm_daemon.cli import main\n"
        "sys.exit(main())"
    )
    done = subprocess.run(
        [sys.executable, "-c", broken, "run", "--config", str(config), "--log-format", log_format],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == EX_SOFTWARE, (done.returncode, done.stderr)
    error = "IndexError" if "[0]" in bug else "sqlite3.OperationalError: no such table"
    if log_format == "json":
        entries = [json.loads(line) for line in done.stderr.splitlines()]  # every line
        (entry,) = [entry for entry in entries if entry["level"] == "CRITICAL"]
        assert entry["level"] == "CRITICAL" and "internal error" in entry["message"]
        assert entry["traceback"].startswith("Traceback") and error in entry["traceback"]
    else:
        assert "internal error" in done.stderr and "Traceback" in done.stderr
        assert error in done.stderr
    assert "cannot start" not in done.stderr


def test_a_refusal_in_the_json_log_is_one_object(tmp_path):
    config, file = _password_config(tmp_path, "password_file = '{file}'", None)
    done = run_command("run", "--config", str(config), "--log-format", "json")
    assert done.returncode == EX_CONFIG
    (line,) = done.stderr.splitlines()
    entry = json.loads(line)
    assert (entry["level"], entry["event"]) == ("CRITICAL", "refused")
    assert entry["message"] == f"cannot start: mail.imap.password_file: {file} does not exist"
