"""``gm-daemon check --connect`` against the real Dovecot (IMAPS) and Postfix (STARTTLS, AUTH)
of the test stack: once right, then with each fault a GM meets when going live, and the line
for each server must name that fault and the key to check."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from gm_daemon.cli import main
from tests.mailstack import MailStack


def _config(tmp_path: Path, stack: MailStack, password: str | None = None) -> Path:
    secret = tmp_path / "gm-password"
    secret.write_text((password or stack.users[stack.gm]) + "\n")
    path = tmp_path / "gm.toml"
    path.write_text(
        f"""
[daemon]
database = "{tmp_path / "gm.sqlite"}"

[mail]
address = "{stack.gm}"
transport = "imap"

{stack.servers_toml(secret, smtp_login=True)}""",
        encoding="utf-8",
    )
    return path


def _untrusted(text: str, stack: MailStack, silent: int) -> str:
    """No ca_file: the stack's self-signed certificate is checked against the system CAs."""
    return re.sub(r"(?m)^ca_file = .*\n", "", text)


def _closed_port(text: str, stack: MailStack, silent: int) -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))  # bound, never listening: connection refused
        port = sock.getsockname()[1]
    return re.sub(r"(?m)^port = \d+$", f"port = {port}", text)


def _mx_port(text: str, stack: MailStack, silent: int) -> str:
    """SMTP on the stack's MX port, where remote servers deliver: STARTTLS, but no AUTH."""
    return text.replace(f"port = {stack.smtp_port}", f"port = {stack.mx_port}")


def _silent_imap(text: str, stack: MailStack, silent: int) -> str:
    """IMAP on a port that takes the connection and never says a word, 1 s to wait."""
    text = text.replace('security = "tls"', 'security = "tls"\ntimeout_seconds = 1', 1)
    return re.sub(r"(?m)^port = \d+$", f"port = {silent}", text, count=1)


@pytest.fixture
def silent() -> Iterator[int]:
    """A port whose connections the kernel accepts and nobody ever reads."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        yield sock.getsockname()[1]


def _check(config: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    code = main(["check", "--config", str(config), "--connect"])
    out = capsys.readouterr().out.splitlines()
    return code, [line for line in out if line.startswith(("IMAP ", "SMTP "))]


@pytest.mark.mailstack
def test_both_servers_answer(
    tmp_path: Path, empty_mailstack: MailStack, capsys: pytest.CaptureFixture[str]
) -> None:
    stack = empty_mailstack
    for n in range(3):
        stack.deliver(stack.gm, f"Subject: waiting {n}\r\n\r\nx\r\n".encode())
    stack.wait_for_messages(stack.gm, 3)
    with stack.imap(stack.gm) as imap:  # one of them read by the GM's own mail client
        imap.uid("STORE", imap.uid("SEARCH", "ALL")[1][0].split()[0], "+FLAGS", r"(\Seen)")
    code, (imap_line, smtp_line) = _check(_config(tmp_path, stack), capsys)
    assert code == 0
    assert imap_line == (
        f"IMAP {stack.host}:{stack.imaps_port} (TLS): logged in as gm@gm.test, folder INBOX "
        "holds 3 mails, 2 unread (the daemon takes unread mail as new)"
    )
    assert smtp_line == (
        f"SMTP {stack.host}:{stack.smtp_port} (STARTTLS): logged in as gm@gm.test, sender "
        "gm@gm.test accepted, nothing sent"
    )
    assert len(stack.messages(stack.gm, unseen_only=True)) == 2  # nothing marked


CASES = {  # name: (edit of the config text, fragments of the IMAP line, of the SMTP line)
    "wrong password": (
        None,
        ["FAILED", "AUTHENTICATIONFAILED", "wrong password?", "mail.imap.password_file ("],
        ["FAILED", "login refused: 535", "wrong password?", "mail.smtp.password_file ("],
    ),
    "untrusted certificate": (
        _untrusted,
        ["FAILED: certificate not trusted: self-signed certificate", "mail.imap.ca_file"],
        ["FAILED: certificate not trusted: self-signed certificate", "mail.smtp.ca_file"],
    ),
    "port closed": (
        _closed_port,
        ["FAILED: connection refused (port closed)", "mail.imap.port"],
        ["FAILED: connection refused (port closed)", "mail.smtp.port"],
    ),
    "no login on this port": (
        _mx_port,
        ["logged in as gm@gm.test"],
        ["FAILED: no login (AUTH) offered", "submission port", "mail.smtp.username"],
    ),
    "timeout": (
        _silent_imap,
        ["FAILED: no answer within 1 s", "firewall", 'mail.imap.security = "tls"'],
        ["logged in as gm@gm.test"],
    ),
}


@pytest.mark.mailstack
@pytest.mark.parametrize("case", CASES)
def test_each_fault_is_named(
    case: str,
    tmp_path: Path,
    mailstack: MailStack,
    silent: int,
    capsys: pytest.CaptureFixture[str],
) -> None:
    edit, imap_fragments, smtp_fragments = CASES[case]
    config = _config(tmp_path, mailstack, password="wrong" if case == "wrong password" else None)
    if edit is not None:
        config.write_text(edit(config.read_text(), mailstack, silent))
    code, lines = _check(config, capsys)
    assert code == 1
    assert len(lines) == 2, lines
    imap_line, smtp_line = lines
    assert imap_line.startswith("IMAP ") and smtp_line.startswith("SMTP ")
    for line, fragments in ((imap_line, imap_fragments), (smtp_line, smtp_fragments)):
        missing = [f for f in fragments if f not in line]
        assert not missing, (line, missing)


PROCESSED = {  # processed_folder: the end of the IMAP line
    "GM/Noch nicht da": "; handled mail goes to GM/Noch nicht da (created with the first "
    "handled mail)",
    "GM/Schon da": "; handled mail goes to GM/Schon da (exists)",
    "GM/v1.2": "FAILED: mail.imap.processed_folder 'GM/v1.2': the server separates folder "
    "levels with '.', so 'v1.2' would become two; separate levels with \"/\" and leave '.' "
    "out of the names - check the [mail.imap] section",
}


@pytest.mark.mailstack
@pytest.mark.parametrize("folder", PROCESSED)
def test_the_processed_folder_is_looked_up_not_made(
    folder: str, tmp_path: Path, mailstack: MailStack, capsys: pytest.CaptureFixture[str]
) -> None:
    with mailstack.imap(mailstack.gm) as imap:
        imap.create('"GM.Schon da"')  # NO once it exists: all the same here
    config = _config(tmp_path, mailstack)
    text = config.read_text()
    imap_end = text.index("\n\n[mail.smtp]")
    config.write_text(f'{text[:imap_end]}\nprocessed_folder = "{folder}"{text[imap_end:]}')
    code, (imap_line, _smtp_line) = _check(config, capsys)
    assert imap_line.endswith(PROCESSED[folder]), imap_line
    assert code == (1 if "FAILED" in PROCESSED[folder] else 0)
    with mailstack.imap(mailstack.gm) as imap:
        assert b"Noch nicht da" not in b" ".join(imap.list()[1])
