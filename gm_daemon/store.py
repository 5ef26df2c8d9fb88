"""The database: the single source of truth for games, orders, mail in and mail out.

SQLite in WAL mode, so the CLI (``resolve``, ``status``, GM overrides) can work while the
daemon runs. Every change that belongs together — a game's new state, its phase record and the
result mails — is written in one ``BEGIN IMMEDIATE`` transaction: the outbox pattern. A crash
either keeps all of it or none of it.

The schema's version is SQLite's ``PRAGMA user_version``. Opening a database of an older
version migrates it in place, in one transaction, after a backup copy beside it; a database
of a newer version is refused (``SchemaTooNew``), so an old daemon never writes into a schema
it does not know. Each schema change is one step in ``MIGRATIONS``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import sqlite3
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import cached_property
from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from operator import itemgetter
from pathlib import Path
from typing import Any, NamedTuple

log = logging.getLogger(__name__)

# The schema a new database gets; an older database reaches it through ``MIGRATIONS``.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    seed TEXT NOT NULL,
    state TEXT NOT NULL,
    phase INTEGER NOT NULL,
    phase_started_at TEXT NOT NULL,
    deadline_at TEXT,
    deadline_override INTEGER NOT NULL DEFAULT 0,
    reminded_phase INTEGER NOT NULL DEFAULT 0,
    paused INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    remind_at TEXT,
    held TEXT,
    waiting TEXT,
    preview_of INTEGER
);
CREATE TABLE IF NOT EXISTS players (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    email_override TEXT,
    code TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS orders (
    game_id TEXT NOT NULL REFERENCES games(id),
    phase INTEGER NOT NULL,
    seat TEXT NOT NULL,
    orders TEXT NOT NULL,
    submitted_at TEXT NOT NULL,
    inbox_id INTEGER,
    PRIMARY KEY (game_id, phase, seat)
);
CREATE TABLE IF NOT EXISTS phases (
    game_id TEXT NOT NULL REFERENCES games(id),
    phase INTEGER NOT NULL,
    label TEXT NOT NULL,
    resolved_at TEXT NOT NULL,
    trigger TEXT NOT NULL,
    state_before TEXT NOT NULL,
    orders TEXT NOT NULL,
    nmr TEXT NOT NULL,
    events TEXT NOT NULL,
    state_after TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    ranking TEXT,
    PRIMARY KEY (game_id, phase)
);
CREATE TABLE IF NOT EXISTS inbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    message_id TEXT,
    sender TEXT,
    content TEXT,
    received_at TEXT NOT NULL,
    raw BLOB NOT NULL,
    status TEXT NOT NULL DEFAULT 'new',
    verdict TEXT,
    processed_at TEXT
);
CREATE INDEX IF NOT EXISTS inbox_status ON inbox(status);
CREATE INDEX IF NOT EXISTS inbox_message_id ON inbox(message_id);
CREATE INDEX IF NOT EXISTS inbox_sender ON inbox(sender, received_at);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at TEXT NOT NULL,
    game_id TEXT,
    purpose TEXT NOT NULL,
    recipient TEXT NOT NULL,
    message_id TEXT NOT NULL UNIQUE,
    message BLOB NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error TEXT,
    sent_at TEXT
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox(status, next_attempt_at);
CREATE INDEX IF NOT EXISTS outbox_recipient ON outbox(recipient, purpose, created_at);
CREATE INDEX IF NOT EXISTS players_address ON players(COALESCE(email_override, email));
CREATE TABLE IF NOT EXISTS absences (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    first_day TEXT NOT NULL,
    last_day TEXT NOT NULL,
    announced_at TEXT NOT NULL,
    dropped_at TEXT
);
CREATE INDEX IF NOT EXISTS absences_game ON absences(game_id, last_day);
{ROLLBACK_TABLES}"""
# A seat's address in force: the GM's override wins over the config (indexed: every mail
# looks its sender up by it, among the seats of every game).
_ADDRESS = "COALESCE(email_override, email)"

# The record a rollback keeps (schema 3): the phases and orders it set aside, marked void.
_ROLLBACK_TABLES = """
CREATE TABLE IF NOT EXISTS rollbacks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES games(id),
    to_phase INTEGER NOT NULL,
    at TEXT NOT NULL,
    reason TEXT
);
CREATE TABLE IF NOT EXISTS void_phases (
    rollback_id INTEGER NOT NULL REFERENCES rollbacks(id),
    game_id TEXT NOT NULL,
    phase INTEGER NOT NULL,
    label TEXT NOT NULL,
    resolved_at TEXT NOT NULL,
    trigger TEXT NOT NULL,
    state_before TEXT NOT NULL,
    orders TEXT NOT NULL,
    nmr TEXT NOT NULL,
    events TEXT NOT NULL,
    state_after TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    ranking TEXT
);
CREATE TABLE IF NOT EXISTS void_orders (
    rollback_id INTEGER NOT NULL REFERENCES rollbacks(id),
    game_id TEXT NOT NULL,
    phase INTEGER NOT NULL,
    seat TEXT NOT NULL,
    orders TEXT NOT NULL,
    submitted_at TEXT NOT NULL,
    inbox_id INTEGER
);
"""
_SCHEMA = _SCHEMA.replace("{ROLLBACK_TABLES}", _ROLLBACK_TABLES)
_VOIDED_COLUMNS = {
    "phases": (
        "game_id", "phase", "label", "resolved_at", "trigger", "state_before", "orders",
        "nmr", "events", "state_after", "finished", "ranking",
    ),
    "orders": ("game_id", "phase", "seat", "orders", "submitted_at", "inbox_id"),
}  # fmt: skip

# What the first schema (17001b8) lacked; the releases up to 41b05d1 added it at every open.
# Frozen: step 1 → 2 adds it once, whatever ``_SCHEMA`` becomes.
_BEFORE_V2_COLUMNS = (
    ("games", "remind_at", "TEXT"),
    ("games", "held", "TEXT"),
    ("games", "waiting", "TEXT"),
    ("phases", "finished", "INTEGER NOT NULL DEFAULT 0"),
    ("phases", "ranking", "TEXT"),
    ("inbox", "content", "TEXT"),
)
_BEFORE_V2_INDEXES = (
    "CREATE INDEX IF NOT EXISTS outbox_recipient ON outbox(recipient, purpose, created_at)",
    "CREATE INDEX IF NOT EXISTS players_address ON players(COALESCE(email_override, email))",
)
# Rows of ``games`` kept in memory by ``Store.game`` (the most recently asked for; seats are
# small and kept for every game and address asked for, up to ``SEATS_KEPT`` of each).
GAME_ROWS_KEPT = 256
SEATS_KEPT = 8192
# Orders on file kept by ``Store.orders_text``, by (game, phase, seat): the most recently
# asked for or written. Every order mail asks for its sender's and writes them.
ORDERS_KEPT = 8192
# Senders whose recent inbox rows ``Store.recent_from`` keeps (the most recently asked for),
# and the rows kept for one: a sender with more in the hour (a flood, a loop) is counted by
# SQLite each time, so that neither memory nor the count's cost grows with his mails.
SENDERS_KEPT = 4096
RECENT_KEPT = 256
# A game the clock has work for: running, not held by the GM or a failed resolution, not
# waiting for the GM, with a deadline or reminder at hand.
_RUNNING = "NOT finished AND NOT paused AND held IS NULL AND waiting IS NULL AND preview_of IS NULL"


# The moments ``iso`` wrote lately, by whole seconds since the epoch: a mail stores several
# moments of one second (received, answered, its orders) and asks for its sender's mail since
# an hour before; with one moment kept, the two took turns and each missed. A few seconds
# are kept, forgotten all at once when full.
_iso_texts: dict[int, str] = {}
ISO_KEPT = 16


def iso(moment: datetime) -> str:
    """The moment in UTC to the second, as the database keeps every moment."""
    second = math.floor(moment.timestamp())
    text = _iso_texts.get(second)
    if text is None:
        text = moment.astimezone(UTC).isoformat(timespec="seconds")
        if len(_iso_texts) >= ISO_KEPT:
            _iso_texts.clear()  # another thread's text lost at worst: written again
        _iso_texts[second] = text
    return text


def from_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)


# A mail's bytes are bound as a ``bytearray`` where every mail writes them (the inbox row
# stored, the reply queued): the ``sqlite3`` module binds an int, float, str or bytearray at
# once, but looks up an adapter for any other value, ``bytes`` and ``None`` among them (a
# failed look-up of ``__adapt__`` with its exception: ~3.4 k instructions); the copy costs
# ~1.5 k less (callgrind, a 1.5 KB mail). The stored BLOB is the same.
_as_blob = bytearray


def _orders_json(orders: dict[str, Any]) -> str:
    """``json.dumps(orders)``, by a C encoder made once (``json.encoder.c_make_encoder``
    with ``json.dumps``'s own settings): ``json.dumps`` makes one for every call, with the
    Python around it ~10 k instructions of the ~18 k it took for a seat's orders. No check
    for a value that holds itself (``markers``): orders are ``model_dump(mode="json")``'s
    fresh dicts and lists. Where the C encoder is missing, ``json.dumps`` itself."""
    if _ENCODE is None:
        return json.dumps(orders)
    return "".join(_ENCODE(orders, 0))


def _orders_encoder() -> Callable[[object, int], Sequence[str]] | None:
    """``json.dumps``'s C encoder with its settings (a ``JSONEncoder``'s defaults)."""
    if c_make_encoder is None:
        return None
    settings = json.JSONEncoder()
    return c_make_encoder(  # type: ignore[no-any-return]
        None,
        settings.default,
        encode_basestring_ascii,
        settings.indent,
        settings.key_separator,
        settings.item_separator,
        settings.sort_keys,
        settings.skipkeys,
        settings.allow_nan,
    )


_ENCODE = _orders_encoder()


# --- the schema's version -----------------------------------------------------------------
class SchemaTooNew(Exception):
    """The database was written by a newer gm-daemon: this code would misread or damage it.
    The GM can fix it (run the newer version, or restore a backup), so it is said in one
    line."""


Migration = Callable[[sqlite3.Connection], None]


def _v1_to_v2(db: sqlite3.Connection) -> None:
    """Version 1 is any database of a release up to 41b05d1: those added the columns and
    indexes they knew of at every start and kept a ``schema_version`` row in ``meta`` that
    did not follow every column. This does that catching-up once; from here on the version
    is ``PRAGMA user_version`` alone."""
    for table, column, kind in _BEFORE_V2_COLUMNS:
        present = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
        if column not in present:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
    for statement in _BEFORE_V2_INDEXES:
        db.execute(statement)
    db.execute("DELETE FROM meta WHERE key = 'schema_version'")


def _v2_to_v3(db: sqlite3.Connection) -> None:
    """Preview and rollback (issue 21): a game may hold a resolved phase's results for the
    GM (``preview_of``), and a rollback keeps what it undid, void, in tables of its own
    (a phase resolved again needs its place in ``phases``)."""
    if "preview_of" not in {r[1] for r in db.execute("PRAGMA table_info(games)")}:
        db.execute("ALTER TABLE games ADD COLUMN preview_of INTEGER")
    for statement in filter(str.strip, _ROLLBACK_TABLES.split(";")):
        db.execute(statement)


def _v3_to_v4(db: sqlite3.Connection) -> None:
    """Absences announced by mail (``ABWESEND``): kept with the moment they were announced
    and dropped, since a deadline moves only for an absence known when its phase began."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS absences (id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " game_id TEXT NOT NULL REFERENCES games(id), seat TEXT NOT NULL,"
        " first_day TEXT NOT NULL, last_day TEXT NOT NULL, announced_at TEXT NOT NULL,"
        " dropped_at TEXT)"
    )
    db.execute("CREATE INDEX IF NOT EXISTS absences_game ON absences(game_id, last_day)")


# MIGRATIONS[n - 1] takes a database from version n to n + 1. A step is never changed once
# released (databases in the field went through it); a schema change is a new step at the
# end, together with the same change in ``_SCHEMA``.
MIGRATIONS: list[Migration] = [_v1_to_v2, _v2_to_v3, _v3_to_v4]
SCHEMA_VERSION = len(MIGRATIONS) + 1


def schema_version(db: sqlite3.Connection) -> int:
    """The version of the database: 0 for an empty file, 1 for one written before the
    version was kept (it has tables but no ``user_version``)."""
    stored = int(db.execute("PRAGMA user_version").fetchone()[0])
    if stored:
        return stored
    query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'games'"
    return 1 if db.execute(query).fetchone() else 0


def bring_up_to_date(db: sqlite3.Connection, path: Path) -> None:
    """Create, migrate or refuse. A database already at this version costs one read and no
    write. Otherwise one ``BEGIN IMMEDIATE`` transaction: the version is read again inside it
    (a CLI command may have migrated meanwhile), the backup is written while no one else can
    write, and every step runs; a step that fails leaves the database as it was."""
    latest = len(MIGRATIONS) + 1
    found = schema_version(db)
    if found == latest:
        return
    _refuse_newer(path, found, latest)
    db.execute("BEGIN IMMEDIATE")
    try:
        found = schema_version(db)
        _refuse_newer(path, found, latest)
        if found == 0:
            for statement in filter(str.strip, _SCHEMA.split(";")):
                db.execute(statement)
        elif found < latest:
            backup = write_backup(path, found)
            for step in MIGRATIONS[found - 1 :]:
                step(db)
            log.info("database %s: schema %d → %d; backup %s", path, found, latest, backup)
        db.execute(f"PRAGMA user_version = {latest}")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _refuse_newer(path: Path, found: int, latest: int) -> None:
    if found > latest:
        raise SchemaTooNew(
            f"daemon.database {path.absolute()} has schema version {found}, this gm-daemon "
            f"knows versions up to {latest}: a newer gm-daemon has written it. Run that "
            f"version, or restore the backup the upgrade wrote beside it "
            f"({path.name}.v{latest}-*.bak)"
        )


def write_backup(path: Path, version: int) -> Path:
    """A copy of the database as it is, beside it: ``gm.sqlite.v1-20261201T120000Z.bak``.
    SQLite's backup API reads it through a connection of its own, so the pages still in the
    write-ahead log are in the copy too (copying the file would miss them). The copy is one
    self-contained file (rollback journal, no ``-wal``); it is written under a ``.part`` name
    and renamed, so a ``.bak`` file is always complete."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.v{version}-{stamp}.bak")
    number = 1
    while target.exists():
        number += 1
        target = path.with_name(f"{path.name}.v{version}-{stamp}-{number}.bak")
    part = target.with_name(target.name + ".part")
    with (
        contextlib.closing(sqlite3.connect(path, timeout=30)) as source,
        contextlib.closing(sqlite3.connect(part)) as copy,
    ):
        source.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")
    part.replace(target)
    return target


# --- rows ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameRow:
    id: str
    kind: str
    seed: str
    state_json: str  # as stored: the referee keeps the validated state while this is unchanged
    phase: int
    phase_started_at: datetime
    deadline_at: datetime | None
    deadline_override: bool
    reminded_phase: int
    paused: bool
    finished: bool
    remind_at: datetime | None = None
    held: str | None = None  # why the clock leaves the game alone (a resolution failed)
    waiting: str | None = None  # what the GM must supply before the phase can run
    preview_of: int | None = None  # the phase whose results wait for ``gm-daemon publish``

    @cached_property
    def state(self) -> dict[str, Any]:
        return dict(json.loads(self.state_json))

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> GameRow:
        return cls(
            id=row["id"],
            kind=row["kind"],
            seed=row["seed"],
            state_json=row["state"],
            phase=row["phase"],
            phase_started_at=from_iso(row["phase_started_at"]),
            deadline_at=from_iso(row["deadline_at"]) if row["deadline_at"] else None,
            deadline_override=bool(row["deadline_override"]),
            reminded_phase=row["reminded_phase"],
            paused=bool(row["paused"]),
            finished=bool(row["finished"]),
            remind_at=from_iso(row["remind_at"]) if row["remind_at"] else None,
            held=row["held"],
            waiting=row["waiting"],
            preview_of=row["preview_of"],
        )


class PlayerRow(NamedTuple):
    game_id: str
    seat: str
    name: str
    email: str  # the address in force (a GM override wins over the config)
    code: str


class AbsenceRow(NamedTuple):
    id: int
    game_id: str
    seat: str
    first_day: date
    last_day: date  # inclusive: "2026-12-20 bis 2027-01-06" is away on the 6th too
    announced_at: datetime
    dropped_at: datetime | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> AbsenceRow:
        return cls(
            id=row["id"],
            game_id=row["game_id"],
            seat=row["seat"],
            first_day=date.fromisoformat(row["first_day"]),
            last_day=date.fromisoformat(row["last_day"]),
            announced_at=from_iso(row["announced_at"]),
            dropped_at=from_iso(row["dropped_at"]) if row["dropped_at"] else None,
        )

    def known_at(self, moment: datetime) -> bool:
        """Announced before ``moment`` and not dropped by then: what a phase starting at
        ``moment`` has to respect. Strictly before: one announced in the very second a
        phase began came too late for it (the store keeps whole seconds)."""
        return self.announced_at < moment and (self.dropped_at is None or self.dropped_at >= moment)


class InboxRow(NamedTuple):
    id: int
    key: str
    raw: bytes


class OutboxRow(NamedTuple):
    id: int
    recipient: str
    message: bytes
    attempts: int
    message_id: str


@dataclass
class _Recent:
    """One sender's inbox rows, (id, received_at), received at or after ``since`` (ISO text,
    as stored): ``Store.recent_from`` counts them for any later ``since``. ``in_order``
    while both their ids and their moments rise (always, unless the clock was set back:
    rows come in id order and new ones get higher ids): then a count is two bisections."""

    since: str
    rows: list[tuple[int, str]]
    in_order: bool = True

    def count(self, start: str, up_to_id: int) -> int:
        rows = self.rows
        if not self.in_order:
            return sum(1 for row_id, at in rows if at >= start and row_id <= up_to_id)
        end = bisect_right(rows, up_to_id, key=_row_id)
        return end - bisect_left(rows, start, 0, end, key=_row_moment)

    def add(self, row_id: int, received: str) -> None:
        rows = self.rows
        if rows and (row_id <= rows[-1][0] or received < rows[-1][1]):
            self.in_order = False
        rows.append((row_id, received))


_row_id = itemgetter(0)
_row_moment = itemgetter(1)


class Store:
    """Thin queries over one SQLite file. Methods are small and named after what they mean."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, timeout=30)
        # The statements every mail makes that return no rows run on this one cursor:
        # ``Connection.execute`` makes a new cursor for each (~2.7 k instructions, a tenth
        # of such a statement's cost outside SQLite). One thread uses the connection. The
        # transactions' BEGIN, COMMIT and ROLLBACK, and the look at ``PRAGMA data_version``
        # that starts each, run on it too (a group's, a fetched chunk's, a sender batch's),
        # and the sender's ``due_mail``, read whole at once. Made before ``row_factory`` is
        # set, it gives plain tuples.
        self._writes = self.db.cursor()
        self._grouped = False  # inside ``group``: transactions are part of it
        self._steps = True  # ... and each a savepoint (``group(steps=False)``: not)
        self._undone = False  # a group without savepoints rolled back (``GroupUndone``)
        # Rows of ``games`` and ``players`` as last read (``_rows_current`` says when they
        # still are): every mail asks for its game and its sender's seats, which change
        # only when a game moves on, the config is synced or the GM edits a seat.
        self._game_rows: OrderedDict[str, GameRow | None] = OrderedDict()
        self._seats_of_game: dict[str, tuple[PlayerRow, ...]] = {}
        self._seats_at: dict[str, tuple[PlayerRow, ...]] = {}
        # Orders on file as stored (their JSON text; None: none), by (game, phase, seat):
        # an order mail asks for its sender's and then writes them (``_orders_write``).
        self._orders_kept: OrderedDict[tuple[str, int, str], str | None] = OrderedDict()
        # A sender's inbox rows (id, received_at) received at or after the moment they were
        # read from (``_Recent``): every mail's rate limit counts its sender's last hour.
        self._recent: OrderedDict[str, _Recent] = OrderedDict()
        self._seen_version = -1  # ``PRAGMA data_version`` when the kept rows were checked
        self._looked = False  # checked inside the transaction now open (none else commits)
        try:
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            bring_up_to_date(self.db, path)
            # Savepoints (a mail each, inside a group's transaction) keep the pages they
            # change in a sub-journal that grows until the commit; in a file, past 64 KiB,
            # it cost a temporary file in /var/tmp and a write per page (~7 a mail). In
            # memory it holds at most a group's or a statement's changed pages; a migration
            # (which may sort a whole table to build an index) ran before, with files.
            self.db.execute("PRAGMA temp_store=MEMORY")
        except BaseException:
            self.db.close()  # a refused or failed open leaves no handle (nor lock) behind
            raise

    def close(self) -> None:
        self.db.close()

    def note(self, key: str) -> str | None:
        """A small fact the daemon must remember across restarts (what it told the GM)."""
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row["value"])

    def set_note(self, key: str, value: str | None) -> None:
        if value is None:
            self.db.execute("DELETE FROM meta WHERE key = ?", (key,))
        else:
            self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def data_version(self) -> int:
        """Changes whenever another connection (the CLI) commits: the daemon's cue to look."""
        return int(self.db.execute("PRAGMA data_version").fetchone()[0])

    def checkpoint(self) -> None:
        """Fold the write-ahead log back into the database file now, while nobody waits.
        Left to itself, SQLite does it inside whichever commit finds the log over 1000
        pages, with a sync of the file: a player's acknowledgement waited milliseconds
        for it. Passive: never waits for a reader (the CLI), skips what it cannot do."""
        self.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()

    def transaction(self) -> _Transaction:
        """BEGIN IMMEDIATE: writers queue up, so two resolvers of one phase cannot interleave.
        Inside ``group`` a savepoint: undone alone when it fails, committed with the group.
        A small class rather than a generator (``contextmanager``): entered for every mail,
        the generator's machinery cost more than the savepoint's Python."""
        return _Transaction(self)

    def group(self, *, steps: bool = True) -> _Group:
        """Several transactions committed as one (a commit per mail was ~10 % of intake, and
        each wrote the same pages to the log again): every ``transaction`` inside is a
        savepoint, which fails alone as a transaction would, and whatever succeeded is
        committed at the end, also when an exception ends the group early. Nothing may wait
        inside (no ``await``): the sender shares the connection and must see only what is
        committed.

        ``steps=False``: no savepoints. A savepoint pair cost ~12 µs a mail, and SQLite
        copied every page a mail changed into the savepoint's journal first, which doubled
        the cost of its inserts (~45 µs a mail in all). A transaction that fails then rolls
        the whole group back and raises ``GroupUndone`` (an exception that is no
        ``Exception`` rolls it back too, and goes on as itself); the caller does the group
        again with savepoints, where it fails alone."""
        return _Group(self, steps)

    def _begin(self) -> None:
        self._writes.execute("BEGIN IMMEDIATE")
        self._looked = False

    def _commit(self) -> None:
        try:
            self._writes.execute("COMMIT")
        except BaseException:
            self._forget_rows()  # the transaction may yet be rolled back (by the caller)
            raise
        self._looked = False

    def _abandon(self) -> None:
        self._forget_rows()
        if self.db.in_transaction:  # SQLite rolls back by itself on some errors (full)
            self._writes.execute("ROLLBACK")

    # --- rows kept in memory -------------------------------------------------------------
    def _rows_current(self) -> None:
        """Forget the kept rows when another connection (the CLI) has committed since they
        were read: ``PRAGMA data_version`` changes then, and only then. This connection's
        own changes go through ``_games_write``, ``_players_write`` and ``_orders_write``,
        which forget what they change, and a rollback forgets everything. Inside a
        transaction of this store one look is enough: ``BEGIN IMMEDIATE`` holds the write
        lock, so no one else commits before it ends."""
        if self._looked and self.db.in_transaction:
            return
        version = int(self._writes.execute("PRAGMA data_version").fetchone()[0])
        self._looked = self.db.in_transaction
        if version != self._seen_version:
            self._seen_version = version
            self._forget_rows()

    def _forget_rows(self) -> None:
        self._game_rows.clear()
        self._seats_of_game.clear()
        self._seats_at.clear()
        self._orders_kept.clear()
        self._recent.clear()
        self._looked = False

    def _games_write(self, query: str, values: Sequence[Any] = ()) -> sqlite3.Cursor:
        """Every change of ``games`` goes through here: the kept rows are forgotten first."""
        self._game_rows.clear()
        return self.db.execute(query, values)

    def _players_write(
        self, query: str, values: Sequence[Any], *, many: bool = False
    ) -> sqlite3.Cursor:
        """Every change of ``players`` goes through here: the kept seats are forgotten once
        a row was changed (or might have been: a failed statement). A start syncs every
        seat of every game and nearly always changes none: the seats read before stay
        kept, and the game's load needs no second query. ``many``: one statement for
        each row of ``values``."""
        run = self.db.executemany if many else self.db.execute
        cursor = None
        try:
            cursor = run(query, values)
        finally:
            if cursor is None or cursor.rowcount != 0:
                self._seats_of_game.clear()
                self._seats_at.clear()
        return cursor

    def _orders_write(
        self, query: str, values: Sequence[Any], put: tuple[tuple[str, int, str], str] | None
    ) -> sqlite3.Cursor:
        """Every change of ``orders`` goes through here: the kept orders are forgotten first;
        ``put``, one seat's orders written whole (key, JSON text), is kept as written once
        the statement has run."""
        if put is None:
            self._orders_kept.clear()
            return self.db.execute(query, values)
        key, text = put
        self._orders_kept.pop(key, None)
        cursor = self._writes.execute(query, values)
        self._keep_orders(key, text)
        return cursor

    def _keep_orders(self, key: tuple[str, int, str], text: str | None) -> None:
        kept = self._orders_kept
        kept[key] = text
        if len(kept) > ORDERS_KEPT:
            kept.popitem(last=False)

    # --- games -------------------------------------------------------------------------
    def game(self, game_id: str) -> GameRow | None:
        """The game's row; the one last read while the game is unchanged (``_rows_current``):
        the same object, so the referee keeps its validated state without comparing text."""
        self._rows_current()
        kept = self._game_rows
        if game_id in kept:
            kept.move_to_end(game_id)
            return kept[game_id]
        row = self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        game = GameRow.from_row(row) if row else None
        kept[game_id] = game
        if len(kept) > GAME_ROWS_KEPT:
            kept.popitem(last=False)
        return game

    def games(self) -> list[GameRow]:
        return [GameRow.from_row(r) for r in self.db.execute("SELECT * FROM games ORDER BY id")]

    def insert_game(
        self,
        game_id: str,
        kind: str,
        seed: str,
        state: dict[str, Any],
        phase: int,
        started: datetime,
        deadline: datetime | None,
    ) -> None:
        self._games_write(
            "INSERT INTO games(id, kind, seed, state, phase, phase_started_at, deadline_at,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                kind,
                seed,
                json.dumps(state),
                phase,
                iso(started),
                iso(deadline) if deadline else None,
                iso(started),
            ),
        )

    def advance_game(
        self,
        game_id: str,
        from_phase: int,
        state_json: str,
        phase: int,
        started: datetime,
        deadline: datetime | None,
        finished: bool,
        remind_at: datetime | None = None,
    ) -> bool:
        """Move a game on, only if it is still in ``from_phase``: the guard that makes a
        resolution happen once even when the deadline timer and ``gm-daemon resolve`` race.
        A game that ends is no longer paused (the GM resolved it while it was)."""
        cursor = self._games_write(
            "UPDATE games SET state = ?, phase = ?, phase_started_at = ?, deadline_at = ?,"
            " remind_at = ?, deadline_override = 0, finished = ?, paused = paused AND NOT ?,"
            " held = NULL WHERE id = ? AND phase = ?",
            (
                state_json,
                phase,
                iso(started),
                _iso_or_none(deadline),
                _iso_or_none(remind_at),
                int(finished),
                int(finished),
                game_id,
                from_phase,
            ),
        )
        if finished and cursor.rowcount == 1:
            set_paused_at(self, game_id, None)
        return cursor.rowcount == 1

    def set_state(self, game_id: str, state: dict[str, Any]) -> None:
        """A state changed outside a resolution (the GM fed the game new options)."""
        self._games_write("UPDATE games SET state = ? WHERE id = ?", (json.dumps(state), game_id))

    def set_deadline(
        self,
        game_id: str,
        deadline: datetime | None,
        *,
        override: bool,
        remind_at: datetime | None = None,
        started: datetime | None = None,
    ) -> None:
        """The deadline (and reminder moment) now in force; ``started`` restarts the phase's
        clock, as when a waiting phase gets what it waited for."""
        self._games_write(
            "UPDATE games SET deadline_at = ?, remind_at = ?, deadline_override = ?,"
            " phase_started_at = COALESCE(?, phase_started_at) WHERE id = ?",
            (
                _iso_or_none(deadline),
                _iso_or_none(remind_at),
                int(override),
                _iso_or_none(started),
                game_id,
            ),
        )

    def set_held(self, game_id: str, reason: str | None) -> None:
        self._games_write("UPDATE games SET held = ? WHERE id = ?", (reason, game_id))

    def release_held(self) -> None:
        """At start-up: a resolution that failed is tried again (the GM may have fixed it)."""
        self._games_write("UPDATE games SET held = NULL WHERE held IS NOT NULL")

    def set_waiting(self, game_id: str, waiting: str | None) -> None:
        self._games_write("UPDATE games SET waiting = ? WHERE id = ?", (waiting, game_id))

    def due_games(self, now: datetime) -> list[str]:
        """Games whose deadline or reminder moment has come: one indexed query, however
        many games are not due."""
        return [
            r["id"]
            for r in self.db.execute(
                f"SELECT id FROM games WHERE {_RUNNING} AND (deadline_at <= ?"
                " OR (remind_at <= ? AND reminded_phase < phase)) ORDER BY deadline_at",
                (iso(now), iso(now)),
            )
        ]

    def next_game_moment(self) -> datetime | None:
        """The earliest deadline or pending reminder of any running game."""
        row = self.db.execute(
            f"SELECT MIN(CASE WHEN remind_at IS NOT NULL AND reminded_phase < phase"
            f" AND remind_at < deadline_at THEN remind_at ELSE deadline_at END)"
            f" FROM games WHERE {_RUNNING} AND deadline_at IS NOT NULL"
        ).fetchone()
        return from_iso(row[0]) if row and row[0] else None

    def games_due_before(self, moment: datetime) -> list[str]:
        """Games the GM may resolve in bulk: not finished, paused or waiting for him, with a
        deadline before ``moment``. Held games count: resolving by hand is their cure."""
        return [
            r["id"]
            for r in self.db.execute(
                "SELECT id FROM games WHERE NOT finished AND NOT paused AND waiting IS NULL"
                " AND preview_of IS NULL AND deadline_at < ? ORDER BY deadline_at, id",
                (iso(moment),),
            )
        ]

    def set_preview(self, game_id: str, phase: int | None) -> None:
        self._games_write("UPDATE games SET preview_of = ? WHERE id = ?", (phase, game_id))

    def finish_game(self, game_id: str) -> None:
        """A game the GM ends now: no deadline, no reminder, no preview left, and no pause
        (a game that is over is not paused: ``status`` says "finished", ``resume`` refuses)."""
        self._games_write(
            "UPDATE games SET finished = 1, paused = 0, deadline_at = NULL, remind_at = NULL,"
            " preview_of = NULL, held = NULL, waiting = NULL WHERE id = ?",
            (game_id,),
        )
        set_paused_at(self, game_id, None)

    def roll_back(
        self,
        game_id: str,
        to_phase: int,
        state: dict[str, Any],
        at: datetime,
        reason: str | None,
        drop_orders: bool,
    ) -> int:
        """The game back at the start of ``to_phase``: the records of that phase and later
        ones, and the orders of later phases (of ``to_phase`` too with ``drop_orders``), move
        to the void tables under one rollback id, which is returned."""
        rollback_id = self.db.execute(
            "INSERT INTO rollbacks(game_id, to_phase, at, reason) VALUES (?, ?, ?, ?)",
            (game_id, to_phase, iso(at), reason),
        ).lastrowid
        assert rollback_id is not None
        first_void_orders = to_phase if drop_orders else to_phase + 1
        for table, first in (("phases", to_phase), ("orders", first_void_orders)):
            columns = ", ".join(_VOIDED_COLUMNS[table])
            self.db.execute(
                f"INSERT INTO void_{table}(rollback_id, {columns}) SELECT ?, {columns}"
                f" FROM {table} WHERE game_id = ? AND phase >= ?",
                (rollback_id, game_id, first),
            )
            self._orders_write(  # phases or orders: the kept orders are forgotten either way
                f"DELETE FROM {table} WHERE game_id = ? AND phase >= ?", (game_id, first), None
            )
        self._games_write(
            "UPDATE games SET state = ?, phase = ?, finished = 0, preview_of = NULL,"
            " held = NULL, waiting = NULL, deadline_override = 0, reminded_phase = 0"
            " WHERE id = ?",
            (json.dumps(state), to_phase, game_id),
        )
        return int(rollback_id)

    def void_records(self, game_id: str, phase: int) -> list[sqlite3.Row]:
        """The voided records of one phase, the latest rollback first, with its reason."""
        return list(
            self.db.execute(
                "SELECT v.*, r.at AS voided_at, r.reason AS void_reason, r.to_phase AS void_to"
                " FROM void_phases v JOIN rollbacks r ON r.id = v.rollback_id"
                " WHERE v.game_id = ? AND v.phase = ? ORDER BY r.id DESC",
                (game_id, phase),
            )
        )

    def set_paused(self, game_id: str, paused: bool) -> None:
        self._games_write("UPDATE games SET paused = ? WHERE id = ?", (int(paused), game_id))

    def set_reminded(self, game_id: str, phase: int) -> None:
        self._games_write("UPDATE games SET reminded_phase = ? WHERE id = ?", (phase, game_id))

    # --- players -----------------------------------------------------------------------
    def insert_player(self, game_id: str, seat: str, name: str, email: str, code: str) -> None:
        self._players_write(
            "INSERT INTO players(game_id, seat, name, email, code) VALUES (?, ?, ?, ?, ?)",
            (game_id, seat, name, email, code),
        )

    def update_player_from_config(self, game_id: str, seat: str, name: str, email: str) -> None:
        self.update_players_from_config(game_id, [(seat, name, email)])

    def update_players_from_config(
        self, game_id: str, seats: Iterable[tuple[str, str, str]]
    ) -> None:
        """Each (seat, name, email); writes only what changed: every start syncs every seat
        of every game, and an unchanged seat must cost no page written (nor fail on a full
        disk)."""
        self._players_write(
            "UPDATE players SET name = ?, email = ? WHERE game_id = ? AND seat = ?"
            " AND (name IS NOT ? OR email IS NOT ?)",
            [(name, email, game_id, seat, name, email) for seat, name, email in seats],
            many=True,
        )

    def override_email(self, game_id: str, seat: str, email: str | None) -> bool:
        cursor = self._players_write(
            "UPDATE players SET email_override = ? WHERE game_id = ? AND seat = ?",
            (email, game_id, seat),
        )
        return cursor.rowcount == 1

    def players(self, game_id: str) -> list[PlayerRow]:
        return list(self.seats(game_id))

    def seats(self, game_id: str) -> tuple[PlayerRow, ...]:
        """The game's seats: the very tuple kept while they are unchanged, so what a caller
        built from it is current while the store hands out the same object."""
        return self._kept_seats(self._seats_of_game, "game_id = ?", game_id)

    def players_by_email(self, email: str) -> list[PlayerRow]:
        return list(self._kept_seats(self._seats_at, f"{_ADDRESS} = ?", email.lower()))

    def _kept_seats(
        self, kept: dict[str, tuple[PlayerRow, ...]], where: str, value: str
    ) -> tuple[PlayerRow, ...]:
        """The seats as last read while unchanged (``_rows_current``)."""
        self._rows_current()
        seats = kept.get(value)
        if seats is None:
            if len(kept) >= SEATS_KEPT:  # strangers' addresses, each asked for once
                kept.clear()
            seats = kept[value] = tuple(self._players(where, value))
        return seats

    def _players(self, where: str, value: str) -> list[PlayerRow]:
        """Columns in ``PlayerRow``'s order, so a row is built without looking up names
        (every mail loads its game's seats)."""
        query = f"SELECT game_id, seat, name, {_ADDRESS}, code FROM players WHERE {where}"
        return [PlayerRow(*r) for r in self.db.execute(query + " ORDER BY rowid", (value,))]

    # --- absences ----------------------------------------------------------------------
    def add_absence(
        self, game_id: str, seat: str, first_day: date, last_day: date, at: datetime
    ) -> int:
        cursor = self.db.execute(
            "INSERT INTO absences(game_id, seat, first_day, last_day, announced_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (game_id, seat, first_day.isoformat(), last_day.isoformat(), iso(at)),
        )
        return int(cursor.lastrowid or 0)

    def absences(self, game_id: str, until: date | None = None) -> list[AbsenceRow]:
        """The game's absences, dropped ones too (a running phase may still respect one),
        that end on or after ``until``: one indexed query, empty for most games."""
        query = "SELECT * FROM absences WHERE game_id = ? AND last_day >= ? ORDER BY first_day, id"
        since = until.isoformat() if until else ""
        return [AbsenceRow.from_row(r) for r in self.db.execute(query, (game_id, since))]

    def drop_absences(self, game_id: str, ids: list[int], at: datetime) -> int:
        marks = ", ".join("?" * len(ids))
        cursor = self.db.execute(
            f"UPDATE absences SET dropped_at = ? WHERE game_id = ? AND dropped_at IS NULL"
            f" AND id IN ({marks})",
            (iso(at), game_id, *ids),
        )
        return cursor.rowcount

    # --- orders ------------------------------------------------------------------------
    def put_orders(
        self,
        game_id: str,
        phase: int,
        seat: str,
        orders: dict[str, Any],
        at: datetime,
        inbox_id: int | None,
    ) -> None:
        """A seat's orders, replacing those on file: changed in place (an upsert) rather than
        deleted and inserted again (``INSERT OR REPLACE``), which wrote both the table and
        its key twice. Nothing reads orders in the order of their rowid."""
        text = _orders_json(orders)
        self._orders_write(
            "INSERT INTO orders(game_id, phase, seat, orders, submitted_at, inbox_id)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(game_id, phase, seat) DO UPDATE SET"
            " orders = excluded.orders, submitted_at = excluded.submitted_at,"
            " inbox_id = excluded.inbox_id",
            (game_id, phase, seat, text, iso(at), inbox_id),
            ((game_id, phase, seat), text),
        )

    def delete_orders(self, game_id: str, phase: int, seat: str) -> bool:
        cursor = self._orders_write(
            "DELETE FROM orders WHERE game_id = ? AND phase = ? AND seat = ?",
            (game_id, phase, seat),
            None,
        )
        return cursor.rowcount == 1

    def orders_of(self, game_id: str, phase: int, seat: str) -> dict[str, Any] | None:
        """One seat's orders: every order mail asks for the sender's, not the table's."""
        text = self.orders_text(game_id, phase, seat)
        return None if text is None else dict(json.loads(text))

    def orders_text(self, game_id: str, phase: int, seat: str) -> str | None:
        """One seat's orders as stored (JSON), None when it has none: as last read or written
        while unchanged (``_rows_current``, ``_orders_write``)."""
        self._rows_current()
        key = (game_id, phase, seat)
        kept = self._orders_kept
        if key in kept:
            kept.move_to_end(key)
            return kept[key]
        row = self.db.execute(
            "SELECT orders FROM orders WHERE game_id = ? AND phase = ? AND seat = ?", key
        ).fetchone()
        text = None if row is None else str(row[0])
        self._keep_orders(key, text)
        return text

    def seats_with_orders(self, game_id: str, phase: int) -> set[str]:
        query = "SELECT seat FROM orders WHERE game_id = ? AND phase = ?"
        return {r[0] for r in self.db.execute(query, (game_id, phase))}

    def orders(self, game_id: str, phase: int) -> dict[str, dict[str, Any]]:
        return {
            r["seat"]: json.loads(r["orders"])
            for r in self.db.execute(
                "SELECT seat, orders FROM orders WHERE game_id = ? AND phase = ?",
                (game_id, phase),
            )
        }

    # --- phase records -----------------------------------------------------------------
    def record_phase(
        self,
        game_id: str,
        phase: int,
        label: str,
        at: datetime,
        trigger: str,
        before: dict[str, Any],
        orders: dict[str, Any],
        nmr: list[str],
        events: list[dict[str, Any]],
        after: dict[str, Any],
        finished: bool = False,
        ranking: list[list[str]] | None = None,
    ) -> None:
        self.db.execute(
            "INSERT INTO phases(game_id, phase, label, resolved_at, trigger, state_before,"
            " orders, nmr, events, state_after, finished, ranking)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                phase,
                label,
                iso(at),
                trigger,
                json.dumps(before),
                json.dumps(orders),
                json.dumps(nmr),
                json.dumps(events),
                json.dumps(after),
                int(finished),
                json.dumps(ranking) if ranking is not None else None,
            ),
        )

    def phase_record(self, game_id: str, phase: int) -> sqlite3.Row | None:
        return self.db.execute(
            "SELECT * FROM phases WHERE game_id = ? AND phase = ?", (game_id, phase)
        ).fetchone()

    def state_after_phase_before(self, game_id: str, phase: int) -> str | None:
        """The state the last phase resolved before ``phase`` left (the state ``phase``
        began with); None when ``phase`` is the game's first."""
        row = self.db.execute(
            "SELECT state_after FROM phases WHERE game_id = ? AND phase < ?"
            " ORDER BY phase DESC LIMIT 1",
            (game_id, phase),
        ).fetchone()
        return None if row is None else str(row[0])

    # --- inbox -------------------------------------------------------------------------
    def store_incoming(
        self,
        key: str,
        message_id: str | None,
        sender: str | None,
        raw: bytes,
        at: datetime,
        content: str | None = None,
        *,
        looked: bool = False,
    ) -> bool:
        """Keep a fetched message; False if it is already here: the same mailbox key, or the
        same Message-ID from the same sender with the same content (``content``: a digest of
        what the mail says). A Message-ID alone proves nothing: anyone can reuse one, and a
        forger must not make the daemon drop another player's mail. One statement: the
        look for the same mail is the insert's condition. ``looked``: the caller has looked
        for the same mail already (``stored_mails``), so the row is just inserted (an
        INSERT whose SELECT reads its own table copies the row into a temporary table
        first: a fifth of the statement)."""
        received = iso(at)
        if looked:
            cursor = self._writes.execute(
                "INSERT OR IGNORE INTO inbox(key, message_id, sender, content, received_at, raw)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (key, message_id, sender, content, received, _as_blob(raw)),
            )
        else:
            cursor = self.db.execute(
                "INSERT OR IGNORE INTO inbox(key, message_id, sender, content, received_at, raw)"
                " SELECT ?, ?, ?, ?, ?, ? WHERE COALESCE(?, '') = '' OR NOT EXISTS"
                " (SELECT 1 FROM inbox WHERE message_id = ? AND sender IS ? AND content IS ?)",
                (key, message_id, sender, content, received, raw, message_id, message_id,
                 sender, content),
            )  # fmt: skip
        if cursor.rowcount != 1:
            return False
        if sender is not None:
            self._keep_recent(sender, cursor.lastrowid, received)
        return True

    def known_keys(self, keys: Sequence[str]) -> set[str]:
        """Which of ``keys`` (mailbox keys) are stored already, for a fetched chunk at once."""
        known: set[str] = set()
        for first in range(0, len(keys), 500):  # SQLite's limit of values is far above
            part = keys[first : first + 500]
            marks = ", ".join("?" * len(part))
            query = f"SELECT key FROM inbox WHERE key IN ({marks})"
            known.update(r[0] for r in self.db.execute(query, part))
        return known

    def stored_mails(self, message_ids: Sequence[str]) -> set[tuple[str, str | None, str | None]]:
        """(Message-ID, sender, content) of every stored mail with one of ``message_ids``:
        what ``store_incoming`` looks for, for a fetched chunk at once."""
        found: set[tuple[str, str | None, str | None]] = set()
        for first in range(0, len(message_ids), 500):
            part = message_ids[first : first + 500]
            marks = ", ".join("?" * len(part))
            query = f"SELECT message_id, sender, content FROM inbox WHERE message_id IN ({marks})"
            found.update((r[0], r[1], r[2]) for r in self.db.execute(query, part))
        return found

    def unprocessed(self) -> list[InboxRow]:
        return [
            InboxRow(r["id"], r["key"], r["raw"])
            for r in self.db.execute(
                "SELECT id, key, raw FROM inbox WHERE status = 'new' ORDER BY id"
            )
        ]

    def finish_incoming(self, inbox_id: int, status: str, verdict: str, at: datetime) -> None:
        self._writes.execute(
            "UPDATE inbox SET status = ?, verdict = ?, processed_at = ? WHERE id = ?",
            (status, verdict, iso(at), inbox_id),
        )

    def recent_from(self, sender: str, since: datetime, up_to_id: int) -> int:
        """Mails from ``sender`` received since ``since``, up to and including this one.

        Every mail asks (the rate limit), so a sender's rows since the moment first asked
        for are kept and counted here: safe because inbox rows are only ever added, and
        only by ``store_incoming``, which adds each to the kept ones; another process's
        commit and a rollback forget them (``_rows_current``, ``_forget_rows``), and an
        earlier ``since`` than they were read from (the clock set back) reads them again."""
        self._rows_current()
        start = iso(since)
        kept = self._recent.get(sender)
        if kept is None or start < kept.since:
            kept = self._read_recent(sender, start)
            if kept is None:
                return self._count_recent(sender, start, up_to_id)
        else:
            self._recent.move_to_end(sender)
        return kept.count(start, up_to_id)

    def _read_recent(self, sender: str, start: str) -> _Recent | None:
        """The sender's rows received since ``start``, kept; None (nothing kept) for a
        sender with more than ``RECENT_KEPT`` of them."""
        self._recent.pop(sender, None)
        rows = self.db.execute(
            "SELECT id, received_at FROM inbox WHERE sender = ? AND received_at >= ?"
            " ORDER BY id LIMIT ?",
            (sender, start, RECENT_KEPT + 1),
        ).fetchall()
        if len(rows) > RECENT_KEPT:
            return None
        kept = _Recent(start, [])
        for r in rows:
            kept.add(int(r[0]), str(r[1]))
        self._recent[sender] = kept
        if len(self._recent) > SENDERS_KEPT:
            self._recent.popitem(last=False)
        return kept

    def _count_recent(self, sender: str, start: str, up_to_id: int) -> int:
        row = self.db.execute(
            "SELECT COUNT(*) FROM inbox WHERE sender = ? AND received_at >= ? AND id <= ?",
            (sender, start, up_to_id),
        ).fetchone()
        return int(row[0])

    def _keep_recent(self, sender: str, row_id: int | None, received: str) -> None:
        """A row just stored, added to its sender's kept ones (if kept)."""
        kept = self._recent.get(sender)
        if kept is None:
            return
        if row_id is None or len(kept.rows) >= RECENT_KEPT:
            del self._recent[sender]  # read again (or counted by SQLite) when next asked
        elif received >= kept.since:
            kept.add(row_id, received)

    def answered_since(self, recipient: str, purpose: str, since: datetime) -> bool:
        """Whether a mail for ``purpose`` was queued to ``recipient`` since ``since``: a
        stranger gets one answer per period, however many mails carry his address."""
        row = self.db.execute(
            "SELECT 1 FROM outbox WHERE recipient = ? AND purpose = ? AND created_at >= ? LIMIT 1",
            (recipient, purpose, iso(since)),
        ).fetchone()
        return row is not None

    def shunted_mail(self, inbox_id: int) -> bytes | None:
        row = self.db.execute(
            "SELECT raw FROM inbox WHERE id = ? AND status = 'shunted'", (inbox_id,)
        ).fetchone()
        return None if row is None else bytes(row["raw"])

    def requeue_incoming(self, inbox_id: int) -> None:
        """A set-aside mail goes through intake again (``gm-daemon shunt retry``)."""
        self.db.execute("UPDATE inbox SET status = 'new' WHERE id = ?", (inbox_id,))

    def drop_incoming(self, inbox_id: int) -> None:
        self.db.execute("UPDATE inbox SET status = 'dropped' WHERE id = ?", (inbox_id,))

    def shunted(self) -> list[sqlite3.Row]:
        return list(
            self.db.execute(
                "SELECT id, key, sender, received_at, verdict FROM inbox WHERE status = 'shunted'"
            )
        )

    # --- outbox ------------------------------------------------------------------------
    def enqueue(
        self,
        game_id: str | None,
        purpose: str,
        recipient: str,
        message_id: str,
        message: bytes,
        at: datetime,
    ) -> None:
        moment = iso(at)
        self._writes.execute(
            "INSERT INTO outbox(created_at, game_id, purpose, recipient, message_id, message,"
            " next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (moment, game_id, purpose, recipient, message_id, _as_blob(message), moment),
        )

    def due_mail(self, now: datetime, limit: int = 100) -> list[OutboxRow]:
        """The first ``limit`` mails due, oldest first. The ids are chosen apart (from the
        index ``outbox_due``, sorted as they are) and only their rows read: sorting the
        rows themselves copied every due mail's message into SQLite's sorter for each
        batch, so a backlog of n mails cost n²/``limit`` copies."""
        rows = self._writes.execute(  # plain tuples (no ``sqlite3.Row``), read whole here
            "SELECT id, recipient, message, attempts, message_id FROM outbox WHERE id IN"
            " (SELECT id FROM outbox WHERE status = 'pending' AND next_attempt_at <= ?"
            " ORDER BY id LIMIT ?) ORDER BY id",
            (iso(now), limit),
        )
        return list(map(OutboxRow._make, rows))

    def next_mail_attempt(self) -> datetime | None:
        row = self.db.execute(
            "SELECT MIN(next_attempt_at) FROM outbox WHERE status = 'pending'"
        ).fetchone()
        return from_iso(row[0]) if row and row[0] else None

    def mark_sent(self, outbox_id: int, at: datetime) -> None:
        self.db.execute(
            "UPDATE outbox SET status = 'sent', sent_at = ?, attempts = attempts + 1 WHERE id = ?",
            (iso(at), outbox_id),
        )

    def mark_all_sent(self, outbox_ids: Sequence[int], at: datetime) -> None:
        """``mark_sent`` for a batch the sender delivered, in one transaction and one
        statement: an UPDATE a row (``executemany``) cost ~7 k instructions more a mail,
        as SQLite opens, journals and ends each statement on its own. The ids go in as one
        JSON array (SQLite's ``json_each``), so the statement is the same for any batch and
        stays prepared; a list of placeholders would be a statement of its own for each
        batch size, crowding the per-mail statements out of the connection's cache."""
        with self.transaction():
            self._writes.execute(
                "UPDATE outbox SET status = 'sent', sent_at = ?, attempts = attempts + 1"
                " WHERE id IN (SELECT value FROM json_each(?))",
                (iso(at), json.dumps(list(outbox_ids))),
            )

    def pending_keys(self) -> dict[str, int]:
        """Message-ID → id of every mail not yet sent (nor given up)."""
        return {
            r["message_id"]: r["id"]
            for r in self.db.execute("SELECT id, message_id FROM outbox WHERE status = 'pending'")
        }

    def mark_attempt_failed(self, outbox_id: int, error: str, retry_at: datetime | None) -> None:
        """A failed send: retry at ``retry_at``, or give up (status 'failed') when None."""
        self.db.execute(
            "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at ="
            " COALESCE(?, next_attempt_at), status = CASE WHEN ? IS NULL THEN 'failed'"
            " ELSE 'pending' END WHERE id = ?",
            (
                error[:500],
                iso(retry_at) if retry_at else None,
                iso(retry_at) if retry_at else None,
                outbox_id,
            ),
        )

    def failed_mails(self) -> list[sqlite3.Row]:
        """Mails the server refused for good, for the GM to see (and fix the address)."""
        return list(
            self.db.execute(
                "SELECT id, game_id, purpose, recipient, last_error FROM outbox"
                " WHERE status = 'failed' ORDER BY id"
            )
        )

    # --- keeping the database bounded -----------------------------------------------------
    def prune_mail(self, before: datetime) -> tuple[int, int]:
        """Drop the bodies of mail sent, and of incoming mail handled, before ``before``:
        they are most of the database and nobody reads them again. The rows stay with
        Message-ID, sender, status and verdict, so deduplication and ``status`` still work.
        Pending and failed mail out, and shunted mail in, keep their bodies (they may be sent
        or retried yet). Returns (mails out, mails in) pruned."""
        at = iso(before)
        with self.transaction():
            sent = self.db.execute(
                "UPDATE outbox SET message = X'' WHERE status = 'sent' AND sent_at < ?"
                " AND length(message) > 0",
                (at,),
            ).rowcount
            handled = self.db.execute(
                "UPDATE inbox SET raw = X'' WHERE status IN ('done', 'dropped')"
                " AND processed_at < ? AND length(raw) > 0",
                (at,),
            ).rowcount
        return sent, handled

    def outbox_counts(self) -> dict[str, int]:
        return {
            r["status"]: r["n"]
            for r in self.db.execute("SELECT status, COUNT(*) AS n FROM outbox GROUP BY status")
        }


# --- a season's small records, kept as notes (no table of their own) ---------------------------
def _reminders_key(game_id: str) -> str:
    return f"reminders-sent:{game_id}"


def reminders_sent(store: Store, game_id: str, phase: int) -> set[int]:
    """The lead times (in seconds) of the reminders already sent in this phase of the game:
    each reminder goes out once, across restarts."""
    noted = store.note(_reminders_key(game_id))
    if noted is None:
        return set()
    record = json.loads(noted)
    return set(record["sent"]) if record.get("phase") == phase else set()


def add_reminders_sent(store: Store, game_id: str, phase: int, leads: set[int]) -> None:
    """Record reminders as sent; a new phase's record replaces the last phase's."""
    sent = reminders_sent(store, game_id, phase) | leads
    store.set_note(_reminders_key(game_id), json.dumps({"phase": phase, "sent": sorted(sent)}))


def forget_reminders(store: Store, game_id: str) -> None:
    """A rolled-back phase runs again: its reminders go out again."""
    store.set_note(_reminders_key(game_id), None)


def observer_welcomed(store: Store, game_id: str, email: str) -> bool:
    return store.note(f"observer-welcomed:{game_id}:{email}") is not None


def set_observer_welcomed(store: Store, game_id: str, email: str, at: datetime) -> None:
    store.set_note(f"observer-welcomed:{game_id}:{email}", iso(at))


def set_paused_at(store: Store, game_id: str, at: datetime | None) -> None:
    store.set_note(f"paused-at:{game_id}", iso(at) if at else None)


def paused_at(store: Store, game_id: str) -> datetime | None:
    noted = store.note(f"paused-at:{game_id}")
    return from_iso(noted) if noted else None


def refused_while_paused(store: Store, sender: str, since: datetime) -> int:
    """Mails from ``sender`` that intake refused because a game was paused, since then."""
    row = store.db.execute(
        "SELECT COUNT(*) FROM inbox WHERE sender = ? AND received_at >= ?"
        " AND verdict = 'refused: reason_paused'",
        (sender, iso(since)),
    ).fetchone()
    return int(row[0])


def _iso_or_none(moment: datetime | None) -> str | None:
    return iso(moment) if moment else None


class GroupUndone(BaseException):
    """A transaction failed inside a group without savepoints (``Store.group(steps=False)``):
    the whole group is rolled back, and its caller does it again with a savepoint each,
    so that the failing one is undone alone. A ``BaseException``, as ``CancelledError`` is:
    the ``except Exception`` that sets a failing mail aside must let it through, since
    nothing of the group, that mail's setting aside included, could be kept now."""


class _Transaction:
    """``Store.transaction``: a transaction of its own, a savepoint inside a group, or, in a
    group without savepoints, just part of it (which of these is decided on entering, as
    the group may end meanwhile only around it)."""

    __slots__ = ("_kind", "_store")

    OWN, STEP, PART = 0, 1, 2

    def __init__(self, store: Store):
        self._store = store
        self._kind = self.OWN

    def __enter__(self) -> sqlite3.Connection:
        store = self._store
        if not store._grouped:
            store._begin()
        elif store._undone:
            raise GroupUndone("a transaction after its group was undone")
        elif store._steps:
            self._kind = self.STEP
            store.db.execute("SAVEPOINT step")
        else:
            self._kind = self.PART
        return store.db

    def __exit__(self, kind: type[BaseException] | None, failure: object, _: object) -> None:
        store = self._store
        if self._kind == self.OWN:
            if kind is None:
                store._commit()
            else:
                store._abandon()
        elif self._kind == self.STEP:
            if kind is None:
                store.db.execute("RELEASE step")
                return
            store._forget_rows()  # they may have been read after a change now undone
            if store.db.in_transaction:
                store.db.execute("ROLLBACK TO step")
                store.db.execute("RELEASE step")
        elif kind is not None and not store._undone:
            _undo_group(store, kind, failure)


def _undo_group(store: Store, kind: type[BaseException], failure: object) -> None:
    """A transaction failed in a group without savepoints: nothing of the group can be kept
    apart from it, so all of it is rolled back; an ``Exception`` becomes ``GroupUndone``."""
    store._abandon()
    store._undone = True
    if issubclass(kind, Exception):
        cause = failure if isinstance(failure, BaseException) else None
        raise GroupUndone("a transaction failed in a group without savepoints") from cause


class _Group:
    """``Store.group``: one transaction around several; inside one already, the outer group
    commits."""

    __slots__ = ("_outer", "_steps", "_store")

    def __init__(self, store: Store, steps: bool = True):
        self._store = store
        self._steps = steps
        self._outer = False

    def __enter__(self) -> None:
        store = self._store
        if store._grouped:
            return
        store._begin()
        store._grouped, store._steps, store._undone = True, self._steps, False
        self._outer = True

    def __exit__(self, *_: object) -> None:
        if not self._outer:
            return
        store = self._store
        undone = store._undone
        store._grouped, store._steps, store._undone = False, True, False
        if undone:  # rolled back already, its kept rows forgotten
            return
        if store.db.in_transaction:
            try:
                store._commit()
            except BaseException:
                store._abandon()
                raise
        else:  # SQLite rolls back by itself on some errors (full)
            store._forget_rows()
