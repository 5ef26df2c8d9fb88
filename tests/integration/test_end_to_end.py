"""The real daemon, in this test's event loop, on transport "imap" against the real Dovecot
(IDLE on) and Postfix: welcome mails out, orders in by SMTP, acknowledgements out, a restart
in the middle of it, a real deadline passing, result mails to everyone, nothing twice."""

from __future__ import annotations

import asyncio
import email
import email.policy
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest

from gm_daemon.daemon import Daemon
from tests.mailstack import MailStack

pytestmark = pytest.mark.mailstack

ROUND_SECONDS = 8  # the first deadline, from the game's start (orders need ~1.2 s)
PLAYERS = {  # mailbox → (name in the game, personal code)
    "player1@players.test": ("A. Eins", "EINS-1111"),
    "player2@players.test": ("B. Zwei", "ZWEI-2222"),
    "player3@players.test": ("C. Drei", "DREI-3333"),
    "player4@players.test": ("D. Vier", "VIER-4444"),  # sends nothing: NMR at the deadline
}


def _config(
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


def _orders(player: str, message_id: str | None = None, to: str = "gm@gm.test") -> bytes:
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
        mails = await self.until(user, lambda ms: any(text in _subject(m) for m in ms), timeout)
        return [_subject(m) for m in mails]


def _subject(mail: EmailMessage) -> str:
    return str(mail["Subject"])


async def _send(stack: MailStack, player: str) -> None:
    await asyncio.to_thread(stack.deliver, stack.gm, _orders(player), player)


class RunningDaemon:
    """``gm-daemon run`` inside this event loop; stop() is what SIGTERM does."""

    def __init__(self, config: Path) -> None:
        self.daemon = Daemon(config)
        self.task = asyncio.ensure_future(self.daemon.run())

    async def stop(self) -> None:
        self.daemon.request_exit()
        await asyncio.wait_for(self.task, 30)


def test_orders_acks_restart_deadline_results(tmp_path: Path, empty_mailstack: MailStack) -> None:
    stack = empty_mailstack
    boxes = Mailboxes(stack)
    config = _config(tmp_path, stack)

    async def scenario() -> float:
        started = time.monotonic()
        first = RunningDaemon(config)
        for player in PLAYERS:
            assert "Willkommen" in " ".join(await boxes.until_subject(player, "Willkommen"))
        await _send(stack, "player1@players.test")
        assert "angenommen" in " ".join(
            await boxes.until_subject("player1@players.test", "angenommen", timeout=10)
        )
        await _send(stack, "player2@players.test")  # in flight while the daemon stops
        await first.stop()
        await _send(stack, "player3@players.test")  # arrives while no daemon runs
        second = RunningDaemon(config)
        for player in ("player2@players.test", "player3@players.test"):
            await boxes.until_subject(player, "angenommen", timeout=10)
        elapsed = time.monotonic() - started
        for player in PLAYERS:
            await boxes.until_subject(player, "Ergebnis", timeout=60)
        await second.stop()
        return elapsed

    before_deadline = asyncio.run(scenario())
    assert before_deadline < ROUND_SECONDS, "orders came too late for round 1: test too slow"
    for player in PLAYERS:
        subjects = [_subject(m) for m in asyncio.run(boxes.of(player))]
        kinds = sorted(_kind(s) for s in subjects)
        expected = ["ack", "result", "welcome"]
        if player.startswith("player4"):
            expected.remove("ack")
        assert kinds == expected, (player, subjects)
    gm_box = stack.flags(stack.gm)
    assert len(gm_box) == 3
    assert all("\\Seen" in flags for _, flags in gm_box), gm_box


def _kind(subject: str) -> str:
    if "Willkommen" in subject:
        return "welcome"
    if "angenommen" in subject:
        return "ack"
    if "Runde 1 – Ergebnis" in subject:
        return "result"
    return f"unexpected: {subject}"


# --- a hard crash: gm-daemon run as a process, killed with SIGKILL mid-burst ----------------

DAEMON = [sys.executable, "-c", "import sys; from gm_daemon.cli import main; sys.exit(main())"]


def _start_daemon(config: Path, log: Path) -> subprocess.Popen[bytes]:
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


def _replies(stack: MailStack) -> list[tuple[str, str]]:
    """(In-Reply-To, Message-ID) of every mail in every player's mailbox."""
    found = []
    for player in PLAYERS:
        for raw in stack.messages(player):
            mail = email.message_from_bytes(raw, policy=email.policy.default)
            found.append((str(mail["In-Reply-To"] or ""), str(mail["Message-ID"])))
    return found


def _wait(condition: Callable[[], bool], timeout: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout} s\n{log.read_text()[-3000:]}")
        time.sleep(0.05)


def test_sigkill_mid_burst_loses_nothing(tmp_path: Path, empty_mailstack: MailStack) -> None:
    stack = empty_mailstack
    config = _config(tmp_path, stack, every="1d")
    log = tmp_path / "daemon.log"
    orders = {
        f"<burst-{i}-{player.split('@')[0]}@players.test>": player
        for i in range(8)
        for player in PLAYERS
    }
    pending = list(orders.items())
    first = _start_daemon(config, log)
    try:
        _wait(lambda: len(_replies(stack)) >= len(PLAYERS), 30, "welcome mails", log)
        while pending:  # one by one while the daemon works, until its first acknowledgement
            message_id, player = pending.pop(0)
            stack.deliver(stack.gm, _orders(player, message_id), player)
            if any(rt in orders for rt, _ in _replies(stack)):
                break
    finally:
        first.send_signal(signal.SIGKILL)  # in the middle of the burst
        first.wait(10)
    for message_id, player in pending:  # the rest arrives while no daemon runs
        stack.deliver(stack.gm, _orders(player, message_id), player)
    second = _start_daemon(config, log)
    try:
        _wait(lambda: log.read_text().count("gm-daemon running") == 2, 30, "restart", log)
        answered = lambda: {rt for rt, _ in _replies(stack)} >= set(orders)  # noqa: E731
        _wait(answered, 60, "all answered", log)
    finally:
        second.send_signal(signal.SIGTERM)
        assert second.wait(30) == 0, log.read_text()[-3000:]
    replies = [(rt, mid) for rt, mid in _replies(stack) if rt in orders]
    distinct = {rt: {mid for r, mid in replies if r == rt} for rt in orders}
    assert all(len(ids) == 1 for ids in distinct.values()), distinct
    # A copy of the *same* reply may go out again only if the kill hit between the SMTP
    # server's 250 and the outbox commit (at-least-once sending); never a second reply.
    copies = Counter(mid for _, mid in replies)
    assert max(copies.values()) <= 2, copies
    gm_box = stack.flags(stack.gm)
    assert len(gm_box) == len(orders)
    assert all("\\Seen" in flags for _, flags in gm_box)
