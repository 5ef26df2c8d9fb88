"""Resolution time of one Primtraktorrennen round, 5 legs per tractor, for growing fields.

Prints, per field size, the board (scaled so the tractors have room: 512 on 511x511), the
arrivals resolved, the median time of ``GAME.resolve`` and how it grows against the previous
size. The baseline, measured in the same run, is the bare path enumeration (every traversed
cell computed once, nothing resolved): the ratio shows what the exact-time resolution costs
on top. Usage is in bench/primtraktor/README.md.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable

from gm_daemon.games.primtraktor import GAME
from gm_daemon.games.primtraktor.model import Direction, Leg, Options, Orders, State
from gm_daemon.games.primtraktor.speeds import apply_change
from gm_daemon.games.primtraktor.torus import path
from gm_daemon.games.protocol import Seat

OPPOSITE = {Direction.NORTH: Direction.SOUTH, Direction.SOUTH: Direction.NORTH,
            Direction.EAST: Direction.WEST, Direction.WEST: Direction.EAST}  # fmt: skip


def board_for(tractors: int) -> int:
    """About 510 cells per tractor, never below the standard 51: 8 -> 63, 64 -> 181, 512 -> 511."""
    return max(51, int(22.6 * math.sqrt(tractors)) | 1)


def accelerating_orders(state: State, rng: random.Random) -> dict[str, Orders]:
    """Five '+' legs per tractor in random directions that never reverse straight back."""
    orders = {}
    for tractor in state.active():
        direction = tractor.direction or rng.choice(list(Direction))
        legs = []
        for _ in range(5):
            turns = [d for d in Direction if d != OPPOSITE[direction]]
            direction = rng.choice(turns)
            legs.append(Leg(direction=direction, change="+"))
        orders[tractor.seat] = Orders(legs=legs)
    return orders


def bare_paths(state: State, orders: dict[str, Orders]) -> int:
    """The baseline: every cell every leg would traverse, with no resolution at all."""
    count = 0
    for tractor in state.active():
        position, speed = tractor.position, tractor.speed
        for leg in orders[tractor.seat].legs:
            speed = apply_change(speed, leg.change)
            cells = path(position, leg.direction, speed, state.options.board)
            count += len(cells)
            position = cells[-1]
    return count


def median_seconds(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(tractors: int, repeat: int, measured_round: int) -> dict[str, float]:
    """Round 1: every tractor active, five legs at speeds 2..11. Round 2: the survivors of
    round 1 accelerate on, speeds 13..31, so each leg is longer."""
    rng = random.Random(tractors)
    seats = [Seat(f"p{i}", f"Player {i}") for i in range(tractors)]
    state = GAME.start(Options(board=board_for(tractors)), seats, rng)
    for _ in range(measured_round - 1):
        state = GAME.resolve(state, accelerating_orders(state, rng), rng).state
    orders = accelerating_orders(state, rng)
    resolution = GAME.resolve(state, orders, rng)
    legs_driven = sum(1 for e in resolution.events if e["type"] == "leg")
    return {
        "board": state.options.board,
        "active": len(state.active()),
        "arrivals": bare_paths(state, orders),
        "legs": legs_driven,
        "resolve": median_seconds(lambda: GAME.resolve(state, orders, rng), repeat),
        "baseline": median_seconds(lambda: bare_paths(state, orders), repeat),
    }


def print_table(sizes: list[int], repeat: int, measured_round: int) -> None:
    print(f"round {measured_round}")
    print(
        f"{'tractors':>8} {'board':>7} {'active':>6} {'planned cells':>13} {'legs':>6} "
        f"{'resolve ms':>10} {'baseline ms':>11} {'x base':>6} {'growth':>7} {'us/cell':>7}"
    )
    previous: dict[str, float] | None = None
    for tractors in sizes:
        m = measure(tractors, repeat, measured_round)
        growth = f"{m['resolve'] / previous['resolve']:.1f}x" if previous else "-"
        print(
            f"{tractors:>8} {m['board']:>4}x{m['board']:<3} {m['active']:>5} "
            f"{m['arrivals']:>13} {m['legs']:>6} {m['resolve'] * 1000:>10.1f} "
            f"{m['baseline'] * 1000:>11.1f} {m['resolve'] / m['baseline']:>6.1f} "
            f"{growth:>7} {m['resolve'] / m['arrivals'] * 1e6:>7.1f}"
        )
        previous = m


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="8,64,512", help="tractor counts, comma-separated")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per size (median)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    for measured_round in (1, 2):
        print_table(sizes, args.repeat, measured_round)
        print()
    print("planned cells: cells the legs would traverse; legs: legs actually driven")
    print("x base: resolve time / bare path enumeration; growth: against the previous row")


if __name__ == "__main__":
    main()
