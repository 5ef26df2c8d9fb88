"""CPU and SQL statements per order mail from the decoded mail to the queued acknowledgement
(``Daemon._process_pending``: guards, High Noon's reading, the orders stored, the reply
composed and queued, the groups' commits), on the mails ``bench/intake_e2e.py`` drops, in this
process, with the daemon's real store on a temporary database. Sending is not measured.

Run by hand from the repository root:

    .venv/bin/python bench/answer.py [--mails 1000] [--rounds 5] [--tree DIR] [--profile]
    valgrind --tool=callgrind .venv/bin/python bench/answer.py --mails 300 --rounds 1 --callgrind

The set-up is ``intake_e2e``'s (20 High Noon games of 8 seats, maildir transport, welcomes
queued first). Each round stores ``--mails`` new order mails as a fetch stores them (not
timed; intake then takes each decoded mail from the fetch as in the daemon), then times
``_process_pending`` with ``time.thread_time`` (CPU of this thread only, so the other
processes on the machine move it little); a first round, not timed, counts the SQL
statements it runs (sqlite3's trace callback). Printed: µs of CPU per mail for each round
and their best and median, statements per mail, and how many of each kind. ``--tree DIR``
imports ``gm_daemon`` from another checkout (``git archive COMMIT | tar -x -C DIR``) to
compare versions in alternating runs; the daemon's clock starts at the same moment in every
run, and the acknowledgements (Date, Message-ID and the replied-to ids left out) are
checksummed, so two versions can be seen to write the same bytes. ``--callgrind`` (run under
``valgrind --tool=callgrind`` from the folder it writes its files to, without
``--callgrind-out-file``) counts the instructions of the last round's ``_process_pending``
alone: the counters are zeroed before it and dumped after it (``callgrind_control``), and the
dump's total is printed per mail — a figure no other process on the machine moves.
``--whole-groups`` ends the daemon's groups by their count alone (``GROUP_MAILS``), not also
by ``GROUP_SECONDS``: under callgrind, ~50 times slower, a group otherwise holds a mail or
two, chosen by the clock, so its commit weighs on each mail as it never does in a burst and
two runs of one tree differ by a few per cent.
"""

from __future__ import annotations

import asyncio
import collections
import cProfile
import hashlib
import logging
import os
import pstats
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
START = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
_VARYING = re.compile(rb"^(Date|Message-ID|In-Reply-To|References): .*(\n[ \t].*)*", re.MULTILINE)


def main() -> None:
    from intake_e2e import set_up_arguments  # this folder: first on the path of a bench run

    parser = set_up_arguments(__doc__, 5, "import gm_daemon from this checkout")
    parser.add_argument("--profile", action="store_true", help="cProfile of the last round")
    parser.add_argument(
        "--callgrind", action="store_true", help="instructions of the last round (under callgrind)"
    )
    parser.add_argument(
        "--whole-groups", action="store_true", help="groups end by their count alone"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree.resolve() if args.tree else ROOT))
    sys.path.insert(1, str(ROOT))
    import gm_daemon
    import gm_daemon.daemon

    if args.whole_groups:
        gm_daemon.daemon.GROUP_SECONDS = float("inf")
    from bench.intake_e2e import _config, _order  # the very set-up and mails of that bench
    from gm_daemon.daemon import Daemon
    from gm_daemon.mail.transport import RawMail

    print(f"gm_daemon from {Path(gm_daemon.__file__).parent.parent}")
    logging.disable(logging.CRITICAL)
    with tempfile.TemporaryDirectory(prefix="gm-bench-answer-") as name:
        folder = Path(name)
        for sub in ("new", "cur", "tmp"):
            (folder / "in" / sub).mkdir(parents=True)
        started = time.monotonic()

        def clock() -> datetime:  # the deadlines in the replies the same in every run
            return START + timedelta(seconds=time.monotonic() - started)

        daemon = Daemon(_config(folder, args.games, args.players), clock)
        daemon.referee.sync()  # welcome mails queued, not timed
        store = daemon.store
        kinds: collections.Counter[str] = collections.Counter()
        cpu, digests = [], set()
        profile = None
        for number in range(args.rounds + 1):  # round 0 counts the statements, untimed
            raws = [
                RawMail(f"maildir:bench-{number}-{i}", bytes(_order(i, args.games, args.players)))
                for i in range(args.mails)
            ]
            daemon._store_all(raws)
            last = int(store.db.execute("SELECT coalesce(max(id), 0) FROM outbox").fetchone()[0])
            if number == args.rounds and args.profile:
                profile = cProfile.Profile()
                profile.enable()
            if number == 0:
                store.db.set_trace_callback(lambda sql: kinds.update([_kind(sql)]))
            counted = args.callgrind and number == args.rounds
            if counted:
                _callgrind("-z")  # the counters from zero: this round's work alone
            start = time.thread_time()
            asyncio.run(daemon._process_pending())
            if number:
                cpu.append(time.thread_time() - start)
            if counted:
                _callgrind("-d")
            if profile:
                profile.disable()
            if number == 0:
                store.db.set_trace_callback(None)
            digests.add(_digest(store, last, args.mails))
        asyncio.run(daemon.close())
    per_mail = [1e6 * c / args.mails for c in cpu]
    print("µs per mail, each round:", " ".join(f"{v:.0f}" for v in per_mail))
    print(f"best {min(per_mail):.0f} µs, median {statistics.median(per_mail):.0f} µs per mail")
    print(f"SQL statements per mail: {sum(kinds.values()) / args.mails:.2f}")
    for kind, count in kinds.most_common():
        print(f"  {count / args.mails:6.2f}  {kind}")
    if len(digests) != 1:
        raise SystemExit(f"the rounds wrote different acknowledgements: {digests}")
    print(f"acknowledgements (Date and ids left out): {digests.pop()}")
    if args.callgrind:
        instructions = _dumped_instructions()
        print(f"instructions of the last round: {instructions / args.mails / 1e6:.3f} M per mail")
    if profile:
        pstats.Stats(profile).sort_stats(os.environ.get("PSORT", "tottime")).print_stats(
            int(os.environ.get("PN", "40"))
        )


def _callgrind(command: str) -> None:
    """``callgrind_control`` on this process; it waits (in ``waitpid``, running nothing)
    until callgrind has done it."""
    control = ["callgrind_control", command, str(os.getpid())]
    subprocess.run(control, check=True, capture_output=True)


def _dumped_instructions() -> int:
    """The total of the dump ``callgrind_control -d`` wrote (its ``summary:`` line)."""
    dump = Path(f"callgrind.out.{os.getpid()}.1")
    for line in dump.read_text().splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise SystemExit(f"no summary in {dump}: was this run under valgrind --tool=callgrind?")


def _kind(sql: str) -> str:
    """A statement's first words, its values left out."""
    words = sql.split()
    return " ".join(words[:4]) if words else ""


def _digest(store: object, after: int, expected: int) -> str:
    """A checksum of the acknowledgements queued after outbox row ``after``, in order."""
    rows = store.db.execute(  # type: ignore[attr-defined]
        "SELECT purpose, recipient, message FROM outbox WHERE id > ? ORDER BY id", (after,)
    ).fetchall()
    if len(rows) != expected or any(r[0] != "accepted" for r in rows):
        raise SystemExit(f"{len(rows)} mails queued, not {expected} acknowledgements")
    digest = hashlib.sha256()
    for purpose, recipient, message in rows:
        digest.update(f"{purpose}\0{recipient}\0".encode())
        digest.update(_VARYING.sub(b"", bytes(message)))
    return digest.hexdigest()[:16]


if __name__ == "__main__":
    main()
