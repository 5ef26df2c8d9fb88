"""Adjudicate the benchmark phases with the ``diplomacy`` package (MILA) from PyPI.

Runs inside the benchmark's own environment (bench/.venv-diplomacy), never the project's:
``bench.py`` starts it as a subprocess with the phases in a JSON file and reads back JSON
with the timings and the units after each phase (dislodged units marked with ``*``).

With ``--batch`` it is the other side of the command-line comparison instead: it reads the
phases as ``gm-daemon diplomacy adjudicate`` does (one JSON document), adjudicates each from
its text orders and writes every phase's orders, results and units as one JSON document,
untimed; ``bench.py`` times the whole process from outside.
"""

from __future__ import annotations

import json
import sys
import time
from importlib.metadata import version

from diplomacy import Game


def _prepared(phase: dict) -> Game:
    game = Game(map_name="standard")
    game.clear_units()
    for power, units in phase["units"].items():
        game.set_units(power.upper(), units, reset=True)
    return game


def main(path: str, repeat: int) -> None:
    with open(path, encoding="utf-8") as handle:
        phases = json.load(handle)
    process_only = []  # set_orders + process, game already set up
    process_cpu = []  # the same in CPU time of this process (steadier on a loaded machine)
    with_setup = []  # Game() + set_units + set_orders + process
    after = []
    for _ in range(repeat):
        for index, phase in enumerate(phases):
            start = time.perf_counter()
            game = _prepared(phase)
            ready = time.perf_counter()
            ready_cpu = time.process_time()
            for power, orders in phase["orders"].items():
                game.set_orders(power.upper(), orders)
            game.process()
            done_cpu = time.process_time()
            done = time.perf_counter()
            process_only.append(done - ready)
            process_cpu.append(done_cpu - ready_cpu)
            with_setup.append(done - start)
            if len(after) <= index:
                after.append({p.title(): sorted(game.get_units(p)) for p in game.powers})
    result = {
        "version": version("diplomacy"),
        "process": process_only,
        "process_cpu": process_cpu,
        "setup": with_setup,
    }
    json.dump(result | {"after": after}, sys.stdout)


def batch(path: str) -> None:
    """The phases of ``path`` adjudicated one after the other, the results on stdout: what
    the JSON command does, the same way round (a whole document in, one out)."""
    with open(path, encoding="utf-8") as handle:
        phases = json.loads(handle.read())
    results = []
    for phase in phases:
        game = _prepared(phase)
        for power, orders in phase["orders"].items():
            game.set_orders(power.upper(), orders)
        orders = {power: list(game.get_orders(power)) for power in game.powers}
        game.process()
        outcome = game.result_history.last_value()
        results.append(
            {
                "orders": orders,
                "results": {unit: [str(r) for r in found] for unit, found in outcome.items()},
                "units": {power: list(game.get_units(power)) for power in game.powers},
            }
        )
    sys.stdout.write(json.dumps(results, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "--batch":
        batch(sys.argv[2])
    else:
        main(sys.argv[1], int(sys.argv[2]))
