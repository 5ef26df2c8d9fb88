"""LMTP intake against IMAP IDLE and against an LMTP echo responder, measured in the same run.

Run by hand from the repository root, as root, with the mail stack installed
(scripts/install-mailstack.sh):

    .venv/bin/python bench/lmtp.py [--mails 200] [--burst 1000] [--connections 8]

It starts a private Postfix + Dovecot (tests/mailstack). Mail for ``gm@gm.test`` goes to
Dovecot (read by the daemon over IMAP IDLE), mail for ``gm-lmtp@gm.test`` to the LMTP socket
(``transport_maps``, as docs/lmtp.md sets it up). Each responder is a process of its own:

* **echo** (the floor): aiosmtpd's LMTP server on the same socket, answering ``250`` at once
  without reading the mail (no parse, no store) and sending a fixed reply to the envelope
  sender over one open SMTP connection, as large as the daemon's acknowledgement
  (``--echo-bytes``; 0 for the three lines of earlier runs);
* **lmtp**: ``gm-daemon run`` on transport "lmtp";
* **imap**: ``gm-daemon run`` on transport "imap" (IDLE), for the same game.

**Acknowledgement latency**: ``--mails`` order mails, one at a time, each submitted over SMTP
to Postfix's MX port (an open connection) from one of seven players (the eighth sends
nothing, so no phase ends early); the time until the reply's file is in the player's Maildir
(Dovecot's own delivery, watched on disk every 0.5 ms; no IMAP client in the measurement).

**Burst**: ``--burst`` order mails handed straight to the socket over ``--connections`` LMTP
connections at once (as Postfix's lmtp client does with its concurrency), by a client that
costs little beside the responder: each mail pre-built as the bytes on the wire, the next
written when the last has its replies (one round trip per mail; Postfix waits for ``354``
too), replies only counted. For the echo and the daemon: the rate of ``250`` replies, the CPU
seconds per mail of the responder and of the bench client until the last ``250`` (from
/proc: a figure the other engineers' load on the machine moves far less than the wall
clock), the moment the first reply reached a player's Maildir; for the daemon also the rate
of mails handled (its acknowledgement stored in the outbox: the figure the IMAP intake bench
gives; their sending not counted) and how many were handled by the last ``250``.
``--mails 0`` measures the burst alone; ``--pyspy FILE`` samples the daemon until the last
``250`` (py-spy installed into the venv by hand; not a dependency of the project).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import smtplib
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.mailstack import MailStack  # noqa: E402

PLAYERS = 8  # the last one sends nothing
DAEMON = [sys.executable, "-c", "import sys; from gm_daemon.cli import main; sys.exit(main())"]
REPLY = b"Subject: Re: orders\r\n\r\nThanks, received.\r\n"
ACK_BYTES = 1100  # the size of the daemon's acknowledgement of a bench order (~1.1 kB)


def echo_reply(size: int) -> bytes:
    """The echo's fixed reply, its body padded with lines of text to ``size`` bytes: Postfix
    and Dovecot then carry as many bytes for the floor as for the daemon (their time grows
    with it: 8.8 → 13.1 ms for the SMTP exchange alone, 3 lines against 1.1 kB)."""
    line = b"Danke, angekommen. " * 3 + b"\r\n"
    return REPLY + line * max(0, (size - len(REPLY)) // len(line))


# --- the echo responder (a process of its own: bench/lmtp.py --echo SOCKET SMTP_PORT) -------


def echo_main(socket_path: str, smtp_port: int, size: int) -> None:
    """250 at once, then a fixed reply to the envelope sender, sent meanwhile."""
    import aiosmtplib
    from aiosmtpd.lmtp import LMTP

    body = echo_reply(size)

    async def serve() -> None:
        replies: asyncio.Queue[str] = asyncio.Queue()

        class Echo:
            async def handle_DATA(self, server, session, envelope):
                replies.put_nowait(envelope.mail_from)
                return "\r\n".join("250 2.0.0 OK" for _ in envelope.rcpt_tos)

        async def send() -> None:
            smtp = aiosmtplib.SMTP(hostname="127.0.0.1", port=smtp_port, start_tls=False)
            await smtp.connect()
            while True:
                to = await replies.get()
                head = f"From: gm-lmtp@gm.test\r\nTo: {to}\r\n".encode()
                await smtp.sendmail("gm-lmtp@gm.test", [to], head + body)

        with contextlib.suppress(FileNotFoundError):
            os.unlink(socket_path)
        loop = asyncio.get_running_loop()
        server = await loop.create_unix_server(
            lambda: LMTP(Echo(), data_size_limit=None, enable_SMTPUTF8=True), socket_path
        )
        os.chmod(socket_path, 0o666)
        sender = asyncio.ensure_future(send())
        stop = asyncio.Event()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()
        sender.cancel()
        server.close()

    asyncio.run(serve())


# --- set-up ------------------------------------------------------------------------------


def _config(folder: Path, stack: MailStack, transport: str) -> Path:
    folder.mkdir()
    secret = folder / "password"
    secret.write_text(stack.users[stack.gm])
    seats = "".join(
        f'[[games.players]]\nname = "Spieler {i}"\nemail = "{address}"\ncode = "CODE-{i:04d}"\n\n'
        for i, address in enumerate(stack.players[:PLAYERS], 1)
    )
    if transport == "lmtp":
        address, servers = stack.lmtp_gm, stack.lmtp_toml()
    else:
        address, servers = stack.gm, stack.servers_toml(secret)
    path = folder / "gm.toml"
    path.write_text(
        f'[daemon]\ndatabase = "{folder / "gm.sqlite"}"\nlog_level = "WARNING"\n\n'
        f'[mail]\naddress = "{address}"\ntransport = "{transport}"\n'
        f"max_mails_per_hour = 1000000\n\n{servers}\n"
        f'[[games]]\nid = "hn1"\nkind = "highnoon"\nseed = "bench"\n\n'
        f'[games.deadlines]\nevery = "7d"\n\n{seats}',
        encoding="utf-8",
    )
    return path


def _order(to: str, seat: int, player: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"Spieler {seat} <{player}>"
    msg["To"] = to
    msg["Subject"] = "[hn1] Befehle"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(f"Hallo,\n\nCode: CODE-{seat:04d}\nHerausforderungen: keine\n\nGruß\n")
    return bytes(msg).replace(b"\n", b"\r\n")


class Mailboxes:
    """The players' Maildirs as Dovecot writes them: a reply is there when its file is."""

    def __init__(self, stack: MailStack) -> None:
        self.folders = [
            stack.root / "mail" / "players.test" / p.split("@")[0] for p in stack.players
        ]

    def count(self, seat: int) -> int:
        folder = self.folders[seat - 1]
        return sum(
            len(os.listdir(folder / sub)) for sub in ("new", "cur") if (folder / sub).is_dir()
        )

    def counts(self) -> list[int]:
        return [self.count(seat) for seat in range(1, len(self.folders) + 1)]

    def wait_beyond(self, seat: int, count: int, timeout: float = 30) -> float:
        deadline = time.perf_counter() + timeout
        while self.count(seat) <= count:
            if time.perf_counter() > deadline:
                raise SystemExit(f"no reply for player {seat} within {timeout} s")
            time.sleep(0.0005)
        return time.perf_counter()


class Responder:
    """A process that takes the GM's mail: the daemon (``gm-daemon run``) or the echo."""

    def __init__(self, command: list[str], log: Path) -> None:
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=out, stderr=out
            )

    def cpu(self) -> float:
        """Seconds of CPU the process has used so far (user and system, /proc)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


def _listening(path: Path, timeout: float = 60) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX) as probe:
            probe.connect(str(path))
            return
        time.sleep(0.02)
    raise SystemExit(f"nothing listens on {path}")


def _spy(pid: int, output: str) -> subprocess.Popen[bytes]:
    """py-spy (pip install py-spy into the venv; not a project dependency) sampling the
    daemon from now until interrupted."""
    spy = Path(sys.executable).parent / "py-spy"
    kind = "flamegraph" if output.endswith(".svg") else "raw"  # raw: collapsed stacks
    command = [str(spy), "record", "--pid", str(pid), "--rate", "250", "-f", kind, "-o", output]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)  # attached
    return process


# --- measurements -----------------------------------------------------------------------


def latencies(stack: MailStack, boxes: Mailboxes, to: str, mails: int) -> list[float]:
    """Seconds from the SMTP submission of each order to its reply in the player's Maildir."""
    found = []
    with smtplib.SMTP(stack.host, stack.mx_port, local_hostname="players.test") as smtp:
        for n in range(mails + 5):  # 5 to warm up
            seat = n % (PLAYERS - 1) + 1
            player = stack.players[seat - 1]
            data = _order(to, seat, player)
            before = boxes.count(seat)
            start = time.perf_counter()
            smtp.sendmail(player, [to], data)
            arrived = boxes.wait_beyond(seat, before)
            if n >= 5:
                found.append(arrived - start)
            time.sleep(0.01)  # let a stray copy or log write settle
    return found


def burst(
    stack: MailStack,
    boxes: Mailboxes,
    mails: int,
    connections: int,
    database: Path | None,
    responder: Responder,
    spy: str | None = None,
) -> dict[str, float]:
    """``mails`` orders over ``connections`` LMTP connections at once; seconds until every
    250, until the first reply is in a player's Maildir, until every mail is handled."""
    orders = []
    for n in range(mails):
        seat = n % (PLAYERS - 1) + 1
        player = stack.players[seat - 1]
        orders.append((player, _order(stack.lmtp_gm, seat, player)))
    return asyncio.run(_burst(stack, boxes, orders, connections, database, responder, spy))


async def _burst(
    stack: MailStack,
    boxes: Mailboxes,
    orders: list[tuple[str, bytes]],
    connections: int,
    database: Path | None,
    responder: Responder,
    spy: str | None,
) -> dict[str, float]:
    before = boxes.counts()
    done_before = 0
    if database is not None:
        with contextlib.closing(sqlite3.connect(database, timeout=30)) as db:
            query = "SELECT COUNT(*) FROM inbox WHERE status = 'done'"
            done_before = db.execute(query).fetchone()[0]
    clients = [await _LmtpClient.open(stack.lmtp_socket) for _ in range(connections)]
    shares = [orders[i::connections] for i in range(connections)]
    wires = [_LmtpClient.blocks(share, stack.lmtp_gm) for share in shares]
    spying = _spy(responder.process.pid, spy) if spy else None
    cpu, own = responder.cpu(), time.process_time()
    start = time.perf_counter()
    watcher = asyncio.ensure_future(_first_reply(boxes, before, start))
    await asyncio.gather(
        *(client.deliver(wire) for client, wire in zip(clients, wires, strict=True))
    )
    acked = time.perf_counter() - start
    cpu, own = responder.cpu() - cpu, time.process_time() - own
    if spying is not None:
        spying.send_signal(signal.SIGINT)  # py-spy writes its file on the interrupt
        spying.wait(60)
    for client in clients:
        await client.close()
    handled, meanwhile = 0.0, 0
    if database is not None:
        with contextlib.closing(sqlite3.connect(database, timeout=30)) as db:
            query = "SELECT COUNT(*) FROM inbox WHERE status = 'done'"
            meanwhile = db.execute(query).fetchone()[0] - done_before
            while db.execute(query).fetchone()[0] < len(orders) + done_before:
                await asyncio.sleep(0.002)
        handled = time.perf_counter() - start
    first = await watcher
    return {
        "acked": acked,
        "cpu": cpu,
        "client": own,
        "first": first,
        "handled": handled,
        "meanwhile": meanwhile,
    }


async def _first_reply(boxes: Mailboxes, before: list[int], start: float) -> float:
    while boxes.counts() == before:
        if time.perf_counter() - start > 60:
            raise SystemExit("no reply within 60 s of the burst's start")
        await asyncio.sleep(0.001)
    return time.perf_counter() - start


class _LmtpClient:
    """The bench's side of one connection, as cheap as it can be, so that the burst measures
    the responder and not this process: each mail is pre-built as one block of bytes (MAIL,
    RCPT, DATA and the dot-stuffed mail) before the clock starts, and the next block is
    written as soon as the last one's final reply is in (one round trip per mail, where
    Postfix's lmtp client waits for ``354`` as well: two). The replies are read in large
    pieces and only their lines counted."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, path: Path) -> _LmtpClient:
        reader, writer = await asyncio.open_unix_connection(str(path), limit=1 << 20)
        client = cls(reader, writer)
        await client.reply()
        writer.write(b"LHLO bench.test\r\n")
        await client.reply()
        return client

    async def reply(self) -> str:
        line = await self.reader.readline()
        while line[3:4] == b"-":
            line = await self.reader.readline()
        return line.decode()

    @staticmethod
    def blocks(orders: list[tuple[str, bytes]], to: str) -> list[bytes]:
        """Each mail as the bytes on the wire."""
        blocks = []
        for sender, data in orders:
            stuffed = data.replace(b"\r\n.", b"\r\n..")
            end = b"" if stuffed.endswith(b"\r\n") else b"\r\n"
            command = f"MAIL FROM:<{sender}>\r\nRCPT TO:<{to}>\r\nDATA\r\n".encode()
            blocks.append(command + stuffed + end + b".\r\n")
        return blocks

    async def deliver(self, blocks: list[bytes]) -> None:
        """One mail after the other: the next is written when the last one has its four
        replies (250 MAIL, 250 RCPT, 354, 250 after the data); any reply not 250/354 stops
        the bench."""
        lines, tail, sent = 0, b"", 1
        self.writer.write(blocks[0])
        while lines < 4 * len(blocks):
            chunk = await self.reader.read(1 << 16)
            if not chunk:
                raise SystemExit(f"connection closed after {lines} reply lines")
            done, _, tail = (tail + chunk).rpartition(b"\r\n")
            for line in done.split(b"\r\n"):
                if line[:3] not in (b"250", b"354"):
                    raise SystemExit(f"refused: {line!r}")
                lines += 1
            while sent < len(blocks) and sent * 4 <= lines:
                self.writer.write(blocks[sent])
                sent += 1

    async def close(self) -> None:
        self.writer.write(b"QUIT\r\n")
        await self.reply()
        self.writer.close()


def _summary(values: list[float]) -> str:
    ordered = sorted(values)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * len(ordered)) - 1)]
    return (
        f"p50 {p50 * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms  "
        f"min {ordered[0] * 1000:6.1f}  max {ordered[-1] * 1000:7.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=200)
    parser.add_argument("--burst", type=int, default=1000)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--profile", help="cProfile output of the LMTP daemon to this file")
    parser.add_argument(
        "--pyspy",
        help="py-spy profile of the LMTP daemon until the burst's last 250 (.svg: flame graph)",
    )
    parser.add_argument(
        "--echo-bytes",
        type=int,
        default=ACK_BYTES,
        help="size of the echo's reply (default: an acknowledgement's; 0: three lines)",
    )
    parser.add_argument(
        "--echo", nargs=3, metavar=("SOCKET", "SMTP_PORT", "BYTES"), help=argparse.SUPPRESS
    )
    options = parser.parse_args()
    if options.echo:
        echo_main(options.echo[0], int(options.echo[1]), int(options.echo[2]))
        return
    with MailStack(players=PLAYERS) as stack, tempfile.TemporaryDirectory() as tmp:
        run(stack, Path(tmp), options)


def run(stack: MailStack, tmp: Path, options: argparse.Namespace) -> None:
    boxes = Mailboxes(stack)
    log = tmp / "responders.log"
    echo_command = [
        sys.executable,
        __file__,
        "--echo",
        str(stack.lmtp_socket),
        str(stack.smtp_port),
        str(options.echo_bytes),
    ]
    results: dict[str, list[float]] = {}
    bursts: dict[str, dict[str, float]] = {}

    echo = Responder(echo_command, log)
    try:
        _listening(stack.lmtp_socket)
        if options.mails:
            results["echo"] = latencies(stack, boxes, stack.lmtp_gm, options.mails)
        bursts["echo"] = burst(stack, boxes, options.burst, options.connections, None, echo)
    finally:
        echo.stop()
    stack.wait_for_queue(60)

    config = _config(tmp / "lmtp", stack, "lmtp")
    profile = ["-m", "cProfile", "-o", options.profile] if options.profile else []
    script = str(Path(sys.executable).parent / "gm-daemon")
    command = [sys.executable, *profile, script, "run", "--config", str(config)]
    daemon = Responder(command if profile else [*DAEMON, "run", "--config", str(config)], log)
    try:
        _listening(stack.lmtp_socket)
        for seat in range(1, PLAYERS + 1):  # the welcome mails are in
            boxes.wait_beyond(seat, 0, 60)
        time.sleep(0.5)
        if options.mails:
            results["lmtp"] = latencies(stack, boxes, stack.lmtp_gm, options.mails)
        database = tmp / "lmtp" / "gm.sqlite"
        bursts["lmtp"] = burst(
            stack, boxes, options.burst, options.connections, database, daemon, options.pyspy
        )
        stack.wait_for_queue(120)
    finally:
        daemon.stop()

    if options.mails:
        results["imap"] = imap_latencies(stack, boxes, tmp, options.mails, log)
        latency_table(results, options.mails)
    burst_table(bursts, options)
    errors = [line for line in log.read_text(errors="replace").splitlines() if "ERROR" in line]
    if errors:
        print(f"\n{len(errors)} errors in the responders' log, e.g. {errors[0]}")


def imap_latencies(
    stack: MailStack, boxes: Mailboxes, tmp: Path, mails: int, log: Path
) -> list[float]:
    config = _config(tmp / "imap", stack, "imap")
    daemon = Responder([*DAEMON, "run", "--config", str(config)], log)
    try:
        time.sleep(3)  # started, welcome mails sent, IDLE entered
        stack.wait_for_queue(60)
        return latencies(stack, boxes, stack.gm, mails)
    finally:
        daemon.stop()


def latency_table(results: dict[str, list[float]], mails: int) -> None:
    print(f"\nSMTP submission → reply in the player's Maildir, {mails} mails each:")
    for name, label in (
        ("echo", "LMTP echo (floor)"),
        ("lmtp", "daemon, transport lmtp"),
        ("imap", "daemon, transport imap (IDLE)"),
    ):
        print(f"  {label:<30} {_summary(results[name])}")
    ratio = statistics.median(results["lmtp"]) / statistics.median(results["echo"])
    print(f"  lmtp / echo (p50): {ratio:.2f}×")


def burst_table(bursts: dict[str, dict[str, float]], options: argparse.Namespace) -> None:
    n = options.burst
    print(f"\nburst of {n} mails over {options.connections} LMTP connections:")
    echo, lmtp = bursts["echo"], bursts["lmtp"]
    for name, b in (("echo", echo), ("daemon", lmtp)):
        print(
            f"  {name + ':':<7} every 250 after {b['acked']:.3f} s = {n / b['acked']:6.0f}/s; "
            f"CPU per mail until then: {b['cpu'] / n * 1000:.2f} ms its own (one core: "
            f"{n / b['cpu']:.0f}/s), {b['client'] / n * 1000:.2f} ms the bench client's; "
            f"first reply in a Maildir after {b['first'] * 1000:.1f} ms"
        )
    print(
        f"  daemon: every acknowledgement stored after {lmtp['handled']:.3f} s = "
        f"{n / lmtp['handled']:.0f}/s ({lmtp['meanwhile']:.0f} handled by the last 250); "
        f"250s {echo['acked'] / lmtp['acked']:.2f}× the echo's rate, "
        f"first reply {lmtp['first'] / echo['first']:.2f}× the echo's"
    )


if __name__ == "__main__":
    main()
