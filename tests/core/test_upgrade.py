"""An upgrade keeps every running game. A club upgrades mid-season: the database written by
the release at 41b05d1 (``tests/fixtures/release-41b05d1.sqlite``, seven games of every kind
mid-game, mail sent and not yet sent, a mail set aside) is migrated in place with a backup
written first; every game loads, ``status`` works, the mail that release had not sent goes
out once, and each game takes an order mail and resolves its phase. A database newer than
the code is refused in one line; a migration that fails leaves the database as it was.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from gm_daemon import store
from gm_daemon.cli import main as cli_main
from gm_daemon.store import SCHEMA_VERSION, SchemaTooNew, Store
from tests.daemon_harness import DaemonHarness

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RELEASE = FIXTURES / "release-41b05d1.sqlite"
BOARDS = Path(__file__).resolve().parents[2] / "config" / "boards"
LAST_RUN = datetime(2026, 12, 1, 13, 10, tzinfo=UTC)  # the release's last run (README there)
PLAYERS = {
    "Anna": ("anna@players.test", "ANNA-1111"),
    "Bert": ("bert@players.test", "BERT-2222"),
    "Carla": ("carla@players.test", "CARLA-3333"),
}

# Each game as the release left it: kind, phase, seats with orders on file for that phase.
GAMES = {
    "hn1": ("highnoon", 2, {"anna"}),
    "pt1": ("primtraktor", 2, {"anna", "bert"}),
    "hb1": ("hornberg", 3, set()),
    "hb2": ("hornberg", 2, {"carla"}),  # a PLAN for her next turn
    "hx1": ("hexenhalma", 2, {"anna"}),
    "hl1": ("highlander", 2, {"anna"}),
    "hl2": ("highlander", 3, {"anna"}),
}


class Play(NamedTuple):
    """One order mail after the upgrade, written for the state the fixture holds."""

    game: str
    player: str
    orders: str
    by_gm: bool  # the GM resolves the phase (``gm-daemon resolve``); else it resolves at once
    phase: int  # the phase the game then reaches
    ends: bool
    resolved: set[str]  # the seats whose orders the resolution used: the old ones are kept


PLAYS = [
    Play("hn1", "Bert", "Herausforderungen: Anna, Carla", True, 3, False, {"anna", "bert"}),
    Play("pt1", "Carla", "Round: 2\nNorth=", True, 3, False, {"anna", "bert", "carla"}),
    Play("hb1", "Carla", "Zug: 3\nKanone bl1 auf A1", False, 4, False, {"carla"}),
    # Bert's play, and with it Carla's PLAN from before the upgrade plays her turn 3
    Play("hb2", "Bert", "Turn: 2\ncannon ye1 to row I", False, 4, False, {"bert", "carla"}),
    Play(
        "hx1",
        "Bert",
        "Runde: 2\nHexe 1: C7 | N+I, N4, E, N\nHexe 2: D7 | N, E, N5\nHexe 3: E7 | N5, W2, N",
        True,
        3,
        True,  # it was the last round
        {"anna", "bert"},
    ),
    # resolve_early: Anna's set-up (hl1) and moves (hl2) were on file from before
    Play(
        "hl1",
        "Bert",
        "SETUP: A PAR, A POR, A ROM, A RUM, A SER, F SEV, A SMY, A SPA, F STP/SC, A SWE,"
        " F TRI, A TUN, A VEN, A VIE, A WAR",
        False,
        3,
        False,
        {"anna", "bert"},
    ),
    Play(
        "hl2", "Bert", "BRETT A:\nA PAR - BUR\nBRETT B:\nF ANK - BLA", False, 4, False,
        {"anna", "bert"},
    ),
]  # fmt: skip


def upgraded(tmp_path: Path) -> DaemonHarness:
    """The release's database under the same config, ten minutes after its last run."""
    shutil.copytree(BOARDS, tmp_path / "boards")
    shutil.copy(RELEASE, tmp_path / "gm.sqlite")
    return DaemonHarness(
        tmp_path,
        (FIXTURES / "release_games.toml").read_text(encoding="utf-8"),
        now=LAST_RUN + timedelta(minutes=10),
        extra_toml='gm_address = "boss@club.test"\n',
    )


def query(path: Path, sql: str, *values: Any) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute(sql, values).fetchall()


def version(path: Path) -> int:
    return int(query(path, "PRAGMA user_version")[0][0])


def dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table."""
    tables = [t for (t,) in query(path, "SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: query(path, f"SELECT * FROM {t} ORDER BY rowid") for t in tables}


def schema(path: Path) -> dict[str, set[tuple[Any, ...]]]:
    """Each table's columns (name, type, not null, default) and the indexes."""
    tables = [t for (t,) in query(path, "SELECT name FROM sqlite_master WHERE type = 'table'")]
    found = {
        t: {row[1:5] for row in query(path, f"PRAGMA table_info({t})")}
        for t in tables
        if t != "sqlite_sequence"
    }
    found["indexes"] = set(
        query(path, "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index'")
    )
    return found


# --- the migration ----------------------------------------------------------------------------
def test_the_release_database_is_migrated_in_place_after_a_backup(tmp_path: Path) -> None:
    database = tmp_path / "gm.sqlite"
    shutil.copy(RELEASE, database)
    before = dump(database)
    Store(database).close()
    (backup,) = tmp_path.glob("*.bak")
    assert re.fullmatch(r"gm\.sqlite\.v1-\d{8}T\d{6}Z\.bak", backup.name), backup.name
    assert version(database) == SCHEMA_VERSION == 4
    assert version(backup) == 0 and dump(backup) == before  # the old database, row for row
    assert query(backup, "PRAGMA journal_mode") == [("delete",)]  # one file, no -wal beside
    after = dump(database)
    assert after.pop("absences") == []  # step 3 → 4: a table of its own, empty
    assert ("schema_version", "2") in before["meta"]
    assert after.pop("meta") == [r for r in before.pop("meta") if r[0] != "schema_version"]
    for table in SCHEMA_3_TABLES:  # step 2 → 3: the record of rollbacks, empty
        assert after.pop(table) == []
    assert {r[-1] for r in after["games"]} == {None}  # step 2 → 3: no game in preview
    after["games"] = [r[:-1] for r in after["games"]]
    assert after == before  # no game, order, phase or mail touched
    assert schema(database) == schema(fresh(tmp_path))
    Store(database).close()
    assert len(list(tmp_path.glob("*.bak"))) == 1 and not list(tmp_path.glob("*.part"))


SCHEMA_3_TABLES = ("rollbacks", "void_phases", "void_orders")


def fresh(tmp_path: Path) -> Path:
    path = tmp_path / "fresh" / "gm.sqlite"
    Store(path).close()
    return path


def test_a_new_database_is_created_at_the_latest_version_without_a_backup(tmp_path: Path):
    path = fresh(tmp_path)
    assert version(path) == SCHEMA_VERSION
    assert query(path, "SELECT * FROM meta") == []
    assert sorted(p.name for p in path.parent.iterdir() if ".bak" in p.name) == []


# What the first schema (17001b8) lacked, as the releases up to 41b05d1 added it at start.
FIRST_SCHEMA_LACKED = {
    "columns": [("games", "remind_at"), ("games", "held"), ("games", "waiting"),
                ("phases", "finished"), ("phases", "ranking"), ("inbox", "content")],
    "indexes": ["outbox_recipient", "players_address"],
}  # fmt: skip


def test_a_database_of_the_first_schema_reaches_the_latest(tmp_path: Path) -> None:
    """Version 1 also covers the databases before 41b05d1, whose ``meta`` row said 1 (or 2)
    while columns were still being added: the step adds what is missing, once."""
    path = fresh(tmp_path)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        for name in FIRST_SCHEMA_LACKED["indexes"]:
            db.execute(f"DROP INDEX {name}")
        for table, column in FIRST_SCHEMA_LACKED["columns"]:
            db.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        db.execute("INSERT INTO meta VALUES ('schema_version', '1')")
        db.execute("PRAGMA user_version = 0")
    Store(path).close()
    assert version(path) == SCHEMA_VERSION
    assert schema(path) == schema(fresh(tmp_path / "other"))
    assert query(path, "SELECT * FROM meta") == []
    assert len(list(path.parent.glob("gm.sqlite.v1-*.bak"))) == 1


def test_a_database_of_version_3_gets_the_absences_table(tmp_path: Path) -> None:
    path = fresh(tmp_path)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("DROP TABLE absences")
        db.execute("PRAGMA user_version = 3")
    Store(path).close()
    assert version(path) == SCHEMA_VERSION
    assert schema(path) == schema(fresh(tmp_path / "other"))
    assert len(list(path.parent.glob("gm.sqlite.v3-*.bak"))) == 1


def test_a_migration_that_fails_halfway_leaves_the_database_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "gm.sqlite"
    shutil.copy(RELEASE, database)
    before, shape = dump(database), schema(database)

    def breaks(db: sqlite3.Connection) -> None:
        db.execute("ALTER TABLE games ADD COLUMN half TEXT")
        db.execute("UPDATE games SET half = 'done', phase = phase + 1")
        raise RuntimeError("step 3 failed")

    monkeypatch.setattr(store, "MIGRATIONS", [*store.MIGRATIONS, breaks])
    with pytest.raises(RuntimeError, match="step 3 failed"):
        Store(database)
    # the real step 1 → 2 ran before it, inside the same transaction: undone as well
    assert dump(database) == before and schema(database) == shape and version(database) == 0
    monkeypatch.undo()
    Store(database).close()  # the code without the broken step migrates it
    assert version(database) == SCHEMA_VERSION


def newer(tmp_path: Path) -> DaemonHarness:
    h = upgraded(tmp_path)
    Store(h.database).close()
    with contextlib.closing(sqlite3.connect(h.database)) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    return h


def test_a_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    h = newer(tmp_path)
    before = dump(h.database)
    with pytest.raises(SchemaTooNew, match=rf"schema version {SCHEMA_VERSION + 1}, this"):
        Store(h.database)
    assert dump(h.database) == before and version(h.database) == SCHEMA_VERSION + 1
    assert len(list(tmp_path.glob("*.bak"))) == 1  # the upgrade's, none for the refusal


@pytest.mark.parametrize("command", [["status"], ["check"]])
def test_the_cli_refuses_a_newer_database_in_one_line_with_exit_78(
    tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    h = newer(tmp_path)
    code = cli_main([command[0], "--config", str(h.config_path), *command[1:]])
    err = capsys.readouterr().err
    assert code == 78
    assert err.count("\n") == 1 and "Traceback" not in err, err
    newer_version = SCHEMA_VERSION + 1
    assert err.startswith(f"error: daemon.database {h.database} has schema version {newer_version}")
    assert f"gm.sqlite.v{SCHEMA_VERSION}-*.bak" in err  # where this code's database may be


def test_the_daemon_refuses_a_newer_database_in_one_log_line_with_exit_78(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``run`` says it in the journal, as every start-up refusal (tests/core/test_startup.py
    runs the real process)."""
    h = newer(tmp_path)
    assert cli_main(["run", "--once", "--config", str(h.config_path)]) == 78
    (refusal,) = [r for r in caplog.records if r.levelname == "CRITICAL"]
    assert refusal.getMessage().startswith(
        f"cannot start: daemon.database {h.database} has schema version {SCHEMA_VERSION + 1}"
    )
    backup = f"gm.sqlite.v{SCHEMA_VERSION}-*.bak"
    assert refusal.exc_info is None and backup in refusal.getMessage()


def test_check_leaves_an_older_database_alone_and_says_run_migrates_it(tmp_path: Path) -> None:
    """``check`` is what ``systemctl reload`` runs: after the new version is installed, the
    old daemon still writes into its database, which the new ``check`` must not migrate
    under it. It says so, warns of nothing the migration would settle, and writes nothing."""
    h = upgraded(tmp_path)
    before = dump(h.database)
    code, out = h.cli("check")
    assert code == 0, out
    assert f"note: daemon.database {h.database} has schema version 1;" in out
    assert f"migrates it to {SCHEMA_VERSION} at its start" in out
    assert "warning" not in out  # the release's games have begun: no "start has passed"
    assert dump(h.database) == before and version(h.database) == 0
    assert not list(tmp_path.glob("*.bak"))
    assert h.cli("status")[0] == 0 and version(h.database) == SCHEMA_VERSION  # as ever


# --- the games play on ------------------------------------------------------------------------
def test_every_game_loads_and_status_shows_it(tmp_path: Path) -> None:
    h = upgraded(tmp_path)
    code, out = h.cli("status", "--json")
    assert code == 0
    report = json.loads(out)
    found = {
        g["id"]: (g["kind"], g["phase"], {p["seat"] for p in g["players"] if p["orders_in"]})
        for g in report["games"]
    }
    assert found == GAMES
    assert all(g["in_config"] and not g["held"] and not g["finished"] for g in report["games"])
    assert report["outbox"] == {"pending": 3, "sent": 69}
    assert [s["sender"] for s in report["shunted"]] == ["carla@players.test"]
    code, text = h.cli("status")
    assert code == 0 and "hl2 (highlander): 1901 Movement" in text


def test_the_mail_the_release_had_not_sent_goes_out_once(tmp_path: Path) -> None:
    h = upgraded(tmp_path)
    pending = query(h.database, "SELECT message_id FROM outbox WHERE status = 'pending'")
    assert len(pending) == 3
    mails = h.run()
    assert sorted(m["Message-ID"] for m in mails) == sorted(m for (m,) in pending)
    assert all("Neuer Abgabetermin" in m["Subject"] for m in mails)
    assert h.run() == []  # nothing sent before the upgrade goes again, nothing twice
    assert query(h.database, "SELECT status, COUNT(*) FROM outbox GROUP BY status") == [
        ("sent", 72)
    ]


@pytest.mark.parametrize("play", PLAYS, ids=[p.game for p in PLAYS])
def test_each_game_takes_orders_and_resolves_after_the_upgrade(tmp_path: Path, play: Play) -> None:
    h = upgraded(tmp_path)
    h.run()  # the mail left pending
    game, old_phase = play.game, GAMES[play.game][1]
    email, code = PLAYERS[play.player]
    h.send(email, f"Code: {code}\n{play.orders}\n", subject=f"Re: [{game}]")
    h.advance(minutes=5)
    mails = h.run()
    assert mails and mails[0]["To"] == email, [m["Subject"] for m in mails]
    assert re.search(r"angenommen|accepted", mails[0]["Subject"]), h.body(mails[0])
    assert not re.search(r"NICHT|NOT", mails[0]["Subject"]), h.body(mails[0])
    if play.by_gm:
        assert h.phase(game) == old_phase
        assert h.cli("resolve", "--game", game)[0] == 0
        mails += h.run()
    assert h.phase(game) == play.phase and h.finished(game) == play.ends
    ((used, missed),) = query(
        h.database,
        "SELECT orders, nmr FROM phases WHERE game_id = ? AND phase = ?",
        game,
        old_phase,
    )
    assert set(json.loads(used)) - set(json.loads(missed)) == play.resolved
    seats = {e for (e,) in query(h.database, "SELECT email FROM players WHERE game_id = ?", game)}
    assert {m["To"] for m in mails[1:] if f"[{game}]" in m["Subject"]} == seats  # the results


# --- step 2 → 3: preview and rollback ----------------------------------------------------------
def test_a_database_of_schema_2_gets_the_rollback_record_once(tmp_path: Path) -> None:
    path = fresh(tmp_path)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        for table in SCHEMA_3_TABLES:
            db.execute(f"DROP TABLE {table}")
        db.execute("ALTER TABLE games DROP COLUMN preview_of")
        db.execute("PRAGMA user_version = 2")
    Store(path).close()
    assert version(path) == SCHEMA_VERSION
    assert schema(path) == schema(fresh(tmp_path / "other"))
    assert len(list(path.parent.glob("gm.sqlite.v2-*.bak"))) == 1


@pytest.mark.parametrize("game", ["hn1", "hb1", "hl2"])
def test_a_game_of_the_release_rolls_back_to_its_first_phase(tmp_path: Path, game: str) -> None:
    """The phase records the release wrote are what a rollback restores."""
    h = upgraded(tmp_path)
    h.run()  # the mail left pending
    before = query(
        h.database, "SELECT state_before FROM phases WHERE game_id = ? AND phase = 1", game
    )
    code, out = h.cli("rollback", "--game", game, "--to-phase", "1", "--drop-orders")
    assert code == 0, out
    (state,) = query(h.database, "SELECT state FROM games WHERE id = ?", game)
    assert [state] == before and h.phase(game) == 1
    assert query(h.database, "SELECT COUNT(*) FROM phases WHERE game_id = ?", game) == [(0,)]
    assert len(h.run()) == len(query(h.database, "SELECT 1 FROM players WHERE game_id = ?", game))
