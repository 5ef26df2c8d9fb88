"""Where the instructions of ``gm-daemon run --once`` go, step by step, up to its first
acknowledgement: counted by callgrind, so no load on the machine moves them (a wall figure of
a start-up on this shared VM spreads ±30 %).

Run by hand from the repository root (valgrind installed; no root, no mail stack):

    .venv/bin/python bench/startup_steps.py [--mails 1] [--games 20] [--players 8] [--tree DIR]

The set-up is ``startup.py``'s (``intake_e2e.py``'s config, run once first so the database,
the games, the byte code and the grammar cache exist). Then ``--mails`` plain order mails are
dropped into the inbox and ``run --once`` runs under callgrind with a probe around the console
script: the probe imports the modules a start-up needs in a fixed order and marks each step,
and the daemon's own steps (its construction, ``Referee.sync``, the first mail stored, the
first mail handled) by wrapping them; each mark calls ``os.getppid``, before which callgrind
writes what it counted so far (``--dump-before``). A step counts what it imports first.
``--tree DIR`` does the same with another checkout's code (``git archive COMMIT | tar -x -C
DIR``), printed beside this one. The probe names the daemon's internals: a tree too old for
them stops the bench.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from intake_e2e import _order, set_up_arguments
from startup import _argv, _set_up, _time, _trees

# Run as ``python -P -c PROBE run --once --config …``: each ``step`` ends one step.
PROBE = """
import os, sys
STEPS = []
def step(label):
    STEPS.append(label)
    os.getppid()  # callgrind dumps its counts before this call
import gm_daemon.cli as cli; step("interpreter, gm_daemon.cli (logging, argparse, pathlib)")
getattr(cli, "without_pydantic_plugins", lambda: None)()  # as the console script does
import asyncio; step("asyncio (ssl, socket, inspect, concurrent.futures)")
from pydantic import BaseModel; step("pydantic, BaseModel")
from pydantic import AfterValidator, Field, ValidationInfo, field_validator, model_validator
step("pydantic's Field, validators and types")
import importlib.metadata; step("importlib.metadata (pydantic's plugin loader)")
from pydantic.plugin._loader import get_plugins; get_plugins()
step("pydantic's scan of the installed distributions for plugins")
import gm_daemon.games.protocol; step("gm_daemon.games.protocol")
import gm_daemon.config; step("config.py: its models built")
import gm_daemon.mail.message; step("mail.message (email.policy, compose, smime)")
import gm_daemon.store, gm_daemon.referee, gm_daemon.daemon as daemon
step("store, referee (absences, phrase catalogues, mailer), daemon")
import gm_daemon.games.highnoon.game; step("High Noon's package (state models, phrases)")
import gm_daemon.intake; step("intake, guards, commands, envelope, greetings")
import gm_daemon.games.highnoon.orders; step("High Noon's order reader")
from gm_daemon.referee import Referee

def around(owner, name, label, first_only=False):
    original = getattr(owner, name)
    def wrapped(*args, **kwargs):
        result = original(*args, **kwargs)
        if not (first_only and label in STEPS):
            step(label)
        return result
    setattr(owner, name, wrapped)

around(cli, "_started", "Daemon(): config read and validated, store, transports")
around(Referee, "sync", "lock, Referee.sync")
around(daemon.Daemon, "_store_all", "inbox listed, the first mail read and stored", True)
around(daemon.Daemon, "_handle_group", "the first mail handled (its reply queued)", True)
exit_now = os._exit
def ended(status):
    step("the rest, the close")
    with open(os.environ["GM_STEPS"], "w", encoding="utf-8") as file:
        file.write("\\n".join(STEPS))
    exit_now(status)
os._exit = ended
sys.argv = ["gm-daemon", *sys.argv[1:]]
cli.entry()
"""


# The order grammar's analysed parser written to the cache, as the service's start or a
# first mail with a line for the grammar leaves it
WARM_GRAMMAR = "from gm_daemon.games.highnoon.syntax import parse_line_by_grammar as p; p('x')"


def _drop(folder: Path, first: int, count: int, games: int, players: int) -> int:
    for number in range(first, first + count):
        name = f"steps{number:05d}.bench"
        (folder / "in" / "tmp" / name).write_bytes(bytes(_order(number, games, players)))
        os.rename(folder / "in" / "tmp" / name, folder / "in" / "new" / name)
    return first + count


def _steps(tree: Path | None, config: Path, work: Path) -> list[tuple[str, int]]:
    """(step, instructions) of one ``run --once`` under callgrind."""
    _, env = _argv(tree, [])
    env["GM_STEPS"] = str(work / "steps.txt")
    command = [sys.executable, "-P", "-c", PROBE, "run", "--once", "--config", str(config)]
    out = work / "callgrind.out"
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--dump-before=os_getppid*",
         f"--callgrind-out-file={out}.%p", *command],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"run --once under callgrind failed:\n{done.stderr[-2000:]}")
    labels = (work / "steps.txt").read_text(encoding="utf-8").splitlines()
    dumps = sorted(work.glob("callgrind.out.*.*"), key=lambda p: int(p.suffix[1:]))
    counts = [_total(p) for p in dumps]
    for path in work.glob("callgrind.out.*"):
        path.unlink()
    return list(zip(labels, counts, strict=False))


def _total(dump: Path) -> int:
    found = re.search(r"^(?:summary|totals): (\d+)", dump.read_text(), re.MULTILINE)
    if found is None:
        raise SystemExit(f"no totals in {dump}")
    return int(found.group(1))


def main() -> None:
    parser = set_up_arguments(__doc__, None, "also count this checkout's code", mails=1)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is needed (apt-get install valgrind)")
    trees = _trees(args.tree)
    columns: dict[str, list[tuple[str, int]]] = {}
    with tempfile.TemporaryDirectory(prefix="gm-bench-steps-") as name:
        folder = Path(name)
        config = _set_up(folder, args.games, args.players)
        dropped = 0
        for tree in trees.values():  # database, games, welcomes, byte code, grammar cache
            _time(*_argv(tree, ["run", "--once", "--config", str(config)]))
            _, env = _argv(tree, [])
            subprocess.run([sys.executable, "-P", "-c", WARM_GRAMMAR], env=env, check=True)
        for label, tree in trees.items():
            dropped = _drop(folder, dropped, args.mails, args.games, args.players)
            columns[label] = _steps(tree, config, folder)
    print(f"run --once, {args.mails} mail(s) waiting; millions of instructions (callgrind)")
    steps = columns["this"]
    print(f"  {'step':<62}" + "".join(f"{label:>9}" for label in columns))
    for i, (step, _) in enumerate(steps):
        row = [col[i][1] if i < len(col) else 0 for col in columns.values()]
        print(f"  {step[:62]:<62}" + "".join(f"{n / 1e6:9.1f}" for n in row))
    totals = [sum(n for _, n in col) for col in columns.values()]
    print(f"  {'whole process (probe included)':<62}" + "".join(f"{n / 1e6:9.1f}" for n in totals))


if __name__ == "__main__":
    main()
