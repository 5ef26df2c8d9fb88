"""One Hexenhalma round's resolution for 10, 50 and 200 players (45, 1,225 and 19,900
pairings) on the spec's board "Turm", every team using its whole spell allowance.

Run from the repository root:  .venv/bin/python bench/hexenhalma/bench_round.py

Printed per size: the time of ``resolve`` (all pairings), per pairing, and how it grows
against the number of pairings. Baseline, measured in the same run on the same teams: the
same pairings with the spells taken out (walking only), so the figure shows what the spells
cost on top of moving the witches. Target: 200 players in under 10 s on one core.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gm_daemon.games.hexenhalma import GAME  # noqa: E402
from gm_daemon.games.hexenhalma.model import Orders, State, StepOrder  # noqa: E402
from gm_daemon.games.hexenhalma.options import Options  # noqa: E402
from gm_daemon.games.protocol import Seat  # noqa: E402
from tests.hexenhalma.randomplay import random_orders  # noqa: E402

SIZES = (10, 50, 200)
TARGET_S = 10.0


def walking_only(orders: Orders) -> Orders:
    witches = [
        w.model_copy(update={"steps": [StepOrder(walk=s.walk, jump=s.jump) for s in w.steps]})
        for w in orders.witches
    ]
    return Orders(witches=witches)


def timed(state: State, orders: dict[str, Orders]) -> tuple[float, float]:
    """Seconds for ``resolve`` and for one language's ``report`` with every player's own
    fate list (read from the resolution's events; rendered when asked for, so all are)."""
    start = time.perf_counter()
    resolution = GAME.resolve(state, orders, random.Random(0), frozenset())
    middle = time.perf_counter()
    report = GAME.report(state, resolution, "de")
    for seat in report.private:
        report.private[seat]
    return middle - start, time.perf_counter() - middle


def main() -> None:
    board_text = (ROOT / "config" / "boards" / "turm.txt").read_text(encoding="utf-8")
    options = Options(boards=[board_text])
    print(
        f"{'players':>7} {'pairings':>8} {'spells s':>9} {'µs/pair':>8} {'walk s':>7} "
        f"{'µs/pair':>8} {'spells/walk':>11} {'growth':>10} {'report s':>8}"
    )
    previous = None
    for n in SIZES:
        seats = [Seat(f"p{i:03d}", f"P{i}") for i in range(n)]
        state = GAME.start(options, seats, random.Random(n))
        board = state.board()
        rng = random.Random(1000 + n)
        orders = {s.id: random_orders(board, rng) for s in seats}
        spells = sum(
            1
            for o in orders.values()
            for w in o.starting()
            for st in w.steps
            if st.spell or st.jump
        )
        pairings = n * (n - 1) // 2
        if previous is None:
            timed(state, orders)  # warm-up: grammar, caches, first imports
        full, report = timed(state, orders)
        walk, _ = timed(state, {k: walking_only(v) for k, v in orders.items()})
        growth = (
            "" if previous is None else f"{full / previous[0]:.1f}x/{pairings / previous[1]:.0f}x"
        )
        print(
            f"{n:>7} {pairings:>8} {full:>9.2f} {full / pairings * 1e6:>8.0f} {walk:>7.2f} "
            f"{walk / pairings * 1e6:>8.0f} {full / walk:>11.2f} {growth:>10} {report:>8.2f}"
            f"   ({spells} spells and jumps in all)"
        )
        previous = (full, pairings)
    verdict = "met" if previous and previous[0] < TARGET_S else "MISSED"
    print(f"target: 200 players under {TARGET_S:.0f} s on one core: {verdict}")
    print("growth: time ratio / pairings ratio to the previous size (linear in pairings = equal)")


if __name__ == "__main__":
    main()
