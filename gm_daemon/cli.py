"""The ``gm-daemon`` command line. Its commands and options are a stable interface.

Every command but ``run`` works on the database directly and is safe while the daemon runs:
changes are single transactions, and mails they cause are queued for the daemon to send.

Each command imports what it needs when it runs: ``gm-daemon --help`` does not load pydantic,
the config's models and the daemon (~0.25 s), nor ``status`` the intake of ``run``.
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import os
import re
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from gm_daemon.journal import log_level, setup_logging

if TYPE_CHECKING:
    import argparse

    from gm_daemon.config import Config, GameConfig
    from gm_daemon.games.protocol import Line
    from gm_daemon.loaded import Loaded
    from gm_daemon.referee import Referee
    from gm_daemon.store import Store

log = logging.getLogger("gm_daemon")


def utc_now() -> datetime:
    """The commands' clock (the tests' harness sets its own here)."""
    return datetime.now(UTC)


def entry() -> None:
    """The console script ``gm-daemon``. After ``run``, which has closed its database, its
    transports and its lock itself, the process ends without tearing the interpreter down:
    freeing every module and object took ~35 ms of each ``run --once`` here (the intake
    of some thirty mails), and nothing but the output's flushing is left to do by then.
    Other commands (their database is closed by that teardown) and ``main`` called from
    Python (tests) end as usual. A ``run`` also starts up without the cyclic collector
    (``_started``)."""
    args = sys.argv[1:]
    without_pydantic_plugins()
    if args[:1] == ["run"]:
        gc.disable()  # for the start-up only: see _started
    status = main(args)
    if args[:1] == ["run"]:
        logging.shutdown()
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except OSError:  # a closed pipe: let Python's own exit deal with it as ever
            sys.exit(status)
        os._exit(status)
    sys.exit(status)


def without_pydantic_plugins() -> None:
    """Pydantic's plugins off for this process unless the user says otherwise: the console
    script sets ``PYDANTIC_DISABLE_PLUGINS=__all__`` when the variable is not set at all.

    Why: the daemon uses no pydantic plugin, and pydantic looks for them when it builds its
    first model by reading the entry points of every installed distribution (~12 M
    instructions, ~1 % of a ``run --once``). A plugin installed beside the daemon would
    otherwise hook every validation of the config, the games' states and orders. Who
    wants one sets the variable himself, to an empty string (every plugin on) or to the
    names to leave out, and it is kept as he sets it (docs/daemon.md). Only the console
    script sets it, before pydantic is imported: ``main`` called from Python (the tests,
    another program) leaves its caller's pydantic as it is. Child processes inherit it."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["diplomacy"]:
        from gm_daemon.diplomacy.cli import main as diplomacy_main

        return diplomacy_main(args[1:])
    options = _run_line(args) or _parser("run" if args[:1] == ["run"] else None).parse_args(args)
    setup_logging(
        logging.INFO if options.command == "run" else logging.WARNING,
        getattr(options, "log_format", "text"),
    )
    try:
        return int(options.handler(options) or 0)
    except Exception as exc:
        return _failed(exc, options)


def _failed(exc: Exception, options: argparse.Namespace) -> int:
    """The exit status of a command that raised, its reason on stderr; anything else is
    raised again, with its traceback. (The exception classes are imported here, not for
    every ``--help``.)"""
    import sqlite3

    from gm_daemon.config import ConfigError
    from gm_daemon.startup import EX_CONFIG, StartupProblem, one_line
    from gm_daemon.store import SchemaTooNew

    if isinstance(exc, ConfigError):
        if options.command != "check":
            print(f"error: {one_line(exc)}", file=sys.stderr)
            return EX_CONFIG
        print(f"config {exc.path} has problems:", file=sys.stderr)
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return EX_CONFIG
    if isinstance(exc, StartupProblem | SchemaTooNew):  # the GM's to fix: one line, no restart
        print(f"error: {one_line(exc)}", file=sys.stderr)
        return EX_CONFIG
    if isinstance(exc, LookupError | ValueError):
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if isinstance(exc, sqlite3.DatabaseError):  # full disk, a damaged or unreadable file
        print(
            f"error: the database (daemon.database in {options.config}) cannot be used: {exc}. "
            "Check that its disk has space and that the file is readable and writable.",
            file=sys.stderr,
        )
        return 1
    if isinstance(exc, BrokenPipeError):  # "gm-daemon status --json | head": enough read
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 0
    raise exc


# ``run``'s options as its parser reads them: option, attribute, values (None: a flag)
RUN_OPTIONS = {
    "--config": ("config", None),
    "--log-format": ("log_format", ("text", "json")),
    "--once": ("once", None),
}


def _run_line(args: list[str]) -> argparse.Namespace | None:
    """``run``'s command line as the service and cron write it (``run --config PATH``,
    ``--once``, ``--log-format text|json``), read without argparse: importing it and
    building the parser (gettext looks for a catalogue for every help text) cost ~10 M
    instructions, 1 % of a ``run --once``.
    Only the plain spellings, each at most once and ``--config`` given, are read here, so
    the options are what the parser makes of them; anything else (``--help``,
    ``--config=PATH``, a shortened option, a mistake) is None and goes to the parser, which
    answers as ever. tests/core/test_cli_run_line.py holds the two equal."""
    if args[:1] != ["run"]:
        return None
    seen = {"command": "run", "once": False, "log_format": "text", "handler": _run}
    given: set[str] = set()
    rest = iter(args[1:])
    for option in rest:
        if option not in RUN_OPTIONS or option in given:
            return None
        given.add(option)
        name, values = RUN_OPTIONS[option]
        if option == "--once":
            seen[name] = True
            continue
        value = next(rest, None)
        if value is None or value.startswith("-") or (values and value not in values):
            return None
        seen[name] = Path(value) if option == "--config" else value
    if "--config" not in given:
        return None
    return SimpleNamespace(**seen)  # type: ignore[return-value]  # argparse's Namespace alike


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only="run"`` without the other commands'
    sub-parsers: building all twenty costs ~15 ms (up to 25 ms on a busy machine), a tenth
    of a ``run --once`` before its first acknowledgement. Parsing, ``run --help`` and every
    error message are the same either way (the top level names ``COMMAND``, not a list)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="gm-daemon", description="Email game master for play-by-mail games."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, handler: Any, help_text: str, game: bool = False) -> Any:
        cmd = sub.add_parser(name, help=help_text, description=help_text)
        cmd.add_argument("--config", type=Path, required=True, help="the TOML config file")
        if game:
            cmd.add_argument("--game", required=True, help="game id from the config")
        cmd.set_defaults(handler=handler)
        return cmd

    run = command("run", _run, "run the daemon")
    run.add_argument(
        "--once",
        action="store_true",
        help="process everything due (mail, deadlines, outbox), then exit",
    )
    run.add_argument(
        "--log-format",
        choices=["text", "json"],
        default="text",
        help="json: one JSON object per line, for log collectors",
    )
    if only == "run":
        return parser
    check = command("check", _check, "validate the config; every problem named with its key path")
    check.add_argument(
        "--connect",
        action="store_true",
        help="then log in to IMAP and SMTP as the daemon would, one line per server; sends nothing",
    )
    status = command("status", _status, "games, phases, deadlines, who owes orders")
    status.add_argument("--game", help="only this game")
    status.add_argument("--json", action="store_true", help="machine-readable, with full state")
    resolve = command("resolve", _resolve, "resolve the current phase now (NMR for missing orders)")
    which = resolve.add_argument_group("which games (one or both)")
    which.add_argument(
        "--game", dest="games", action="append", help="game id from the config; repeatable"
    )
    which.add_argument(
        "--due-before", help="every running game whose deadline is before this local time"
    )
    show = command("show", _show, "the result of a past phase, rendered again", game=True)
    show.add_argument("--phase", type=int, required=True, help="phase number (status shows it)")
    shunt = command("shunt", _shunt, "mails set aside: list, show ID, retry ID, drop ID")
    shunt.add_argument("action", choices=["list", "show", "retry", "drop"])
    shunt.add_argument("id", nargs="?", type=int, help="the mail's number (from shunt list)")
    extend = command("extend", _extend, "move the current deadline", game=True)
    group = extend.add_mutually_exclusive_group(required=True)
    group.add_argument("--until", help="new deadline, local time: 2026-12-05T18:00")
    group.add_argument("--by", help="add a duration to the deadline: 24h, 2d")
    add_reason(extend)
    add_reason(command("pause", _pause, "pause a game: no deadline fires", game=True))
    add_reason(command("resume", _resume, "resume a paused game", game=True))
    replace = command("replace-player", _replace, "give a player a new address", game=True)
    replace.add_argument("--player", required=True, help="player name (or its id)")
    replace.add_argument("--email", required=True, help="the new address")
    add_reason(replace)
    announce = command("announce", _announce, "a message to every player and observer")
    which_games = announce.add_mutually_exclusive_group(required=True)
    which_games.add_argument("--game", help="game id from the config")
    which_games.add_argument("--all", action="store_true", help="every running game")
    what = announce.add_mutually_exclusive_group(required=True)
    what.add_argument("--text", help="the message")
    what.add_argument("--file", type=Path, help="a UTF-8 file holding the message")
    _season_commands(command)
    absences = command(
        "absences", _absences, "absences players announced (ABWESEND): list, or --drop N", game=True
    )
    absences.add_argument("--drop", type=int, metavar="N", help="strike absence #N (see the list)")
    parse = command("parse", _parse, "check an order text for a player, store nothing", game=True)
    parse.add_argument("--player", required=True, help="player name (or its id)")
    parse.add_argument("file", nargs="?", type=Path, help="order text (stdin without)")
    site = command("site", _site, "write the static web site of every game ([site] in the config)")
    site.add_argument("--out", type=Path, help="write here instead of [site] dir")
    sub.add_parser("diplomacy", help="Diplomacy adjudicator tools (gm-daemon diplomacy -h)")
    reference = sub.add_parser(
        "config-reference",
        help="print every config key as Markdown (docs/config.md is this output)",
        description="Print every config key as Markdown: path, type, default, what it does.",
    )
    reference.set_defaults(handler=_config_reference)
    return parser


def add_reason(cmd: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The one ``--reason`` of every GM action the players are told of: their notice quotes
    it (``mailer.with_reason``), so they learn why, not only what."""
    cmd.add_argument(
        "--reason", help="why, in a few words; the players' notice quotes it", metavar="TEXT"
    )
    return cmd


def reason_of(options: argparse.Namespace) -> str | None:
    """The GM's reason as one line, or None when he gave none (or only blanks)."""
    text = " ".join((getattr(options, "reason", None) or "").split())
    return text or None


def _config_reference(options: argparse.Namespace) -> int:
    from gm_daemon.config_reference import reference

    sys.stdout.write(reference())
    return 0


def _season_commands(command: Any) -> None:
    """Preview, rollback, removing a player, ending a game (docs/gm.md)."""
    publish = command(
        "publish",
        _publish,
        "send a previewed result to every player; the next phase starts now",
        game=True,
    )
    add_reason(publish)
    rollback = command(
        "rollback",
        _rollback,
        "back to the start of a phase (without --to-phase: discard a preview)",
        game=True,
    )
    rollback.add_argument("--to-phase", type=int, help="phase number (status and show give it)")
    add_reason(rollback)
    rollback.add_argument(
        "--drop-orders", action="store_true", help="void the orders on file for that phase too"
    )
    remove = command(
        "remove-player", _remove_player, "take a player out of a game (his kind's rule)", game=True
    )
    remove.add_argument("--player", required=True, help="player name (or its id)")
    add_reason(remove)
    end = command("end", _end, "end a game now with the ranking as it stands", game=True)
    add_reason(end)


def _publish(options: argparse.Namespace) -> int:
    _, _, referee = _open(options)
    after = referee.season.publish(options.game, reason_of(options))
    print(f"{options.game}: result published to every player")
    _print_next(referee, after)
    return 0


def _rollback(options: argparse.Namespace) -> int:
    _, _, referee = _open(options)
    back = referee.season.roll_back(
        options.game, options.to_phase, reason_of(options), options.drop_orders
    )
    kept = "dropped" if options.drop_orders else "kept"
    print(
        f"{options.game}: back at the start of {back.label()} (orders for it {kept}); "
        "what was resolved from there on is void (gm-daemon show says so)"
    )
    _print_next(referee, back)
    return 0


def _remove_player(options: argparse.Namespace) -> int:
    _, _, referee = _open(options)
    player = referee.find_player(options.game, options.player)
    after = referee.season.remove_player(options.game, options.player, reason_of(options))
    print(f"{options.game}: {player.name} has left the game; every player is told")
    _print_next(referee, after)
    return 0


def _end(options: argparse.Namespace) -> int:
    _, _, referee = _open(options)
    referee.season.end(options.game, reason_of(options))
    print(f"{options.game}: ended; the ranking as it stands went to every player")
    return 0


def _print_next(referee: Referee, loaded: Loaded) -> None:
    from gm_daemon.deadlines import local_text

    if loaded.row.finished:
        print(f"{loaded.id}: the game is over")
        return
    deadline = loaded.row.deadline_at
    when = f"deadline {local_text(deadline, referee.tz, 'en')}" if deadline else "no deadline"
    waiting = f", waiting for the GM: {loaded.row.waiting}" if loaded.row.waiting else ""
    print(f"{loaded.id}: now {loaded.engine.phase_label(loaded.state, 'en')}, {when}{waiting}")


def _run(options: argparse.Namespace) -> int:
    """A problem the GM can fix (config, passwords, database, lock) is one line and exit
    status 78, which systemd does not restart; anything else is a bug: its traceback is
    logged and the status is 70."""
    import asyncio

    from gm_daemon.config import ConfigError
    from gm_daemon.daemon import Daemon
    from gm_daemon.startup import EX_CONFIG, EX_SOFTWARE, StartupProblem, one_line

    try:
        daemon = Daemon(options.config)
        _started()
        with log_level(daemon.config.daemon.log_level):
            asyncio.run(daemon.run_once() if options.once else daemon.run())
    except (ConfigError, StartupProblem) as exc:
        log.critical("cannot start: %s", one_line(exc), extra={"event": "refused"})
        return EX_CONFIG
    except Exception:
        log.critical("internal error; please report it with this traceback", exc_info=True)
        return EX_SOFTWARE
    return 0


def _started() -> None:
    """The end of ``run``'s start-up: the collector, which ``entry`` turned off for it, on
    again. Importing pydantic, asyncio and our modules and building the config makes some
    55 000 objects that live as long as the process (~580 of them garbage in cycles), and
    the collector went through them again and again while they were being made (~3 % of an
    empty ``run --once``'s instructions). They are moved out of its way (``gc.freeze``:
    never collected, never looked at again: the few cycles among them stay) and it runs as
    ever for what the daemon makes from now on. Nothing happens when the collector is on
    (``main`` called from Python, a test): it stays as its caller has it."""
    if gc.isenabled():
        return
    gc.freeze()
    gc.enable()


def _check(options: argparse.Namespace) -> int:
    from gm_daemon.config import ConfigError, load_config
    from gm_daemon.passwords import password_problems
    from gm_daemon.referee import Referee
    from gm_daemon.startup import open_store

    config = load_config(options.config)
    problems = password_problems(config) + _lmtp_problems(config)
    if problems:
        raise ConfigError(options.config, problems)
    for game in config.games:
        print(f"{game.id}: {game.kind}, {len(game.players)} players, language {game.language}")
    _print_passwords(config)
    started: set[str] = set()
    database = config.daemon.database
    older = _older_schema(database) if database.exists() else None
    if older is not None:
        started = older
    elif database.exists():  # edits the running games will not take
        store = open_store(database)
        referee = Referee(config, store, utc_now)
        started = {row.id for row in store.games()}
        for game in config.games:
            for problem in referee.roster_problems(game):
                print(f"warning: {problem}")
        for row in store.games():
            if not row.finished and not config.has_game(row.id):
                print(
                    f"warning: game {row.id} runs in the database but is not in the config: "
                    "the daemon holds it (no deadline, no orders taken) until its [[games]] "
                    "table is back"
                )
    for game in config.games:
        start = game.start_at(config.daemon.tz)
        if start is not None and start <= utc_now() and game.id not in started:
            print(
                f"warning: game {game.id}: start = {game.start:%Y-%m-%dT%H:%M} has passed and "
                "the game has not begun; the daemon starts it at once when it runs (set a "
                "later start, or remove the line to start now)"
            )
    print(f"{options.config}: OK")
    return _connect(config) if options.connect else 0


def _older_schema(database: Path) -> set[str] | None:
    """The ids of its games when the database is of an older schema, which ``check`` says
    and leaves alone: opening it migrates it, and ``check`` is what ``systemctl reload``
    runs, while the daemon of the old version still writes into it. Read without writing
    a byte; None for a database of this version (or one that cannot be read so)."""
    import sqlite3
    from urllib.parse import quote

    from gm_daemon.store import SCHEMA_VERSION, schema_version

    try:
        uri = f"file:{quote(str(database.absolute()))}?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
            found = schema_version(db)
            games = {row[0] for row in db.execute("SELECT id FROM games")} if found else set()
    except sqlite3.Error:
        return None  # opened as ever: its fault is said in the usual words
    if not 0 < found < SCHEMA_VERSION:
        return None
    print(
        f"note: daemon.database {database} has schema version {found}; gm-daemon run of this "
        f"version migrates it to {SCHEMA_VERSION} at its start, after a backup (stop the "
        "daemon of the old version first: systemctl restart, not reload); the running "
        "games' rosters are not compared until then"
    )
    return games


def _lmtp_problems(config: Config) -> list[str]:
    """What the LMTP listener would fail on at start (its socket's directory, its group),
    said now, as the config's own problems are."""
    if config.mail.transport != "lmtp":
        return []
    from gm_daemon.mail.lmtp import lmtp_problems

    return lmtp_problems(config.mail.lmtp)


def _connect(config: Config) -> int:
    """Try the daemon's own connections; 1 when any failed (each says why)."""
    import asyncio

    from gm_daemon.connect import try_servers

    outcomes = asyncio.run(try_servers(config))
    for outcome in outcomes:
        print(outcome.line)
    return 0 if all(outcome.ok for outcome in outcomes) else 1


def _print_passwords(config: Config) -> None:
    """Which passwords were read; as root, that this proves nothing about the service
    user, who is the one that must read them."""
    from gm_daemon.passwords import password_sources

    sources = password_sources(config)
    if not sources:
        return
    print(f"passwords read: {', '.join(sources)}")
    if os.geteuid() == 0:
        print(
            "warning: check ran as root, who may read any file; run it as the daemon's user "
            "(sudo -u gm-daemon gm-daemon check ...) to prove that user can read them"
        )


def _open(options: argparse.Namespace, scheduled_ok: bool = False) -> tuple[Config, Store, Referee]:
    """Config, store and referee; refuses to create an empty database (a GM in the wrong
    directory would otherwise see no games, or pause one that does not exist). A game whose
    ``start`` has not come is named as such (``status`` shows it: ``scheduled_ok``)."""
    from gm_daemon.config import load_config
    from gm_daemon.referee import Referee
    from gm_daemon.startup import open_store

    config = load_config(options.config)
    database = config.daemon.database
    if not database.exists():
        raise LookupError(
            f"no database at {database.absolute()}: the daemon has not started the games yet "
            f"(relative paths count from the current directory, {Path.cwd()})"
        )
    store = open_store(database)
    referee = Referee(config, store, utc_now, config_path=options.config.absolute())
    for game_id in [getattr(options, "game", None), *(getattr(options, "games", None) or [])]:
        if game_id is not None and store.game(game_id) is None:
            start = _scheduled(config, referee, game_id)
            if start is not None and scheduled_ok:
                continue
            if start is not None:
                raise LookupError(f"{game_id} has not begun: it starts {start}")
            known = ", ".join(row.id for row in store.games()) or "none"
            raise LookupError(f"no game {game_id!r} in {database}; games: {known}")
    return config, store, referee


def _scheduled(config: Config, referee: Referee, game_id: str) -> str | None:
    """When a configured game not yet begun starts, as the GM reads it; None otherwise."""
    from gm_daemon.deadlines import local_text

    game = next((g for g in config.games if g.id == game_id), None)
    start = referee.starts_at(game) if game is not None else None
    return None if start is None else local_text(start, referee.tz, "en")


def _status(options: argparse.Namespace) -> int:
    config, store, referee = _open(options, scheduled_ok=True)
    games = [g for g in store.games() if options.game in (None, g.id)]
    reports = [_game_status(referee, store, row.id) for row in games]
    reports += [
        _scheduled_status(game, start, referee)
        for game in config.games
        if options.game in (None, game.id) and (start := referee.starts_at(game)) is not None
    ]
    extra = {
        "database_bytes": database_size(store.path),
        "outbox": store.outbox_counts(),
        "failed": [dict(r) for r in store.failed_mails()],
        "shunted": [dict(r) for r in store.shunted()],
    }
    if options.json:
        print(json.dumps({"games": reports, **extra}, indent=2, ensure_ascii=False))
        return 0
    for report in reports:
        _print_status(report)
    counts = ", ".join(f"{n} {status}" for status, n in sorted(extra["outbox"].items()))
    print(f"outbox: {counts or 'empty'}")
    print(f"database: {store.path} ({extra['database_bytes'] / 1e6:.1f} MB)")
    for row in extra["failed"]:
        print(
            f"undeliverable mail #{row['id']} ({row['game_id'] or '-'} {row['purpose']}) "
            f"to {row['recipient']}: {row['last_error']}"
        )
    for row in extra["shunted"]:
        print(f"set aside (shunted) mail #{row['id']} from {row['sender']}: {row['verdict']}")
    return 0


def _game_status(referee: Referee, store: Store, game_id: str) -> dict[str, Any]:
    from gm_daemon.deadlines import local_text

    row = store.game(game_id)
    assert row is not None
    loaded = referee.load(game_id)
    # no orders are taken for a finished game, nor while a result waits for the GM's publish
    # or a phase for what only he can supply: nothing is "in", nobody owes
    closed = row.finished or row.preview_of is not None or bool(row.waiting)
    on_file = set() if closed else store.seats_with_orders(game_id, row.phase)
    owed = loaded.engine.owed(loaded.state) if loaded and not closed else set()
    tz = referee.tz
    return {
        "id": row.id,
        "kind": row.kind,
        "phase": row.phase,
        "phase_label": loaded.engine.phase_label(loaded.state, "en") if loaded else str(row.phase),
        "deadline": row.deadline_at.astimezone(tz).isoformat() if row.deadline_at else None,
        "deadline_text": local_text(row.deadline_at, tz, "en") if row.deadline_at else None,
        "overdue": bool(
            row.deadline_at
            and row.deadline_at <= utc_now()
            and not (row.paused or row.finished or loaded is None)
        ),
        "paused": row.paused and not row.finished,  # a game over is not paused (older rows)
        "finished": row.finished,
        "held": row.held,
        "waiting_for_gm": row.waiting,
        "preview_of": row.preview_of,
        "in_config": loaded is not None,
        "players": [
            {
                "seat": p.seat,
                "name": p.name,
                "email": p.email,
                "code": p.code,
                "orders_in": p.seat in on_file,
                "owes_orders": p.seat in owed,
                "left": _left(store, game_id, p.seat),
            }
            for p in store.players(game_id)
        ],
        "state": row.state,
    }


def _left(store: Store, game_id: str, seat: str) -> dict[str, Any] | None:
    """Whether the player has left (removed by the GM or resigned), and in which phase: a
    kind where he plays the running phase to its end still lists him as owing orders, and
    the GM should see why."""
    note = store.note(f"left:{game_id}:{seat}")
    if note is None:
        return None
    phase, how, _when = note.split(" ", 2)
    return {"phase": int(phase), "how": how}


def _scheduled_status(game: GameConfig, start: datetime, referee: Referee) -> dict[str, Any]:
    """A game whose ``start`` has not come: no state, no codes yet, only when it begins."""
    from gm_daemon.deadlines import local_text

    return {
        "id": game.id,
        "kind": game.kind,
        "starts": start.astimezone(referee.tz).isoformat(),
        "starts_text": local_text(start, referee.tz, "en"),
        "players": [{"name": p.name, "email": p.email} for p in game.players],
    }


def _print_status(report: dict[str, Any]) -> None:
    if "starts" in report:
        print(f"{report['id']} ({report['kind']}): starts {report['starts_text']}")
        print(f"  {len(report['players'])} players; nothing is sent before the start")
        return
    label = "finished" if report["finished"] else report["phase_label"]
    print(f"{report['id']} ({report['kind']}): {label}" + (" [paused]" if report["paused"] else ""))
    if not report["in_config"] and not report["finished"]:
        print(
            "  NOT IN THE CONFIG: nothing runs for it (no deadline, no orders taken); put its "
            "[[games]] table back and reload to go on"
        )
    elif report["held"]:
        print(f"  HELD: {report['held']} (after a fix: gm-daemon resolve --game {report['id']})")
    if report["preview_of"] is not None:
        print(
            f"  PREVIEW: the result of phase {report['preview_of']} went to you only; "
            f"gm-daemon publish --game {report['id']} sends it (rollback discards it)"
        )
    if report["waiting_for_gm"]:
        print(f"  WAITING FOR THE GM: {report['waiting_for_gm']} (add it to the config, reload)")
    overdue = " - PASSED, not resolved: is the daemon running? see its log"
    overdue = overdue if report["overdue"] else ""
    print(f"  deadline: {report['deadline_text'] or '-'}{overdue}")
    for player in report["players"]:
        mark = (
            "orders in"
            if player["orders_in"]
            else ("OWES ORDERS" if player["owes_orders"] else "-")
        )
        left = player["left"]
        if left is not None:
            mark += f" (left: {left['how']} in phase {left['phase']})"
        print(f"  {player['name']:<24} {player['email']:<32} {player['code']:<12} {mark}")


def _resolve(options: argparse.Namespace) -> int:
    """Resolve now, each game in its own transaction, and say what happened: a running
    daemon notices the change within a second and sends the results; without one they wait
    in the outbox for its next start. Every game named is checked before any is resolved."""
    config, store, referee = _open(options)
    if not options.games and not options.due_before:
        raise ValueError("resolve needs --game GAME (repeatable) or --due-before TIME")
    game_ids = list(dict.fromkeys(options.games or []))
    if options.due_before:
        moment = _local_moment(options.due_before, config, "--due-before")
        due = store.games_due_before(moment)
        game_ids += [game_id for game_id in due if game_id not in game_ids]
        if not due:
            print(f"no running game has its deadline before {options.due_before}")
    return max((_resolve_one(referee, game_id) for game_id in game_ids), default=0)


def _resolve_one(referee: Referee, game_id: str) -> int:
    from gm_daemon.deadlines import local_text

    loaded = referee.load(game_id)
    if loaded is None:
        raise LookupError(f"no running game {game_id!r}")
    if loaded.row.finished:
        print(f"{game_id}: finished; nothing to resolve")
        return 1
    if loaded.row.preview_of is not None:
        print(f"{game_id}: a previewed result waits: gm-daemon publish (or rollback) first")
        return 1
    if loaded.row.waiting:
        label = loaded.engine.phase_label(loaded.state, "en")
        print(f"{game_id}: {label} waits for the GM: {loaded.row.waiting}")
        return 1
    referee.release(game_id)
    before = loaded.engine.phase_label(loaded.state, "en")
    try:
        after = referee.resolve(game_id, "gm", loaded.row.phase)
    except Exception as exc:  # its transaction rolled back; the other games go on
        print(f"{game_id}: resolving failed, nothing changed: {type(exc).__name__}: {exc}")
        return 1
    if after is None:
        print(f"{game_id}: nothing resolved (the game moved on meanwhile?)")
        return 1
    print(f"{game_id}: {before} resolved; result mails queued for every player")
    if after.row.finished:
        print(f"{game_id}: the game is over")
    else:
        label = after.engine.phase_label(after.state, "en")
        deadline = after.row.deadline_at
        when = f"deadline {local_text(deadline, referee.tz, 'en')}" if deadline else "no deadline"
        waiting = f", waiting for the GM: {after.row.waiting}" if after.row.waiting else ""
        print(f"{game_id}: next {label}, {when}{waiting}")
    return 0


def _local_moment(text: str, config: Config, option: str) -> datetime:
    """A moment the GM typed: local time in the configured zone unless it names its own."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{option} {text!r}: write the local time as 2026-12-05T18:00") from None
    return moment.replace(tzinfo=config.daemon.tz) if moment.tzinfo is None else moment


def _show(options: argparse.Namespace) -> int:
    _, _, referee = _open(options)
    print(referee.show(options.game, options.phase), end="")
    return 0


def _site(options: argparse.Namespace) -> int:
    from gm_daemon.site import SiteBuilder

    config, store, _ = _open(options)
    if config.site is None and options.out is None:  # the daemon keeps no site up to date
        raise ValueError(
            f"{options.config} has no [site] table, so the daemon writes no web site and "
            'nothing was written. Turn it on with [site] dir = "var/site" (docs/site.md), '
            "or write a copy to look at with --out DIR"
        )
    builder = SiteBuilder(config, store, options.out, clock=utc_now)
    try:
        count = builder.everything()
    except OSError as exc:  # a file where a folder should be, no space, no permission
        where = exc.filename or builder.out
        key = "--out" if options.out is not None else "[site] dir"
        raise ValueError(
            f"cannot write the site to {builder.out} ({key}): {where}: {exc.strerror or exc}"
        ) from None
    print(f"{builder.out}: {count} game(s) written")
    return 0


def _shunt(options: argparse.Namespace) -> int:
    """Mails set aside because handling them raised: look at one, feed it through again
    once the cause is fixed (the running daemon picks it up within a second), or drop it."""
    _, store, _ = _open(options)
    if options.action == "list":
        rows = store.shunted()
        for row in rows:
            print(f"#{row['id']} {row['received_at']} from {row['sender']}: {row['verdict']}")
        print(f"{len(rows)} mail(s) set aside")
        return 0
    if options.id is None:
        raise ValueError(f"shunt {options.action} needs the mail's number (see: shunt list)")
    raw = store.shunted_mail(options.id)
    if raw is None:
        raise LookupError(f"no mail #{options.id} set aside (see: shunt list)")
    if options.action == "show":
        sys.stdout.write(raw.decode("utf-8", "replace"))
    elif options.action == "retry":
        store.requeue_incoming(options.id)
        print(f"mail #{options.id} queued again; the daemon reads it on its next pass")
    else:
        store.drop_incoming(options.id)
        print(f"mail #{options.id} dropped (kept in the database as 'dropped')")
    return 0


def _extend(options: argparse.Namespace) -> int:
    from gm_daemon.config import parse_duration
    from gm_daemon.deadlines import local_text

    config, store, referee = _open(options)
    row = store.game(options.game)
    assert row is not None
    if row.finished:
        raise ValueError(f"{options.game} is finished; there is no deadline to move")
    if row.waiting:  # the phase gets its deadline when it can start, counted from then
        raise ValueError(
            f"{options.game} waits for the GM ({row.waiting}) and has no deadline to move; "
            "once you supply it and reload, the phase starts with its own"
        )
    if row.preview_of is not None:  # publish counts the next deadline from its own moment
        raise ValueError(
            f"{options.game} waits for its previewed result and has no deadline to move: "
            f"gm-daemon publish --game {options.game} starts the next phase with its deadline "
            "(extend that one afterwards), or gm-daemon rollback discards the result"
        )
    if options.until:
        until = _local_moment(options.until, config, "--until")
    else:
        base = row.deadline_at or utc_now()
        until = base + parse_duration(options.by)
    if until <= utc_now():
        raise ValueError(
            f"{local_text(until, config.daemon.tz, 'en')} has passed; to end the round now "
            f"use: gm-daemon resolve --game {options.game}"
        )
    referee.extend(options.game, until, reason_of(options))
    print(f"{options.game}: deadline now {local_text(until, config.daemon.tz, 'en')}")
    return 0


def _pause(options: argparse.Namespace) -> int:
    _, store, referee = _open(options)
    _refuse_needless_pause(store, options.game, True)
    referee.pause(options.game, True, reason_of(options))
    print(f"{options.game}: paused")
    return 0


def _resume(options: argparse.Namespace) -> int:
    _, store, referee = _open(options)
    _refuse_needless_pause(store, options.game, False)
    referee.pause(options.game, False, reason_of(options))
    print(f"{options.game}: running")
    return 0


def _refuse_needless_pause(store: Store, game_id: str, pausing: bool) -> None:
    """Every player is told of a pause and of a resumption (the latter that his mails
    during the pause were not read): never for a game that is over, already paused, or
    not paused at all."""
    row = store.game(game_id)
    assert row is not None
    if row.finished:
        raise ValueError(f"{game_id} is finished; there is nothing to pause or resume")
    if pausing and row.paused:
        raise ValueError(f"{game_id} is paused already; gm-daemon resume --game {game_id}")
    if not pausing and not row.paused:
        raise ValueError(f"{game_id} is not paused; there is nothing to resume")


def _replace(options: argparse.Namespace) -> int:
    from gm_daemon.config import check_address

    _, _, referee = _open(options)
    player = referee.replace_address(
        options.game, options.player, check_address(options.email), reason_of(options)
    )
    print(f"{options.game}: {player.name} now plays from {player.email}")
    return 0


def _announce(options: argparse.Namespace) -> int:
    """The GM's message, queued in one transaction per game: a running daemon sends it
    within a second, as it sends what ``resolve`` queues."""
    _, store, referee = _open(options)
    text = options.text if options.text is not None else _message_file(options.file)
    if not text.strip():
        raise ValueError("the message is empty; give --text TEXT or --file FILE with the text")
    if options.all:
        game_ids = [row.id for row in store.games() if not row.finished]
        game_ids = [game_id for game_id in game_ids if referee.load(game_id) is not None]
        if not game_ids:
            raise LookupError("no running game to announce to")
    else:
        game_ids = [options.game]
    for game_id in game_ids:
        count = referee.season.announce(game_id, text)
        print(f"{game_id}: message queued for {count} recipient(s)")
    return 0


def _message_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text; save it as UTF-8") from None
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None


def _absences(options: argparse.Namespace) -> int:
    """The running absences of a game; ``--drop N`` strikes one and tells its player (the
    running daemon sends that mail within a second)."""
    _, store, referee = _open(options)
    if options.drop is not None:
        absence = referee.absence_register.drop(options.game, options.drop)
        print(f"{options.game}: absence #{absence.id} dropped; its player is told")
        return 0
    names = {p.seat: p.name for p in store.players(options.game)}
    rows = referee.absence_register.running(options.game)
    for a in rows:
        announced = a.announced_at.astimezone(referee.tz).strftime("%Y-%m-%d %H:%M")
        print(
            f"#{a.id} {names.get(a.seat, a.seat):<24} {a.first_day} to {a.last_day}"
            f" (announced {announced})"
        )
    print(f"{len(rows)} absence(s) announced in {options.game}")
    return 0


def _order_line(loaded: Loaded, line: Line) -> Line | None:
    """The line as the daemon's header step reads it (``guards.ReadBody``)."""
    from gm_daemon.loaded import header_line

    header = loaded.engine.read_header(line.text, loaded.state)
    return line if header is None else header_line(loaded, line, header)


def _parse(options: argparse.Namespace) -> int:
    from gm_daemon.games.protocol import OrdersRejected
    from gm_daemon.greetings import OnlyGreetings, read_orders
    from gm_daemon.intake import read_envelope
    from gm_daemon.loaded import as_written
    from gm_daemon.mail.message import order_lines
    from gm_daemon.texts import phrase, refusal_text, warnings_text

    _, _, referee = _open(options)
    loaded = referee.load(options.game)
    if loaded is None:
        raise LookupError(f"no running game {options.game!r}")
    player = referee.find_player(options.game, options.player)
    text = _order_text(options.file.read_bytes() if options.file else sys.stdin.buffer.read())
    envelope = read_envelope(order_lines(text))
    read = {written: _order_line(loaded, written) for written in envelope.lines}
    lines = [line for line in read.values() if line is not None]
    header_lines = {w.no: w.text for w, line in read.items() if line not in (None, w)}
    on_file = referee.orders_on_file(loaded, player.seat)
    try:  # past greetings and introductions, as the daemon reads a mail
        accepted = read_orders(
            loaded.engine, lines, loaded.state, player.seat, loaded.lang, on_file
        )
    except OnlyGreetings:
        print(phrase(loaded.lang, "only_greetings").rsplit(".", 1)[0] + ".")
        return 1
    except OrdersRejected as rejected:
        problems = as_written(rejected.problems, header_lines)
        print(refusal_text(problems, as_written(rejected.warnings, header_lines), loaded.lang))
        return 1
    print(loaded.engine.describe_orders(loaded.state, player.seat, accepted.orders, loaded.lang))
    print(warnings_text(as_written(accepted.warnings, header_lines), loaded.lang), end="")
    return 0


def database_size(path: Path) -> int:
    """The database with its write-ahead log, as it takes up disk space."""
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def _order_text(data: bytes) -> str:
    """The order text of a file: a whole mail saved from a client (.eml) is read as the
    daemon reads it (body part, charset, quotes); anything else is plain text."""
    from gm_daemon.mail.message import decode_bytes, parse_incoming

    head = data.split(b"\n\n", 1)[0].split(b"\r\n\r\n", 1)[0]
    if re.match(rb"(?im)^(from|subject|content-type|message-id|received|return-path):", head):
        return parse_incoming(data, "").text
    return decode_bytes(data, "utf-8")


__all__ = ["main"]
