"""The real daemon, in this test's event loop, on transport "imap" against the real Dovecot
(IDLE on) and Postfix: welcome mails out, orders in by SMTP, acknowledgements out, a restart
in the middle of it, a real deadline passing, result mails to everyone, nothing twice."""

from __future__ import annotations

import asyncio
import email
import email.policy
import time
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


def _config(tmp_path: Path, stack: MailStack) -> Path:
    secret = tmp_path / "gm-password"
    secret.write_text(stack.users[stack.gm])
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
address = "{stack.gm}"
transport = "imap"

[mail.imap]
host = "{stack.host}"
port = {stack.imaps_port}
security = "tls"
username = "{stack.gm}"
password_file = "{secret}"
idle = true
ca_file = "{stack.cert_path}"

[mail.smtp]
host = "{stack.host}"
port = {stack.smtp_port}
security = "starttls"
username = "{stack.gm}"
password_file = "{secret}"
ca_file = "{stack.cert_path}"

[[games]]
id = "hn1"
kind = "highnoon"
language = "de"
seed = "end-to-end"

[games.deadlines]
every = "{ROUND_SECONDS}s"

{players}""",
        encoding="utf-8",
    )
    return path


def _orders(player: str) -> bytes:
    name, code = PLAYERS[player]
    msg = EmailMessage()
    msg["From"] = f"{name} <{player}>"
    msg["To"] = "gm@gm.test"
    msg["Subject"] = "[hn1] Befehle"
    msg["Message-ID"] = make_msgid(domain="players.test")
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
