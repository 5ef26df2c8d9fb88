"""What a ``gm-daemon`` command costs before its first mail and after its last: start-up and
close, as the GM (or cron) runs it, against the Python interpreter starting and exiting.

Run by hand from the repository root (no root, no mail stack):

    .venv/bin/python bench/startup.py [--repeat 10] [--games 20] [--players 8] [--tree DIR]

The set-up is ``intake_e2e.py``'s (``--games`` High Noon games of ``--players`` seats,
transport ``maildir``), run once first so the database, the games and the grammar cache
exist (a folder of the bench's own as ``XDG_CACHE_HOME``). Then, ``--repeat`` times each,
round-robin so a moment of load hits every command alike: ``python -c pass`` (the
baseline), ``gm-daemon --help``, ``gm-daemon check``, ``gm-daemon status`` and
``gm-daemon run --once`` on the empty inbox and with one order mail waiting (a plain one,
as ``intake_e2e.py`` writes them; a fresh game and seat each time, so every run reads and
answers it alike): what the first mail of a run costs on top of the start-up, its lazy
imports included. Best and median wall time and the process's CPU seconds. ``--tree DIR``
runs another checkout's code (``git archive COMMIT | tar -x -C DIR``) in the same rounds,
each command alternating between the two.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from intake_e2e import ENTRY, GM_DAEMON, _config, _order

COMMANDS = {
    "--help": ["--help"],
    "check": ["check", "--config", "{config}"],
    "status": ["status", "--config", "{config}"],
    "run --once": ["run", "--once", "--config", "{config}"],
    "run --once, 1 mail": ["run", "--once", "--config", "{config}"],
}
ONE_MAIL = "run --once, 1 mail"


def _argv(tree: Path | None, args: list[str]) -> tuple[list[str], dict[str, str]]:
    """The command line and environment: the installed entry point for this checkout,
    ``python -P -c`` with ``PYTHONPATH`` for another tree (``-P``: not the working folder)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if tree is None:
        return [str(GM_DAEMON), *args], env
    env["PYTHONPATH"] = str(tree)
    code = ENTRY
    return [sys.executable, "-P", "-c", code, *args], env


def _time(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds from start to exit, and the process's CPU seconds (user + system)."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    stderr = process.stderr.read() if process.stderr else b""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {stderr.decode(errors='replace')}")
    return wall, usage.ru_utime + usage.ru_stime


def _drop_one(folder: Path, number: int, games: int, players: int) -> None:
    """Order mail ``number`` into the inbox's new/, as an MTA delivers it."""
    name = f"{int(time.time())}.startup{number:05d}.bench"
    (folder / "in" / "tmp" / name).write_bytes(bytes(_order(number, games, players)))
    os.rename(folder / "in" / "tmp" / name, folder / "in" / "new" / name)


def _trees(tree: Path | None) -> dict[str, Path | None]:
    """This checkout's code, and ``--tree``'s when given (``startup_steps.py`` too)."""
    return {"this": None} | ({"tree": tree.resolve()} if tree else {})


def _set_up(folder: Path, games: int, players: int) -> Path:
    """A grammar cache of the run's own, the config and an empty inbox; returns the config."""
    os.environ["XDG_CACHE_HOME"] = str(folder / "cache")
    os.environ.pop("CACHE_DIRECTORY", None)
    config = _config(folder, games, players)
    for sub in ("new", "cur", "tmp"):
        (folder / "in" / sub).mkdir(parents=True)
    return config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--tree", type=Path, help="also run this checkout's code, alternating")
    args = parser.parse_args()
    trees = _trees(args.tree)
    with tempfile.TemporaryDirectory(prefix="gm-bench-startup-") as name:
        folder = Path(name)
        config = _set_up(folder, args.games, args.players)
        for tree in trees.values():  # database, games, welcomes, byte code, grammar cache
            _time(*_argv(tree, ["run", "--once", "--config", str(config)]))
        timings: dict[tuple[str, str], list[tuple[float, float]]] = {}
        dropped, outbox = 0, folder / "out" / "new"
        written = len(os.listdir(outbox))
        print(f"load average before: {os.getloadavg()[0]:.2f}")
        for _ in range(args.repeat):
            for label in trees:
                timings.setdefault(("python -c pass", label), []).append(
                    _time([sys.executable, "-c", "pass"], dict(os.environ))
                )
            for command, template in COMMANDS.items():
                for label, tree in trees.items():
                    argv = [a.format(config=config) for a in template]
                    if command == ONE_MAIL:
                        _drop_one(folder, dropped, args.games, args.players)
                        dropped += 1
                    timings.setdefault((command, label), []).append(_time(*_argv(tree, argv)))
        print(f"load average after: {os.getloadavg()[0]:.2f}")
        answers = len(os.listdir(outbox)) - written
        if answers != dropped:
            raise SystemExit(f"{answers} acknowledgements for {dropped} mails")
    print(f"\n{args.repeat} runs each; seconds, best / median (CPU best / median)")
    for (command, label), runs in timings.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(
            f"  {command:<18} {label:<5} wall {min(walls):.3f} / {statistics.median(walls):.3f}"
            f"   CPU {min(cpus):.3f} / {statistics.median(cpus):.3f}"
        )


if __name__ == "__main__":
    main()
