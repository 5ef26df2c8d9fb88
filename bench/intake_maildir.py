"""Order mails per second from a Maildir to stored acknowledgement, without any mail server,
against reading the same mails' bytes from the Maildir in the same run.

Run by hand from the repository root (no root, no mail stack; use it when the test mail stack
is busy, or to profile):

    .venv/bin/python bench/intake_maildir.py [--mails 500] [--profile]

One High Noon game with 8 players; ``--mails`` order mails are dropped into the inbox
Maildir. Then:

* raw: ``MaildirInbox.fetch()`` of all of them — the bytes off the disk, nothing else;
* intake: the real ``Daemon`` doing ``take_in_mail()``, as its loop does: chunks of
  ``FETCH_CHUNK`` mails fetched, stored (one transaction), marked done, then read (decode,
  parse, validate, store orders, queue the acknowledgement; a transaction each, committed a
  group at a time), until every mail has its acknowledgement in the outbox. Sending is not
  measured (``bench/intake_e2e.py`` measures it, from outside). The time spent reading
  (``_process_pending``) is shown on its own.

``--profile`` prints the cProfile of the intake (cumulative, top 30).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import logging
import mailbox
import pstats
import sys
import tempfile
import time
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.timing import timed_take_in_mail  # noqa: E402
from gm_daemon.daemon import Daemon  # noqa: E402
from gm_daemon.mail.maildir import MaildirInbox  # noqa: E402

PLAYERS = 8


def _config(folder: Path) -> Path:
    seats = "".join(
        f'[[games.players]]\nname = "Spieler {i}"\nemail = "p{i}@players.test"\n'
        f'code = "CODE-{i:04d}"\n\n'
        for i in range(1, PLAYERS + 1)
    )
    path = folder / "gm.toml"
    path.write_text(
        f'[daemon]\ndatabase = "{folder / "gm.sqlite"}"\nlog_level = "WARNING"\n\n'
        f'[mail]\naddress = "gm@gm.test"\ntransport = "maildir"\n'
        f"max_mails_per_hour = 1000000\n\n"
        f'[mail.maildir]\ninbox = "{folder / "in"}"\noutbox = "{folder / "out"}"\n\n'
        f'[[games]]\nid = "hn1"\nkind = "highnoon"\nseed = "bench"\n\n'
        f'[games.deadlines]\nevery = "7d"\n\n{seats}',
        encoding="utf-8",
    )
    return path


def _deliver(folder: Path, count: int) -> None:
    box = mailbox.Maildir(folder / "in", create=True)
    for number in range(count):
        seat = number % PLAYERS + 1
        msg = EmailMessage()
        msg["From"] = f"Spieler {seat} <p{seat}@players.test>"
        msg["To"] = "gm@gm.test"
        msg["Subject"] = f"[hn1] Befehle {number}"
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(f"Hallo,\n\nCode: CODE-{seat:04d}\nHerausforderungen: keine\n\nGruß\n")
        box.add(bytes(msg))


async def _intake(daemon: Daemon) -> tuple[float, float]:
    """Seconds of ``take_in_mail`` spent fetching, storing and marking, and reading."""
    _, store, process = await timed_take_in_mail(daemon)
    return store, process


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=500)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    with tempfile.TemporaryDirectory(prefix="gm-bench-") as name:
        folder = Path(name)
        daemon = Daemon(_config(folder))
        daemon.referee.sync()  # welcome mails queued, not timed
        _deliver(folder, args.mails)
        start = time.perf_counter()
        raw = len(asyncio.run(MaildirInbox(folder / "in").fetch()))
        raw_seconds = time.perf_counter() - start
        profile = cProfile.Profile() if args.profile else None
        if profile:
            profile.enable()
        store, process = asyncio.run(_intake(daemon))
        if profile:
            profile.disable()
        query = "SELECT count(*) FROM outbox WHERE purpose = 'accepted'"
        acks = int(daemon.store.db.execute(query).fetchone()[0])
        asyncio.run(daemon.close())
    n = args.mails
    if raw != n:
        raise SystemExit(f"raw read {raw} of {n} mails")
    for label, seconds in [
        ("raw Maildir read (MaildirInbox.fetch)", raw_seconds),
        ("intake to stored acknowledgement", store + process),
        ("  of which fetch + store + done", store),
        ("  of which decode + parse + ack queued", process),
    ]:
        print(f"{label:<40} {n / seconds:8.0f} mails/s  ({seconds:.3f} s)")
    print(f"acknowledgements queued: {acks} of {n}")
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)


if __name__ == "__main__":
    main()
