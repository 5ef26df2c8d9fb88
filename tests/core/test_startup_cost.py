"""What a command loads before it works, and how the console script ends.

``gm-daemon --help`` needs no config and no daemon; ``run --once`` on an empty inbox reads no
order, so it loads no grammar and makes no intake; the service makes both at start, before
its first mail. The console script ends a ``run`` without the interpreter's teardown, so the
database must be closed (its WAL folded in) and every line written before that. Each case
runs in a process of its own: what is imported is per process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel

from gm_daemon.config import Config
from gm_daemon.games import available_kinds, find_game
from tests.core.daemon_process import config_text, highnoon, run_command, write_config

EGON = 'email = "egon@players.test"\ncode = "EGON-1"\n'

# Run in a fresh interpreter: the command, then the modules it left loaded (as JSON).
PROBE = """
import json, sys
from gm_daemon.cli import main
try:
    status = main(sys.argv[1:])
except SystemExit as exc:
    status = exc.code
# Whether anything parsed a builtin's text signature (the tokenizer's pattern compiled)
tokenize = sys.modules.get("tokenize")
tokenized = bool(tokenize and tokenize._compile.cache_info().currsize)
modules = sorted(sys.modules) + (["(tokenized)"] if tokenized else [])
print(json.dumps({"status": status, "modules": modules}))
"""
TOKENIZED = "(tokenized)"


def _loaded(*args: str) -> tuple[int, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return report["status"], set(report["modules"])


def _models() -> Iterator[type[BaseModel]]:
    """Every pydantic model of the project: the config's and every game kind's."""
    for kind in available_kinds():
        find_game(kind)
    waiting = list(BaseModel.__subclasses__())
    while waiting:
        model = waiting.pop()
        waiting += model.__subclasses__()
        if model.__module__.startswith("gm_daemon."):
            yield model


def test_no_model_has_a_builtin_default_factory() -> None:
    """Pydantic reads a default factory's signature when it builds a model, and a builtin's
    (``list``, ``dict``) is parsed from text by the tokenizer: ~4 ms for the first on every
    start. ``protocol.empty_list`` and ``empty_dict`` make the same empty containers."""
    builtin = [
        f"{model.__module__}.{model.__qualname__}.{name}"
        for model in _models()
        for name, field in model.model_fields.items()
        if getattr(field.default_factory, "__module__", None) == "builtins"
    ]
    models = set(_models())
    assert Config in models
    assert len({m.__module__ for m in models}) >= 10  # the walk found the games' models
    assert builtin == []


@pytest.fixture
def config(tmp_path: Path) -> Path:
    games = highnoon("hn1").replace('email = "egon@players.test"\n', EGON) + highnoon("hn2")
    path = write_config(tmp_path, config_text(tmp_path, games))
    first = run_command("run", "--once", "--config", str(path))  # games started, welcomes out
    assert first.returncode == 0, first.stderr
    return path


@pytest.mark.parametrize(
    ("args", "absent"),
    [
        (["--help"], {"pydantic", "asyncio", "gm_daemon.config", "gm_daemon.daemon", "lark"}),
        (["status", "--help"], {"pydantic", "gm_daemon.config", "gm_daemon.store"}),
        (["config-reference"], {"asyncio", "gm_daemon.daemon", "gm_daemon.intake"}),
    ],
)
def test_commands_without_a_database_load_little(args: list[str], absent: set[str]) -> None:
    status, modules = _loaded(*args)
    assert status == 0
    assert modules & absent == set()


def test_run_once_on_an_empty_inbox_reads_no_order(config: Path) -> None:
    status, modules = _loaded("run", "--once", "--config", str(config))
    assert status == 0
    not_needed = {"lark", "gm_daemon.grammar", "gm_daemon.games.highnoon.syntax"}
    not_needed |= {"gm_daemon.intake", "gm_daemon.guards", "gm_daemon.site.build"}
    not_needed |= {"argparse", "email.policy"}  # run's usual line; the email package's composer
    assert modules & not_needed == set()
    assert TOKENIZED not in modules
    assert "gm_daemon.games.highnoon.game" in modules  # the games were synced all the same


def test_a_second_start_parses_no_toml(
    config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The config and the phrase catalogues come from the parsed files the first start kept
    (``disk_cache.parsed_toml``): the pure-Python TOML parser is not even imported."""
    monkeypatch.delenv("CACHE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    status, modules = _loaded("run", "--once", "--config", str(config))  # parses and keeps
    assert status == 0
    assert "tomllib" in modules
    status, modules = _loaded("run", "--once", "--config", str(config))
    assert status == 0
    assert "tomllib" not in modules
    assert len(list((tmp_path / "cache" / "gm-daemon" / "toml").iterdir())) >= 3


@pytest.mark.parametrize(
    ("line", "lark"),
    [
        ("Herausforderungen: Hans", False),  # plain lines: the quick reader, no Lark
        ("Herausforderungen: Hans 5", True),  # a mistake: the grammar names it
    ],
)
def test_run_once_with_an_order_reads_it(
    config: Path, tmp_path: Path, line: str, lark: bool
) -> None:
    """The same start-up, and the first mail loads what reading it needs: Lark and the
    grammar only for a line the quick reader leaves to them."""
    mail = (
        "From: Egon <egon@players.test>\nTo: gm@gm.test\nSubject: [hn1] Befehle\n"
        f"Message-ID: <order-1@players.test>\n\nHallo,\nCode: EGON-1\n{line}\nGruß\n"
    )
    (tmp_path / "inbox" / "new" / "1.order").write_text(mail, encoding="utf-8")
    status, modules = _loaded("run", "--once", "--config", str(config))
    assert status == 0
    assert {"gm_daemon.intake", "gm_daemon.games.highnoon.syntax"} <= modules
    assert "html.parser" not in modules  # a plain-text mail: no HTML to render
    assert "gm_daemon.mail.smime" not in modules  # nor S/MIME to open
    grammar = {"lark", "gm_daemon.games.highnoon.by_grammar"}
    assert modules & grammar == (grammar if lark else set())
    assert (TOKENIZED in modules) is False
    replies = [p.read_text() for p in (tmp_path / "outbox" / "new").iterdir()]
    [reply] = [text for text in replies if "<order-1@players.test>" in text]
    answer = "Befehle NICHT angenommen" if lark else "Befehle angenommen"
    assert answer in reply, reply


def test_the_service_makes_intake_and_grammar_before_the_first_mail(config: Path) -> None:
    probe = f"""
import asyncio, sys
from pathlib import Path
from gm_daemon.daemon import Daemon

daemon = Daemon(Path({str(config)!r}))
async def start_and_stop():
    asyncio.get_running_loop().call_later(0.5, daemon.request_exit, "test")
    await daemon.run()
asyncio.run(start_and_stop())
print("intake" in vars(daemon), "gm_daemon.games.highnoon.by_grammar" in sys.modules)
"""
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]


def test_the_console_script_closes_the_database_and_says_everything(
    config: Path, tmp_path: Path
) -> None:
    """``run`` ends without the interpreter's teardown: the store was closed before (SQLite
    removes the WAL when its last connection closes), and a refusal still reaches stderr
    with its status."""
    done = run_command("run", "--once", "--log-format", "json", "--config", str(config))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "gm.sqlite").exists()
    assert not (tmp_path / "gm.sqlite-wal").exists()
    (tmp_path / "broken").mkdir()
    broken = write_config(tmp_path / "broken", "[daemon]\nnot toml at all\n")
    refused = run_command("run", "--once", "--config", str(broken))
    assert refused.returncode == 78
    assert "cannot start" in refused.stderr


# The collector as ``run_once`` finds it, when started by the console script or by ``main``.
GC_PROBE = """
import gc, json, sys
import gm_daemon.daemon as daemon
from gm_daemon import cli

seen = {}
run_once = daemon.Daemon.run_once
async def probed(self):
    seen.update(enabled=gc.isenabled(), frozen=gc.get_freeze_count())
    await run_once(self)
    print(json.dumps(seen), flush=True)
daemon.Daemon.run_once = probed
by, sys.argv = sys.argv[1], ["gm-daemon", *sys.argv[2:]]
cli.entry() if by == "entry" else sys.exit(cli.main(sys.argv[1:]))
"""


@pytest.mark.parametrize(("by", "frozen"), [("entry", True), ("main", False)])
def test_the_start_ups_objects_are_kept_out_of_the_collectors_way(
    config: Path, tmp_path: Path, by: str, frozen: bool
) -> None:
    """The console script's ``run`` starts up without the cyclic collector and then hands
    what it made to ``gc.freeze``; the collector is on for the mail. ``main`` called from
    Python leaves the collector as its caller has it."""
    mail = (
        "From: Egon <egon@players.test>\nTo: gm@gm.test\nSubject: [hn1] Befehle\n"
        "Message-ID: <order-2@players.test>\n\nCode: EGON-1\nHerausforderungen: Hans\n"
    )
    (tmp_path / "inbox" / "new" / "2.order").write_text(mail, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", GC_PROBE, by, "run", "--once", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["enabled"] is True
    assert (seen["frozen"] > 10_000) is frozen, seen
    replies = [p.read_text() for p in (tmp_path / "outbox" / "new").iterdir()]
    assert any("<order-2@players.test>" in text for text in replies)


# pydantic's plugins once the daemon is built: the variable, and whether pydantic scanned
# the installed distributions for plugins (its loader keeps what it found, None before).
PLUGINS_PROBE = """
import json, os, sys
from gm_daemon import cli

def started():
    from pydantic.plugin import _loader
    variable = os.environ.get("PYDANTIC_DISABLE_PLUGINS")
    print(json.dumps({"variable": variable, "scanned": _loader._plugins is not None}))
    sys.stdout.flush()
    os._exit(0)
cli._started = started  # the config is built and validated by then
by, sys.argv = sys.argv[1], ["gm-daemon", *sys.argv[2:]]
cli.entry() if by == "entry" else sys.exit(cli.main(sys.argv[1:]))
"""


@pytest.mark.parametrize(
    ("by", "variable", "seen"),
    [
        ("entry", None, {"variable": "__all__", "scanned": False}),
        ("entry", "", {"variable": "", "scanned": True}),
        ("entry", "logfire", {"variable": "logfire", "scanned": True}),
        ("main", None, {"variable": None, "scanned": True}),
    ],
)
def test_the_console_script_turns_pydantics_plugins_off_unless_told(
    config: Path, by: str, variable: str | None, seen: dict[str, object]
) -> None:
    """The console script sets ``PYDANTIC_DISABLE_PLUGINS=__all__`` when it is not set, so
    pydantic does not read every distribution's entry points; a value of the user's (even
    empty) is kept and pydantic looks for plugins as ever; ``main`` from Python leaves it."""
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    if variable is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = variable
    done = subprocess.run(
        [sys.executable, "-c", PLUGINS_PROBE, by, "run", "--once", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == seen
