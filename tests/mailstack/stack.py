"""A private Postfix + Dovecot on loopback for tests that need a real mail server.

Everything lives in one temp directory: rendered configs, TLS cert, mail, queue, logs. Nothing
in /etc is read or changed. Dovecot serves IMAP (plain, STARTTLS offered), IMAPS, LMTP and
SASL auth; Postfix accepts SMTP (plain, STARTTLS offered) and SMTPS for the virtual domains
gm.test and players.test and hands every message to Dovecot over LMTP, except the mail for
``gm-lmtp@gm.test``, which goes to a gm-daemon's own LMTP socket (transport "lmtp"). Mail to
any other domain is refused at RCPT time (no relaying), mail to unknown users as well.

Ports are picked free at start, and leftovers of earlier runs whose owner process died are
stopped and removed first, so runs never collide.
"""

from __future__ import annotations

import contextlib
import imaplib
import os
import re
import shutil
import signal
import smtplib
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from tests.mailstack import configs

GM_DOMAIN = "gm.test"
PLAYER_DOMAIN = "players.test"
HOST = "127.0.0.1"
_PREFIX = "gm-mailstack-"
_BINARIES = ("/usr/sbin/postfix", "/usr/sbin/dovecot", "/usr/bin/doveadm", "/usr/bin/openssl")


class MailStackError(RuntimeError):
    """The stack could not be started or driven; the message carries the log tails."""


def binaries_missing() -> list[str]:
    """The programs the stack needs that are not installed (scripts/install-mailstack.sh)."""
    return [path for path in _BINARIES if not os.access(path, os.X_OK)]


class MailStack:
    """Start with ``start()`` (or ``with MailStack() as stack``), stop with ``stop()``.

    ``users`` maps every address to its password: ``gm@gm.test`` and
    ``player1@players.test`` … ``playerN@players.test``.
    """

    def __init__(self, players: int = 8, base: Path | None = None) -> None:
        self.gm = f"gm@{GM_DOMAIN}"
        self.players = [f"player{i}@{PLAYER_DOMAIN}" for i in range(1, players + 1)]
        self.users = {
            address: f"pw-{address.split('@')[0]}" for address in [self.gm, *self.players]
        }
        # a second GM address whose mail Postfix hands to the daemon's LMTP socket, not to
        # Dovecot (transport_maps): for the daemon on transport "lmtp"
        self.lmtp_gm = f"gm-lmtp@{GM_DOMAIN}"
        self.host = HOST
        self._base = base or Path(tempfile.gettempdir())
        self.root = Path()
        self.smtp_port = self.smtps_port = self.imap_port = self.imaps_port = 0
        self.mx_port = 0  # SMTP without AUTH, as a domain's MX: remote MTAs deliver here
        self._running = False

    # --- paths -------------------------------------------------------------------------
    @property
    def cert_path(self) -> Path:
        """The self-signed certificate of both servers (for IP 127.0.0.1 and localhost)."""
        return self.root / "tls" / "cert.pem"

    def servers_toml(self, password_file: Path, smtp_login: bool = False) -> str:
        """The ``[mail.imap]`` and ``[mail.smtp]`` sections of a gm-daemon config that reads
        the GM's mailbox of this stack over IMAPS and sends through its Postfix: on the plain
        port, or with STARTTLS and the GM's login when ``smtp_login``."""
        smtp = (
            f'security = "starttls"\nusername = "{self.gm}"\n'
            f'password_file = "{password_file}"\nca_file = "{self.cert_path}"\n'
            if smtp_login
            else 'security = "none"\n'
        )
        return (
            f'[mail.imap]\nhost = "{self.host}"\nport = {self.imaps_port}\nsecurity = "tls"\n'
            f'username = "{self.gm}"\npassword_file = "{password_file}"\n'
            f'ca_file = "{self.cert_path}"\n\n'
            f'[mail.smtp]\nhost = "{self.host}"\nport = {self.smtp_port}\n{smtp}'
        )

    @property
    def lmtp_socket(self) -> Path:
        """Where Postfix delivers ``lmtp_gm``'s mail: the daemon listens here."""
        return self.root / "gm-daemon" / "lmtp.sock"

    def lmtp_toml(self) -> str:
        """The ``[mail.lmtp]`` and ``[mail.smtp]`` sections of a gm-daemon config on transport
        "lmtp" with address ``lmtp_gm``: Postfix (user postfix) delivers to the socket, the
        replies go out through the plain SMTP port."""
        return (
            f'[mail.lmtp]\nsocket = "{self.lmtp_socket}"\nsocket_group = "postfix"\n\n'
            f'[mail.smtp]\nhost = "{self.host}"\nport = {self.smtp_port}\nsecurity = "none"\n'
        )

    @property
    def dovecot_conf(self) -> Path:
        return self.root / "dovecot" / "dovecot.conf"

    @property
    def postfix_dir(self) -> Path:
        return self.root / "postfix" / "etc"

    def ssl_context(self) -> ssl.SSLContext:
        """A client context that trusts exactly this stack's certificate."""
        return ssl.create_default_context(cafile=str(self.cert_path))

    # --- lifecycle ---------------------------------------------------------------------
    def start(self) -> MailStack:
        missing = binaries_missing()
        if missing:
            raise MailStackError(
                f"not installed: {', '.join(missing)}; run scripts/install-mailstack.sh"
            )
        clean_leftovers(self._base)
        self.root = Path(tempfile.mkdtemp(prefix=_PREFIX, dir=self._base))
        (self.root / "owner.pid").write_text(str(os.getpid()))
        self.root.chmod(0o755)
        ports = _free_ports(5)
        self.smtp_port, self.smtps_port, self.imap_port, self.imaps_port, self.mx_port = ports
        try:
            self._render()
            self._start_dovecot()
            self._start_postfix()
        except BaseException:
            self.stop()
            raise
        self._running = True
        return self

    def stop(self) -> None:
        """Postfix first (else Dovecot's auth children linger), then Dovecot; then remove."""
        if not self.root.name.startswith(_PREFIX):
            return
        stop_run_dir(self.root)
        shutil.rmtree(self.root, ignore_errors=True)
        self._running = False

    def __enter__(self) -> MailStack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- helpers for tests -------------------------------------------------------------
    def deliver(self, to: str, raw: bytes, sender: str = f"tester@{PLAYER_DOMAIN}") -> None:
        """Submit one message over SMTP to the MX port (like any remote MTA would: no AUTH
        there, so this works while Dovecot, Postfix's SASL server, is down); raises on
        refusal."""
        with smtplib.SMTP(self.host, self.mx_port, local_hostname="tester.test", timeout=10) as s:
            s.sendmail(sender, [to], raw)

    def messages(self, user: str, *, unseen_only: bool = False) -> list[bytes]:
        """Every message in the user's INBOX, oldest first, read without setting \\Seen."""
        with self.imap(user) as imap:
            typ, data = imap.uid("SEARCH", "UNSEEN" if unseen_only else "ALL")
            uids = data[0].split() if typ == "OK" and data and data[0] else []
            return [self._peek(imap, uid) for uid in uids]

    def flags(self, user: str) -> list[tuple[bytes, set[str]]]:
        """(Message-ID header value, flags) per message, to check what a client marked."""
        with self.imap(user) as imap:
            typ, data = imap.uid("FETCH", "1:*", "(FLAGS BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
            result: list[tuple[bytes, set[str]]] = []
            for item in data if typ == "OK" else []:
                if isinstance(item, tuple):
                    flags = set(re.findall(r"\\?\w+", _flags_of(item[0].decode())))
                    msgid = item[1].split(b":", 1)[-1].strip()
                    result.append((msgid, flags))
            return result

    def wait_for_messages(self, user: str, count: int, timeout: float = 10.0) -> list[bytes]:
        """Poll until the INBOX holds at least ``count`` messages (delivery is queued)."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.messages(user)
            if len(found) >= count or time.monotonic() > deadline:
                return found
            time.sleep(0.05)

    @contextlib.contextmanager
    def imap(self, user: str) -> Iterator[imaplib.IMAP4]:
        """A logged-in stdlib IMAP session on the user's INBOX (selected read-write)."""
        imap = imaplib.IMAP4(self.host, self.imap_port, timeout=10)
        try:
            imap.login(user, self.users[user])
            imap.select("INBOX")
            yield imap
        finally:
            with contextlib.suppress(Exception):
                imap.logout()

    def empty(self) -> None:
        """Expunge every message of every user (UIDs keep growing: find mails by content).
        Waits first until Postfix has delivered what it holds, so a mail of the previous test
        cannot land in a mailbox after it was emptied."""
        self.wait_for_queue()
        self._doveadm("expunge", "-A", "mailbox", "*", "all")

    def wait_for_queue(self, timeout: float = 10.0) -> None:
        """Until Postfix's queue (incoming, active, deferred) holds no message."""
        spool = self.root / "postfix" / "spool"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            queued = [
                f
                for q in ("incoming", "active", "deferred", "maildrop")
                for f in (spool / q).rglob("*")
                if f.is_file()
            ]
            if not queued:
                return
            time.sleep(0.05)

    def kick(self, user: str) -> None:
        """Drop every IMAP connection of the user from the server side."""
        self._doveadm("kick", user)

    def stop_dovecot(self) -> None:
        """Dovecot gone (IMAP, LMTP and SMTP AUTH with it): Postfix keeps what arrives in
        its queue until Dovecot is back and the queue is flushed."""
        pid = _read_pid(self.root / "dovecot/run/master.pid")
        if pid is not None and _is_ours(pid, self.root):
            _terminate_tree(pid)
        self._until(lambda: not _listening(self.imap_port), "IMAP stopped")

    def start_dovecot(self) -> None:
        """Again after stop_dovecot()."""
        self._start_dovecot()

    def flush_queue(self) -> None:
        """Ask Postfix to deliver its deferred mail now (``postqueue -f``), not at its next
        queue run minutes later."""
        cmd = ["postqueue", "-c", str(self.postfix_dir), "-f"]
        done = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
        if done.returncode != 0:
            raise MailStackError(f"postqueue -f failed: {done.stderr.decode(errors='replace')}")

    def log_tail(self, lines: int = 40) -> str:
        """The end of every log, for failure messages."""
        parts = []
        for log in sorted(self.root.glob("**/*.log")) + sorted(self.root.glob("**/maillog")):
            text = log.read_text(errors="replace").splitlines()[-lines:]
            parts.append(f"--- {log.relative_to(self.root)}\n" + "\n".join(text))
        return "\n".join(parts)

    @staticmethod
    def _peek(imap: imaplib.IMAP4, uid: bytes) -> bytes:
        typ, data = imap.uid("FETCH", uid.decode(), "(BODY.PEEK[])")
        for item in data if typ == "OK" else []:
            if isinstance(item, tuple):
                return item[1]
        raise MailStackError(f"cannot fetch UID {uid!r}")

    def _doveadm(self, *args: str) -> None:
        cmd = ["doveadm", "-c", str(self.dovecot_conf), *args]
        done = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
        if done.returncode not in (0, 68):  # 68: nothing matched (e.g. nobody to kick)
            raise MailStackError(f"{' '.join(cmd)} failed: {done.stderr.decode(errors='replace')}")

    # --- start-up ----------------------------------------------------------------------
    def _render(self) -> None:
        _make_cert(self.root / "tls")
        configs.render_dovecot(self)
        configs.render_postfix(self)

    def _start_dovecot(self) -> None:
        self._spawn(["dovecot", "-c", str(self.dovecot_conf)], "dovecot-start")
        base = self.root / "dovecot" / "run"
        self._until(lambda: _listening(self.imap_port) and _listening(self.imaps_port), "IMAP")
        self._until(lambda: (base / "lmtp").exists() and (base / "auth-client").exists(), "LMTP")

    def _start_postfix(self) -> None:
        self._spawn(["postfix", "-c", str(self.postfix_dir), "start"], "postfix-start")
        self._until(
            lambda: (
                _smtp_ready(self.smtp_port)
                and _listening(self.smtps_port)
                and _smtp_ready(self.mx_port)
            ),
            "SMTP",
        )

    def _spawn(self, cmd: list[str], name: str) -> None:
        """Run a daemon's starter with every fd on files: the Dovecot master keeps the
        starter's stderr open, so a pipe would never see EOF."""
        log = self.root / f"{name}.log"
        with log.open("wb") as out:
            done = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=out, timeout=60)
        if done.returncode != 0:
            raise MailStackError(f"{' '.join(cmd)} exited {done.returncode}\n{self.log_tail()}")

    def _until(self, ready: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            if time.monotonic() > deadline:
                raise MailStackError(f"{what} not ready after {timeout} s\n{self.log_tail()}")
            time.sleep(0.02)


# --- processes -----------------------------------------------------------------------------


def stop_run_dir(root: Path) -> None:
    """Stop the daemons of one run directory by their pid files, waiting for every child."""
    for pid_file in (root / "postfix/spool/pid/master.pid", root / "dovecot/run/master.pid"):
        pid = _read_pid(pid_file)
        if pid is not None and _is_ours(pid, root):
            _terminate_tree(pid)


def clean_leftovers(base: Path) -> None:
    """Stop and remove stacks of earlier runs whose owning process is gone."""
    for root in base.glob(f"{_PREFIX}*"):
        owner = _read_pid(root / "owner.pid")
        if owner is not None and _alive(owner):
            continue
        stop_run_dir(root)
        shutil.rmtree(root, ignore_errors=True)


def _read_pid(path: Path) -> int | None:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _alive(pid: int) -> bool:
    """True for a live process; a zombie counts as gone (orphans are reaped late here)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return not re.search(r"^State:\s+Z", status, re.MULTILINE)


def _is_ours(pid: int, root: Path) -> bool:
    """Guard against a recycled pid: the process must mention our run dir (Dovecot in its
    command line, Postfix's master in MAIL_CONFIG)."""
    marker = str(root).encode()
    for name in ("cmdline", "environ"):
        with contextlib.suppress(OSError):
            if marker in Path(f"/proc/{pid}/{name}").read_bytes():
                return True
    return False


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def _descendants(pid: int) -> list[int]:
    result, todo = [], [pid]
    while todo:
        current = todo.pop()
        kids = _children(current)
        result.extend(kids)
        todo.extend(kids)
    return result


def _terminate_tree(pid: int, grace: float = 5.0) -> None:
    tree = [pid, *_descendants(pid)]
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while any(_alive(p) for p in tree):
        if time.monotonic() > deadline:
            for p in tree:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(p, signal.SIGKILL)
            deadline = time.monotonic() + grace
        time.sleep(0.02)


# --- small utilities -----------------------------------------------------------------------


def _free_ports(count: int) -> list[int]:
    """Ports the kernel hands out as free right now (all bound at once, so distinct)."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind((HOST, 0))
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def _listening(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=0.5):
        return True
    return False


def _smtp_ready(port: int) -> bool:
    """Postfix answers with a 220 banner once smtpd is really up."""
    try:
        with socket.create_connection((HOST, port), timeout=2) as sock:
            return sock.recv(64).startswith(b"220")
    except OSError:
        return False


def _flags_of(fetch_line: str) -> str:
    found = re.search(r"FLAGS \(([^)]*)\)", fetch_line)
    return found.group(1) if found else ""


def _make_cert(folder: Path) -> None:
    """A self-signed EC certificate for 127.0.0.1 and localhost, made with the openssl CLI."""
    folder.mkdir(parents=True)
    cmd = [
        "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
        "-nodes", "-days", "3", "-subj", "/CN=localhost",
        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem"),
    ]  # fmt: skip
    done = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
    if done.returncode != 0:
        raise MailStackError(f"openssl failed: {done.stderr.decode(errors='replace')}")
    (folder / "key.pem").chmod(0o600)
