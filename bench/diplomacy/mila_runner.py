"""Adjudicate the benchmark phases with the ``diplomacy`` package (MILA) from PyPI.

Runs inside the benchmark's own environment (bench/.venv-diplomacy), never the project's:
``bench.py`` starts it as a subprocess with the phases in a JSON file and reads back JSON
with the timings and the units after each phase (dislodged units marked with ``*``).
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
    with_setup = []  # Game() + set_units + set_orders + process
    after = []
    for _ in range(repeat):
        for index, phase in enumerate(phases):
            start = time.perf_counter()
            game = _prepared(phase)
            ready = time.perf_counter()
            for power, orders in phase["orders"].items():
                game.set_orders(power.upper(), orders)
            game.process()
            done = time.perf_counter()
            process_only.append(done - ready)
            with_setup.append(done - start)
            if len(after) <= index:
                after.append({p.title(): sorted(game.get_units(p)) for p in game.powers})
    result = {"version": version("diplomacy"), "process": process_only, "setup": with_setup}
    json.dump(result | {"after": after}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
