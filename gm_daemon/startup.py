"""What must hold before the daemon takes its first mail: a valid config, its passwords, a
database it can write, the lock. The GM can fix each of these, so each is said in one line
and ends the process with EX_CONFIG (78, as in sysexits.h). The systemd unit names that status
in ``RestartPreventExitStatus=``: a broken config is reported once, not restarted every ten
seconds for ever. Anything else that fails is a bug and keeps its traceback (EX_SOFTWARE).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from gm_daemon.config import Config, ConfigError
from gm_daemon.passwords import password_problems, user_name
from gm_daemon.store import SchemaTooNew, Store

EX_CONFIG = 78  # sysexits.h: something was found in an unconfigured or misconfigured state
EX_SOFTWARE = 70  # sysexits.h: an internal software error has been detected

T = TypeVar("T")


class StartupProblem(Exception):
    """Something outside the code that stops the daemon before it starts (a password, the
    database, the lock); the text says what and where, in one line."""


def one_line(problem: ConfigError | StartupProblem) -> str:
    """The problem as one line for stderr and the journal: every fault of a config joined,
    no line breaks from an exception's text."""
    if isinstance(problem, ConfigError):
        text = f"config {problem.path}: " + "; ".join(problem.problems)
    else:
        text = str(problem)
    return " ".join(text.split())


def require_passwords(config: Config) -> None:
    problems = password_problems(config)
    if problems:
        raise StartupProblem("; ".join(problems))


def require_listening(config: Config) -> None:
    """The LMTP listener's socket directory and group, as ``check`` names them, before
    anything is read or written: the listener's own error ("No such file or directory")
    named neither, and came after the games had started."""
    if config.mail.transport != "lmtp":
        return
    from gm_daemon.mail.lmtp import lmtp_problems

    problems = lmtp_problems(config.mail.lmtp)
    if problems:
        raise StartupProblem("; ".join(problems))


def open_store(path: Path) -> Store:
    """The database, or a StartupProblem saying why it cannot be used. Only faults of the
    file, its directory and its disk count as the GM's; any other database error is a bug
    and propagates."""
    try:
        return Store(path)
    except SchemaTooNew as exc:  # written by a newer gm-daemon: the GM's to fix
        raise StartupProblem(str(exc)) from exc
    except OSError as exc:  # Store creates the directory
        raise StartupProblem(
            f"daemon.database {path.absolute()}: cannot create its directory "
            f"{exc.filename or path.parent}: {exc.strerror or exc} (user {user_name()})"
        ) from exc
    except sqlite3.DatabaseError as exc:
        if not is_database_fault(exc):
            raise
        raise StartupProblem(database_problem(path, exc)) from exc


# SQLite's primary result codes for faults of the file, its directory or its disk; the
# extended ones (SQLITE_READONLY_DIRECTORY, SQLITE_IOERR_WRITE …) start with these.
_FAULTS = (
    "SQLITE_CANTOPEN",
    "SQLITE_READONLY",
    "SQLITE_PERM",
    "SQLITE_IOERR",
    "SQLITE_FULL",
    "SQLITE_NOTADB",
    "SQLITE_CORRUPT",
    "SQLITE_BUSY",
    "SQLITE_NOLFS",
)


def is_database_fault(exc: sqlite3.Error) -> bool:
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name.startswith(_FAULTS)


def database_problem(path: Path, exc: sqlite3.Error) -> str:
    name = getattr(exc, "sqlite_errorname", "") or ""
    folder, user = path.absolute().parent, user_name()
    if name == "SQLITE_READONLY_DIRECTORY":
        hint = (
            f"the directory {folder} is read-only for user {user}, and SQLite must write "
            f"{path.name}-wal and {path.name}-shm beside the database"
        )
    elif name.startswith(("SQLITE_READONLY", "SQLITE_PERM")):
        hint = f"the file and its directory {folder} must be writable by user {user}"
    elif name.startswith("SQLITE_CANTOPEN"):
        hint = f"the directory {folder} must exist and be writable by user {user}"
    elif name.startswith(("SQLITE_FULL", "SQLITE_IOERR")):
        hint = "is its disk full?"
    elif name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        hint = "not a gm-daemon database, or a damaged one: check the path or restore the backup"
    else:
        hint = "another process holds it, try again"
    return f"daemon.database {path.absolute()}: {exc} ({hint})"


def open_transports(make: Callable[[Config], T], config: Config) -> T:
    """The mail transports; a Maildir folder that cannot be created or a CA file that cannot
    be read is the GM's to fix."""
    try:
        return make(config)
    except OSError as exc:
        where = f"mail.{config.mail.transport}"
        what = f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc)
        raise StartupProblem(f"{where}: {what} (user {user_name()})") from exc
