"""Order mails dropped into the inbox Maildir → acknowledgement files in the outbox Maildir,
as a GM sees it from outside: a real ``gm-daemon`` process started from the command line,
against reading and parsing the same files with the email package in the same run.

Run by hand from the repository root (no root, no mail stack):

    .venv/bin/python bench/intake_e2e.py [--mails 1000] [--games 20] [--players 8]
        [--rounds 3] [--py-spy FILE] [--tree DIR]

A config with transport ``maildir`` and ``--games`` High Noon games of ``--players`` seats
(every seat a player of his own). ``--mails`` order mails, spread round-robin over the games
and over every seat but the last of each (so no phase is complete and nothing resolves:
what is measured is the acknowledgement path), are written beforehand into the inbox's
``tmp/``, as an MTA writes them. Then, each round:

* baseline: reading every one of those files and ``email.message_from_bytes`` on it, in
  this process (best of three);
* daemon: ``gm-daemon run`` as a process, started and idle (its welcome mails written and
  a second passed); the files are moved from ``tmp/`` into ``new/`` (the drop, timed from
  its first move) and the outbox's ``new/`` is watched (a listing every 2 ms) until every
  acknowledgement file is there;
* once: the same drop into a second set-up whose daemon has run once before (welcomes
  written), then ``gm-daemon run --once``, timed from its start until it exits with every
  acknowledgement written; start-up and close included. The same command on an empty inbox
  right after gives what start-up and close cost alone. Also printed: the first
  acknowledgement's file after the start (what start-up and the first mail's lazy work
  cost a player) and the exit after the last one (the close), from the files' modification
  times against the wall clock at the start.

For the running daemon it also prints its main thread's share of the burst (Linux's
/proc): its CPU seconds, the seconds it was runnable but waited for a CPU (``queued``: the
machine's other work) and the rest of the wall time, when it slept (``asleep``: waiting for
the drop to be noticed, for the inbox's or sender's threads, for the interpreter lock).
Before the rounds it prints what creating a file in its temp folder costs right now (µs per
file over 300 files) and the folder's file system: on an ext4 without a journal that cost
goes from ~20 to 150–350 µs for half a minute or more after many files were deleted (by the
last bench or test run), and the daemon makes a file per acknowledgement. Each round first
waits (up to two minutes) until a file costs less than 60 µs again — a GM's server does not
delete thousands of files the moment a burst arrives — and prints what it cost then. The
bench's own files are removed only at its end.

After each, every dropped mail must have exactly one acknowledgement file (``In-Reply-To``)
and the database ``--mails`` sent ``accepted`` mails; anything else stops the bench.
``--py-spy FILE`` records the running daemon during the first round's burst with py-spy
(``pip install py-spy`` into the venv; root or ptrace rights) in the collapsed-stack format
and prints the functions the samples spent most time in. ``--tree DIR`` runs the daemon from
another checkout's code (``git archive COMMIT | tar -x -C DIR``), to compare two versions in
alternating runs.
"""

from __future__ import annotations

import argparse
import collections
import email
import os
import re
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GM_DAEMON = Path(sys.executable).parent / "gm-daemon"
IN_REPLY_TO = re.compile(rb"^In-Reply-To: *(<[^>\r\n]+>)", re.MULTILINE | re.IGNORECASE)
WATCH_EVERY = 0.002
TIMEOUT = 300.0
SETTLE_FOR = 120.0  # seconds a round waits at most for file creation to be cheap again
SETTLED_BELOW_US = 60.0  # µs a file: ~20 on a quiet ext4, 150–350 after mass deletions
TREE: Path | None = None  # --tree: another checkout's code for the daemon
# The console script's code, for a tree run with ``python -c`` (older trees have no entry)
ENTRY = "import sys, gm_daemon.cli as c; c.entry() if hasattr(c, 'entry') else sys.exit(c.main())"


@dataclass(frozen=True)
class Setup:
    folder: Path
    config: Path
    welcomes: int
    message_ids: list[str]

    @property
    def inbox(self) -> Path:
        return self.folder / "in"

    @property
    def outbox(self) -> Path:
        return self.folder / "out" / "new"


def _config(folder: Path, games: int, players: int) -> Path:
    seats = "".join(
        f'[[games.players]]\nname = "Spieler {seat}"\nemail = "g{{n}}p{seat}@players.test"\n'
        f'code = "CODE-{{n}}-{seat}"\n\n'
        for seat in range(1, players + 1)
    )
    tables = "".join(
        f'[[games]]\nid = "hn{n}"\nkind = "highnoon"\nseed = "bench-{n}"\n\n'
        f'[games.deadlines]\nevery = "7d"\n\n' + seats.format(n=n)
        for n in range(1, games + 1)
    )
    path = folder / "gm.toml"
    path.write_text(
        f'[daemon]\ndatabase = "{folder / "gm.sqlite"}"\nlog_level = "WARNING"\n\n'
        f'[mail]\naddress = "gm@gm.test"\ntransport = "maildir"\n'
        f"max_mails_per_hour = 1000000\n\n"
        f'[mail.maildir]\ninbox = "{folder / "in"}"\noutbox = "{folder / "out"}"\n\n{tables}',
        encoding="utf-8",
    )
    return path


def _order(number: int, games: int, players: int) -> EmailMessage:
    """Mail ``number``: game round-robin, then a seat round-robin over all but the last."""
    game = number % games + 1
    seat = (number // games) % (players - 1) + 1
    msg = EmailMessage()
    msg["From"] = f"Spieler {seat} <g{game}p{seat}@players.test>"
    msg["To"] = "gm@gm.test"
    msg["Subject"] = f"[hn{game}] Befehle {number}"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(f"Hallo,\n\nCode: CODE-{game}-{seat}\nHerausforderungen: keine\n\nGruß\n")
    return msg


def _prepare(folder: Path, mails: int, games: int, players: int) -> Setup:
    """A config and the mails waiting in the inbox's tmp/ (not yet visible to the daemon)."""
    folder.mkdir()
    config = _config(folder, games, players)
    for sub in ("new", "cur", "tmp"):
        (folder / "in" / sub).mkdir(parents=True)
    host = socket.gethostname()
    ids = []
    for number in range(mails):
        msg = _order(number, games, players)
        ids.append(str(msg["Message-ID"]))
        name = f"{int(time.time())}.bench{number:05d}.{host}"
        (folder / "in" / "tmp" / name).write_bytes(bytes(msg))
    return Setup(folder, config, games * players, ids)


def _drop(setup: Setup) -> None:
    """Every prepared mail into new/, as an MTA finishes a delivery (a rename)."""
    tmp, new = setup.inbox / "tmp", setup.inbox / "new"
    for name in sorted(os.listdir(tmp)):
        os.rename(tmp / name, new / name)


def _baseline(setup: Setup) -> float:
    """Seconds to read and parse every prepared mail with the email package."""
    folder = setup.inbox / "tmp"
    names = sorted(os.listdir(folder))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for name in names:
            email.message_from_bytes((folder / name).read_bytes())
        best = min(best, time.perf_counter() - start)
    return best


def _count(folder: Path) -> int:
    try:
        return len(os.listdir(folder))
    except FileNotFoundError:
        return 0


def _wait_for(folder: Path, count: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + TIMEOUT
    while _count(folder) < count:
        if process.poll() is not None:
            raise SystemExit(f"gm-daemon exited ({process.returncode}) before {count} files")
        if time.monotonic() > deadline:
            raise SystemExit(f"only {_count(folder)} of {count} files after {TIMEOUT:.0f} s")
        time.sleep(WATCH_EVERY)


def _start(setup: Setup, *args: str) -> subprocess.Popen[bytes]:
    """``gm-daemon run`` as the GM starts it; with ``--tree``, that tree's code instead. The
    daemon may write its byte code (an installed package has it: without, every start
    compiles the whole package again, ~0.5 s here)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    command = [str(GM_DAEMON)]
    if TREE is not None:
        env["PYTHONPATH"] = str(TREE)
        command = [
            sys.executable,
            "-P",  # without it "-c" puts the working directory (this checkout) first
            "-c",
            ENTRY,
        ]
    with (setup.folder / "daemon.log").open("ab") as log:
        return subprocess.Popen(
            [*command, "run", "--config", str(setup.config), *args],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )


def _check(setup: Setup) -> None:
    """Every dropped mail answered once, and the database agrees."""
    answers: collections.Counter[bytes] = collections.Counter()
    for name in os.listdir(setup.outbox):
        head = (setup.outbox / name).read_bytes().split(b"\n\n", 1)[0]
        found = IN_REPLY_TO.search(head)
        if found:
            answers[found.group(1)] += 1
    wrong = [i for i in setup.message_ids if answers[i.encode()] != 1]
    if wrong:
        raise SystemExit(f"{len(wrong)} mails without exactly one answer, e.g. {wrong[0]}")
    with closing(sqlite3.connect(setup.folder / "gm.sqlite")) as db:
        sent = db.execute(
            "SELECT count(*) FROM outbox WHERE purpose = 'accepted' AND status = 'sent'"
        ).fetchone()[0]
    if sent != len(setup.message_ids):
        raise SystemExit(f"{sent} accepted mails marked sent, not {len(setup.message_ids)}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    if process.wait(timeout=60) != 0:
        raise SystemExit(f"gm-daemon stopped with status {process.returncode}")


@dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float  # the daemon's own (user + system), all its threads
    main: float | None = None  # the running daemon's main thread alone (its event loop)
    # the main thread's seconds runnable but not run (the machine's other work), and asleep
    # (waiting for its threads, the interpreter lock, a file: the daemon's own waits)
    queued: float | None = None
    asleep: float | None = None
    # run --once: seconds from the start to the first new file in the outbox, and from the
    # last one to the exit (the files' modification times; None when it wrote none)
    first: float | None = None
    after_last: float | None = None


def _cpu_of(pid: int, thread: int | None = None) -> float:
    """CPU seconds a running process (or one of its threads: /proc/PID/task/TID) has used
    (Linux: its stat file, in clock ticks)."""
    stat = f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat"
    fields = Path(stat).read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _schedstat(pid: int) -> tuple[float, float]:
    """Seconds the main thread (its id is the pid) has run and has waited to run while
    runnable (Linux: /proc/PID/task/TID/schedstat, in nanoseconds)."""
    ran, queued, _slices = Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()
    return int(ran) / 1e9, int(queued) / 1e9


def _running(setup: Setup, spy: Path | None) -> Timing:
    """From the drop until every acknowledgement is in the outbox, daemon running."""
    process = _start(setup)
    try:
        _wait_for(setup.outbox, setup.welcomes, process)
        time.sleep(1.0)  # the pass that wrote the welcomes is over; the daemon waits
        recorder = _record(spy, process.pid) if spy else None
        cpu, main = _cpu_of(process.pid), _cpu_of(process.pid, process.pid)
        ran, queued = _schedstat(process.pid)
        start = time.perf_counter()
        _drop(setup)
        _wait_for(setup.outbox, setup.welcomes + len(setup.message_ids), process)
        wall = time.perf_counter() - start
        ran_after, queued_after = _schedstat(process.pid)
        timing = Timing(
            wall,
            _cpu_of(process.pid) - cpu,
            main=_cpu_of(process.pid, process.pid) - main,  # the main thread's id is the pid
            queued=queued_after - queued,
            asleep=wall - (ran_after - ran) - (queued_after - queued),
        )
        if recorder:
            recorder.send_signal(signal.SIGINT)
            recorder.wait(timeout=60)
    finally:
        _stop(process)
    return timing


def _once(setup: Setup) -> tuple[Timing, Timing]:
    """``run --once`` over the dropped mails; the same on an empty inbox right after."""
    _run_once(setup)  # welcomes, database made: not what is measured
    _drop(setup)
    timings = (_run_once(setup), _run_once(setup))
    found = _count(setup.outbox)
    if found != setup.welcomes + len(setup.message_ids):
        raise SystemExit(f"{found} files in the outbox after run --once")
    return timings


def _run_once(setup: Setup) -> Timing:
    before = set(os.listdir(setup.outbox)) if setup.outbox.exists() else set()
    started = time.time()  # the files' clock, for the first and last acknowledgement
    start = time.perf_counter()
    process = _start(setup, "--once")
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"gm-daemon run --once failed ({process.returncode})")
    written = sorted(
        (setup.outbox / name).stat().st_mtime
        for name in os.listdir(setup.outbox)
        if name not in before
    )
    if not written:
        return Timing(wall, usage.ru_utime + usage.ru_stime)
    ended = started + wall
    return Timing(
        wall,
        usage.ru_utime + usage.ru_stime,
        first=written[0] - started,
        after_last=ended - written[-1],
    )


def _file_cost(folder: Path, files: int = 300) -> float:
    """Microseconds to create (and write and close) a small file in a new folder under
    ``folder`` right now, each of ``files``. On an ext4 without a journal (this VM's root) a
    new file costs ~20 µs, but 150–350 µs for half a minute or more after many files were
    deleted (the inode allocator skips the recently freed ones one by one): the daemon writes
    a file per acknowledgement, so this is printed beside its figures. The files stay until
    the bench's folder goes: removing them would slow the round that follows."""
    probe = Path(tempfile.mkdtemp(prefix="probe-", dir=folder))
    start = time.perf_counter()
    for number in range(files):
        fd = os.open(probe / f"f{number}", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, b"x" * 1000)
        os.close(fd)
    return (time.perf_counter() - start) / files * 1e6


def _settled_file_cost(folder: Path) -> float:
    """Wait (up to ``SETTLE_FOR``) until creating a file costs what it costs on a server that
    did not just delete thousands of files — a bench or test run before this one did, which a
    GM's server does not the moment a burst arrives — and say what it costs then."""
    deadline = time.monotonic() + SETTLE_FOR
    cost = _file_cost(folder, 100)
    while cost > SETTLED_BELOW_US and time.monotonic() < deadline:
        time.sleep(5)
        cost = _file_cost(folder, 100)
    return cost


def _file_system(folder: Path) -> str:
    """The type of the file system ``folder`` is on (the longest mount point above it)."""
    best, kind = "", "unknown"
    with open("/proc/self/mounts", encoding="utf-8") as mounts:
        for line in mounts:
            fields = line.split()
            point = fields[1].replace("\\040", " ")
            inside = str(folder).startswith(point.rstrip("/") + "/") or str(folder) == point
            if inside and len(point) >= len(best):
                best, kind = point, fields[2]
    return kind


def _ms(seconds: float | None) -> str:
    return "–" if seconds is None else f"{1000 * seconds:.0f} ms"


def _record(out: Path, pid: int) -> subprocess.Popen[bytes]:
    spy = Path(sys.executable).parent / "py-spy"
    recorder = subprocess.Popen(
        [
            str(spy),
            "record",
            "-p",
            str(pid),
            "-o",
            str(out),
            "-f",
            "raw",
            "-r",
            "1000",
            "--threads",
            "--idle",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)  # attached before the drop
    return recorder


def _summary(out: Path, top: int = 25) -> None:
    """Own and total samples per function of a py-spy collapsed-stack file."""
    own: collections.Counter[str] = collections.Counter()
    total: collections.Counter[str] = collections.Counter()
    samples = 0
    for line in out.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = [f.split(" (")[0] + " " + f.rsplit("/", 1)[-1].rstrip(")") for f in
                  stack.split(";")]  # fmt: skip
        n = int(count)
        samples += n
        own[frames[-1]] += n
        for frame in set(frames):
            total[frame] += n
    print(f"\npy-spy: {samples} samples; most own time:")
    for frame, n in own.most_common(top):
        print(f"  {100 * n / samples:5.1f} %  {frame}")
    print("most total time:")
    for frame, n in total.most_common(top):
        print(f"  {100 * n / samples:5.1f} %  {frame}")


def set_up_arguments(
    doc: str, rounds: int | None, tree: str, *, mails: int = 1000
) -> argparse.ArgumentParser:
    """The options every bench on this set-up shares (``answer.py``, ``reading.py`` and
    ``startup_steps.py`` use it too): the mails, the games and seats, the rounds (none for a
    bench that counts instead of timing), another checkout's code."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--mails", type=int, default=mails)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=8)
    if rounds is not None:
        parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--tree", type=Path, help=tree)
    return parser


def main() -> None:
    parser = set_up_arguments(__doc__, 3, "run the daemon from this checkout")
    parser.add_argument("--py-spy", type=Path, dest="spy")
    args = parser.parse_args()
    global TREE
    TREE = args.tree.resolve() if args.tree else None
    if args.players < 2:
        raise SystemExit("--players: at least 2 (the last seat never sends)")
    n = args.mails
    rates: dict[str, list[float]] = collections.defaultdict(list)
    moments: dict[str, list[float]] = collections.defaultdict(list)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="gm-bench-e2e-") as name:
        print(
            f"creating a file in {name} ({_file_system(Path(name))}): "
            f"{_file_cost(Path(name)):.0f} µs (300 files)",
            flush=True,
        )
        for round_ in range(args.rounds):
            settled = _settled_file_cost(Path(name))
            running = _prepare(Path(name) / f"run{round_}", n, args.games, args.players)
            once_setup = _prepare(Path(name) / f"once{round_}", n, args.games, args.players)
            base = _baseline(running)
            daemon = _running(running, args.spy if round_ == 0 else None)
            _check(running)
            once, empty = _once(once_setup)
            _check(once_setup)
            load = os.getloadavg()[0]
            figures = {
                "baseline": n / base,
                "daemon": n / daemon.wall,
                "daemon, per CPU second": n / daemon.cpu,
                "daemon, per main-thread CPU s": n / max(daemon.main or 0.0, 1e-9),
                "once": n / once.wall,
                "once, per CPU second": n / once.cpu,
                "once without start-up": n / max(once.wall - empty.wall, 1e-9),
                "once w/o start-up, CPU": n / max(once.cpu - empty.cpu, 1e-9),
            }
            for label, value in figures.items():
                rates[label].append(value)
            if once.first is not None and once.after_last is not None:
                moments["once: first ack after start"].append(once.first)
                moments["once: exit after last ack"].append(once.after_last)
            print(
                f"round {round_ + 1} (a file {settled:.0f} µs): baseline {n / base:5.0f}/s | "
                f"running daemon "
                f"{n / daemon.wall:5.0f}/s ({daemon.wall:.3f} s, CPU {daemon.cpu:.2f} s; main "
                f"thread: CPU {daemon.main:.2f} s, queued {daemon.queued:.3f} s, asleep "
                f"{daemon.asleep:.3f} s) | "
                f"run --once {n / once.wall:5.0f}/s ({once.wall:.3f} s, CPU {once.cpu:.2f} s; "
                f"empty {empty.wall:.3f} s, CPU {empty.cpu:.2f} s; first ack after "
                f"{_ms(once.first)}, exit {_ms(once.after_last)} after the last) | load {load:.2f}",
                flush=True,
            )
    print(f"\n{n} mails, {args.games} games of {args.players} seats, {args.rounds} rounds:")
    for label, values in rates.items():
        print(
            f"  {label:<29} {min(values):6.0f}–{max(values):6.0f}/s"
            f" (median {statistics.median(values):.0f})"
        )
    for label, values in moments.items():
        print(
            f"  {label:<28} {_ms(min(values))}–{_ms(max(values))}"
            f" (median {_ms(statistics.median(values))})"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.spy:
        _summary(args.spy)


if __name__ == "__main__":
    main()
