"""The real mail stack's High Noon game, shared by the end-to-end and kill tests over IMAP and
LMTP: the GM's config, the players' order mails, their mailboxes, the daemon in this event
loop or as a process of its own, the GM's tool beside it, and the checks that every order was
answered once and every player has one result."""

from __future__ import annotations

import asyncio
import contextlib
import email
import email.policy
import os
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from gm_daemon.daemon import Daemon
from tests.mailstack import MailStack

ROUND_SECONDS = 8  # the first deadline, from the game's start (orders need ~1.2 s)
PLAYERS = {  # mailbox → (name in the game, personal code)
    "player1@players.test": ("A. Eins", "EINS-1111"),
    "player2@players.test": ("B. Zwei", "ZWEI-2222"),
    "player3@players.test": ("C. Drei", "DREI-3333"),
    "player4@players.test": ("D. Vier", "VIER-4444"),  # sends nothing: NMR at the deadline
}


def gm_config(
    tmp_path: Path, stack: MailStack, every: str = f"{ROUND_SECONDS}s", transport: str = "imap"
) -> Path:
    """The daemon reads the GM's mailbox over IMAP, or (``transport="lmtp"``) Postfix hands
    the mail for ``stack.lmtp_gm`` to the daemon's LMTP socket."""
    secret = tmp_path / "gm-password"
    secret.write_text(stack.users[stack.gm])
    address, servers = stack.gm, stack.servers_toml(secret, smtp_login=True)
    if transport == "lmtp":
        address, servers = stack.lmtp_gm, stack.lmtp_toml()
    players = "".join(
        f'[[games.players]]\nname = "{name}"\nemail = "{address}"\ncode = "{code}"\n\n'
        for address, (name, code) in PLAYERS.items()
    )
    path = tmp_path / "gm.toml"
    path.write_text(
        f"""
[daemon]
database = "{tmp_path / "gm.sqlite"}"
timezone = "Europe/Berlin"

[mail]
address = "{address}"
transport = "{transport}"

{servers}
[[games]]
id = "hn1"
kind = "highnoon"
language = "de"
seed = "end-to-end"

[games.deadlines]
every = "{every}"

{players}""",
        encoding="utf-8",
    )
    return path


def order_mail(player: str, message_id: str | None = None, to: str = "gm@gm.test") -> bytes:
    name, code = PLAYERS[player]
    msg = EmailMessage()
    msg["From"] = f"{name} <{player}>"
    msg["To"] = to
    msg["Subject"] = "[hn1] Befehle"
    msg["Message-ID"] = message_id or make_msgid(domain="players.test")
    msg.set_content(f"Code: {code}\nHerausforderungen: keine\n")
    return bytes(msg)


class Mailboxes:
    """What the players and the GM mailbox hold, read over IMAP from a worker thread."""

    def __init__(self, stack: MailStack) -> None:
        self.stack = stack

    async def of(self, user: str) -> list[EmailMessage]:
        raw = await asyncio.to_thread(self.stack.messages, user)
        return [email.message_from_bytes(r, policy=email.policy.default) for r in raw]  # type: ignore[misc]

    async def until(
        self, user: str, done: Callable[[list[EmailMessage]], bool], timeout: float = 30
    ) -> list[EmailMessage]:
        deadline = time.monotonic() + timeout
        while True:
            mails = await self.of(user)
            if done(mails) or time.monotonic() > deadline:
                return mails
            await asyncio.sleep(0.1)

    async def until_subject(self, user: str, text: str, timeout: float = 30) -> list[str]:
        mails = await self.until(user, lambda ms: any(text in subject_of(m) for m in ms), timeout)
        return [subject_of(m) for m in mails]


def subject_of(mail: EmailMessage) -> str:
    return str(mail["Subject"])


async def send_orders(stack: MailStack, player: str) -> None:
    await asyncio.to_thread(stack.deliver, stack.gm, order_mail(player), player)


class RunningDaemon:
    """``gm-daemon run`` inside this event loop; stop() is what SIGTERM does."""

    def __init__(self, config: Path) -> None:
        self.daemon = Daemon(config)
        self.task = asyncio.ensure_future(self.daemon.run())

    async def stop(self) -> None:
        self.daemon.request_exit()
        await asyncio.wait_for(self.task, 30)


def kind_of(subject: str) -> str:
    if "Willkommen" in subject:
        return "welcome"
    if "angenommen" in subject:
        return "ack"
    if "Runde 1 – Ergebnis" in subject:
        return "result"
    return f"unexpected: {subject}"


DAEMON = [sys.executable, "-c", "import sys; from gm_daemon.cli import main; sys.exit(main())"]


def start_daemon(config: Path, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            [*DAEMON, "run", "--config", str(config)],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )


def gm_cli(config: Path, *args: str) -> str:
    """The GM's own tool, ``gm-daemon COMMAND --config … ARGS``, as a process of its own
    beside the running daemon; its output, or AssertionError with its error."""
    command, *rest = args
    done = subprocess.run(
        [*DAEMON, command, "--config", str(config), *rest],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout.decode(errors="replace")


def reply_ids(stack: MailStack) -> list[tuple[str, str]]:
    """(In-Reply-To, Message-ID) of every mail in every player's mailbox."""
    found = []
    for player in PLAYERS:
        for raw in stack.messages(player):
            mail = email.message_from_bytes(raw, policy=email.policy.default)
            found.append((str(mail["In-Reply-To"] or ""), str(mail["Message-ID"])))
    return found


def wait_until(condition: Callable[[], bool], timeout: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout} s\n{log.read_text()[-3000:]}")
        time.sleep(0.05)


def game_started(database: Path) -> bool:
    try:
        with contextlib.closing(sqlite3.connect(database)) as db:
            return db.execute("SELECT 1 FROM games WHERE id = 'hn1'").fetchone() is not None
    except sqlite3.OperationalError:  # no database or no tables yet
        return False


def kill_daemon(daemon: subprocess.Popen[bytes], signum: int) -> int:
    """Stop it for sure: the signal, and SIGKILL when it does not end in 30 s."""
    daemon.send_signal(signum)
    try:
        return daemon.wait(30)
    except subprocess.TimeoutExpired:
        daemon.kill()
        daemon.wait(10)
        raise


def kinds_of_every_mailbox(boxes: Mailboxes) -> None:
    """Each player has his welcome, his acknowledgement and his result, nothing else; the
    fourth player sent nothing, so he has no acknowledgement."""
    for player in PLAYERS:
        subjects = [subject_of(m) for m in asyncio.run(boxes.of(player))]
        kinds = sorted(kind_of(s) for s in subjects)
        expected = ["ack", "result", "welcome"]
        if player.startswith("player4"):
            expected.remove("ack")
        assert kinds == expected, (player, subjects)


def answered_once(stack: MailStack, orders: list[tuple[str, str]]) -> int:
    """Each order (Message-ID, player) has exactly one reply, each player exactly one result;
    a reply may arrive twice with the same Message-ID only (a kill between the SMTP server's
    250 and the outbox's "sent" commit). Returns the number of such repeated copies."""
    mails = mails_of(stack)
    wanted = {m for m, _p in orders}
    replies = [(rt, mid) for rt, _s, mid in mails if rt in wanted]
    distinct = {rt: {mid for r, mid in replies if r == rt} for rt in wanted}
    assert all(len(ids) == 1 for ids in distinct.values()), "a mail answered twice"
    results = {
        player: {mid for rt, s, mid in mails_of(stack, [player]) if "Ergebnis" in s and not rt}
        for player in PLAYERS
    }
    assert all(len(ids) == 1 for ids in results.values()), results
    copies = Counter(mid for _rt, _s, mid in mails)
    assert max(copies.values()) <= 2, copies
    return sum(n - 1 for n in copies.values())


def mails_of(stack: MailStack, players: list[str] | None = None) -> list[tuple[str, str, str]]:
    """(In-Reply-To, Subject, Message-ID) of every mail in the players' mailboxes."""
    found = []
    for player in players or PLAYERS:
        for raw in stack.messages(player):
            mail = email.message_from_bytes(raw, policy=email.policy.default)
            found.append(
                (str(mail["In-Reply-To"] or ""), str(mail["Subject"]), str(mail["Message-ID"]))
            )
    return found
