"""Which fetched mails the inbox table takes: a mail is kept once, recognised by its mailbox
key, or by the same Message-ID from the same sender with the same content; a Message-ID
alone (a forger's, a robot's without one) never makes the daemon drop a mail."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gm_daemon.daemon import Daemon
from gm_daemon.mail.transport import RawMail
from gm_daemon.store import Store
from tests.core.test_daemon_flow import GAMES
from tests.daemon_harness import DaemonHarness

AT = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
FIRST = ("key-1", "<m1@x.test>", "anna@players.test", "digest-a")

# (what a second mail has: key, Message-ID, sender, content digest) -> kept as a mail of its own
CASES = {
    "the same mail again under a new key": (("key-2", *FIRST[1:]), False),
    "the same key again": (("key-1", "<m2@x.test>", "bert@players.test", "digest-b"), False),
    "the same Message-ID from another sender": (("key-2", FIRST[1], "bert@x.test", FIRST[3]), True),
    "the same Message-ID with other words": (("key-2", FIRST[1], FIRST[2], "digest-b"), True),
    "another Message-ID": (("key-2", "<m2@x.test>", *FIRST[2:]), True),
    "no Message-ID, same sender and words": (("key-2", None, *FIRST[2:]), True),
    "an empty Message-ID, same sender and words": (("key-2", "", *FIRST[2:]), True),
    "no sender, the same Message-ID": (("key-2", FIRST[1], None, FIRST[3]), True),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_second_mail_is_kept_unless_it_is_the_same(tmp_path: Path, case: str) -> None:
    second, kept = CASES[case]
    store = Store(tmp_path / "gm.sqlite")
    try:
        assert store.store_incoming(FIRST[0], *FIRST[1:3], b"raw 1", AT, FIRST[3])
        assert store.store_incoming(second[0], *second[1:3], b"raw 2", AT, second[3]) is kept
        assert len(store.unprocessed()) == 1 + kept
        assert store.known_keys(["key-1", "key-2", "key-3"]) == {"key-1"} | (
            {"key-2"} if kept else set()
        )
    finally:
        store.close()


def test_mails_without_a_message_id_are_each_kept(tmp_path: Path) -> None:
    store = Store(tmp_path / "gm.sqlite")
    try:
        for number in range(3):
            assert store.store_incoming(f"key-{number}", None, FIRST[2], b"raw", AT, FIRST[3])
        assert len(store.known_keys([f"key-{n}" for n in range(1200)])) == 3
    finally:
        store.close()


# (how a second fetched mail differs from the first) -> kept as a mail of its own
FETCHED = {
    "the same mail again under a new key": ({}, False),
    "the same Message-ID from another sender": ({"sender": "bert@players.test"}, True),
    "the same Message-ID with other words": ({"body": "other words"}, True),
    "another Message-ID": ({"message_id": "<m2@x.test>"}, True),
    "no Message-ID on either, same sender and words": ({"message_id": None}, True),
}


def _fetched(key: str, message_id: str | None, sender: str, body: str) -> RawMail:
    head = f"From: {sender}\nSubject: orders\n" + (
        f"Message-ID: {message_id}\n" if message_id else ""
    )
    return RawMail(key=key, data=f"{head}\n{body}\n".encode())


@pytest.mark.parametrize("together", [True, False], ids=["one fetch", "two fetches"])
@pytest.mark.parametrize("case", FETCHED, ids=list(FETCHED))
def test_the_daemon_keeps_a_fetched_mail_once(tmp_path: Path, case: str, together: bool) -> None:
    """What the store's one look does, the daemon's look for a whole chunk does too, for
    mails fetched together and apart."""
    change, kept = FETCHED[case]
    first = {"message_id": "<m1@x.test>", "sender": "anna@players.test", "body": "Code: A"}
    if change.get("message_id", "") is None:
        first["message_id"] = None
    second = {**first, **change}
    mails = [_fetched("key-1", **first), _fetched("key-2", **second)]
    daemon = Daemon(DaemonHarness(tmp_path, GAMES).config_path, clock=lambda: AT)
    try:
        stored = [daemon._store_all(mails)] if together else [daemon._store_all([m]) for m in mails]
        rows = daemon.store.unprocessed()
    finally:
        asyncio.run(daemon.close())
    assert sum(stored) == len(rows) == 1 + kept
    assert [row.key for row in rows] == ["key-1", "key-2"][: 1 + kept]
