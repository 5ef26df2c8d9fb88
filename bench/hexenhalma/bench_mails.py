"""A Hexenhalma round the way the daemon plays it: ``Referee.resolve`` (the engine's resolve,
the phase record, every result mail composed and queued in one transaction), then the
outbox drained into the Maildir outbox by the daemon's own ``OutboxSender``. Players speak
German and English half and half, so both languages are rendered.

Run from the repository root (no mail stack needed; Maildir transport):

    .venv/bin/python bench/hexenhalma/bench_mails.py                # 100 and 200 players
    .venv/bin/python bench/hexenhalma/bench_mails.py --sizes 100 200 --repeat 3
    .venv/bin/python bench/hexenhalma/bench_mails.py --sizes 200 --only-resolve  # for py-spy

Printed per size: wall and CPU seconds of the resolution with its mails queued, of the
drain into the Maildir, and of both; the largest and the mean result mail, the outbox and
database sizes. Baseline: the same round with the smallest size (100 players) measured in
the same run; the growth of CPU time against it is printed beside the pairings' growth
(4x from 100 to 200). Targets (issue 24): each result mail <= 300 KB, CPU growth 100 -> 200
<= 4.6x, the whole round of 200 players <= 6 s.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
import time
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gm_daemon.cli import database_size  # noqa: E402
from gm_daemon.daemon import Daemon  # noqa: E402
from tests.hexenhalma.randomplay import random_orders  # noqa: E402

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)
MAIL_LIMIT = 300_000
GROWTH_LIMIT = 4.6
ROUND_LIMIT_S = 6.0


@dataclass(frozen=True)
class Figures:
    players: int
    resolve_wall: float
    resolve_cpu: float
    drain_wall: float
    drain_cpu: float
    mails: int
    largest: int
    mean: int
    outbox_bytes: int
    database_bytes: int

    @property
    def wall(self) -> float:
        return self.resolve_wall + self.drain_wall

    @property
    def cpu(self) -> float:
        return self.resolve_cpu + self.drain_cpu


def config(folder: Path, players: int) -> Path:
    folder_of_boards = (ROOT / "config" / "boards").as_posix()
    boards = ", ".join(
        f'{{ file = "{folder_of_boards}/{name}.txt" }}' for name in ("turm", "kreuz", "turm")
    )
    seats = "".join(
        f'[[games.players]]\nname = "Hexe {i:03d}"\nemail = "p{i}@players.test"\n'
        + ('language = "en"\n' if i % 2 else "")
        for i in range(players)
    )
    text = (
        f'[daemon]\ndatabase = "{folder / "gm.sqlite"}"\nlog_level = "WARNING"\n\n'
        f'[mail]\naddress = "gm@example.org"\ntransport = "maildir"\n\n'
        f'[mail.maildir]\ninbox = "{folder / "in"}"\noutbox = "{folder / "out"}"\n\n'
        f'[[games]]\nid = "hx"\nkind = "hexenhalma"\nlanguage = "de"\nseed = "bench"\n\n'
        f'[games.deadlines]\nround = "7d"\n\n'
        f"[games.options]\nrounds = 3\nboards = [{boards}]\n\n"
        f"{seats}"
    )
    path = folder / "gm.toml"
    path.write_text(text, encoding="utf-8")
    return path


def one_round(folder: Path, players: int, only_resolve: bool) -> Figures:
    daemon = Daemon(config(folder, players))
    try:
        return asyncio.run(_round(daemon, folder, players, only_resolve))
    finally:
        asyncio.run(daemon.close())


async def _round(daemon: Daemon, folder: Path, players: int, only_resolve: bool) -> Figures:
    store, referee = daemon.store, daemon.referee
    referee.sync()
    database = folder / "gm.sqlite"
    store.db.execute("UPDATE outbox SET status = 'sent'")  # the welcomes are not the round
    loaded = referee.load("hx")
    assert loaded is not None
    board = loaded.state.board()
    rng = random.Random(players)
    with store.transaction():
        for player in loaded.players:
            orders = random_orders(board, rng).model_dump(mode="json")
            store.put_orders("hx", loaded.row.phase, player.seat, orders, NOW, None)
    wall, cpu = time.perf_counter(), time.process_time()
    if referee.resolve("hx", "bench", loaded.row.phase) is None:
        raise SystemExit("the round did not resolve")
    resolve_wall, resolve_cpu = time.perf_counter() - wall, time.process_time() - cpu
    drain_wall = drain_cpu = 0.0
    if not only_resolve:
        wall, cpu = time.perf_counter(), time.process_time()
        await daemon.outbox.drain()
        drain_wall, drain_cpu = time.perf_counter() - wall, time.process_time() - cpu
    with closing(sqlite3.connect(database)) as db:
        sizes = [
            n for (n,) in db.execute("SELECT length(message) FROM outbox WHERE purpose = 'result'")
        ]
    outbox = sum(p.stat().st_size for p in (folder / "out").rglob("*") if p.is_file())
    return Figures(
        players,
        resolve_wall,
        resolve_cpu,
        drain_wall,
        drain_cpu,
        len(sizes),
        max(sizes),
        sum(sizes) // len(sizes),
        outbox,
        database_size(database),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 200])
    parser.add_argument("--repeat", type=int, default=1, help="rounds per size, alternating")
    parser.add_argument("--only-resolve", action="store_true", help="no drain (profiling)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as warm:
        one_round(Path(warm), 10, args.only_resolve)  # imports, grammars, caches
    print(
        f"{'players':>7} {'pairings':>8} {'resolve s':>9} {'cpu':>6} {'drain s':>7} {'cpu':>6} "
        f"{'round s':>7} {'cpu':>6} {'cpu growth':>10} {'mails':>5} {'largest':>9} "
        f"{'mean':>9} {'outbox':>9} {'database':>9}"
    )
    for _ in range(args.repeat):
        baseline: Figures | None = None
        for n in args.sizes:
            with tempfile.TemporaryDirectory() as folder:
                f = one_round(Path(folder), n, args.only_resolve)
            baseline = baseline or f
            pairings = n * (n - 1) // 2
            base_pairings = baseline.players * (baseline.players - 1) // 2
            growth = f"{f.cpu / baseline.cpu:.2f}x/{pairings / base_pairings:.1f}x"
            print(
                f"{n:>7} {pairings:>8} {f.resolve_wall:>9.2f} {f.resolve_cpu:>6.2f} "
                f"{f.drain_wall:>7.2f} {f.drain_cpu:>6.2f} {f.wall:>7.2f} {f.cpu:>6.2f} "
                f"{growth:>10} {f.mails:>5} {f.largest / 1e3:>7.0f}KB {f.mean / 1e3:>7.0f}KB "
                f"{f.outbox_bytes / 1e6:>7.1f}MB {f.database_bytes / 1e6:>7.1f}MB",
                flush=True,
            )
    with open("/proc/loadavg", encoding="ascii") as load:
        print(f"load average: {' '.join(load.read().split()[:3])}")
    print(
        f"targets: mail <= {MAIL_LIMIT / 1e3:.0f} KB, CPU growth to the first size <= "
        f"{GROWTH_LIMIT}x (for 100 -> 200), round of 200 <= {ROUND_LIMIT_S:.0f} s"
    )


if __name__ == "__main__":
    main()
