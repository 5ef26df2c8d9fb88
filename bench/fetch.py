"""CPU per order mail of the inbox side alone: the Maildir inbox's fetch, ``Daemon._store_all``
(decode, store raw) and the marking done, in the chunks ``take_in_mail`` takes, on the mails
``bench/intake_e2e.py`` drops, in this process, with the daemon's real store on a temporary
database. Answering is not measured (``bench/answer.py`` does that).

Run by hand from the repository root:

    .venv/bin/python bench/fetch.py [--mails 1000] [--rounds 5] [--tree DIR]
    valgrind --tool=callgrind .venv/bin/python bench/fetch.py --mails 300 --rounds 1 --callgrind

The set-up is ``intake_e2e``'s (20 High Noon games of 8 seats, maildir transport). Each round
drops ``--mails`` new order mails into the inbox's new/ (not timed), then times the pass with
``time.thread_time`` (CPU of this thread only; the inbox's own methods are called directly,
as its thread would, so the pass is one thread's work). Printed: µs of CPU per mail for each
round, their best and median, and a checksum of what was kept (each stored row's key,
Message-ID, sender and digest, and each decoded mail's fields, in order), so two versions can
be seen to keep the same. ``--callgrind`` (under ``valgrind --tool=callgrind``, run from the
folder it writes its files to) counts the instructions of the last round's pass alone, per
mail: a figure the other processes on the machine do not move.
"""

from __future__ import annotations

import hashlib
import logging
import os
import statistics
import sys
import tempfile
import time
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
START = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def main() -> None:
    from answer import _callgrind, _dumped_instructions
    from intake_e2e import set_up_arguments  # this folder: first on the path of a bench run

    parser = set_up_arguments(__doc__, 5, "import gm_daemon from this checkout")
    parser.add_argument(
        "--callgrind", action="store_true", help="instructions of the last round (under callgrind)"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree.resolve() if args.tree else ROOT))
    sys.path.insert(1, str(ROOT))
    import gm_daemon
    from bench.intake_e2e import _config, _order
    from gm_daemon.daemon import CHUNKS, Daemon

    print(f"gm_daemon from {Path(gm_daemon.__file__).parent.parent}")
    logging.disable(logging.CRITICAL)
    with tempfile.TemporaryDirectory(prefix="gm-bench-fetch-") as name:
        folder = Path(name)
        for sub in ("new", "cur", "tmp"):
            (folder / "in" / sub).mkdir(parents=True)
        started = time.monotonic()

        def clock() -> datetime:
            return START + timedelta(seconds=time.monotonic() - started)

        daemon = Daemon(_config(folder, args.games, args.players), clock)
        inbox = daemon.inbox
        cpu, digests = [], set()
        for number in range(args.rounds + 1):  # round 0 warms up, untimed
            new = folder / "in" / "new"
            for i in range(args.mails):
                mail = bytes(_order(i, args.games, args.players))
                (new / f"{1800000000 + i}.bench{number}-{i:05d}.host").write_bytes(mail)
            counted = args.callgrind and number == args.rounds
            if counted:
                _callgrind("-z")
            start = time.thread_time()
            stored = _pass(daemon, inbox, CHUNKS)
            if number:
                cpu.append(time.thread_time() - start)
            if counted:
                _callgrind("-d")
            if stored != args.mails:
                raise SystemExit(f"{stored} mails stored, not {args.mails}")
            digests.add(_digest(daemon, number))
            daemon.intake.decoded.clear()
            if os.listdir(new):
                raise SystemExit("mails left in new/")
    per_mail = [1e6 * c / args.mails for c in cpu]
    print("µs per mail, each round:", " ".join(f"{v:.0f}" for v in per_mail))
    print(f"best {min(per_mail):.0f} µs, median {statistics.median(per_mail):.0f} µs per mail")
    print(f"kept (rows and decoded mails, ids and keys left out): {sorted(digests)[0]}")

    if len(digests) != 1:
        raise SystemExit(f"the rounds kept different things: {digests}")
    if args.callgrind:
        instructions = _dumped_instructions()
        print(f"instructions of the last round: {instructions / args.mails / 1e3:.1f} k per mail")


def _pass(daemon: object, inbox: object, chunks: tuple[int, ...]) -> int:
    """``take_in_mail``'s inbox side: chunks fetched, stored, marked done, until none is
    left (the answering between them is left out)."""
    stored, step = 0, 0
    while True:
        size = chunks[min(step, len(chunks) - 1)]
        fetched = inbox._fetch(size)  # type: ignore[attr-defined]
        stored += daemon._store_all(fetched)  # type: ignore[attr-defined]
        inbox._done_all([raw.key for raw in fetched])  # type: ignore[attr-defined]
        if len(fetched) < size:
            return stored
        step += 1


def _fields(incoming: Any) -> dict[str, Any]:
    """A decoded mail's fields by name: a NamedTuple since boot6, a dataclass before it
    (``--tree`` may be either)."""
    return incoming._asdict() if hasattr(incoming, "_asdict") else asdict(incoming)


def _digest(daemon: object, number: int) -> str:
    """The kept rows of round ``number`` and the decoded mails, the varying parts (keys'
    round, Message-IDs, arrival times) left out."""
    digest = hashlib.sha256()
    rows = daemon.store.db.execute(  # type: ignore[attr-defined]
        "SELECT key, sender, content FROM inbox WHERE key LIKE ? ORDER BY id",
        (f"maildir:%.bench{number}-%",),
    ).fetchall()
    decoded = daemon.intake.decoded  # type: ignore[attr-defined]
    for key, sender, content in rows:
        incoming = decoded[key]
        fields = {k: v for k, v in _fields(incoming).items() if k != "message_id"}
        line = f"{key.split('-', 1)[1]}\0{sender}\0{sorted(fields.items())}\n"
        digest.update(line.encode("utf-8", "surrogatepass"))
        digest.update(content.encode())
    return f"{len(rows)} rows, {digest.hexdigest()[:16]}"


if __name__ == "__main__":
    main()
