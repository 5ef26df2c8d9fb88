"""The store keeps the rows of ``games`` and ``players`` and the orders on file it read or
wrote (every mail asks for its game, its sender's seats and his orders): what it hands out
must always be what the database says — after each of its own changes, after a change undone
by a rollback, and after another process (the CLI) committed one."""

from __future__ import annotations

import ast
import contextlib
import inspect
import json
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gm_daemon import store as store_module
from gm_daemon.store import GameRow, GroupUndone, PlayerRow, Store

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
ADDRESSES = ("anna@players.test", "bert@players.test", "new@players.test", "ANNA@players.test")
ORDERS = [(g, phase, seat) for g in ("g1", "g2") for phase in (1, 2) for seat in ("anna", "bert")]


def _store(path: Path) -> Store:
    store = Store(path / "gm.sqlite")
    with store.transaction():
        for game_id in ("g1", "g2"):
            store.insert_game(game_id, "highnoon", "seed", {"round": 1}, 1, NOW, NOW)
        store.insert_player("g1", "anna", "Anna", "anna@players.test", "CODE-1")
        store.insert_player("g1", "bert", "Bert", "bert@players.test", "CODE-2")
        store.insert_player("g2", "anna", "Anna", "anna@players.test", "CODE-3")
        store.set_held("g2", "a resolution failed")
        store.put_orders("g1", 1, "anna", {"shots": ["bert"]}, NOW, 1)
        store.put_orders("g1", 2, "anna", {"shots": []}, NOW, 2)
        store.put_orders("g2", 1, "anna", {"shots": ["carl"]}, NOW, 3)
    return store


def _read(store: Store) -> tuple[object, ...]:
    """Everything the kept rows answer, as the store hands it out."""
    games = tuple(store.game(g) for g in ("g1", "g2", "g3"))
    seats = tuple(tuple(store.players(g)) for g in ("g1", "g2", "g3"))
    by_address = tuple(tuple(store.players_by_email(a)) for a in ADDRESSES)
    orders = tuple(store.orders_text(*key) for key in ORDERS)
    return games, seats, by_address, orders


def _truth(path: Path) -> tuple[object, ...]:
    """The same, read by a connection of its own that keeps nothing."""
    db = sqlite3.connect(path / "gm.sqlite")
    db.row_factory = sqlite3.Row
    try:
        rows = {r["id"]: GameRow.from_row(r) for r in db.execute("SELECT * FROM games")}
        query = (
            "SELECT game_id, seat, name, COALESCE(email_override, email), code FROM players"
            " WHERE {} = ? ORDER BY rowid"
        )
        seats = tuple(
            tuple(PlayerRow(*r) for r in db.execute(query.format("game_id"), (g,)))
            for g in ("g1", "g2", "g3")
        )
        by_address = tuple(
            tuple(
                PlayerRow(*r)
                for r in db.execute(query.format("COALESCE(email_override, email)"), (a.lower(),))
            )
            for a in ADDRESSES
        )
        query = "SELECT orders FROM orders WHERE game_id = ? AND phase = ? AND seat = ?"
        found = [db.execute(query, key).fetchone() for key in ORDERS]
        orders = tuple(row[0] if row else None for row in found)
    finally:
        db.close()
    return tuple(rows.get(g) for g in ("g1", "g2", "g3")), seats, by_address, orders


CHANGES: dict[str, Callable[[Store], object]] = {
    "paused": lambda s: s.set_paused("g1", True),
    "held": lambda s: s.set_held("g1", "the GM holds it"),
    "held released": lambda s: s.release_held(),
    "waiting": lambda s: s.set_waiting("g1", "the GM's map"),
    "preview": lambda s: s.set_preview("g1", 1),
    "finished": lambda s: s.finish_game("g2"),
    "reminded": lambda s: s.set_reminded("g1", 1),
    "state": lambda s: s.set_state("g1", {"round": 7}),
    "deadline": lambda s: s.set_deadline("g1", NOW + timedelta(days=3), override=True),
    "advanced": lambda s: s.advance_game("g1", 1, '{"round": 2}', 2, NOW, None, False),
    "rolled back": lambda s: s.roll_back("g1", 1, {"round": 0}, NOW, "test", True),
    "game started": lambda s: s.insert_game("g3", "highnoon", "s", {}, 1, NOW, None),
    "seat added": lambda s: s.insert_player("g2", "bert", "Bert", "bert@players.test", "C-4"),
    "renamed": lambda s: s.update_player_from_config("g1", "anna", "Anna B.", "anna@players.test"),
    "address moved": lambda s: s.update_player_from_config(
        "g1", "bert", "Bert", "new@players.test"
    ),
    "one seat of a synced game renamed": lambda s: s.update_players_from_config(
        "g1", [("anna", "Anna", "anna@players.test"), ("bert", "Bert B.", "bert@players.test")]
    ),
    "address overridden": lambda s: s.override_email("g2", "anna", "new@players.test"),
    "orders replaced": lambda s: s.put_orders("g1", 1, "anna", {"shots": []}, NOW, 9),
    "orders sent": lambda s: s.put_orders("g1", 1, "bert", {"shots": ["anna"]}, NOW, 9),
    "orders withdrawn": lambda s: s.delete_orders("g1", 1, "anna"),
    "rolled back, orders kept": lambda s: s.roll_back("g1", 1, {"round": 0}, NOW, "t", False),
}


@pytest.fixture
def kept(tmp_path: Path) -> Store:
    store = _store(tmp_path)
    _read(store)  # every row kept before the change
    return store


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_the_stores_own_change_is_seen_at_once(kept: Store, tmp_path: Path, change: str) -> None:
    with kept.transaction():
        CHANGES[change](kept)
        inside = _read(kept)
    assert _read(kept) == inside == _truth(tmp_path)
    assert inside != _truth_before(tmp_path)


def _truth_before(tmp_path: Path) -> tuple[object, ...]:
    """What the database said before the change, from a copy made without it."""
    other = tmp_path / "before"
    other.mkdir()
    _store(other).close()
    return _truth(other)


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_a_change_undone_is_forgotten(kept: Store, tmp_path: Path, change: str) -> None:
    before = _read(kept)
    with pytest.raises(RuntimeError), kept.transaction():
        CHANGES[change](kept)
        _read(kept)  # the changed rows read, then undone
        raise RuntimeError("the mail failed")
    assert _read(kept) == before == _truth(tmp_path)


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_a_mail_undone_inside_a_group_is_forgotten(
    kept: Store, tmp_path: Path, change: str
) -> None:
    before = _read(kept)
    with kept.group():
        with pytest.raises(RuntimeError), kept.transaction():  # a savepoint
            CHANGES[change](kept)
            _read(kept)
            raise RuntimeError("the mail failed")
        assert _read(kept) == before
    assert _read(kept) == before == _truth(tmp_path)


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_a_group_without_savepoints_undone_is_forgotten(
    kept: Store, tmp_path: Path, change: str
) -> None:
    """A mail failing in a group without savepoints undoes the whole group, the changes of
    the mails before it too: nothing of it may still be handed out."""
    before = _read(kept)
    with pytest.raises(GroupUndone), kept.group(steps=False):
        with kept.transaction():  # a mail before, which succeeded
            kept.set_held("g1", "changed by the mail before")
            _read(kept)
        with kept.transaction():
            CHANGES[change](kept)
            _read(kept)
            raise RuntimeError("the mail failed")
    assert _read(kept) == before == _truth(tmp_path)


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
@pytest.mark.parametrize("where", ["outside", "in a transaction", "in a group"])
def test_a_change_committed_by_another_process_is_seen(
    kept: Store, tmp_path: Path, change: str, where: str
) -> None:
    cli = Store(tmp_path / "gm.sqlite")  # the CLI's connection
    try:
        with cli.transaction():
            CHANGES[change](cli)
    finally:
        cli.close()
    if where == "outside":
        assert _read(kept) == _truth(tmp_path)
    elif where == "in a transaction":
        with kept.transaction():
            assert _read(kept) == _truth(tmp_path)
    else:
        with kept.group(), kept.transaction():
            assert _read(kept) == _truth(tmp_path)


def test_rows_handed_out_are_the_callers_own_lists(kept: Store) -> None:
    kept.players("g1").clear()
    kept.players_by_email("anna@players.test").clear()
    assert len(kept.players("g1")) == 2
    assert len(kept.players_by_email("anna@players.test")) == 2


WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
WRITERS = (("games", "_games_write"), ("players", "_players_write"), ("orders", "_orders_write"))


def _writes_to(text: str, table: str) -> bool:
    words = text.upper().replace("(", " ").split()
    return any(
        word in WRITES and table.upper() in words[i + 1 : i + 4] for i, word in enumerate(words)
    )


def test_every_change_of_games_players_or_orders_forgets_what_is_kept() -> None:
    """A new statement writing ``games``, ``players`` or ``orders`` must go through
    ``_games_write``, ``_players_write`` or ``_orders_write``; one written with
    ``db.execute`` would leave stale rows kept."""
    tree = ast.parse(inspect.getsource(store_module))
    wrong = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        texts = [
            part.value
            for arg in node.args[:1]
            for part in ast.walk(arg)
            if isinstance(part, ast.Constant) and isinstance(part.value, str)
        ]
        text = " ".join(texts)
        for table, writer in WRITERS:
            if _writes_to(text, table) and node.func.attr != writer:
                wrong.append(f"line {node.lineno}: {node.func.attr}({text[:60]!r})")
    assert not wrong, wrong
    assert _writes_to("UPDATE games SET x = 1", "games")  # the check itself finds one
    assert not _writes_to("SELECT * FROM games", "games")


MOMENTS = {
    "UTC": datetime(2026, 11, 27, 12, 0, 5, 999_999, tzinfo=UTC),
    "the same second, other microseconds": datetime(2026, 11, 27, 12, 0, 5, 1, tzinfo=UTC),
    "the same second in Berlin": datetime(2026, 11, 27, 13, 0, 5, tzinfo=ZoneInfo("Europe/Berlin")),
    "the next second": datetime(2026, 11, 27, 12, 0, 6, tzinfo=UTC),
    "summer time in Berlin": datetime(2026, 7, 1, 2, 30, tzinfo=ZoneInfo("Europe/Berlin")),
    "before 1970": datetime(1969, 12, 31, 23, 59, 59, 500_000, tzinfo=UTC),
    "the earliest moment": datetime.min.replace(tzinfo=UTC),
}


def _hour_apart(count: int) -> list[datetime]:
    """A mail's moments as intake asks for them: now, then its sender's hour, in turn."""
    now = MOMENTS["UTC"]
    return [now + timedelta(seconds=i // 2) - timedelta(hours=i % 2) for i in range(count)]


ISO_ORDERS = {
    "forward": list(MOMENTS.values()),
    "backward": list(MOMENTS.values())[::-1],
    "twice": list(MOMENTS.values()) * 2,
    "now and an hour before, in turn, past the kept seconds": _hour_apart(4 * store_module.ISO_KEPT)
    * 2,
}


@pytest.mark.parametrize("order", ISO_ORDERS)
def test_iso_writes_every_moment_as_utc_to_the_second(order: str) -> None:
    """``iso`` keeps the texts of the last few seconds: whatever came before (and whatever
    it kept or forgot), the text is the moment's."""
    for moment in ISO_ORDERS[order]:
        assert store_module.iso(moment) == moment.astimezone(UTC).isoformat(timespec="seconds")


# --- the rate limit's count of a sender's recent mails ----------------------------------

SENDERS = ("anna@players.test", "bert@players.test", "ANNA@players.test", "carl@players.test")
SINCE = (  # the first is what the kept rows are read from; an earlier one reads them again
    NOW - timedelta(hours=1),
    NOW - timedelta(minutes=10),
    NOW + timedelta(minutes=1),
    NOW - timedelta(hours=2),
)
_stored = iter(range(1_000_000))


def _mail(store: Store, sender: str | None, at: datetime) -> None:
    number = next(_stored)
    store.store_incoming(f"key-{number}", f"<{number}@x>", sender, b"raw", at, f"c{number}")


def _mails(store: Store) -> None:
    for minutes in (90, 50, 20, 5, 0):
        _mail(store, "anna@players.test", NOW - timedelta(minutes=minutes))
    _mail(store, "bert@players.test", NOW - timedelta(minutes=30))
    _mail(store, None, NOW)


def _counts(store: Store) -> list[int]:
    """Every count the rate limit may ask for, up to each stored row and beyond."""
    last = store.db.execute("SELECT coalesce(max(id), 0) FROM inbox").fetchone()[0]
    return [
        store.recent_from(sender, since, up_to)
        for since in SINCE
        for sender in SENDERS
        for up_to in range(last + 2)
    ]


def _true_counts(path: Path) -> list[int]:
    db = sqlite3.connect(path / "gm.sqlite")
    try:
        last = db.execute("SELECT coalesce(max(id), 0) FROM inbox").fetchone()[0]
        query = "SELECT COUNT(*) FROM inbox WHERE sender = ? AND received_at >= ? AND id <= ?"
        return [
            db.execute(query, (sender, store_module.iso(since), up_to)).fetchone()[0]
            for since in SINCE
            for sender in SENDERS
            for up_to in range(last + 2)
        ]
    finally:
        db.close()


ARRIVALS: dict[str, Callable[[Store], object]] = {
    "a mail now": lambda s: _mail(s, "anna@players.test", NOW),
    "a mail dated before the kept rows": lambda s: _mail(
        s, "anna@players.test", NOW - timedelta(hours=3)
    ),
    "a mail ahead of the window": lambda s: _mail(s, "anna@players.test", NOW + timedelta(hours=1)),
    "a mail dated between kept rows (the clock set back)": lambda s: _mail(
        s, "anna@players.test", NOW - timedelta(minutes=12)
    ),
    "another sender's": lambda s: _mail(s, "carl@players.test", NOW),
    "the same address in capitals": lambda s: _mail(s, "ANNA@players.test", NOW),
    "no sender": lambda s: _mail(s, None, NOW),
    "the same mail again (not stored)": lambda s: (
        s.store_incoming("key-again", None, "anna@players.test", b"", NOW)
        and s.store_incoming("key-again", None, "anna@players.test", b"", NOW)
    ),
    "a flood": lambda s: [
        _mail(s, "anna@players.test", NOW) for _ in range(store_module.RECENT_KEPT + 2)
    ],
}


@pytest.fixture
def counted(tmp_path: Path) -> Store:
    store = _store(tmp_path)
    with store.transaction():
        _mails(store)
    _counts(store)  # every sender's rows kept before the change
    return store


@pytest.mark.parametrize("arrival", ARRIVALS, ids=list(ARRIVALS))
@pytest.mark.parametrize("where", ["outside", "in a transaction", "in a group"])
def test_a_mail_stored_is_counted_at_once(
    counted: Store, tmp_path: Path, arrival: str, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "RECENT_KEPT", 8)  # the flood passes it
    if where == "outside":
        ARRIVALS[arrival](counted)
        inside = _counts(counted)
    elif where == "in a transaction":
        with counted.transaction():
            ARRIVALS[arrival](counted)
            inside = _counts(counted)
    else:
        with counted.group(), counted.transaction():
            ARRIVALS[arrival](counted)
            inside = _counts(counted)
    assert _counts(counted) == inside == _true_counts(tmp_path)


@pytest.mark.parametrize("arrival", ARRIVALS, ids=list(ARRIVALS))
@pytest.mark.parametrize("where", ["a transaction", "a group's savepoint"])
def test_a_mail_stored_and_undone_is_not_counted(
    counted: Store, tmp_path: Path, arrival: str, where: str
) -> None:
    before = _counts(counted)
    with contextlib.ExitStack() as stack:
        if where == "a group's savepoint":
            stack.enter_context(counted.group())
        with pytest.raises(RuntimeError), counted.transaction():
            ARRIVALS[arrival](counted)
            _counts(counted)  # counted with the mail, then undone
            raise RuntimeError("the fetch failed")
        assert _counts(counted) == before
    assert _counts(counted) == before == _true_counts(tmp_path)


@pytest.mark.parametrize("arrival", ARRIVALS, ids=list(ARRIVALS))
@pytest.mark.parametrize("where", ["outside", "in a transaction", "in a group"])
def test_a_mail_stored_by_another_process_is_counted(
    counted: Store, tmp_path: Path, arrival: str, where: str
) -> None:
    cli = Store(tmp_path / "gm.sqlite")  # a second daemon's or the CLI's connection
    try:
        with cli.transaction():
            ARRIVALS[arrival](cli)
    finally:
        cli.close()
    if where == "outside":
        assert _counts(counted) == _true_counts(tmp_path)
    elif where == "in a transaction":
        with counted.transaction():
            assert _counts(counted) == _true_counts(tmp_path)
    else:
        with counted.group(), counted.transaction():
            assert _counts(counted) == _true_counts(tmp_path)


def test_the_counts_are_the_databases_before_any_change(counted: Store, tmp_path: Path) -> None:
    counts = _counts(counted)
    assert counts == _true_counts(tmp_path)
    assert max(counts) == 5 and 0 in counts  # the cases differ: the check can fail


def test_inbox_rows_are_only_added_and_only_by_store_incoming() -> None:
    """``recent_from`` counts kept rows: safe only while no statement of the store deletes
    inbox rows, changes their sender or time, or adds one outside ``store_incoming``."""
    tree = ast.parse(inspect.getsource(store_module))
    wrong = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        for node in ast.walk(function):
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                continue
            text = " ".join(node.value.upper().split())
            adds = "INTO INBOX" in text and function.name != "store_incoming"
            changes = text.startswith("UPDATE INBOX") and (
                "SENDER" in text.split("WHERE")[0] or "RECEIVED_AT" in text.split("WHERE")[0]
            )
            if adds or changes or "DELETE FROM INBOX" in text or "REPLACE INTO INBOX" in text:
                wrong.append(f"{function.name}: {node.value[:60]!r}")
    assert not wrong, wrong


def test_a_sync_that_changes_no_seat_keeps_them(kept: Store) -> None:
    """Every start syncs every seat of every game: when nothing changed, the game's load
    after it reads no seat again."""
    statements: list[str] = []
    kept.db.set_trace_callback(statements.append)
    with kept.transaction():
        seats = kept.seats("g1")
        kept.update_players_from_config(
            "g1", [("anna", "Anna", "anna@players.test"), ("bert", "Bert", "bert@players.test")]
        )
        assert kept.seats("g1") is seats
    kept.db.set_trace_callback(None)
    assert [s for s in statements if s.startswith("SELECT")] == []


def test_a_sync_failing_half_way_forgets_the_seats(kept: Store, tmp_path: Path) -> None:
    """``executemany`` leaves the rows before a failing one changed: the kept seats go."""
    kept.db.execute(
        "CREATE TRIGGER refuse BEFORE UPDATE ON players WHEN NEW.name = 'Nobody'"
        " BEGIN SELECT RAISE(ABORT, 'refused'); END"
    )
    before = _read(kept)
    seats = [("anna", "Anna A.", "anna@players.test"), ("bert", "Nobody", "bert@players.test")]
    with pytest.raises(sqlite3.IntegrityError):
        kept.update_players_from_config("g1", seats)
    assert _read(kept) != before
    kept.db.commit()
    assert _read(kept) == _truth(tmp_path)


def test_mail_bytes_are_stored_as_the_blobs_they_were(tmp_path: Path) -> None:
    """The inbox's raw mail and the outbox's message are bound as ``bytearray`` (no adapter
    look-up): stored as BLOBs, byte for byte, and read back as ``bytes``, as before — also
    bytes that are no text, and an empty mail."""
    store = _store(tmp_path)
    raws = [b"From: a@b.test\r\n\r\nhi\xff\x00\r\n", b"", bytes(range(256)) * 8]
    with store.transaction():
        for n, raw in enumerate(raws):
            assert store.store_incoming(
                f"k{n}", f"<m{n}@b.test>", "a@b.test", raw, NOW, "c", looked=True
            )
            store.enqueue("g1", "accepted", "a@b.test", f"<q{n}@gm.test>", raw, NOW)
    rows = store.db.execute("SELECT typeof(raw), raw FROM inbox ORDER BY id").fetchall()
    assert [(kind, bytes(raw)) for kind, raw in rows] == [("blob", raw) for raw in raws]
    assert [type(raw) for _, raw in rows] == [bytes] * len(raws)
    sent = store.db.execute("SELECT typeof(message) FROM outbox ORDER BY id").fetchall()
    assert [kind for (kind,) in sent] == ["blob"] * len(raws)
    assert [row.message for row in store.due_mail(NOW)] == raws
    assert [row.raw for row in store.unprocessed()] == raws


_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(alphabet=st.characters(codec="utf-8"), max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=20,
)


@given(st.dictionaries(st.text(max_size=6), _JSON_VALUES, max_size=5))
def test_orders_are_stored_as_json_dumps_writes_them(orders: dict[str, Any]) -> None:
    """The orders' text by the encoder made once is ``json.dumps``'s, character for
    character (NaN and infinities, non-ASCII and control characters, nesting)."""
    assert store_module._orders_json(orders) == json.dumps(orders)


def test_orders_that_are_no_json_are_refused_as_json_dumps_refuses_them() -> None:
    with pytest.raises(TypeError, match="Object of type object is not JSON serializable"):
        store_module._orders_json({"shots": [object()]})
