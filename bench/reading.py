"""CPU per order mail of reading it: decode, order lines, envelope, High Noon's order reader
(through the greeting pass, as intake calls it) and the accepted orders described, on the
same mails ``bench/intake_e2e.py`` drops, in this process, without a daemon or a database.

Run by hand from the repository root:

    .venv/bin/python bench/reading.py [--mails 1000] [--rounds 5] [--tree DIR]

The mails are built as ``intake_e2e`` builds them (20 games of 8 seats, each game's state
started from its seed as the daemon starts it). Each stage is timed over all mails with
``time.thread_time`` (CPU of this thread only, so the other processes on the machine move it
little); the best of ``--rounds`` is printed per stage, in microseconds per mail. ``--tree
DIR`` imports ``gm_daemon`` from another checkout (``git archive COMMIT | tar -x -C DIR``),
to compare two versions in alternating runs; the outputs of the stages are checked to be the
same as what the first round gave.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    from intake_e2e import set_up_arguments  # this folder: first on the path of a bench run

    parser = set_up_arguments(__doc__, 5, "import gm_daemon from this checkout")
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree.resolve() if args.tree else ROOT))
    sys.path.insert(1, str(ROOT))
    import gm_daemon
    from bench.intake_e2e import _order  # the very mails of the end-to-end bench
    from gm_daemon.envelope import read_envelope
    from gm_daemon.games import find_game
    from gm_daemon.games.protocol import Seat
    from gm_daemon.greetings import read_orders
    from gm_daemon.mail.message import order_lines, parse_incoming
    from gm_daemon.rng import phase_rng

    print(f"gm_daemon from {Path(gm_daemon.__file__).parent.parent}")
    engine = find_game("highnoon")
    engine.warm_up()
    seats = [Seat(f"spieler-{s}", f"Spieler {s}") for s in range(1, args.players + 1)]
    states = {
        n: engine.start(engine.Options(), seats, phase_rng(f"bench-{n}", 0, "start"))
        for n in range(1, args.games + 1)
    }
    raws = [bytes(_order(i, args.games, args.players)) for i in range(args.mails)]
    jobs = []
    for i in range(args.mails):
        game = i % args.games + 1
        seat = (i // args.games) % (args.players - 1) + 1
        jobs.append((states[game], seats[seat - 1].id))

    decoded = [parse_incoming(raw, "gm@gm.test") for raw in raws]
    envelopes = [read_envelope(order_lines(m.text)) for m in decoded]
    accepted = [
        read_orders(engine, e.lines, state, seat, "de")
        for e, (state, seat) in zip(envelopes, jobs, strict=True)
    ]
    stages: dict[str, Callable[[], list[Any]]] = {
        "parse_incoming": lambda: [parse_incoming(raw, "gm@gm.test") for raw in raws],
        "order_lines + read_envelope": lambda: [
            read_envelope(order_lines(m.text)) for m in decoded
        ],
        "read_orders (greetings)": lambda: [
            read_orders(engine, e.lines, state, seat, "de")
            for e, (state, seat) in zip(envelopes, jobs, strict=True)
        ],
        "describe_orders": lambda: [
            engine.describe_orders(state, seat, a.orders, "de")
            for a, (state, seat) in zip(accepted, jobs, strict=True)
        ],
    }
    first: dict[str, list[Any]] = {}
    best: dict[str, float] = {}
    for _ in range(args.rounds):
        for label, stage in stages.items():
            start = time.thread_time()
            out = stage()
            spent = time.thread_time() - start
            best[label] = min(best.get(label, spent), spent)
            if label in first and repr(out) != repr(first[label]):
                raise SystemExit(f"{label}: another result than in the first round")
            first.setdefault(label, out)
    total = 0.0
    for label, seconds in best.items():
        total += seconds
        print(f"{label:<30} {seconds / args.mails * 1e6:8.1f} µs/mail")
    print(f"{'all of the above':<30} {total / args.mails * 1e6:8.1f} µs/mail")


if __name__ == "__main__":
    main()
