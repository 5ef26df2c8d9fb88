"""Crashes, restarts, races and a mail server outage lose nothing and send nothing twice."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Sequence
from datetime import timedelta
from email.message import EmailMessage

import pytest

from gm_daemon.daemon import Daemon, make_transports
from gm_daemon.mail.transport import Outgoing, SendError
from gm_daemon.referee import Referee
from gm_daemon.store import GroupUndone, Store
from tests.core.test_daemon_flow import GAMES
from tests.daemon_harness import DaemonHarness, until


class FlakySender:
    """Wraps the real Maildir sender; fails the first ``failures`` sends."""

    def __init__(self, inner, failures: int, permanent: bool = False):
        self.inner = inner
        self.failures = failures
        self.permanent = permanent
        self.calls = 0

    async def send(self, message: EmailMessage, sender: str, recipients: Sequence[str]) -> None:
        self.calls += 1
        if self.failures > 0:
            self.failures -= 1
            raise SendError("421 try again later", permanent=self.permanent)
        await self.inner.send(message, sender, recipients)

    async def close(self) -> None:
        await self.inner.close()


def run_with(h: DaemonHarness, sender_factory) -> list[EmailMessage]:
    def transports(config):
        inbox, sender = make_transports(config)
        return inbox, sender_factory(sender)

    asyncio.run(Daemon(h.config_path, clock=h.clock, transports=transports).run_once())
    return h._collect()


def test_smtp_outage_delays_mail_and_sends_each_once(tmp_path):
    h = DaemonHarness(tmp_path, GAMES)
    assert run_with(h, lambda s: FlakySender(s, failures=10)) == []
    h.advance(seconds=10)
    # the mail that failed waits for its back-off; the one never tried goes out
    (untried,) = run_with(h, lambda s: FlakySender(s, failures=0))
    h.advance(seconds=30)
    (retried,) = run_with(h, lambda s: FlakySender(s, failures=0))
    assert sorted([untried["To"], retried["To"]]) == ["anna@players.test", "bert@players.test"]
    h.advance(hours=2)
    assert h.run() == []


def test_a_refused_recipient_is_marked_failed_and_shown(tmp_path):
    h = DaemonHarness(tmp_path, GAMES)
    run_with(h, lambda s: FlakySender(s, failures=1, permanent=True))
    _code, out = h.cli("status")
    assert "outbox: 1 failed, 1 sent" in out


def test_crash_between_storing_and_marking_read_processes_the_mail_once(tmp_path):
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    h.send("anna@players.test", "Code: ANNA-1111\n17")

    def crashing(config):
        inbox, sender = make_transports(config)

        async def done(key: str) -> None:
            raise ConnectionResetError("server went away")

        async def done_all(keys: Sequence[str]) -> None:
            raise ConnectionResetError("server went away")

        inbox.done = done  # type: ignore[method-assign]
        inbox.done_all = done_all  # type: ignore[method-assign]
        return inbox, sender

    daemon = Daemon(h.config_path, clock=h.clock, transports=crashing)
    asyncio.run(daemon.run_once())  # stored and answered, but never marked read
    first = h._collect()
    again = h.run()  # restart: the mail is fetched again, recognised, not answered again
    assert [m["To"] for m in first] == ["anna@players.test"]
    assert again == []


def test_a_mailbox_outage_does_not_hold_up_deadlines(tmp_path):
    h = DaemonHarness(tmp_path, GAMES)
    h.run()

    def broken(config):
        inbox, sender = make_transports(config)

        async def fetch(limit=None):
            raise ConnectionRefusedError("imap down")

        inbox.fetch = fetch  # type: ignore[method-assign]
        return inbox, sender

    h.advance(days=2, seconds=1)
    asyncio.run(Daemon(h.config_path, clock=h.clock, transports=broken).run_once())
    assert len(h._collect()) == 2 and h.phase("g1") == 2


def test_the_same_message_delivered_twice_counts_once(tmp_path):
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    message = EmailMessage()
    message["From"] = "anna@players.test"
    message["Subject"] = "[g1]"
    message["Message-ID"] = "<same@players.test>"
    message.set_content("Code: ANNA-1111\n17")
    h.send_raw(bytes(message))
    h.send_raw(bytes(message))
    assert len(h.run()) == 1


def test_an_engine_crash_shunts_the_mail_and_the_loop_goes_on(tmp_path, monkeypatch):
    from tests.core import guessgame

    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    original = guessgame.GuessGame.read_orders

    def explode(self, lines, state, seat, lang, on_file=None):
        if seat == "anna-alt":
            raise RuntimeError("engine bug")
        return original(self, lines, state, seat, lang)

    monkeypatch.setattr(guessgame.GuessGame, "read_orders", explode)
    h.send("anna@players.test", "Code: ANNA-1111\n17")
    h.send("bert@players.test", "Code: BERT-2222\n18")
    replies = {m["To"]: m for m in h.run()}
    assert "internal error" in h.body(replies["anna@players.test"])
    assert "accepted" in replies["bert@players.test"]["Subject"]
    _code, out = h.cli("status")
    assert "shunted" in out and "engine bug" in out


def test_racing_resolvers_resolve_a_phase_once(tmp_path):
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    from gm_daemon.config import load_config

    config = load_config(h.config_path)
    first = Referee(config, Store(h.database), h.clock)
    second = Referee(config, Store(h.database), h.clock)
    assert first.resolve("g1", "deadline", phase=1)
    assert not second.resolve("g1", "gm", phase=1)
    assert h.phase("g1") == 2


def test_a_deadline_that_passed_while_down_is_resolved_at_start(tmp_path):
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    h.advance(days=9)  # down for longer than several rounds
    results = h.run()
    assert h.phase("g1") == 2  # one round resolved now, the next has a fresh deadline
    assert len(results) == 2


def test_reload_starts_new_games_and_applies_changed_deadlines(tmp_path):
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    second = (
        GAMES.replace('id = "g1"', 'id = "g2"')
        .replace("anna@", "anna2@")
        .replace("bert@", "bert2@")
    )
    h.write_config((GAMES + second).replace('every = "2d"', 'every = "4d"'))
    mails = h.run()
    assert sorted(m["To"] for m in mails) == ["anna2@players.test", "bert2@players.test"]
    h.advance(days=1)
    assert h.run() == []  # g1's round now lasts four days
    h.advance(days=3, seconds=1)
    assert sum("results" in m["Subject"] for m in h.run()) == 4  # both games, 2 players each


def test_the_service_loop_answers_reloads_and_stops(tmp_path):
    """The real ``run()`` loop in the test's event loop, on the wall clock."""
    h = DaemonHarness(tmp_path, GAMES)

    async def scenario() -> None:
        daemon = Daemon(h.config_path)
        task = asyncio.create_task(daemon.run())
        await until(lambda: len(h._collect()) >= 2)
        code = h.code("g1", "Anna Alt")
        h.send("anna@players.test", f"Code: {code}\n42")
        await until(lambda: any("accepted" in m["Subject"] for m in h._collect()))
        h.write_config(
            GAMES.replace('id = "g1"', 'id = "g9"').replace("anna@", "a9@").replace("bert@", "b9@")
        )
        daemon.request_reload()
        await until(lambda: any(m["To"] == "a9@players.test" for m in h._collect()))
        daemon.request_exit()
        await asyncio.wait_for(task, timeout=10)

    asyncio.run(scenario())
    assert h.finished("g1") is False


def test_backoff_grows_and_is_capped():
    from gm_daemon.outbox import Backoff

    backoff = Backoff()
    assert [backoff.delay(n) for n in (1, 2, 3)] == [
        timedelta(seconds=30),
        timedelta(seconds=60),
        timedelta(seconds=120),
    ]
    assert backoff.delay(50) == timedelta(hours=1)


def test_a_shunted_mail_can_be_listed_shown_retried_and_dropped(tmp_path, monkeypatch):
    from tests.core import guessgame

    h = DaemonHarness(tmp_path, GAMES, extra_toml='gm_address = "boss@gm.test"\n')
    h.run()
    original = guessgame.GuessGame.read_orders

    def explode(self, lines, state, seat, lang, on_file=None):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(guessgame.GuessGame, "read_orders", explode)
    h.send("anna@players.test", "Code: ANNA-1111\n42")
    h.send("bert@players.test", "Code: BERT-2222\n17")
    h.run()
    code, listed = h.cli("shunt", "list")
    assert code == 0 and "2 mail(s) set aside" in listed and "RuntimeError: engine bug" in listed
    first, second = (line.split()[0][1:] for line in listed.splitlines()[:2])
    assert "Code: ANNA-1111" in h.cli("shunt", "show", first)[1]
    monkeypatch.setattr(guessgame.GuessGame, "read_orders", original)  # the fix
    assert h.cli("shunt", "retry", first)[0] == 0
    assert h.cli("shunt", "drop", second)[0] == 0
    (ack,) = h.run()
    assert ack["To"] == "anna@players.test" and "accepted" in ack["Subject"]
    assert "0 mail(s) set aside" in h.cli("shunt", "list")[1]
    assert h.cli("shunt", "retry", second)[0] == 1  # dropped: no longer set aside


def test_a_crash_between_writing_the_outbox_files_and_marking_them_sent_sends_nothing_twice(
    tmp_path, caplog
):
    """The Maildir sender had written the welcome mails when the daemon died, before the
    outbox's commit: the next start finds them delivered, marks them sent, writes none again."""
    h = DaemonHarness(tmp_path, GAMES)
    daemon = Daemon(h.config_path, clock=h.clock)
    daemon.referee.sync()  # the welcomes queued
    rows = daemon.store.due_mail(h.clock())
    mails = [Outgoing(r.message_id, r.message, "gm@gm.test", [r.recipient]) for r in rows]
    assert asyncio.run(daemon.sender.send_all(mails)) == [None, None]  # ... and then the crash
    daemon.store.close()
    delivered = h._collect()
    assert h.run() == []
    assert "2 mails delivered before a restart but not marked sent" in caplog.text
    assert sorted(m["To"] for m in delivered) == ["anna@players.test", "bert@players.test"]
    _code, out = h.cli("status")
    assert "outbox: 2 sent" in out


def test_a_mail_whose_handling_raises_ends_its_group_but_the_group_before_it_is_kept(tmp_path):
    """Mails are committed a group at a time; an error outside a mail's own transaction (here
    after the second mail) ends the group, and what the group had done is committed, as one
    commit per mail would have left it."""
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    for guess in ("17", "18", "19"):
        h.send("anna@players.test", f"Code: ANNA-1111\n{guess}")
    daemon = Daemon(h.config_path, clock=h.clock)
    handle, seen = daemon.intake.handle, []

    def failing_after_two(row):
        verdict = handle(row)
        seen.append(row.id)
        if len(seen) == 2:
            raise RuntimeError("a bug after the mail's own commit")
        return verdict

    daemon.intake.handle = failing_after_two  # type: ignore[method-assign]

    async def scenario() -> None:
        await daemon.fetch_mail()
        await daemon._process_pending()  # the first mail alone, then a group

    try:
        with pytest.raises(RuntimeError, match="a bug"):
            asyncio.run(scenario())
    finally:
        asyncio.run(daemon.close())
    with contextlib.closing(sqlite3.connect(h.database)) as db:
        statuses = [r[0] for r in db.execute("SELECT status FROM inbox ORDER BY id")]
    assert statuses == ["done", "done", "new"]
    acks = h.run()  # the third is handled now; the first two are not answered again
    assert len(acks) == 3 and all(m["To"] == "anna@players.test" for m in acks)


def test_a_transaction_that_fails_inside_a_group_is_undone_alone(tmp_path):
    store = Store(tmp_path / "gm.sqlite")
    with store.group():
        for key in ("a", "b", "c"):
            with contextlib.suppress(ValueError), store.transaction():
                store.set_note(key, "written")
                if key == "b":
                    raise ValueError("this one fails")
    store.close()
    reopened = Store(tmp_path / "gm.sqlite")
    assert [reopened.note(key) for key in ("a", "b", "c")] == ["written", None, "written"]
    reopened.close()


def test_a_reload_of_a_config_it_cannot_read_keeps_the_running_one(tmp_path, caplog):
    """A config saved as Latin-1 (or one the service user cannot read) raised out of the
    reload and stopped the daemon; it is refused like any bad config, the old one kept."""
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    daemon = Daemon(h.config_path)
    try:
        running = daemon.config
        h.config_path.write_bytes(h.config_path.read_text(encoding="utf-8").encode("latin-1"))
        with caplog.at_level(logging.ERROR, logger="gm_daemon.daemon"):
            daemon.reload()
        assert "reload refused, keeping the running config" in caplog.text
        assert "not UTF-8 text: byte 0xe4" in caplog.text  # the ä of Bert Bär
        assert daemon.config is running
    finally:
        asyncio.run(daemon.close())


def _notes(path) -> list[str | None]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return [
            None if row is None else row[0]
            for row in (
                db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
                for key in ("a", "b", "c")
            )
        ]


@pytest.mark.parametrize("failure", [ValueError, KeyboardInterrupt])
def test_a_transaction_that_fails_in_a_group_without_savepoints_undoes_the_group(tmp_path, failure):
    """Without savepoints nothing of the group can be kept apart from the failing
    transaction: all of it is rolled back; an ``Exception`` becomes ``GroupUndone`` (which
    no ``except Exception`` on the way swallows), anything else goes on as itself, and no
    later transaction of that group writes anything."""
    store = Store(tmp_path / "gm.sqlite")
    raised = GroupUndone if issubclass(failure, Exception) else failure
    with pytest.raises(raised), store.group(steps=False):
        for key in ("a", "b", "c"):
            with contextlib.suppress(Exception), store.transaction():
                store.set_note(key, "written")
                if key == "b":
                    raise failure("this one fails")
    assert not store.db.in_transaction
    with store.transaction():  # the store is usable again, and commits on its own
        store.set_note("c", "after")
    store.close()
    assert _notes(tmp_path / "gm.sqlite") == [None, None, "after"]


def test_a_transaction_after_its_group_was_undone_is_refused(tmp_path):
    store = Store(tmp_path / "gm.sqlite")
    with pytest.raises(GroupUndone, match="after its group"), store.group(steps=False):
        try:
            with store.transaction():
                store.set_note("a", "written")
                raise ValueError("fails")
        except GroupUndone:
            pass  # someone catching it anyway: the next transaction is refused all the same
        with store.transaction():
            store.set_note("b", "written")
    store.close()
    assert _notes(tmp_path / "gm.sqlite") == [None, None, None]


def test_a_group_without_savepoints_commits_what_succeeded(tmp_path):
    """Nested transactions and an error outside any transaction: as with savepoints, what
    the group did is committed at its end."""
    store = Store(tmp_path / "gm.sqlite")
    with pytest.raises(RuntimeError, match="outside"), store.group(steps=False):
        with store.transaction(), store.transaction():
            store.set_note("a", "written")
        with store.transaction():
            store.set_note("b", "written")
        raise RuntimeError("a bug outside the mails' transactions")
    store.close()
    assert _notes(tmp_path / "gm.sqlite") == ["written", "written", None]


def test_a_mail_failing_in_a_group_is_set_aside_alone_and_the_others_answered_once(
    tmp_path, monkeypatch
):
    """A group is handled without savepoints; the fifth of six mails fails, so its group
    (the second to the sixth: the first chunk of a pass is one mail, the next is a group)
    is rolled back and done again, up to the failing mail, with a savepoint each: the
    failing one is set aside alone, every other mail answered once, and the sixth handled
    in the next group."""
    from gm_daemon import daemon as daemon_module
    from tests.core import guessgame

    monkeypatch.setattr(daemon_module, "GROUP_SECONDS", 3600.0)  # groups by count, not time
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    original, read = guessgame.GuessGame.read_orders, []

    def failing_on_99(self, lines, state, seat, lang, on_file=None):
        read.append(seat)
        if any("99" in str(line) for line in lines):
            raise RuntimeError("engine bug")
        return original(self, lines, state, seat, lang)

    monkeypatch.setattr(guessgame.GuessGame, "read_orders", failing_on_99)
    guesses = ("17", "18", "19", "20", "99", "21")
    for sender, guess in zip(("anna", "bert") * 3, guesses, strict=True):
        code = "ANNA-1111" if sender == "anna" else "BERT-2222"
        h.send(f"{sender}@players.test", f"Code: {code}\n{guess}")
    daemon = Daemon(h.config_path, clock=h.clock)
    statements: list[str] = []
    daemon.store.db.set_trace_callback(statements.append)
    try:
        asyncio.run(daemon.run_once())
    finally:
        asyncio.run(daemon.close())
    # mail 1 alone, 2 to 5 twice (the group done again), then 6
    assert len(read) == 10
    assert sum(sql == "SAVEPOINT step" for sql in statements) == 4 + 1  # 4 mails, 1 set aside
    with contextlib.closing(sqlite3.connect(h.database)) as db:
        statuses = [r[0] for r in db.execute("SELECT status FROM inbox ORDER BY id")]
        replies = db.execute(
            "SELECT purpose, recipient FROM outbox WHERE purpose != 'welcome' ORDER BY id"
        ).fetchall()
    assert statuses == ["done", "done", "done", "done", "shunted", "done"]
    accepted = [r[1].split("@")[0] for r in replies if r[0] == "accepted"]
    assert accepted == ["anna", "bert", "anna", "bert", "bert"]
    mails = h._collect()
    answered = [m["In-Reply-To"] for m in mails if m["In-Reply-To"]]
    assert len(answered) == len(set(answered)) == 6  # five acknowledgements, one error note
