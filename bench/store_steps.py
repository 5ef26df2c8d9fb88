"""Instructions of each database step an order mail costs, one kind at a time, through the
``Store``'s own methods (its Python and SQLite's work both): the inbox row stored (as a
fetch stores it), the seat's orders written, the acknowledgement queued, the inbox row
finished, the queued mails read and marked sent by the sender, and the commits of the
groups they are in. Run under callgrind only (it zeroes and dumps the counters around each
step with ``callgrind_control``, as ``bench/answer.py --callgrind`` does); started without
it, it starts itself under ``valgrind --tool=callgrind`` in a temporary folder:

    .venv/bin/python bench/store_steps.py [--mails 300] [--tree DIR]

The set-up is ``intake_e2e``'s (20 High Noon games of 8 seats, welcomes queued) and a first
round of ``--mails`` order mails taken in by the daemon, so the tables and the store's kept
rows are as in a burst; each step then runs ``--mails`` times (the sender's in batches of
100, as it takes them, from a backlog of ``--mails``) inside one group per step, whose
commit it includes. Printed: instructions a mail for each step and their sum. A figure
no other process on the machine moves, to compare two trees (``--tree``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from answer import _callgrind

ROOT = Path(__file__).resolve().parent.parent
UNDER = "GM_STORE_STEPS_OUT"  # set for the run under callgrind: its output file
START = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
_dumps = 0


def _counted(name: str, mails: int, step: Callable[[], None], results: dict[str, float]) -> None:
    """``step()`` counted alone: its instructions a mail under ``name``."""
    global _dumps
    _callgrind("-z")
    step()
    _callgrind("-d")
    _dumps += 1
    dump = Path(f"{os.environ[UNDER]}.{_dumps}")
    summary = next(line for line in dump.read_text().splitlines() if line.startswith("summary:"))
    results[name] = int(summary.split()[1]) / mails


def _under_callgrind() -> int:
    """This script again, under callgrind, its files in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="gm-bench-store-cg-") as name:
        out = str(Path(name) / "callgrind.out")
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable]
        env = {**os.environ, UNDER: out, "PYTHONHASHSEED": "0"}
        done = subprocess.run(
            [*command, __file__, *sys.argv[1:]], env=env, stderr=subprocess.DEVNULL
        )
        return done.returncode


def main() -> None:
    from intake_e2e import set_up_arguments

    parser = set_up_arguments(__doc__, 1, "import gm_daemon from this checkout")
    args = parser.parse_args()
    if UNDER not in os.environ:
        raise SystemExit(_under_callgrind())
    sys.path.insert(0, str(args.tree.resolve() if args.tree else ROOT))
    sys.path.insert(1, str(ROOT))
    import gm_daemon
    from bench.intake_e2e import _config, _order
    from gm_daemon.daemon import Daemon
    from gm_daemon.mail.transport import RawMail

    print(f"gm_daemon from {Path(gm_daemon.__file__).parent.parent}")
    logging.disable(logging.CRITICAL)
    mails = args.mails
    with tempfile.TemporaryDirectory(prefix="gm-bench-store-") as name:
        folder = Path(name)
        for sub in ("new", "cur", "tmp"):
            (folder / "in" / sub).mkdir(parents=True)
        daemon = Daemon(_config(folder, args.games, args.players), lambda: START)
        daemon.referee.sync()
        store = daemon.store
        first = [RawMail(f"maildir:warm-{i}", bytes(_order(i, args.games, args.players)))
                 for i in range(mails)]  # fmt: skip
        daemon._store_all(first)
        asyncio.run(daemon._process_pending())
        # what the first round wrote, again with new keys: the same sizes and senders
        inbox = store.db.execute(
            "SELECT message_id, sender, content, raw FROM inbox ORDER BY id DESC LIMIT ?", (mails,)
        ).fetchall()
        outbox = store.db.execute(
            "SELECT game_id, purpose, recipient, message FROM outbox WHERE purpose = 'accepted'"
            " ORDER BY id DESC LIMIT ?",
            (mails,),
        ).fetchall()
        orders = store.db.execute(
            "SELECT game_id, phase, seat, orders FROM orders ORDER BY rowid DESC LIMIT ?", (mails,)
        ).fetchall()
        orders = [(g, p, s, json.loads(o)) for g, p, s, o in orders]
        orders = (orders * (mails // len(orders) + 1))[:mails]
        at = START + timedelta(minutes=1)
        results: dict[str, float] = {}

        def stored() -> None:
            with store.transaction():
                for n, (message_id, sender, content, raw) in enumerate(inbox):
                    store.store_incoming(
                        f"maildir:again-{n}", f"<again-{n}{message_id[1:]}", sender, raw, at,
                        content, looked=True,
                    )  # fmt: skip

        def put() -> None:
            with store.group(steps=False):
                for n, (game, phase, seat, text) in enumerate(orders):
                    with store.transaction():
                        store.put_orders(game, phase, seat, text, at, n + 1)

        def queued() -> None:
            with store.group(steps=False):
                for n, (game, purpose, recipient, message) in enumerate(outbox):
                    with store.transaction():
                        store.enqueue(game, purpose, recipient, f"<q{n}@gm.test>", message, at)

        def finished() -> None:
            rows = store.unprocessed()
            with store.group(steps=False):
                for row in rows:
                    with store.transaction():
                        store.finish_incoming(row.id, "done", "accepted: orders", at)

        def sent() -> None:
            while rows := store.due_mail(at):
                store.mark_all_sent([r.id for r in rows], at)

        sent()  # the welcomes and the first round's replies: sent before, not counted

        _counted("inbox stored (chunk of all)", mails, stored, results)
        _counted("orders put (group)", mails, put, results)
        _counted("acknowledgement queued (group)", mails, queued, results)
        _counted("inbox finished (group)", mails, finished, results)
        _counted("due_mail + mark_all_sent (100s)", mails, sent, results)
        assert not store.due_mail(at + timedelta(days=1))
        asyncio.run(daemon.close())
    for step, count in results.items():
        print(f"{count / 1e3:9.1f} k  {step}")
    print(f"{sum(results.values()) / 1e3:9.1f} k  a mail in all")


if __name__ == "__main__":
    main()
