"""ImapInbox: response parsing on its own, then the real thing against Dovecot on loopback."""

from __future__ import annotations

import asyncio
import itertools
import re
import socket
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest

from gm_daemon.mail.imap import (
    Backoff,
    ImapError,
    ImapInbox,
    ImapUnavailable,
    Security,
    encode_mailbox,
    parse_delimiter,
    parse_fetch,
    parse_namespace,
    parse_search,
    reap,
    server_mailbox,
)
from tests.mailstack import MailStack

T = TypeVar("T")
FAST = Backoff(first=0.01, factor=2, cap=0.05, attempts=3)


# --- parsing -------------------------------------------------------------------------------


def test_parse_search_shapes() -> None:
    assert parse_search([b"1 2 30", b"Search completed (0.001 + 0.000 secs)."]) == {1, 2, 30}
    assert parse_search([b"", b"Search completed."]) == set()
    assert parse_search([b"Search completed."]) == set()


def test_parse_fetch_uid_before_or_after_literal_and_flag_pushes() -> None:
    lines: list[bytes | bytearray] = [
        b"1 FETCH (UID 7 BODY[] {5}",
        bytearray(b"hello"),
        b")",
        b"2 FETCH (FLAGS (\\Seen) UID 8)",  # a push about flags: no body
        b"3 FETCH (BODY[] {3}",
        bytearray(b"abc"),
        b" UID 9)",
        b"Fetch completed (0.001 + 0.000 secs).",
    ]
    assert parse_fetch(lines) == {7: b"hello", 9: b"abc"}


def test_parse_fetch_drops_truncated_literal() -> None:
    assert parse_fetch([b"1 FETCH (UID 7 BODY[] {9}", bytearray(b"short"), b")", b"OK"]) == {}


# --- giving up on a helper task ----------------------------------------------------------


def test_a_caller_cancelled_while_it_reaps_a_helper_stays_cancelled() -> None:
    """A helper slow to end (aioimaplib closing a command down) must not swallow the
    cancellation of the task that waits for it: a daemon that is stopping stops."""

    async def scenario() -> tuple[bool, bool]:
        ending, release = asyncio.Event(), asyncio.Event()

        async def slow_to_end() -> None:
            try:
                await asyncio.Event().wait()
            finally:
                ending.set()
                await release.wait()

        helper = asyncio.ensure_future(slow_to_end())
        await asyncio.sleep(0)
        caller = asyncio.ensure_future(reap(helper))
        await ending.wait()  # the caller has cancelled the helper and waits for its end
        caller.cancel()
        release.set()
        await asyncio.wait({caller, helper})
        return caller.cancelled(), helper.cancelled()

    assert asyncio.run(scenario()) == (True, True)


async def _raises_when_cancelled() -> None:
    try:
        await asyncio.Event().wait()
    except asyncio.CancelledError:
        raise ConnectionResetError("socket gone while closing") from None


async def _ignores_nothing() -> None:
    await asyncio.Event().wait()


async def _failed_already() -> None:
    raise TimeoutError("no answer")


@pytest.mark.parametrize(
    ("helper", "outcome"),
    [
        (_ignores_nothing, "cancelled"),
        (_raises_when_cancelled, "ConnectionResetError"),
        (_failed_already, "TimeoutError"),
    ],
)
def test_reaping_a_helper_takes_whatever_it_ended_with(
    helper: Callable[[], Awaitable[None]], outcome: str
) -> None:
    async def scenario() -> str:
        task = asyncio.ensure_future(helper())
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        await reap(task)
        assert task.done()
        return "cancelled" if task.cancelled() else type(task.exception()).__name__

    assert asyncio.run(scenario()) == outcome


def test_bad_security_names_the_config_key() -> None:
    with pytest.raises(ValueError, match=r"mail\.imap\.security"):
        ImapInbox("localhost", 143, "ssl", "u", "p")  # type: ignore[arg-type]


def test_done_rejects_foreign_keys() -> None:
    inbox = ImapInbox("127.0.0.1", 1, "none", "u", "p")
    with pytest.raises(ValueError, match="not an IMAP key"):
        asyncio.run(inbox.done("maildir:123"))


def test_unreachable_server_gives_up_after_backoff() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound but not listening: connection refused
        inbox = ImapInbox("127.0.0.1", port, "none", "u", "p", backoff=FAST)
        start = time.monotonic()
        with pytest.raises(ImapUnavailable, match="after 3 attempts"):
            asyncio.run(inbox.fetch())
    assert time.monotonic() - start < 2


def test_a_long_outage_is_spaced_out_across_calls_and_never_blocks_one() -> None:
    """After a call gave up, later calls fail at once until the next attempt is due (the
    daemon's deadlines must not wait for the mailbox); each due attempt is one connection,
    and the delay grows up to the cap; wait() sleeps until the next attempt is due."""
    backoff = Backoff(first=0.05, factor=2, cap=0.4, attempts=2)
    connects: list[float] = []

    async def scenario(port: int) -> list[float]:
        async def refuse(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            connects.append(time.monotonic())
            writer.close()  # closed before the greeting: a server that is not there

        server = await asyncio.start_server(refuse, "127.0.0.1", port)
        inbox = ImapInbox("127.0.0.1", port, "none", "u", "p", backoff=backoff, idle=True)
        start = time.monotonic()
        with pytest.raises(ImapUnavailable, match="after 2 attempts"):
            await inbox.fetch()
        assert len(connects) == 2
        quick = time.monotonic()
        with pytest.raises(ImapUnavailable, match="next attempt in"):
            await inbox.fetch()  # within the back-off: no attempt, no waiting
        assert time.monotonic() - quick < 0.05 and len(connects) == 2
        for _round in range(4):
            await inbox.wait(5)  # returns when the next attempt is due, not after 5 s
            with pytest.raises(ImapUnavailable):
                await inbox.fetch()
        server.close()
        await server.wait_closed()
        await inbox.close()
        assert time.monotonic() - start < 3
        return [b - a for a, b in itertools.pairwise(connects)]

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    gaps = asyncio.run(scenario(port))
    assert len(gaps) == 5  # 2 attempts in the first call, then one per back-off step
    assert gaps[1] >= 0.09 and gaps[2] >= 0.19 and gaps[3] >= 0.39 and gaps[4] >= 0.39
    assert max(gaps) < 1.5


# --- against the real Dovecot --------------------------------------------------------------

PORTS = {"none": "imap_port", "starttls": "imap_port", "tls": "imaps_port"}


def _inbox(stack: MailStack, security: Security = "none", **kwargs: object) -> ImapInbox:
    port = getattr(stack, PORTS[security])
    options: dict[str, object] = {"ssl_context": stack.ssl_context(), "backoff": FAST, **kwargs}
    return ImapInbox(stack.host, port, security, stack.gm, stack.users[stack.gm], **options)  # type: ignore[arg-type]


def _mail(token: str) -> bytes:
    head = f"From: egon@players.test\r\nSubject: {token}\r\nMessage-ID: <{token}@t>\r\n"
    return f"{head}\r\nx\r\n".encode()


def _deliver(stack: MailStack, *tokens: str) -> None:
    """One by one, each waited for: Postfix delivers concurrently, so order is not kept."""
    count = len(stack.messages(stack.gm))
    for token in tokens:
        stack.deliver(stack.gm, _mail(token))
        count += 1
        assert len(stack.wait_for_messages(stack.gm, count)) == count


def _run(inbox: ImapInbox, scenario: Callable[[ImapInbox], Awaitable[T]]) -> T:
    async def wrapped() -> T:
        try:
            return await scenario(inbox)
        finally:
            await inbox.close()

    return asyncio.run(wrapped())


def _seen(stack: MailStack) -> dict[str, bool]:
    return {mid.decode(): "\\Seen" in flags for mid, flags in stack.flags(stack.gm)}


@pytest.mark.mailstack
@pytest.mark.parametrize("security", ["none", "starttls", "tls"])
def test_fetch_peeks_done_marks_seen(empty_mailstack: MailStack, security: Security) -> None:
    stack = empty_mailstack
    _deliver(stack, "one", "two")

    async def scenario(inbox: ImapInbox) -> None:
        first = await inbox.fetch()
        assert [m.data.split(b"Message-ID: ")[1][:7] for m in first] == [b"<one@t>", b"<two@t>"]
        assert all(m.key.startswith("imap:") for m in first)
        assert _seen(stack) == {"<one@t>": False, "<two@t>": False}
        await inbox.done(first[0].key)
        assert _seen(stack) == {"<one@t>": True, "<two@t>": False}
        assert [m.key for m in await inbox.fetch()] == [first[1].key]
        if security != "none":
            session = inbox._session
            assert session is not None
            assert session.client.protocol.transport.get_extra_info("ssl_object") is not None

    _run(_inbox(stack, security), scenario)


@pytest.mark.mailstack
def test_fetch_in_batches_keeps_uid_order(empty_mailstack: MailStack) -> None:
    stack = empty_mailstack
    tokens = [f"m{i}" for i in range(7)]
    _deliver(stack, *tokens)

    async def scenario(inbox: ImapInbox) -> list[bytes]:
        return [m.data for m in await inbox.fetch()]

    bodies = _run(_inbox(stack, batch=3), scenario)
    assert [b.split(b"Subject: ")[1].split(b"\r\n")[0].decode() for b in bodies] == tokens


@pytest.mark.mailstack
def test_done_ignores_keys_of_another_uidvalidity(empty_mailstack: MailStack) -> None:
    stack = empty_mailstack
    _deliver(stack, "keep")

    async def scenario(inbox: ImapInbox) -> None:
        (mail,) = await inbox.fetch()
        _, uidvalidity, uid = mail.key.split(":")
        await inbox.done(f"imap:{int(uidvalidity) + 1}:{uid}")
        assert _seen(stack) == {"<keep@t>": False}

    _run(_inbox(stack), scenario)


@pytest.mark.mailstack
def test_idle_wakes_wait_on_delivery(empty_mailstack: MailStack) -> None:
    stack = empty_mailstack

    async def scenario(inbox: ImapInbox) -> tuple[float, float]:
        assert await inbox.fetch() == []
        start = time.monotonic()
        await inbox.wait(0.5)  # nothing arrives: returns at the timeout
        quiet = time.monotonic() - start
        loop = asyncio.get_running_loop()
        loop.call_later(0.2, stack.deliver, stack.gm, _mail("ping"))
        start = time.monotonic()
        await inbox.wait(20)
        woken = time.monotonic() - start
        assert len(await inbox.fetch()) == 1
        return quiet, woken

    quiet, woken = _run(_inbox(stack), scenario)
    assert 0.45 <= quiet < 2
    assert woken < 5


@pytest.mark.mailstack
def test_wait_returns_at_once_for_mail_that_came_after_fetch(empty_mailstack: MailStack) -> None:
    stack = empty_mailstack

    async def scenario(inbox: ImapInbox) -> float:
        assert await inbox.fetch() == []
        await asyncio.to_thread(_deliver, stack, "between")
        start = time.monotonic()
        await inbox.wait(20)
        return time.monotonic() - start

    assert _run(_inbox(stack), scenario) < 1


@pytest.mark.mailstack
def test_cancelled_wait_leaves_a_usable_connection(empty_mailstack: MailStack) -> None:
    stack = empty_mailstack

    async def scenario(inbox: ImapInbox) -> float:
        await inbox.fetch()
        waiting = asyncio.ensure_future(inbox.wait(30))
        await asyncio.sleep(0.3)  # IDLE is running now
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        await asyncio.to_thread(_deliver, stack, "after-cancel")
        start = time.monotonic()
        assert len(await inbox.fetch()) == 1
        return time.monotonic() - start

    assert _run(_inbox(stack), scenario) < 2


@pytest.mark.mailstack
def test_reconnects_after_the_server_drops_the_connection(empty_mailstack: MailStack) -> None:
    stack = empty_mailstack
    _deliver(stack, "before")

    async def scenario(inbox: ImapInbox) -> None:
        (before,) = await inbox.fetch()
        stack.kick(stack.gm)
        await inbox.done(before.key)  # on a new connection
        assert _seen(stack) == {"<before@t>": True}
        waiting = asyncio.ensure_future(inbox.wait(30))
        await asyncio.sleep(0.3)
        stack.kick(stack.gm)  # while idling: wait() must return, not hang
        await asyncio.wait_for(waiting, 5)
        await asyncio.to_thread(_deliver, stack, "after")
        assert [m.data.count(b"<after@t>") for m in await inbox.fetch()] == [1]

    _run(_inbox(stack), scenario)


@pytest.mark.mailstack
def test_polling_without_idle(empty_mailstack: MailStack) -> None:
    async def scenario(inbox: ImapInbox) -> float:
        start = time.monotonic()
        await inbox.wait(5)
        return time.monotonic() - start

    assert 0.2 <= _run(_inbox(empty_mailstack, idle=False, poll_seconds=0.2), scenario) < 1


@pytest.mark.mailstack
def test_wrong_password_is_permanent_and_not_hammered(mailstack: MailStack) -> None:
    inbox = ImapInbox(
        mailstack.host, mailstack.imap_port, "none", mailstack.gm, "wrong", backoff=FAST
    )

    async def scenario(inbox: ImapInbox) -> float:
        with pytest.raises(ImapError, match=r"login .* refused"):
            await inbox.fetch()
        start = time.monotonic()
        with pytest.raises(ImapError):
            await inbox.fetch()  # remembered: no new login attempt within the back-off cap
        return time.monotonic() - start

    assert _run(inbox, scenario) < 0.05


@pytest.mark.mailstack
def test_missing_folder_is_permanent(mailstack: MailStack) -> None:
    async def scenario(inbox: ImapInbox) -> None:
        with pytest.raises(ImapError, match="cannot select"):
            await inbox.fetch()

    _run(_inbox(mailstack, folder="Nirgendwo"), scenario)


@pytest.mark.mailstack
def test_idle_is_renewed_and_still_wakes(
    empty_mailstack: MailStack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Servers drop an IDLE after 30 minutes; we re-issue it in time (here every 0.3 s)."""
    monkeypatch.setattr("gm_daemon.mail.imap.IDLE_RENEW_SECONDS", 0.3)
    stack = empty_mailstack
    idles: list[float] = []
    original = ImapInbox._idle_once

    async def counted(self: ImapInbox, session: object, seconds: float) -> bool:
        idles.append(seconds)
        return await original(self, session, seconds)  # type: ignore[arg-type]

    monkeypatch.setattr(ImapInbox, "_idle_once", counted)

    async def scenario(inbox: ImapInbox) -> tuple[float, float]:
        await inbox.fetch()
        start = time.monotonic()
        await inbox.wait(1.0)  # three or four IDLE commands, no mail
        quiet = time.monotonic() - start
        assert len(idles) >= 3 and max(idles) <= 0.3
        asyncio.get_running_loop().call_later(0.8, stack.deliver, stack.gm, _mail("late"))
        start = time.monotonic()
        await inbox.wait(20)
        return quiet, time.monotonic() - start

    quiet, woken = _run(_inbox(stack), scenario)
    assert 0.95 <= quiet < 2
    assert 0.8 <= woken < 5


# --- the processed folder ------------------------------------------------------------------


def test_folder_names_in_the_servers_terms() -> None:
    """Levels split by "/" in the config; the server's separator and personal prefix (RFC
    2342) on the wire, each level in modified UTF-7 (RFC 3501's own examples)."""
    assert server_mailbox("GM/erledigt", "", ".") == "GM.erledigt"
    assert server_mailbox("GM/erledigt", "", "/") == "GM/erledigt"
    assert server_mailbox("GM/erledigt", "INBOX.", ".") == "INBOX.GM.erledigt"
    assert server_mailbox("INBOX/erledigt", "INBOX.", ".") == "INBOX.erledigt"
    assert server_mailbox("Erledigte Züge", "", ".") == "Erledigte Z&APw-ge"
    assert encode_mailbox("~peter/mail/台北/日本語") == "~peter/mail/&U,BTFw-/&ZeVnLIqe-"
    assert encode_mailbox("A&B") == "A&-B"
    with pytest.raises(ImapError, match=r"separates folder levels with '\.'.*'v1\.2'"):
        server_mailbox("GM/v1.2", "", ".")
    with pytest.raises(ImapError, match="no folder levels"):
        server_mailbox("GM/erledigt", "", None)


def test_namespace_and_delimiter_answers() -> None:
    assert parse_namespace([b'(("INBOX." ".")) NIL NIL', b"Namespace completed."]) == (
        "INBOX.",
        ".",
    )
    assert parse_namespace([b'(("" "/")) NIL NIL', b"OK"]) == ("", "/")
    assert parse_namespace([b"NIL NIL NIL", b"OK"]) == ("", None)
    assert parse_delimiter([b'(\\Noselect) "." ""', b"List completed."]) == "."
    assert parse_delimiter([b'(\\Noselect) "\\\\" ""', b"OK"]) == "\\"
    assert parse_delimiter([b'(\\Noselect) NIL ""', b"OK"]) is None


def _folder(stack: MailStack, mailbox: str) -> dict[str, set[str]]:
    """Message-ID → flags of every mail in one of the GM's folders (server's name)."""
    with stack.imap(stack.gm) as imap:
        typ, _ = imap.select(f'"{mailbox}"', readonly=True)
        if typ != "OK":
            return {}
        typ, data = imap.uid("FETCH", "1:*", "(FLAGS BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
        found: dict[str, set[str]] = {}
        for item in data if typ == "OK" else []:
            if isinstance(item, tuple):
                flags = set(re.findall(r"\\\w+", item[0].decode())) - {"\\Recent"}
                found[item[1].split(b":", 1)[-1].strip().decode()] = flags
        return found


FALLBACKS = {  # the server's way, then each fallback (Dovecot has MOVE and UIDPLUS)
    "MOVE": (frozenset(), "GM/erledigt", "GM.erledigt"),
    "COPY + UID EXPUNGE": (frozenset({"MOVE"}), "GM/kopiert", "GM.kopiert"),
    "COPY + EXPUNGE": (frozenset({"MOVE", "UIDPLUS"}), "Erledigte Züge", "Erledigte Z&APw-ge"),
}


@pytest.mark.mailstack
@pytest.mark.parametrize("way", FALLBACKS)
def test_done_moves_to_the_processed_folder(empty_mailstack: MailStack, way: str) -> None:
    """Created when missing, the handled mail moved there read, the other left unread; a
    second done() of the same key (a retry after a lost answer) changes nothing."""
    stack = empty_mailstack
    ignore, folder, on_server = FALLBACKS[way]
    _deliver(stack, "handled", "waiting")

    async def scenario(inbox: ImapInbox) -> None:
        handled, _waiting = await inbox.fetch()
        await inbox.done(handled.key)
        await inbox.done(handled.key)
        assert [m.key for m in await inbox.fetch()] == [_waiting.key]

    inbox = _inbox(stack, processed_folder=folder, ignore_capabilities=ignore)
    _run(inbox, scenario)
    assert _seen(stack) == {"<waiting@t>": False}
    assert _folder(stack, on_server) == {"<handled@t>": {"\\Seen"}}
    with stack.imap(stack.gm) as imap:  # subscribed, so the GM's mail client shows it
        assert on_server.encode() in b" ".join(imap.lsub()[1])


@pytest.mark.mailstack
def test_a_processed_folder_deleted_meanwhile_is_made_again(empty_mailstack: MailStack) -> None:
    stack = empty_mailstack
    _deliver(stack, "first", "second")

    async def scenario(inbox: ImapInbox) -> None:
        first, second = await inbox.fetch()
        await inbox.done(first.key)
        with stack.imap(stack.gm) as imap:
            assert imap.delete('"GM.weg"')[0] == "OK"
        await inbox.done(second.key)  # TRYCREATE: created again, then moved

    _run(_inbox(stack, processed_folder="GM/weg"), scenario)
    assert _folder(stack, "GM.weg") == {"<second@t>": {"\\Seen"}}
    assert _seen(stack) == {}


@pytest.mark.mailstack
def test_a_refused_move_leaves_the_mail_read_in_place(
    empty_mailstack: MailStack, caplog: pytest.LogCaptureFixture
) -> None:
    """A name the server cannot take: logged with the key to fix; the mail is stored, so it
    stays where it is, read (as without processed_folder), never fetched again."""
    stack = empty_mailstack
    _deliver(stack, "stuck")

    async def scenario(inbox: ImapInbox) -> None:
        (stuck,) = await inbox.fetch()
        await inbox.done(stuck.key)
        assert await inbox.fetch() == []

    _run(_inbox(stack, processed_folder="GM/v1.2"), scenario)
    assert _seen(stack) == {"<stuck@t>": True}
    assert any(
        "cannot move handled mail" in r.message and "processed_folder" in r.message
        for r in caplog.records
    ), caplog.text
