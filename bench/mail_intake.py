"""Order mails per second from IMAP to stored acknowledgement, against the raw IMAP fetch rate
of the same server, measured in the same run.

Run by hand from the repository root, as root, with the mail stack installed
(scripts/install-mailstack.sh):

    .venv/bin/python bench/mail_intake.py [--mails 500] [--players 8] [--repeat 3]

It starts a private Postfix + Dovecot (tests/mailstack), submits ``--mails`` High Noon order
mails from registered players to gm@gm.test and waits until all are visible over IMAP. Then:

* raw: one aioimaplib session, ``UID FETCH <50 UIDs> (UID BODY.PEEK[])`` until all are in —
  the server's and the library's ceiling for getting the bytes out (best of ``--repeat``).
  Also shown: the same as one ``UID FETCH 1:*``, which is slower: aioimaplib re-scans the
  whole response so far for every chunk it receives (quadratic), hence our batches;
* fetch(): the daemon's ImapInbox.fetch() of the same unseen mails (NOOP, UID SEARCH UNSEEN,
  batched UID FETCH) — what our transport adds;
* intake: the real Daemon (transport "imap") doing take_in_mail(), as its loop does: chunks
  of CHUNKS (1, 10, then 50) mails fetched (NOOP, UID SEARCH UNSEEN, one UID FETCH),
  stored (one transaction), marked \\Seen (one UID STORE) while they are read (decode,
  parse, validate, store orders, queue the acknowledgement; one transaction each), until
  every mail has its acknowledgement stored in the outbox. Sending is not measured here.

Then, ``--repeat`` times, a fresh burst of ``--burst`` mails (default 200), for the latency
of the first reply:

* echo (baseline): a minimal loop on an open IMAP and SMTP connection doing the same fetch
  (NOOP, UID SEARCH UNSEEN, UID FETCH in chunks of CHUNKS, 1, 10, then 50, BODY.PEEK) and
  answering each mail with a three-line reply over SMTP as soon as its chunk is in; the
  moment the server accepted the first reply, and the last;
* daemon: one Daemon.cycle() with warm connections and the real SmtpSender: the moment the
  server accepted the first acknowledgement, and the last. One daemon serves all the
  bursts, started as ``run()`` starts it (games synced, grammars built), as a running
  service meets a burst: a daemon made anew for each burst paid for the database's log
  file being created again on its first commit (the last connection to close deletes it).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sqlite3
import ssl
import statistics
import sys
import tempfile
import time
from contextlib import closing
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiosmtplib  # noqa: E402
from aioimaplib import IMAP4_SSL  # noqa: E402

from bench.timing import timed_take_in_mail  # noqa: E402
from gm_daemon.daemon import CHUNKS, Daemon  # noqa: E402
from gm_daemon.mail.imap import ImapInbox, parse_fetch, parse_search  # noqa: E402
from tests.mailstack import MailStack  # noqa: E402


def _config(folder: Path, stack: MailStack, players: list[str]) -> Path:
    secret = folder / "password"
    secret.write_text(stack.users[stack.gm])
    seats = "".join(
        f'[[games.players]]\nname = "Spieler {i}"\nemail = "{address}"\ncode = "CODE-{i:04d}"\n\n'
        for i, address in enumerate(players, 1)
    )
    path = folder / "gm.toml"
    path.write_text(
        f"""[daemon]
database = "{folder / "gm.sqlite"}"
log_level = "WARNING"

[mail]
address = "{stack.gm}"
transport = "imap"
max_mails_per_hour = 1000000

{stack.servers_toml(secret)}
[[games]]
id = "hn1"
kind = "highnoon"
seed = "bench"

[games.deadlines]
every = "7d"

{seats}""",
        encoding="utf-8",
    )
    return path


def _order(number: int, player: str, seat: int) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = f"Spieler {seat} <{player}>"
    msg["To"] = "gm@gm.test"
    msg["Subject"] = f"[hn1] Befehle {number}"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(f"Hallo,\n\nCode: CODE-{seat:04d}\nHerausforderungen: keine\n\nGruß\n")
    return msg


async def _submit(
    stack: MailStack, players: list[str], count: int, total: int | None = None
) -> float:
    """Submit ``count`` order mails over one SMTP connection; seconds until all visible
    (``total``: the number of mails in the folder by then)."""
    start = time.perf_counter()
    async with aiosmtplib.SMTP(
        hostname=stack.host, port=stack.smtp_port, local_hostname="players.test", start_tls=False
    ) as smtp:
        for number in range(count):
            seat = number % len(players) + 1
            player = players[seat - 1]
            await smtp.send_message(
                _order(number, player, seat), sender=player, recipients=[stack.gm]
            )
    total = total or count
    visible = await asyncio.to_thread(stack.wait_for_messages, stack.gm, total, 300.0)
    if len(visible) < total:
        raise SystemExit(f"only {len(visible)} of {total} mails arrived")
    return time.perf_counter() - start


async def _raw_fetch(
    stack: MailStack, context: ssl.SSLContext, count: int, batch: int | None, repeat: int
) -> float:
    """Best seconds to UID FETCH every message (BODY.PEEK[]) with plain aioimaplib, in one
    warmed-up session: in batches of ``batch`` UIDs, or as one ``UID FETCH 1:*``."""
    client = IMAP4_SSL(host=stack.host, port=stack.imaps_port, ssl_context=context, timeout=60)
    await client.wait_hello_from_server()
    await client.login(stack.gm, stack.users[stack.gm])
    await client.select("INBOX")
    uids = sorted(parse_search((await client.uid_search("ALL", charset=None)).lines))
    step = batch or len(uids)
    sets = [",".join(map(str, uids[i : i + step])) for i in range(0, len(uids), step)]
    if batch is None:
        sets = ["1:*"]
    timings = []
    for _ in range(repeat + 1):  # the first pass warms the server's caches, as for fetch()
        start = time.perf_counter()
        got = 0
        for uid_set in sets:
            response = await client.uid("fetch", uid_set, "(UID BODY.PEEK[])")
            got += len(parse_fetch(response.lines))
        timings.append(time.perf_counter() - start)
        if got != count:
            raise SystemExit(f"raw fetch returned {got} of {count}")
    await client.logout()
    return min(timings[1:])


async def _inbox_fetch(stack: MailStack, context: ssl.SSLContext, count: int, repeat: int) -> float:
    inbox = ImapInbox(
        stack.host, stack.imaps_port, "tls", stack.gm, stack.users[stack.gm], ssl_context=context
    )
    timings = []
    try:
        await inbox.fetch()  # connect, log in and warm up outside the measurement
        for _ in range(repeat):
            start = time.perf_counter()
            mails = await inbox.fetch()
            timings.append(time.perf_counter() - start)
            if len(mails) != count:
                raise SystemExit(f"ImapInbox.fetch returned {len(mails)} of {count}")
    finally:
        await inbox.close()
    return min(timings)


async def _intake(config: Path, database: Path, count: int) -> tuple[float, float]:
    """Seconds of the real daemon's take_in_mail() for ``count`` mails: fetching, storing
    and marking them, and reading them and queueing every acknowledgement."""
    daemon = Daemon(config)
    try:
        daemon.referee.sync()  # starts the game: welcome mails queued (not sent, not timed)
        before = _outbox_rows(database)
        stored, store, process = await timed_take_in_mail(daemon)
    finally:
        await daemon.close()
    acks = _outbox_rows(database) - before
    if stored != count or acks != count:
        raise SystemExit(f"intake stored {stored} and acknowledged {acks} of {count} mails")
    return store, process


_FROM = re.compile(rb"^From: .*<([^>]+)>", re.MULTILINE)


async def _echo(stack: MailStack, context: ssl.SSLContext, count: int) -> tuple[float, float]:
    """The echo baseline: seconds until the SMTP server accepted the first reply, and the
    last, for the unseen burst, fetched as the daemon fetches it (see the docstring)."""
    imap = IMAP4_SSL(host=stack.host, port=stack.imaps_port, ssl_context=context, timeout=60)
    await imap.wait_hello_from_server()
    await imap.login(stack.gm, stack.users[stack.gm])
    await imap.select("INBOX")
    smtp = aiosmtplib.SMTP(
        hostname=stack.host, port=stack.smtp_port, local_hostname="gm.test", start_tls=False
    )
    await smtp.connect()
    await smtp.noop()
    first = None
    start = time.perf_counter()
    await imap.noop()
    uids = sorted(parse_search((await imap.uid_search("UNSEEN", charset=None)).lines))
    at = step = 0
    while at < len(uids):
        chunk = uids[at : at + CHUNKS[min(step, len(CHUNKS) - 1)]]
        at, step = at + len(chunk), step + 1
        response = await imap.uid("fetch", ",".join(map(str, chunk)), "(UID BODY.PEEK[])")
        bodies = parse_fetch(response.lines)
        for uid in chunk:
            found = _FROM.search(bodies[uid])
            player = found.group(1).decode() if found else stack.players[0]
            reply = f"From: {stack.gm}\r\nTo: {player}\r\nSubject: echo\r\n\r\nok\r\n"
            await smtp.sendmail(stack.gm, [player], reply.encode())
            if first is None:
                first = time.perf_counter() - start
    last = time.perf_counter() - start
    await smtp.quit()
    await imap.logout()
    if len(uids) != count or first is None:
        raise SystemExit(f"echo found {len(uids)} of {count} mails")
    return first, last


async def _first_ack(
    daemon: Daemon, database: Path, stack: MailStack, count: int
) -> tuple[float, float]:
    """One ``daemon.cycle()`` over the unseen burst, connections warm: seconds until the
    SMTP server accepted the first acknowledgement, and the last."""
    _set_all_sent(database)  # earlier acknowledgements are not this burst's
    sent: list[float] = []
    # a session of its own, selected after the burst arrived, as the echo's: the echo's
    # session moved the burst's files (Maildir new/ to cur/) under the daemon's older one,
    # whose first FETCH then had to look for them (2-3 ms; no second reader does that in
    # service)
    await daemon.inbox.close()
    await daemon.inbox.fetch(limit=0)  # IMAP connected, logged in, folder selected
    warm = f"From: {stack.gm}\r\nTo: {stack.players[0]}\r\nSubject: warm\r\n\r\n.\r\n"
    await daemon.sender.send(warm.encode(), stack.gm, [stack.players[0]])
    # delivered before the clock starts: Postfix and Dovecot busy with it took CPU from the
    # timed pass (the echo warms its connection with a NOOP, which costs the servers nothing)
    await asyncio.to_thread(stack.wait_for_queue, 60.0)
    send = daemon.sender.send

    async def timed(message: bytes, sender: str, recipients: list[str]) -> None:
        await send(message, sender, recipients)
        sent.append(time.perf_counter())

    daemon.sender.send = timed  # type: ignore[method-assign]
    try:
        start = time.perf_counter()
        await daemon.cycle()
    finally:
        daemon.sender.send = send  # type: ignore[method-assign]
    if len(sent) != count:
        raise SystemExit(f"the daemon sent {len(sent)} acknowledgements for {count} mails")
    return sent[0] - start, sent[-1] - start


def _set_all_sent(database: Path) -> None:
    with closing(sqlite3.connect(database)) as db, db:
        db.execute("UPDATE outbox SET status = 'sent' WHERE status = 'pending'")


def _outbox_rows(database: Path) -> int:
    with closing(sqlite3.connect(database)) as db:
        return int(db.execute("SELECT count(*) FROM outbox").fetchone()[0])


def _verdicts(database: Path) -> dict[str, int]:
    with closing(sqlite3.connect(database)) as db:
        rows = db.execute("SELECT verdict, count(*) FROM inbox GROUP BY verdict").fetchall()
    return {str(verdict): int(n) for verdict, n in rows}


async def _bench(args: argparse.Namespace, stack: MailStack) -> None:
    players = stack.players[: args.players]
    context = stack.ssl_context()
    submit = await _submit(stack, players, args.mails)
    print(f"setup: {args.mails} order mails submitted and visible in {submit:.1f} s")
    raw = await _raw_fetch(stack, context, args.mails, 50, args.repeat)
    whole = await _raw_fetch(stack, context, args.mails, None, args.repeat)
    ours = await _inbox_fetch(stack, context, args.mails, args.repeat)
    with tempfile.TemporaryDirectory(prefix="gm-bench-") as folder:
        config = _config(Path(folder), stack, players)
        store, process = await _intake(config, Path(folder) / "gm.sqlite", args.mails)
        verdicts = _verdicts(Path(folder) / "gm.sqlite")
        n, intake = args.mails, store + process
        rows = [
            ("raw IMAP fetch (aioimaplib, UID FETCH by 50)", raw),
            ("raw IMAP fetch (aioimaplib, one UID FETCH 1:*)", whole),
            ("ImapInbox.fetch()", ours),
            ("intake to stored acknowledgement", intake),
            ("  of which fetch + store + \\Seen", store),
            ("  of which decode + parse + ack queued", process),
        ]
        for label, seconds in rows:
            print(f"{label:<44} {n / seconds:9.0f} mails/s  ({seconds:.3f} s)")
        print(
            f"ratio intake / raw fetch: {raw / intake:.3f}   fetch() / raw fetch: {raw / ours:.3f}"
        )
        print(f"verdicts: {verdicts}")
        echoes, acks = [], []
        total = args.mails
        daemon = Daemon(config)
        try:
            daemon.referee.sync()
            for _ in range(args.repeat):
                total += args.burst
                await _submit(stack, players, args.burst, total)
                await asyncio.to_thread(stack.wait_for_queue, 60.0)
                echoes.append(await _echo(stack, context, args.burst))
                await asyncio.to_thread(stack.wait_for_queue, 60.0)
                database = Path(folder) / "gm.sqlite"
                acks.append(await _first_ack(daemon, database, stack, args.burst))
        finally:
            await daemon.close()
    print(f"burst of {args.burst}, {args.repeat} runs (median; each run: echo, then daemon):")
    for label, runs in (
        ("echo baseline (IMAP fetch -> SMTP reply)", echoes),
        ("daemon cycle()", acks),
    ):
        first = statistics.median(r[0] for r in runs)
        last = statistics.median(r[1] for r in runs)
        each = ", ".join(f"{r[0] * 1000:.0f}" for r in runs)
        print(f"{label:<44} first reply {first * 1000:6.1f} ms ({each})  last {last:.2f} s")
    ratio = statistics.median(a[0] / e[0] for a, e in zip(acks, echoes, strict=True))
    print(f"first acknowledgement / first echo reply: {ratio:.2f}x (target <= 2x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=500)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--burst", type=int, default=200)
    args = parser.parse_args()
    with MailStack(players=args.players) as stack:
        asyncio.run(_bench(args, stack))


if __name__ == "__main__":
    main()
