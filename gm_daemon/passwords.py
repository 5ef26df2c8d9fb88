"""The IMAP and SMTP passwords, read and checked the same way by ``check`` and ``run``.

A password file that is missing, unreadable for the service user, empty, or holds more than
the password used to surface as a traceback (or as "list index out of range") after the GM had
been told the config was fine. Here each fault is a sentence naming the key path and the file,
so ``check`` reports it and ``run`` stops with it in one line.
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gm_daemon.config import Config, Secret


class PasswordProblem(ValueError):
    """A password source that cannot give the password; the text names the file or variable
    and what would be right, but never the password."""


def user_name() -> str:
    """Whom the file permissions are checked for: the user this process runs as."""
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:  # a uid without a passwd entry (containers)
        return f"uid {os.geteuid()}"


def read_password_file(path: Path) -> str:
    """The password: the file's only line, without surrounding white space (an editor's
    final newline, a Windows CR). A second line is refused rather than ignored: it is
    usually a user name or a note, and the GM meant another line to be the password."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PasswordProblem(f"{path} does not exist") from None
    except PermissionError:
        raise PasswordProblem(
            f"{path} cannot be read by user {user_name()} (give that user read access, "
            "e.g. chmod 0640 and the service's group)"
        ) from None
    except IsADirectoryError:
        raise PasswordProblem(f"{path} is a directory (name the file with the password)") from None
    except UnicodeDecodeError:
        raise PasswordProblem(f"{path} is not UTF-8 text") from None
    except OSError as exc:
        raise PasswordProblem(f"{path} cannot be read: {exc.strerror or exc}") from None
    lines = text.splitlines()
    if not text.strip():
        raise PasswordProblem(f"{path} is empty (write the password on its one line)")
    if len(lines) > 1:
        raise PasswordProblem(
            f"{path} has {len(lines)} lines (it must hold the password alone, on one line)"
        )
    return lines[0].strip()


def read_password_env(name: str) -> str:
    value = os.environ.get(name)
    if value is None:
        raise PasswordProblem(f"environment variable {name} is not set")
    if not value:
        raise PasswordProblem(f"environment variable {name} is empty")
    return value


def password_problems(config: Config) -> list[str]:
    """Every fault of the passwords the configured transport will use, each with its key
    path (``mail.imap.password_file: /etc/gm-daemon/imap-password does not exist``). Checked
    as the user running this process: ``check`` run as the service user proves what the
    daemon will be able to read."""
    if config.mail.transport not in ("imap", "lmtp"):  # lmtp: [mail.smtp] only
        return []
    imap, smtp = config.mail.imap, config.mail.smtp
    problems = []
    if imap is not None:
        problems.append(_problem("mail.imap", imap, required=True))
    if smtp is not None:  # a server that takes mail without AUTH needs no password
        problems.append(_problem("mail.smtp", smtp, required=smtp.username is not None))
    return [problem for problem in problems if problem]


def _problem(key: str, secret: Secret, required: bool) -> str | None:
    if secret.password_file is None and secret.password_env is None:
        if required:
            return f"{key}: the server needs a password (give password_file or password_env)"
        return None
    source = "password_file" if secret.password_file is not None else "password_env"
    try:
        secret.password()
    except PasswordProblem as exc:
        return f"{key}.{source}: {exc}"
    return None


def password_sources(config: Config) -> list[str]:
    """The key paths of the passwords in use, for ``check`` to say what it read."""
    if config.mail.transport not in ("imap", "lmtp"):  # lmtp: [mail.smtp] only
        return []
    found = []
    for key, section in (("mail.imap", config.mail.imap), ("mail.smtp", config.mail.smtp)):
        if section is not None and section.password_file is not None:
            found.append(f"{key}.password_file ({section.password_file})")
        elif section is not None and section.password_env is not None:
            found.append(f"{key}.password_env (${section.password_env})")
    return found
