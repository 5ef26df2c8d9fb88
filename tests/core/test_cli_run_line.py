"""``run``'s command line read without argparse (``cli._run_line``) against the parser: every
line it reads gives the options the parser gives, and every other line goes to the parser."""

from __future__ import annotations

import contextlib
import io
import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from gm_daemon import cli

# Tokens a run line is made of: options, their values, the odd spelling and mistakes
TOKENS = [
    "--once",
    "--config",
    "gm.toml",
    "/etc/gm daemon/gm.toml",
    "",
    "--log-format",
    "json",
    "text",
    "xml",
    "--config=gm.toml",
    "--conf",
    "--log-format=json",
    "-h",
    "--help",
    "--",
    "-",
    "-x",
    "--once=1",
    "extra",
]


def _parsed(args: list[str]) -> dict[str, object] | None:
    """The parser's options for ``args``, or None when it refuses them (or prints help)."""
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            return vars(cli._parser("run").parse_args(args))
        except SystemExit:
            return None


def _lines() -> list[list[str]]:
    """Every run line of up to four tokens, and longer ones from the usual tokens."""
    lines = [["run", *tokens] for n in range(5) for tokens in itertools.product(TOKENS, repeat=n)]
    usual = ["--once", "--config", "gm.toml", "--log-format", "json"]
    lines += [["run", *order] for order in itertools.permutations(usual)]
    return [*lines, ["status", "--config", "gm.toml"], [], ["--help"]]


@pytest.mark.parametrize("chunk", range(8))
def test_what_it_reads_is_what_the_parser_reads(chunk: int) -> None:
    read = 0
    for args in _lines()[chunk::8]:
        options = cli._run_line(args)
        if options is None:
            continue
        read += 1
        assert vars(options) == _parsed(args), args
    assert read > 0


def test_it_reads_the_service_and_cron_lines() -> None:
    for args in (
        ["run", "--config", "/etc/gm-daemon/gm.toml"],
        ["run", "--once", "--config", "gm.toml"],
        ["run", "--config", "gm.toml", "--log-format", "json"],
    ):
        options = cli._run_line(args)
        assert options is not None and vars(options) == _parsed(args)
    assert cli._run_line(["run", "--config", "gm.toml"]).config == Path("gm.toml")


@pytest.mark.parametrize(
    "args",
    [
        ["run"],
        ["run", "--once"],
        ["run", "--help"],
        ["run", "--config=gm.toml"],
        ["run", "--conf", "gm.toml"],
        ["run", "--config", "a", "--config", "b"],
        ["run", "--config", "-x"],
        ["run", "--config", "gm.toml", "--log-format", "xml"],
        ["run", "--config", "gm.toml", "extra"],
        ["status", "--config", "gm.toml"],
    ],
)
def test_everything_else_goes_to_the_parser(args: list[str]) -> None:
    assert cli._run_line(args) is None


def test_a_run_loads_no_argparse(tmp_path: Path) -> None:
    """The service's command line costs no parser; a refused one is answered by it."""
    probe = (
        "import sys\nfrom gm_daemon import cli\n"
        "options = cli._run_line(sys.argv[1:])\n"
        "print(options is not None, 'argparse' in sys.modules)\n"
    )
    argv = [sys.executable, "-c", probe, "run", "--once", "--config", str(tmp_path / "gm.toml")]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["True", "False"]
    main = "import sys\nfrom gm_daemon.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    refused = subprocess.run(
        [sys.executable, "-c", main, "run", "--once"], capture_output=True, text=True, timeout=60
    )
    assert refused.returncode == 2
    assert "the following arguments are required: --config" in refused.stderr
