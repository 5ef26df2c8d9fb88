"""A result storm: every game resolves at once and all result mails go out over SMTP, against
raw aiosmtplib sending the very same mails over one connection in the same run.

Run by hand from the repository root, as root, with the mail stack installed
(scripts/install-mailstack.sh); the stack picks free ports, so others may run meanwhile:

    .venv/bin/python bench/storm.py GAMES PLAYERS      # e.g. 1000 10, or 100 10

It starts a private Postfix + Dovecot (tests/mailstack) and a database with GAMES High Noon
games of PLAYERS seats each (the players are the stack's PLAYERS mailboxes, in every game).
The welcome mails are marked sent without sending (they are not the storm). Then:

* resolve: ``Referee.resolve`` of every game, one transaction each: GAMES x PLAYERS result
  mails queued (each built once, with its attachments);
* raw: one aiosmtplib connection sending the stored bytes of every result mail with
  ``sendmail``, nothing else: the ceiling for our SMTP path on this server;
* drain: the daemon's ``OutboxSender.drain()`` with the real ``SmtpSender``: read the queue,
  send, mark each sent.

Printed: mails per second of both, their ratio, the database size, and the process's peak
resident memory (``ru_maxrss``, the whole run).
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sqlite3
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiosmtplib  # noqa: E402

from gm_daemon.cli import database_size  # noqa: E402
from gm_daemon.daemon import Daemon  # noqa: E402
from tests.mailstack import MailStack  # noqa: E402


def _config(folder: Path, stack: MailStack, games: int, players: list[str]) -> Path:
    secret = folder / "password"
    secret.write_text(stack.users[stack.gm])
    seats = "".join(
        f'[[games.players]]\nname = "Spieler {i}"\nemail = "{address}"\n\n'
        for i, address in enumerate(players, 1)
    )
    tables = "".join(
        f'[[games]]\nid = "s{n:04d}"\nkind = "highnoon"\nseed = "storm-{n}"\n\n'
        f'[games.deadlines]\nevery = "7d"\n\n{seats}'
        for n in range(games)
    )
    path = folder / "gm.toml"
    path.write_text(
        f"""[daemon]
database = "{folder / "gm.sqlite"}"
log_level = "WARNING"

[mail]
address = "{stack.gm}"
transport = "imap"

{stack.servers_toml(secret)}
{tables}""",
        encoding="utf-8",
    )
    return path


def _results(database: Path) -> list[tuple[str, bytes]]:
    with closing(sqlite3.connect(database)) as db:
        rows = db.execute(
            "SELECT recipient, message FROM outbox WHERE purpose = 'result' ORDER BY id"
        ).fetchall()
    return [(str(recipient), bytes(message)) for recipient, message in rows]


def _set_status(database: Path, purpose: str, status: str) -> None:
    with closing(sqlite3.connect(database)) as db, db:
        db.execute("UPDATE outbox SET status = ? WHERE purpose = ?", (status, purpose))


async def _raw(stack: MailStack, mails: list[tuple[str, bytes]]) -> float:
    """Seconds for plain aiosmtplib to send ``mails`` over one connection."""
    start = time.perf_counter()
    async with aiosmtplib.SMTP(
        hostname=stack.host, port=stack.smtp_port, local_hostname="gm.test", start_tls=False
    ) as smtp:
        for recipient, data in mails:
            await smtp.sendmail(stack.gm, [recipient], data)
    return time.perf_counter() - start


async def _drain(daemon: Daemon) -> tuple[float, int]:
    start = time.perf_counter()
    sent = await daemon.outbox.drain()
    return time.perf_counter() - start, sent


def _resolve_all(daemon: Daemon) -> float:
    start = time.perf_counter()
    for row in daemon.store.games():
        if daemon.referee.resolve(row.id, "gm", row.phase) is None:
            raise SystemExit(f"{row.id} did not resolve")
    return time.perf_counter() - start


async def _bench(args: argparse.Namespace, stack: MailStack, folder: Path) -> None:
    config = _config(folder, stack, args.games, stack.players[: args.players])
    database = folder / "gm.sqlite"
    daemon = Daemon(config)
    try:
        started = time.perf_counter()
        daemon.referee.sync()
        _set_status(database, "welcome", "sent")  # not the storm: marked, not sent
        print(f"setup: {args.games} games started in {time.perf_counter() - started:.1f} s")
        resolved = _resolve_all(daemon)
        mails = _results(database)
        n = len(mails)
        print(f"resolve: {args.games} games, {n} result mails queued in {resolved:.1f} s")
        raw = await _raw(stack, mails)
        ours, sent = await _drain(daemon)
    finally:
        await daemon.close()
    if sent != n:
        raise SystemExit(f"drain sent {sent} of {n} mails")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{'raw aiosmtplib, one connection (baseline)':<44} {n / raw:8.0f} mails/s  ({raw:.1f} s)"
    )
    print(f"{'OutboxSender.drain() with SmtpSender':<44} {n / ours:8.0f} mails/s  ({ours:.1f} s)")
    print(f"ratio drain / raw: {ours / raw:.2f}x (target <= 1.5x)")
    print(f"database after the round: {database_size(database) / 1e6:.1f} MB")
    print(f"peak resident memory of the whole run: {peak:.0f} MB (target < 150 MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=int, help="number of games, e.g. 1000")
    parser.add_argument("players", type=int, help="players per game (at least 3), e.g. 10")
    args = parser.parse_args()
    with MailStack(players=args.players) as stack, tempfile.TemporaryDirectory() as folder:
        asyncio.run(_bench(args, stack, Path(folder)))


if __name__ == "__main__":
    main()
