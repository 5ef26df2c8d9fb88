"""A burst of mail is taken in chunks, and replies leave while the rest is still being read.

No clock and no timing: an in-memory inbox and sender record what happens, in order, and the
test looks at that order (the first acknowledgement goes out before the burst's last mail is
fetched), and at what a crash-free run must give anyway (every mail answered once).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from email.message import EmailMessage

from gm_daemon import meanwhile, outbox
from gm_daemon.daemon import CHUNKS, Daemon
from gm_daemon.mail.transport import Outgoing, RawMail, SendError
from gm_daemon.texts import Text
from tests.core.test_daemon_flow import GAMES
from tests.daemon_harness import DaemonHarness

BURST = sum(CHUNKS) + 7  # every chunk size once, then a short last chunk


class MemoryInbox:
    """Mail waiting on a pretend server, oldest first; every fetch is recorded."""

    def __init__(self, mails: list[RawMail], events: list[tuple[str, object]]):
        self.mails = mails
        self.events = events
        self.marked: set[str] = set()

    async def fetch(self, limit: int | None = None) -> Sequence[RawMail]:
        waiting = [mail for mail in self.mails if mail.key not in self.marked]
        chosen = waiting if limit is None else waiting[:limit]
        self.events.append(("fetch", [mail.key for mail in chosen]))
        await asyncio.sleep(0)
        return chosen

    async def done(self, key: str) -> None:
        self.marked.add(key)

    async def done_all(self, keys: Sequence[str]) -> None:
        self.marked.update(keys)
        await asyncio.sleep(0)

    async def wait(self, timeout: float) -> None:
        await asyncio.sleep(0)

    async def close(self) -> None:
        pass


class RecordingSender:
    """``turns``: loop turns a send takes, as an SMTP exchange's round trips do; ``pause``:
    seconds the first send takes besides (a server slow to answer)."""

    def __init__(self, events: list[tuple[str, object]], turns: int = 1, pause: float = 0):
        self.events = events
        self.turns = turns
        self.pause = pause

    async def send(self, message: bytes, sender: str, recipients: Sequence[str]) -> None:
        for _ in range(self.turns):
            await asyncio.sleep(0)
        await asyncio.sleep(self.pause)
        self.pause = 0
        self.events.append(("sent", message))

    async def close(self) -> None:
        pass


def _order(number: int) -> RawMail:
    message = EmailMessage()
    message["From"] = "anna@players.test"
    message["To"] = "gm@gm.test"
    message["Subject"] = f"[g1] orders {number}"
    message["Message-ID"] = f"<burst-{number}@players.test>"
    message.set_content(f"Code: ANNA-1111\n{number % 90 + 1}")
    return RawMail(key=f"memory:{number:04d}", data=bytes(message))


def test_the_first_acknowledgement_leaves_before_the_last_mail_of_a_burst_is_read(tmp_path):
    h = DaemonHarness(tmp_path, GAMES)
    h.run()  # the game starts; its welcome mails go out here, not in the burst
    events: list[tuple[str, object]] = []
    inbox = MemoryInbox([_order(n) for n in range(BURST)], events)
    sender = RecordingSender(events)
    daemon = Daemon(h.config_path, clock=h.clock, transports=lambda config: (inbox, sender))
    asyncio.run(daemon.run_once())

    fetches = [i for i, (kind, keys) in enumerate(events) if kind == "fetch" and keys]
    sends = [i for i, (kind, _) in enumerate(events) if kind == "sent"]
    last_mail = next(i for i in fetches if inbox.mails[-1].key in events[i][1])  # type: ignore[operator]
    assert [len(events[i][1]) for i in fetches] == [*CHUNKS, 7]  # type: ignore[arg-type]
    assert sends and sends[0] < fetches[1] < last_mail  # answering began with the first chunk
    assert len(sends) == BURST  # each mail answered, once
    assert all(b"accepted" in message for _, message in (events[i] for i in sends))  # type: ignore[operator]
    assert inbox.marked == {mail.key for mail in inbox.mails}


def test_a_burst_answered_in_chunks_is_answered_as_one_mail_at_a_time_would_be(tmp_path):
    """Chunks change when replies leave, not what they say or to whom."""
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    for number in range(BURST):
        h.send_raw(_order(number).data)
    replies = h.run()
    assert len(replies) == BURST
    assert [m["In-Reply-To"] for m in replies] == [
        f"<burst-{n}@players.test>" for n in range(BURST)
    ]
    assert all("accepted" in str(m["Subject"]) for m in replies)


def _burst_with(
    tmp_path, sender_turns: int, backlog: int = 0, pause: float = 0
) -> tuple[list, MemoryInbox]:
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    daemon = Daemon(h.config_path, clock=h.clock)
    with daemon.store.transaction():  # older mail still waiting to go out (a server was down)
        for number in range(backlog):
            text = Text(f"note {number}", "backlog\n")
            daemon.referee.mailer.queue(None, "gm-notice", "gm@club.test", text)
    asyncio.run(daemon.close())
    events: list[tuple[str, object]] = []
    inbox = MemoryInbox([_order(n) for n in range(BURST)], events)
    sender = RecordingSender(events, turns=sender_turns, pause=pause)
    daemon = Daemon(h.config_path, clock=h.clock, transports=lambda config: (inbox, sender))
    asyncio.run(daemon.run_once())
    return events, inbox


def test_the_first_reply_leaves_before_the_second_chunk_is_read_however_slow_the_server(
    tmp_path,
):
    """An SMTP exchange is several round trips; each waited behind the decoding of the next
    chunk (one mail at a time, between loop turns), so the first player waited for ten
    mails' work. Now intake waits for the first reply to leave before it reads on."""
    events, _ = _burst_with(tmp_path, sender_turns=50)
    fetches = [i for i, (kind, keys) in enumerate(events) if kind == "fetch" and keys]
    sends = [i for i, (kind, _) in enumerate(events) if kind == "sent"]
    assert sends[0] < fetches[1]
    assert len(sends) == BURST


def test_a_backlog_of_mail_to_send_does_not_hold_up_reading(tmp_path):
    """Intake waits for one mail to leave, not for the whole outbox."""
    events, inbox = _burst_with(tmp_path, sender_turns=50, backlog=40)
    fetches = [i for i, (kind, keys) in enumerate(events) if kind == "fetch" and keys]
    sends = [i for i, (kind, _) in enumerate(events) if kind == "sent"]
    assert sends[0] < fetches[1] < sends[10]  # read on after the first, not after forty
    assert len(sends) == BURST + 40  # every acknowledgement and every old mail, once
    assert inbox.marked == {mail.key for mail in inbox.mails}


def test_a_slow_server_holds_up_reading_only_for_the_first_out_wait(tmp_path, monkeypatch):
    """Intake waits for the first reply at most ``FIRST_OUT_WAIT``, then reads on; the reply
    still leaves, once. (Timers, not timing: the wait's timer runs out before the send's.)"""
    monkeypatch.setattr(meanwhile, "FIRST_OUT_WAIT", 0.01)
    events, inbox = _burst_with(tmp_path, sender_turns=1, pause=0.2)
    fetches = [i for i, (kind, keys) in enumerate(events) if kind == "fetch" and keys]
    sends = [i for i, (kind, _) in enumerate(events) if kind == "sent"]
    assert fetches[1] < sends[0]  # read on before the first reply had left
    assert len(sends) == BURST
    assert inbox.marked == {mail.key for mail in inbox.mails}


class RecordingBatchSender(RecordingSender):
    """A sender that takes batches, as the Maildir does; each batch is recorded."""

    async def send_all(self, mails: Sequence[Outgoing]) -> list[SendError | None]:
        self.events.append(("batch", [mail.message for mail in mails]))
        await asyncio.sleep(0)
        return [None] * len(mails)

    async def delivered(self, keys: Sequence[str]) -> set[str]:
        return set()


def test_a_batch_sender_gets_a_burst_s_replies_in_few_batches(tmp_path, monkeypatch):
    """Between two batches of a pass the sender waits ``BATCH_EVERY`` (here longer than any
    test: a timer, not timing): the first reply leaves at once, alone; the rest wait, and
    leave together as soon as the pass has read the burst, not when the timer ends."""
    monkeypatch.setattr(meanwhile, "BATCH_EVERY", 3600.0)
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    events: list[tuple[str, object]] = []
    inbox = MemoryInbox([_order(n) for n in range(BURST)], events)
    sender = RecordingBatchSender(events)
    daemon = Daemon(h.config_path, clock=h.clock, transports=lambda config: (inbox, sender))
    asyncio.run(asyncio.wait_for(daemon.run_once(), 60))

    batches = [mails for kind, mails in events if kind == "batch"]
    fetches = [i for i, (kind, keys) in enumerate(events) if kind == "fetch" and keys]
    first = next(i for i, (kind, _) in enumerate(events) if kind == "batch")
    assert first < fetches[1]  # the first reply left before the second chunk was read
    assert [len(batch) for batch in batches] == [1, BURST - 1]  # type: ignore[arg-type]
    assert all(b"accepted" in message for batch in batches for message in batch)  # type: ignore[attr-defined]
    assert inbox.marked == {mail.key for mail in inbox.mails}


def _run_with_groups_recorded(
    tmp_path, events: list[tuple[str, object]], inbox: MemoryInbox, sender: RecordingSender
) -> None:
    """``run_once`` on a started game with each group's handling noted among the transports'
    events, so a test can see what happened between two groups."""
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    daemon = Daemon(h.config_path, clock=h.clock, transports=lambda config: (inbox, sender))
    handle_group = daemon._handle_group

    def recorded(rows):  # type: ignore[no-untyped-def]
        events.append(("group", len(rows)))
        return handle_group(rows)

    daemon._handle_group = recorded  # type: ignore[method-assign]
    asyncio.run(asyncio.wait_for(daemon.run_once(), 60))


def test_a_full_batch_is_followed_by_the_next_without_a_pause(tmp_path, monkeypatch):
    """A batch that took as many mails as a batch may hold leaves more waiting: the next
    starts at once, however long the pause between batches (a timer, not timing), so the
    sender keeps up with intake instead of leaving its backlog to the end of the pass."""
    monkeypatch.setattr(meanwhile, "BATCH_EVERY", 3600.0)
    monkeypatch.setattr(outbox, "BATCH_MAILS", 1)  # every batch full, the first reply's too
    events: list[tuple[str, object]] = []
    inbox = MemoryInbox([_order(n) for n in range(BURST)], events)
    _run_with_groups_recorded(tmp_path, events, inbox, RecordingBatchSender(events))

    batches = [i for i, (kind, _) in enumerate(events) if kind == "batch"]
    groups = [i for i, (kind, _) in enumerate(events) if kind == "group"]
    assert batches[0] < batches[1] < groups[-1]  # the second batch left during the burst
    sizes = [len(events[i][1]) for i in batches]  # type: ignore[arg-type]
    assert sizes == [1] * BURST
    assert inbox.marked == {mail.key for mail in inbox.mails}


class ReadAheadInbox(MemoryInbox):
    """Marks a chunk done and reads the next in one call that is at work when it returns
    (``done_all_then_fetch``, as the Maildir's hand-over to its thread)."""

    def done_all_then_fetch(self, keys: Sequence[str], limit: int) -> asyncio.Future[list[RawMail]]:
        self.events.append(("read ahead", list(keys)))
        self.marked.update(keys)
        chosen = [mail for mail in self.mails if mail.key not in self.marked][:limit]
        self.events.append(("fetch", [mail.key for mail in chosen]))
        future = asyncio.get_running_loop().create_future()
        future.set_result(chosen)
        return future


def test_the_next_chunk_is_handed_over_before_this_one_is_answered(tmp_path):
    """With an inbox that marks and reads in one call, the read-ahead is asked for before
    the chunk's first group is handled, not at the first pause after it: the inbox's thread
    reads while intake works, and intake does not wait for it at the chunk's end."""
    events: list[tuple[str, object]] = []
    inbox = ReadAheadInbox([_order(n) for n in range(BURST)], events)
    _run_with_groups_recorded(tmp_path, events, inbox, RecordingSender(events))

    kinds = [kind for kind, _ in events if kind in ("fetch", "read ahead", "group")]
    second = kinds.index("fetch", kinds.index("fetch") + 1)  # the second chunk's own fetch
    assert kinds[second + 1] == "read ahead"  # before the second chunk's first group
    assert len([kind for kind, _ in events if kind == "sent"]) == BURST
    assert inbox.marked == {mail.key for mail in inbox.mails}
