"""Drive the real daemon on a temporary Maildir config with an injected clock.

Usage (any game kind)::

    from tests.daemon_harness import DaemonHarness

    def test_round(tmp_path):
        h = DaemonHarness(tmp_path, GAMES_TOML, now=datetime(2026, 12, 1, 12, tzinfo=UTC))
        welcome = h.run()                         # first run starts the games: welcome mails
        code = h.code("hn1", "E. Müller")
        h.send("egon@example.org", f"Code: {code}\\nDuelle\\n...", subject="[hn1] Befehle")
        ack = h.run()                             # mails sent by this run, in queue order
        assert "angenommen" in h.body(ack[0])
        h.advance(days=3)                         # move the clock past the deadline
        results = h.run()

``GAMES_TOML`` holds only the ``[[games]]`` tables; the harness adds ``[daemon]`` and ``[mail]``
(address gm@gm.test, Maildir transport in tmp_path, time zone Europe/Berlin). ``run()`` is
``gm-daemon run --once`` with the clock at ``h.now``; it returns the mails that run sent.
``h.cli("status", "--json")`` runs any CLI command in-process against the same config.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import mailbox
import re
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from email.utils import format_datetime, make_msgid
from pathlib import Path
from unittest import mock

from gm_daemon.cli import main as cli_main
from gm_daemon.config import load_config
from gm_daemon.daemon import Daemon

GM_ADDRESS = "gm@gm.test"


class DaemonHarness:
    def __init__(
        self,
        tmp_path: Path,
        games_toml: str,
        now: datetime | None = None,
        timezone: str = "Europe/Berlin",
        extra_toml: str = "",
    ):
        self.root = tmp_path
        mail = tmp_path / "mail"
        self._attach(
            tmp_path / "gm.toml", tmp_path / "gm.sqlite", mail / "inbox", mail / "outbox", now
        )
        self.write_config(games_toml, timezone, extra_toml)

    @classmethod
    def on_config(cls, config_path: Path, now: datetime | None = None) -> DaemonHarness:
        """A harness on a whole config file as it stands (``config/examples/*.toml``), its
        database and Maildirs where the config puts them: relative paths count from the
        current directory, as for the daemon itself."""
        config = load_config(config_path)
        harness = cls.__new__(cls)
        harness.root = Path.cwd()
        maildir = config.mail.maildir
        harness._attach(
            config_path,
            config.daemon.database.absolute(),
            maildir.inbox.absolute(),
            maildir.outbox.absolute(),
            now,
        )
        harness.gm_address = config.mail.address
        return harness

    def _attach(
        self, config_path: Path, database: Path, inbox: Path, outbox: Path, now: datetime | None
    ) -> None:
        self.now = now or datetime(2026, 12, 1, 11, 0, tzinfo=UTC)
        self.inbox_dir = inbox
        self.outbox_dir = outbox
        self.database = database
        self.config_path = config_path
        self.gm_address = GM_ADDRESS
        self._seen: set[str] = set()
        self.sent: list[EmailMessage] = []

    def write_config(
        self, games_toml: str, timezone: str = "Europe/Berlin", extra_toml: str = ""
    ) -> None:
        """(Re)write the config; a later ``run()`` picks it up as a reload would."""
        self.config_path.write_text(
            f'[daemon]\ndatabase = "{self.database}"\ntimezone = "{timezone}"\n\n'
            f'[mail]\naddress = "{GM_ADDRESS}"\ntransport = "maildir"\n{extra_toml}\n'
            f'[mail.maildir]\ninbox = "{self.inbox_dir}"\noutbox = "{self.outbox_dir}"\n\n'
            + games_toml,
            encoding="utf-8",
        )

    # --- the clock -----------------------------------------------------------------------
    def clock(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now

    # --- mail in -------------------------------------------------------------------------
    def send(
        self,
        sender: str,
        body: str,
        subject: str = "Befehle",
        *,
        headers: dict[str, str] | None = None,
    ) -> str:
        """Drop a plain UTF-8 mail from ``sender`` into the inbox; returns its Message-ID."""
        message = EmailMessage()
        message["From"] = sender
        message["To"] = self.gm_address
        message["Subject"] = subject
        message["Date"] = format_datetime(self.now)
        message["Message-ID"] = make_msgid(domain="players.test")
        for key, value in (headers or {}).items():
            message[key] = value
        message.set_content(body)
        return self.send_raw(bytes(message), message["Message-ID"])

    def send_raw(self, data: bytes, message_id: str = "") -> str:
        box = mailbox.Maildir(self.inbox_dir, create=True)
        box.add(mailbox.MaildirMessage(data))
        return message_id

    # --- running -------------------------------------------------------------------------
    def run(self) -> list[EmailMessage]:
        """One ``run --once`` at ``self.now``; the mails it sent, in the order queued."""
        daemon = Daemon(self.config_path, clock=self.clock)
        asyncio.run(daemon.run_once())
        return self._collect()

    def _collect(self) -> list[EmailMessage]:
        box = mailbox.Maildir(self.outbox_dir, create=True)
        fresh = []
        for key in box.iterkeys():
            if key in self._seen:
                continue
            self._seen.add(key)
            fresh.append(message_from_bytes(box.get_bytes(key), policy=default))
        order = self._queue_order()
        fresh.sort(key=lambda m: order.get(m["Message-ID"], 0))
        self.sent.extend(fresh)  # type: ignore[arg-type]
        return fresh  # type: ignore[return-value]

    def count_sent(self, subject: str, to: str = "") -> int:
        """Mails sent so far whose subject holds ``subject`` (and whose To holds ``to``),
        the new ones collected first: what a test watching a running daemon counts."""
        self._collect()
        return sum(subject in m["Subject"] and to in m["To"] for m in self.sent)

    def _queue_order(self) -> dict[str, int]:
        with contextlib.closing(sqlite3.connect(self.database)) as db:
            return dict(db.execute("SELECT message_id, id FROM outbox").fetchall())

    def cli(self, *args: str) -> tuple[int, str]:
        """A CLI command in-process, on the harness clock: ``h.cli("status", "--json")`` →
        (exit code, stdout)."""
        command, *rest = args
        out = io.StringIO()
        with contextlib.redirect_stdout(out), mock.patch("gm_daemon.cli.utc_now", self.clock):
            code = cli_main([command, "--config", str(self.config_path), *rest])
        return code, out.getvalue()

    # --- reading -------------------------------------------------------------------------
    def mails_to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.sent if address.lower() in m["To"].lower()]

    @staticmethod
    def body(message: EmailMessage) -> str:
        part = message.get_body(preferencelist=("plain",))
        assert part is not None, "mail without a text part"
        return part.get_content()

    @classmethod
    def prose(cls, message: EmailMessage) -> str:
        """The body with its line breaks and runs of spaces as single spaces: what a mail
        says, however it was wrapped at 78 columns."""
        return " ".join(cls.body(message).split())

    @staticmethod
    def attachments(message: EmailMessage) -> dict[str, bytes]:
        return {
            part.get_filename(): part.get_content()  # type: ignore[misc]
            for part in message.iter_attachments()
        }

    @classmethod
    def golden_text(cls, message: EmailMessage, ids: dict[str, str]) -> str:
        """A mail as its golden file holds it: the headers that matter, the text, and the
        attachments (JSON in full, pictures by name only, as their bytes depend on the
        imaging library's version). Message-IDs are random, so each is numbered in order of
        first appearance in ``ids``, which a test shares between the mails of one game."""

        def pin(text: str) -> str:
            def number(match: re.Match[str]) -> str:
                return ids.setdefault(match.group(0), f"<id-{len(ids) + 1}>")

            return re.sub(r"<[^<>@\s]+@[^<>\s]+>", number, text)

        headers = ("From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "References",
                   "Auto-Submitted")  # fmt: skip
        lines = [
            f"{key}: {pin(str(message[key]).strip())}"
            for key in headers
            if message[key] is not None
        ]
        lines += ["", cls.body(message).rstrip(), ""]
        for name, data in sorted(cls.attachments(message).items()):
            if name.endswith(".json"):
                lines += [
                    f"--- attachment {name}",
                    json.dumps(json.loads(data), indent=1, ensure_ascii=False, sort_keys=True),
                ]
            else:
                lines.append(f"--- attachment {name}")
        return "\n".join(lines).rstrip() + "\n"

    def code(self, game_id: str, name: str) -> str:
        with contextlib.closing(sqlite3.connect(self.database)) as db:
            row = db.execute(
                "SELECT code FROM players WHERE game_id = ? AND name = ?", (game_id, name)
            ).fetchone()
        assert row, f"no player {name!r} in {game_id}"
        return row[0]

    def phase(self, game_id: str) -> int:
        with contextlib.closing(sqlite3.connect(self.database)) as db:
            return db.execute("SELECT phase FROM games WHERE id = ?", (game_id,)).fetchone()[0]

    def finished(self, game_id: str) -> bool:
        with contextlib.closing(sqlite3.connect(self.database)) as db:
            row = db.execute("SELECT finished FROM games WHERE id = ?", (game_id,)).fetchone()
        return bool(row[0])


async def until(condition: Callable[[], bool], timeout: float = 10) -> float:
    """Seconds until ``condition()`` holds, looked at every 20 ms: for a test on the real
    service loop. Fails after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    begin = loop.time()
    while not condition():
        if loop.time() - begin > timeout:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.02)
    return loop.time() - begin
