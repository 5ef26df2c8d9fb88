"""Every benchmark of bench/ in turn, each printing its figures beside the baseline it
measures in the same run, with the load average before and after each.

Run by hand from the repository root:

    .venv/bin/python bench/all.py [--mail | --no-mail] [--only NAME ...] [--skip NAME ...]

The benchmarks that start the test mail stack (Postfix + Dovecot, tests/mailstack) need
root; they run when this runs as root, unless ``--no-mail``, and ``--mail`` asks for them
(refused without root). NAME is a script's path below bench/ without ``.py``
(``intake_e2e``, ``diplomacy/bench``). A script in bench/ that this list does not know is
named at the end, so a new benchmark is not skipped unnoticed. The arguments below are each
benchmark's own defaults or the sizes bench/README.md reports; a whole run takes a while
(the storm of 1 000 games most of all).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Bench:
    name: str  # path below bench/ without .py
    args: tuple[str, ...] = ()
    mail: bool = False  # starts the test mail stack: root only

    @property
    def script(self) -> Path:
        return ROOT / "bench" / f"{self.name}.py"


BENCHES = (
    Bench("decode"),
    Bench("intake_maildir", ("--mails", "500")),
    Bench("intake_e2e", ("--mails", "1000", "--rounds", "3")),
    Bench("answer", ("--mails", "1000", "--rounds", "5")),
    Bench("startup", ("--repeat", "10")),
    Bench("startup_steps"),  # valgrind
    Bench("store_steps"),  # valgrind
    Bench("diplomacy/bench"),
    Bench("primtraktor/bench_round"),
    Bench("hexenhalma/bench_round"),
    Bench("highlander/bench_map"),
    Bench("site"),
    Bench("mail_intake", ("--mails", "500"), mail=True),
    Bench("lmtp", ("--mails", "200", "--burst", "1000"), mail=True),
    Bench("storm", ("1000", "10"), mail=True),
)
# scripts in bench/ that are parts of others, not benchmarks
HELPERS = frozenset({"all", "timing", "__init__", "diplomacy/positions", "diplomacy/mila_runner"})


@dataclass(frozen=True)
class Outcome:
    bench: Bench
    status: str
    seconds: float
    load_before: float
    load_after: float


def _run(bench: Bench) -> Outcome:
    before = os.getloadavg()[0]
    print(f"\n===== {bench.name} {' '.join(bench.args)} (load average {before:.2f})", flush=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, str(bench.script), *bench.args], cwd=ROOT, env=env)
    seconds = time.perf_counter() - start
    after = os.getloadavg()[0]
    status = "ok" if done.returncode == 0 else f"failed ({done.returncode})"
    print(f"===== {bench.name}: {status}, {seconds:.0f} s, load average {after:.2f}", flush=True)
    return Outcome(bench, status, seconds, before, after)


def _unknown() -> list[str]:
    """Scripts in bench/ that are neither in ``BENCHES`` nor helpers."""
    known = {b.name for b in BENCHES} | HELPERS
    found = [*ROOT.joinpath("bench").glob("*.py"), *ROOT.joinpath("bench").glob("*/*.py")]
    names = {p.relative_to(ROOT / "bench").with_suffix("").as_posix() for p in found}
    return sorted(names - known)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mail = parser.add_mutually_exclusive_group()
    mail.add_argument("--mail", action="store_true", help="the mail-stack benchmarks too")
    mail.add_argument("--no-mail", action="store_true", help="not the mail-stack benchmarks")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these benchmarks")
    parser.add_argument("--skip", nargs="+", metavar="NAME", default=[], help="not these")
    args = parser.parse_args()
    root = os.geteuid() == 0
    if args.mail and not root:
        parser.error("--mail: the mail-stack benchmarks start Postfix and Dovecot as root")
    with_mail = (root or args.mail) and not args.no_mail
    names = {b.name for b in BENCHES}
    for name in [*(args.only or []), *args.skip]:
        if name not in names:
            parser.error(f"no benchmark {name!r}; there are: {', '.join(sorted(names))}")
    chosen = [
        b for b in BENCHES if (args.only is None or b.name in args.only) and b.name not in args.skip
    ]
    outcomes, left_out = [], []
    for bench in chosen:
        if bench.mail and not with_mail:
            left_out.append(bench.name)
            continue
        outcomes.append(_run(bench))
    print("\n===== summary")
    for o in outcomes:
        print(
            f"  {o.bench.name:<24} {o.status:<12} {o.seconds:6.0f} s"
            f"  load average {o.load_before:.2f} → {o.load_after:.2f}"
        )
    if left_out:
        why = "--no-mail" if args.no_mail else "not root"
        print(f"  left out ({why}; they start the test mail stack): {', '.join(left_out)}")
    if unknown := _unknown():
        print(f"  in bench/ but not in bench/all.py's list, run by hand: {', '.join(unknown)}")
    return 0 if all(o.status == "ok" for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
