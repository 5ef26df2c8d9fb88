"""Movement phases per second: our adjudicator against the ``diplomacy`` package (PyPI).

Run by hand from the repository root (see README.md):

    .venv/bin/python bench/diplomacy/bench.py [--games 30] [--repeat 5] [--command-rounds 3]

Both engines adjudicate the same realistic mid-game phases (``positions.py``: ~30 units, all
order types) in the same run. The ``diplomacy`` package lives in its own environment
(bench/.venv-diplomacy) and is driven through ``mila_runner.py`` in a subprocess; it is never
a dependency of the project. The units after each phase are compared, as a cross-check.

Then the same phases go through each side's command as a GM would use it: one JSON document
in, one out (``gm-daemon diplomacy adjudicate --compact``; ``mila_runner.py --batch``), the
batch six times over against once, so the difference is the cost of the phases alone.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from positions import mid_game_phases  # noqa: E402

from gm_daemon.diplomacy import (  # noqa: E402
    Unit,
    adjudicate_movement,
    read_order,
    run_phase,
    standard_board,
)
from gm_daemon.diplomacy.reader import read_order_by_grammar  # noqa: E402

MILA_PYTHON = ROOT / "bench" / ".venv-diplomacy" / "bin" / "python"
GM_DAEMON = Path(sys.executable).parent / "gm-daemon"  # the console script of this venv
BATCH_TIMES = 6  # the long batch is the phases this many times; the short one, once


def _parsed(phases: list[dict[str, Any]]) -> list[tuple[list[Unit], list]]:
    board = standard_board()
    prepared = []
    for phase in phases:
        units = [
            Unit(power, token.split()[0], board.loc(token.split()[1]))
            for power, tokens in phase["units"].items()
            for token in tokens
        ]
        orders = [(p, read_order(t, board)) for p, texts in phase["orders"].items() for t in texts]
        prepared.append((units, orders))
    return prepared


def _time_ours(phases: list[dict[str, Any]], repeat: int) -> tuple[list[float], list[float]]:
    """Per-phase seconds: adjudication of parsed orders, and the whole JSON/text path."""
    board = standard_board()
    prepared = _parsed(phases)
    adjudicate: list[float] = []
    whole: list[float] = []
    for _ in range(repeat):
        for units, orders in prepared:
            start = time.perf_counter()
            adjudicate_movement(board, units, orders)
            adjudicate.append(time.perf_counter() - start)
        for phase in phases:
            start = time.perf_counter()
            run_phase(phase)
            whole.append(time.perf_counter() - start)
    return adjudicate, whole


def _time_reading(phases: list[dict[str, Any]], repeat: int) -> dict[str, list[float]]:
    """Per-phase seconds reading every order text: ``read_order`` (the quick reader, the
    grammar as its fallback) and the Lark grammar alone, as before the quick reader."""
    board = standard_board()
    texts = [[t for lines in p["orders"].values() for t in lines] for p in phases]
    times: dict[str, list[float]] = {"quick": [], "grammar": []}
    for _ in range(repeat):
        for name, read in (("quick", read_order), ("grammar", read_order_by_grammar)):
            for phase_texts in texts:
                start = time.perf_counter()
                for text in phase_texts:
                    read(text, board)
                times[name].append(time.perf_counter() - start)
    return times


def _time_mila(phases: list[dict[str, Any]], repeat: int) -> dict[str, Any] | None:
    if not MILA_PYTHON.exists():
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(phases, handle)
    try:
        done = subprocess.run(
            [str(MILA_PYTHON), str(HERE / "mila_runner.py"), handle.name, str(repeat)],
            capture_output=True,
            text=True,
            check=True,
        )
    finally:
        Path(handle.name).unlink()
    return json.loads(done.stdout)


def _run_timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one child process, its output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _time_commands(phases: list[dict[str, Any]], rounds: int) -> dict[str, list[tuple]]:
    """Marginal (wall, CPU) seconds per phase of each side's command: the batch run
    BATCH_TIMES times over against once, so start-up (interpreter, imports, the map)
    counts on neither side. The four runs of a round alternate, so load hits all alike."""
    commands = {"ours": [str(GM_DAEMON), "diplomacy", "adjudicate", "--compact"]}
    if MILA_PYTHON.exists():
        commands["theirs"] = [str(MILA_PYTHON), str(HERE / "mila_runner.py"), "--batch"]
    marginal: dict[str, list[tuple]] = {name: [] for name in commands}
    with tempfile.TemporaryDirectory() as folder:
        once, many = Path(folder) / "once.json", Path(folder) / "many.json"
        once.write_text(json.dumps(phases), encoding="utf-8")
        many.write_text(json.dumps(phases * BATCH_TIMES), encoding="utf-8")
        extra = len(phases) * (BATCH_TIMES - 1)
        for _ in range(rounds):
            for name, command in commands.items():
                short = _run_timed([*command, str(once)])
                long = _run_timed([*command, str(many)])
                marginal[name].append(
                    tuple((b - a) / extra for a, b in zip(short, long, strict=True))
                )
    return marginal


def _print_commands(marginal: dict[str, list[tuple]], mila: dict[str, Any] | None) -> None:
    ours = marginal["ours"]
    print(
        f"command line: a {len(ours)}-round median of the marginal cost per phase "
        f"(batch x{BATCH_TIMES} against x1), wall / CPU, each round's figure in brackets"
    )
    rows = [("gm-daemon diplomacy adjudicate --compact", ours)]
    if "theirs" in marginal:
        rows.append((f"diplomacy {mila['version']}: batch, JSON in and out", marginal["theirs"]))
    for name, figures in rows:
        wall = statistics.median(f[0] for f in figures)
        cpu = statistics.median(f[1] for f in figures)
        each = ", ".join(f"{f[0] * 1000:.2f}" for f in figures)
        print(f"  {name:<46} {wall * 1000:6.3f} ms / {cpu * 1000:6.3f} ms CPU  [{each}]")
    if mila is None:
        return
    for k, what, key in ((0, "wall", "process"), (1, "CPU", "process_cpu")):
        process = statistics.median(mila[key])
        ratios = [process / f[k] for f in ours]
        print(
            f"  vs diplomacy set_orders + process in-process, {what} ({process * 1000:.3f} ms, "
            f"this run): {process / statistics.median(f[k] for f in ours):.1f}x "
            f"(rounds {min(ratios):.1f}-{max(ratios):.1f}x)"
        )
    theirs = marginal["theirs"]
    for k, what in ((0, "wall"), (1, "CPU")):
        both = [t[k] / o[k] for o, t in zip(ours, theirs, strict=True)]
        median = statistics.median(t[k] for t in theirs) / statistics.median(o[k] for o in ours)
        print(
            f"  vs diplomacy's batch command, {what}: {median:.1f}x "
            f"(rounds {min(both):.1f}-{max(both):.1f}x)"
        )


def _ours_after(phase: dict[str, Any]) -> dict[str, list[str]]:
    """Our units after the phase in the other package's notation: dislodged units marked
    "*", those without any retreat left out (that package disbands them at once)."""
    out = run_phase(phase)
    after = {p: list(units) for p, units in out["units"].items()}
    for power, gone in out["dislodged"].items():
        after.setdefault(power, []).extend("*" + d["unit"] for d in gone if d["retreats"])
    return {p: sorted(units) for p, units in after.items() if units}


def _row(name: str, seconds: list[float], baseline: float | None) -> str:
    median = statistics.median(seconds)
    ratio = f"{baseline / median:6.1f}x" if baseline else "      -"
    return f"{name:<48} {median * 1000:8.3f} ms {1 / median:10.0f} phases/s {ratio}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="self-played games (10/game)")
    parser.add_argument("--seed", type=int, default=1901)
    parser.add_argument("--repeat", type=int, default=5, help="timing rounds over all phases")
    parser.add_argument("--show", type=int, default=3, help="disagreements to print")
    parser.add_argument(
        "--command-rounds", type=int, default=3, help="rounds of the command-line comparison"
    )
    args = parser.parse_args(argv)

    phases = mid_game_phases(args.games, args.seed)
    sizes = [sum(len(u) for u in p["units"].values()) for p in phases]
    mean = statistics.mean(sizes)
    print(
        f"{len(phases)} movement phases, {min(sizes)}-{max(sizes)} units (mean {mean:.1f}), "
        f"{args.repeat} rounds, Python {sys.version.split()[0]}"
    )
    adjudicate, whole = _time_ours(phases, args.repeat)
    reading = _time_reading(phases, args.repeat)
    mila = _time_mila(phases, args.repeat)
    marginal = _time_commands(phases, args.command_rounds) if args.command_rounds else None
    base = statistics.median(mila["process"]) if mila else None
    print(f"{'engine':<48} {'median':>11} {'throughput':>19} {'vs diplomacy':>7}")
    print(_row("gm-daemon: adjudicate parsed orders", adjudicate, base))
    print(_row("gm-daemon: parse text + adjudicate (JSON)", whole, base))
    print(_row("gm-daemon: read order texts only", reading["quick"], base))
    print(_row("gm-daemon: read order texts, Lark grammar alone", reading["grammar"], base))
    orders = statistics.mean(sum(len(v) for v in p["orders"].values()) for p in phases)
    per_order = {k: statistics.median(v) / orders * 1e6 for k, v in reading.items()}
    print(
        f"  reading per order: {per_order['quick']:.1f} us (grammar alone "
        f"{per_order['grammar']:.1f} us), {orders:.1f} orders per phase"
    )
    if mila is None:
        print(f"diplomacy package not installed in {MILA_PYTHON.parent.parent}; see README.md")
        if marginal is not None:
            _print_commands(marginal, mila)
        return 0
    name = f"diplomacy {mila['version']}"
    print(_row(f"{name}: set_orders + process", mila["process"], base))
    print(_row(f"{name}: the same, CPU time", mila["process_cpu"], base))
    print(_row(f"{name}: new Game + set_units + orders", mila["setup"], base))
    if marginal is not None:
        _print_commands(marginal, mila)
    agree = 0
    shown = 0
    for phase, theirs in zip(phases, mila["after"], strict=True):
        ours = _ours_after(phase)
        theirs = {p: units for p, units in theirs.items() if units}
        if ours == theirs:
            agree += 1
        elif shown < args.show:
            shown += 1
            print(f"  differs: {json.dumps(phase['orders'])}")
            for power in sorted(set(ours) | set(theirs)):
                if ours.get(power) != theirs.get(power):
                    print(f"    {power}: ours {ours.get(power)} theirs {theirs.get(power)}")
    print(f"units after the phase agree with the diplomacy package in {agree}/{len(phases)} phases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
