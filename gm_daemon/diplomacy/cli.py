"""``gm-daemon diplomacy adjudicate [FILE]``: one phase (or a list of phases) as JSON in,
the results as JSON out. The lead's command line calls ``main`` with the words after
"diplomacy"; it reads FILE or stdin and writes to stdout."""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson

from gm_daemon.diplomacy.phase import PhaseError, run_phase


def main(argv: list[str] | None = None) -> int:
    args = _arguments().parse_args(argv)
    try:
        text = _read(args.file)
    except OSError as exc:
        print(f"diplomacy: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    with _collector_paused():
        try:
            data = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            print(f"diplomacy: not JSON: {exc}", file=sys.stderr)
            return 2
        status, result = _adjudicate(data)
    sys.stdout.write(_encode(result, compact=args.compact))
    return status


def _encode(result: Any, *, compact: bool) -> str:
    """The whole answer as one string, written at once. ``json.dump`` went through the
    pure-Python encoder and wrote every token to stdout separately: as costly as the
    adjudication. orjson writes the same bytes as ``json.dumps`` (``ensure_ascii=False``,
    compact separators or an indent of two) in a tenth of the C encoder's time, the final
    newline included (no second copy of the answer to append it)."""
    option = orjson.OPT_APPEND_NEWLINE | (0 if compact else orjson.OPT_INDENT_2)
    return orjson.dumps(result, option=option).decode("utf-8")


def _arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gm-daemon diplomacy",
        description="Adjudicate Diplomacy phases given as JSON (see docs/diplomacy.md).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    adjudicate = commands.add_parser(
        "adjudicate", help="adjudicate one phase, or a JSON array of phases"
    )
    adjudicate.add_argument("file", nargs="?", help="JSON file to read (default: stdin)")
    adjudicate.add_argument("--compact", action="store_true", help="one-line JSON output")
    return parser


def _read(path: str | None) -> str | bytes:
    """The document as read: bytes from a file (orjson takes UTF-8 bytes without a decoded
    copy and rejects what is not UTF-8), the text of stdin."""
    if path is None or path == "-":
        return sys.stdin.read()
    with open(path, "rb") as handle:
        return handle.read()


# Phases between two collections of the young generations while a batch runs.
_COLLECT_EVERY = 256


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector only every ``_COLLECT_EVERY`` phases while a batch is read
    and runs (``_adjudicate`` collects).

    Every result is kept until the answer is written, so the collector, left to itself,
    walked each of them three times or more as it aged through the generations, and the
    input document again and again in the full collections: a fifth of a batch's time. The
    engine makes no reference cycles; an unreadable order's exception does (its traceback),
    so the young generations are still collected now and then, each object walked once."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _adjudicate(data: Any) -> tuple[int, Any]:
    """Results in input order; a phase that cannot be read gives {"error": ...} in its place
    and exit status 1, so one bad phase does not hide the others."""
    phases = data if isinstance(data, list) else [data]
    results: list[Any] = []
    status = 0
    for number, phase in enumerate(phases, 1):
        try:
            results.append(run_phase(phase))
        except PhaseError as exc:
            where = f"phase {number}: " if isinstance(data, list) else ""
            print(f"diplomacy: {where}{exc}", file=sys.stderr)
            results.append({"error": str(exc)})
            status = 1
        if number % _COLLECT_EVERY == 0 and not gc.isenabled():
            gc.collect(1)  # see _collector_paused
    return status, results if isinstance(data, list) else results[0]


if __name__ == "__main__":
    sys.exit(main())
