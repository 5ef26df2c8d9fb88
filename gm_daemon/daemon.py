"""The daemon: where mail transports, the referee, the timers and the outbox meet.

Lifecycle as in a small server: ``startup`` (config, database, games) → the main loop (fetch
→ intake → due deadlines → outbox, then wait) → ``shutdown`` (one last outbox drain with a time
limit). Exit is a flag, not an exception. The wait ends at the earliest of: new mail (IDLE
push or poll), the next deadline, reminder or mail retry (one query each, whatever the number
of games), a signal, or a change another process committed to the database (the GM's CLI:
``resolve``, ``extend``, ``pause`` … take effect within a second). A held or waiting game has
no moment, so it never wakes the loop. SIGHUP re-reads the config (new games start, changed
deadlines and options apply); a bad new config is logged and the old one kept. systemd hears
READY, RELOADING, STOPPING and WATCHDOG.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import signal
import socket
import sqlite3
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from gm_daemon import __version__
from gm_daemon.config import Config, ConfigError, load_config
from gm_daemon.journal import changes_text, config_changes, games_text, transport_text
from gm_daemon.mail.message import Incoming, parse_incoming
from gm_daemon.mail.transport import Inbox, RawMail, Sender
from gm_daemon.meanwhile import SendingMeanwhile
from gm_daemon.outbox import OutboxSender
from gm_daemon.referee import Referee
from gm_daemon.reliability import CannotStore, DaemonLock, content_digest, report_failed_mail
from gm_daemon.safemode import INTAKE_OK
from gm_daemon.site.publish import SitePublisher
from gm_daemon.startup import (
    StartupProblem,
    open_store,
    open_transports,
    require_listening,
    require_passwords,
)
from gm_daemon.store import GroupUndone, InboxRow, from_iso, iso

if TYPE_CHECKING:
    from gm_daemon.intake import Intake
    from gm_daemon.mail.imap import ImapInbox
    from gm_daemon.mail.smtp import SmtpSender

log = logging.getLogger(__name__)

INTAKE_NOTE_EVERY = timedelta(minutes=1)
# Mails per step of a burst: fetched (one IMAP UID FETCH), stored (one transaction), marked
# done (one UID STORE) and answered before the next step, so replies leave during a burst.
# The first steps of a pass are small and grow: the first reply waits for one mail's work
# only (not for a whole chunk to be decoded and stored), later ones for throughput.
CHUNKS = (1, 10, 50)  # the last size repeats
FIRST_CHUNK = CHUNKS[0]
FETCH_CHUNK = CHUNKS[-1]
# Mails handled in one commit (``Store.group``) during a burst, at most, and the time after
# which a group is committed however few it holds: each waits for its group's commit. A
# fetched chunk is one group at ~0.3 ms a mail; each commit writes the pages every group
# changes to the log again (32 mails or 10 ms: ~120 commits and 3.6 log pages a mail for
# 1 000; now ~60 and 2.3). The sender's batches start at most every 50 ms (``BATCH_EVERY``),
# so a reply waits for its batch longer than for its group's commit.
GROUP_MAILS = 50
GROUP_SECONDS = 0.02
# How long LMTP's answering waits for the next mail of a burst before it ends its sending
# meanwhile (the replies already handled are on their way during the wait)
BURST_GAP = 0.05

Clock = Callable[[], datetime]
Pause = Callable[[], Awaitable[None]]
PRUNE_EVERY = timedelta(hours=1)


def utc_now() -> datetime:
    return datetime.now(UTC)


def sd_notify(state: str) -> None:
    """Tell systemd about our state; a no-op when not started by systemd (Type=notify)."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return
    if address.startswith("@"):
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(address)
        sock.sendall(state.encode())


def watchdog_interval() -> float | None:
    usec = os.environ.get("WATCHDOG_USEC")
    return int(usec) / 2_000_000 if usec and usec.isdigit() else None


def make_transports(config: Config) -> tuple[Inbox, Sender]:
    mail = config.mail
    if mail.transport == "maildir":
        from gm_daemon.mail.maildir import MaildirInbox, MaildirSender

        return MaildirInbox(mail.maildir.inbox), MaildirSender(mail.maildir.outbox)
    if mail.transport == "lmtp":
        from gm_daemon.mail.lmtp import LmtpInbox

        return LmtpInbox(mail.lmtp, mail.address, mail.domain), make_smtp_sender(config)
    return make_imap_inbox(config), make_smtp_sender(config)


def make_imap_inbox(config: Config) -> ImapInbox:
    """The production inbox; ``gm-daemon check --connect`` tries this very one."""
    from gm_daemon.mail.imap import ImapInbox

    imap = config.mail.imap
    assert imap is not None  # the config guarantees it for transport "imap"
    return ImapInbox(
        host=imap.host,
        port=imap.port,
        security=imap.security,
        username=imap.username,
        password=imap.password() or "",
        folder=imap.folder,
        idle=imap.idle,
        poll_seconds=imap.poll_seconds,
        ssl_context=_ssl_context(imap.ca_file),
        timeout=imap.timeout_seconds,
        idle_renew=imap.idle_renew_seconds,
        processed_folder=imap.processed_folder,
    )


def make_smtp_sender(config: Config) -> SmtpSender:
    """The production sender; ``gm-daemon check --connect`` tries this very one."""
    from gm_daemon.mail.smtp import SmtpSender

    smtp = config.mail.smtp
    assert smtp is not None  # the config guarantees it for transport "imap"
    return SmtpSender(
        host=smtp.host,
        port=smtp.port,
        security=smtp.security,
        username=smtp.username,
        password=smtp.password(),
        local_hostname=config.mail.domain,
        ssl_context=_ssl_context(smtp.ca_file),
    )


def _ssl_context(ca_file: Path | None):  # type: ignore[no-untyped-def]
    if ca_file is None:
        return None
    import ssl

    return ssl.create_default_context(cafile=str(ca_file))


class Daemon:
    def __init__(
        self,
        config_path: Path,
        clock: Clock = utc_now,
        transports: Callable[[Config], tuple[Inbox, Sender]] = make_transports,
    ):
        self.config_path = config_path
        self.clock = clock
        self._make_transports = transports
        self.config = load_config(config_path)
        require_passwords(self.config)
        self.store = open_store(self.config.daemon.database)
        self.referee = Referee(self.config, self.store, clock, config_path=config_path.absolute())
        self.inbox, self.sender = open_transports(transports, self.config)
        self.outbox = OutboxSender(self.store, self.sender, self.config.mail.address, clock)
        self.lock = DaemonLock(self.config.daemon.database)
        self.site = SitePublisher(self.store, clock)  # [site]: pages of games that changed
        self.should_exit = False
        self.stopped_by = "an error"  # or the signal's name, for the stop line
        self.cycles = 0  # passes of the loop, for tests that prove an idle daemon stays idle
        self._version = 0
        self._reload_requested = False
        self._wake: asyncio.Event | None = None
        self._next_prune: datetime | None = None
        self._intake_noted: datetime | None = None
        self._sending: SendingMeanwhile | None = None  # while a cycle takes mail in
        # stored mail is handled by one caller at a time: the cycle, or LMTP's answering
        self._handling = asyncio.Lock()
        self._delivered: asyncio.Event | None = None  # LMTP stored a mail
        self._answering: asyncio.Task[None] | None = None

    @functools.cached_property
    def intake(self) -> Intake:
        """Made, and its modules imported, on first use: ``run --once`` on an empty inbox
        never needs it; the service makes it at start (``run``), before the first mail."""
        from gm_daemon.intake import Intake

        return Intake(self.referee, self.store, self.clock)

    # --- one pass ----------------------------------------------------------------------
    async def cycle(self) -> None:
        """Everything that is due now: new mail in, deadlines, mail out. A mailbox outage
        must not hold up deadlines or the outbox, so fetching fails on its own. Replies go
        out while a burst is still being read (``SendingMeanwhile``)."""
        self.cycles += 1
        self._version = self.store.data_version()  # a commit by the CLI from now on wakes us
        sending = self._sending = SendingMeanwhile(self.outbox)
        try:
            async with sending:
                try:
                    await self.take_in_mail()
                except CannotStore as exc:
                    log.error("intake stopped: %s", exc)
                except Exception as exc:
                    log.error("fetching mail failed, the rest of the cycle goes on: %s", exc)
                else:
                    self._note_intake_ok()
                await self._process_pending()
        finally:
            self._sending = None
        self.referee.due()
        sent = sending.sent + await self.outbox.drain()
        if sent:
            log.info("sent %d mail%s", sent, "" if sent == 1 else "s")
        if report_failed_mail(self.store, self.referee.mailer):
            await self.outbox.drain()  # the GM's note goes out now, not at the next wake-up
        self.site.refresh(self.config)  # after the mail: never raises, never delays a reply
        self.prune_if_due()
        self.store.checkpoint()  # the next mail's commit does not pay for it

    async def take_in_mail(self) -> int:
        """New mail in, a chunk at a time (``CHUNKS``: 1, 10, then 50 mails each) until
        none is left: each chunk is fetched, stored, then answered while it is being marked
        done, before the next is fetched, so the first replies of a burst are in the outbox
        (and on their way, see ``SendingMeanwhile``) while the rest of it is still on the
        server; the first reply of a pass has left before anything more is read
        (``SendingMeanwhile.first_out``). From the second chunk on, the next one is read
        while this one is answered (``_mark_and_read_on``). Returns the number of mails
        stored."""
        stored, taken, step = 0, set[str](), 0
        ahead: Sequence[RawMail] | None = None  # the next chunk, read while answering
        while True:
            size = CHUNKS[min(step, len(CHUNKS) - 1)]
            fetched = ahead if ahead is not None else await self.inbox.fetch(limit=size)
            stored += self._store_all(fetched)  # stored first: only then marked done
            keys = [raw.key for raw in fetched]
            last = len(fetched) < size or taken.issuperset(keys)  # or no progress
            # the first chunk is marked after its reply left: that exchange is what the
            # player waits for, and the marking round trip would share the servers with it
            marking = None
            if step:
                following = None if last else CHUNKS[min(step + 1, len(CHUNKS) - 1)]
                marking = self._mark_and_read_on(keys, following)
            try:
                await self._process_pending(alone=not step)
                if not step and self._sending is not None:
                    await self._sending.first_out()
            finally:
                if marking is None:
                    await self.inbox.done_all(keys)
                else:
                    ahead = await marking
            if last:
                return stored
            taken.update(keys)
            step += 1

    def _mark_and_read_on(
        self, keys: list[str], size: int | None
    ) -> Awaitable[Sequence[RawMail] | None]:
        """Mark a stored chunk done, then fetch the next (``size`` mails; None: none), while
        the main thread answers the chunk: the inbox's file or network work runs beside
        intake's instead of between its chunks, where intake waited for it. Marked before
        the next is read, as before, so a fetch never sees a chunk again that was taken.
        An inbox that can do both in one step (``done_all_then_fetch``, found by name: the
        Maildir's one hand-over to its thread, begun at once) does."""
        both = getattr(self.inbox, "done_all_then_fetch", None)
        if both is not None and size is not None:
            return both(keys, size)  # a future: the thread is at work already
        return asyncio.ensure_future(self._mark_then_read(keys, size))

    async def _mark_then_read(self, keys: list[str], size: int | None) -> Sequence[RawMail] | None:
        await self.inbox.done_all(keys)
        return None if size is None else await self.inbox.fetch(limit=size)

    async def _process_pending(
        self,
        sending: SendingMeanwhile | None = None,
        between: Pause | None = None,
        *,
        alone: bool = True,
    ) -> None:
        """Intake of every stored mail not yet handled, each in a transaction of its own
        (as ``Intake.process_pending``), committed a group at a time (``Store.group``): the
        first mail alone (``alone``: the first of a pass or a burst), so its reply is not
        held up, then up to ``GROUP_MAILS`` mails or ``GROUP_SECONDS`` of work. A burst's
        later chunks start with a whole group: their first mail's reply waits for the
        sender's next batch anyway, and each commit writes the pages every group changes
        (the outbox's and inbox's last pages and index pages) to the log again. After
        each group the sender gets its turn, and
        ``between`` is awaited before the next (LMTP: until a burst's storing pauses). One
        caller at a time: a row must not be handled by the cycle and by LMTP's answering
        both."""
        sending = sending or self._sending
        async with self._handling:
            rows = self.store.unprocessed()
            first, size = 0, 1 if alone else GROUP_MAILS
            while first < len(rows):
                if first and between is not None:
                    await between()
                first += self._handle_group(rows[first : first + size])
                size = GROUP_MAILS
                if sending is not None:
                    sending.wake()
                await asyncio.sleep(0)  # a socket's data is read in one loop turn,
                await asyncio.sleep(0)  # the coroutine waiting for it resumes in the next

    def _handle_group(self, rows: Sequence[InboxRow]) -> int:
        """Handle mails in one commit until ``GROUP_SECONDS`` have passed; returns how many.
        The mails' transactions are no savepoints (``Store.group(steps=False)``): nearly
        every mail succeeds. When one fails, the group is rolled back whole and done again
        up to that mail with a savepoint each, where it fails alone, as it always did (the
        info lines of the mails before it are logged twice then)."""
        until = time.perf_counter() + GROUP_SECONDS
        handled = 0
        try:
            with self.store.group(steps=False):
                for row in rows:
                    handled += 1
                    self.intake.handle(row)
                    if time.perf_counter() >= until:
                        break
        except GroupUndone:
            with self.store.group():
                for row in rows[:handled]:
                    self.intake.handle(row)
        return handled

    # --- mail handed over by the MTA (transport "lmtp") --------------------------------
    async def _listen(self) -> None:
        """Start the inbox's listener, if it is one (LMTP): each mail it takes is stored
        before the MTA hears ``250``, and answered at once, not at the next loop pass."""
        listen = getattr(self.inbox, "listen", None)
        if listen is None:
            return
        try:
            await listen(self._take_delivered)
        except OSError as exc:  # the socket's directory, a port in use: the GM's to fix
            raise StartupProblem(f"mail.lmtp: cannot listen: {exc}") from exc
        self._delivered = asyncio.Event()
        self._answering = asyncio.ensure_future(self._answer_delivered())

    async def _more_delivered(self, gap: float) -> bool:
        """True (and cleared) when a mail was stored since the last look, or is within
        ``gap`` seconds: a burst keeps its sender, which keeps its SMTP exchange going."""
        assert self._delivered is not None
        if not self._delivered.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._delivered.wait(), gap)
        found = self._delivered.is_set()
        self._delivered.clear()
        return found

    def _take_delivered(self, mails: Sequence[bytes]) -> None:
        """Commit delivered mails to the inbox table in one transaction (raises when it
        cannot: the MTA hears 451 and delivers again); a copy already stored counts as
        stored."""
        from gm_daemon.mail.lmtp import lmtp_key

        self._store_all([RawMail(key=lmtp_key(data), data=data) for data in mails])
        assert self._delivered is not None
        # in the next loop turn: the MTA's connections write their 250s before intake
        # takes the loop to handle the mails
        asyncio.get_running_loop().call_soon(self._delivered.set)

    async def _answer_delivered(self) -> None:
        """Handle what the MTA delivered, as it comes: the first mail of a burst at once, the
        rest whenever the MTA pauses in handing it over (``_storing_paused``: its ``250``s
        come first), and the replies leave meanwhile (``SendingMeanwhile``).
        Once a burst is answered the loop is woken to look at its timers again (a phase the
        burst completed has a new deadline)."""
        assert self._delivered is not None
        while True:
            await self._delivered.wait()
            try:
                sending = SendingMeanwhile(self.outbox)
                async with sending:  # one sender for the whole burst
                    first = True
                    while await self._more_delivered(BURST_GAP):
                        await self._process_pending(sending, self._storing_paused, alone=first)
                        if first:  # as for IMAP: the first reply leaves before more is read
                            await sending.first_out()
                            first = False
                await self.outbox.drain()
            except Exception:
                log.exception("answering delivered mail failed; the next pass tries again")
            if not self._delivered.is_set() and self._wake is not None:
                self._wake.set()

    async def _storing_paused(self) -> None:
        """While the MTA is still handing a burst over, its ``250``s go first: handling waits
        for a pause in the storing (``LmtpInbox.quiet``, a few milliseconds, bounded)."""
        quiet = getattr(self.inbox, "quiet", None)
        if quiet is not None:
            await quiet()

    def _note_intake_ok(self) -> None:
        """Remember that the mailbox was read, for safe mode's intake-gap rule; a write per
        minute at most, not one per loop pass (the rule thinks in hours)."""
        now = self.clock()
        if self._intake_noted is None or now - self._intake_noted >= INTAKE_NOTE_EVERY:
            self.store.set_note(INTAKE_OK, iso(now))
            self._intake_noted = now

    def prune_if_due(self) -> bool:
        """Bodies of old mail out of the database, at most once an hour. The moment is kept
        in the database, so a cron-driven ``run --once`` prunes no more often; it is read
        once, so an idle pass costs no query for it."""
        now = self.clock()
        if self._next_prune is None:
            last = self.store.note("pruned_at")
            self._next_prune = from_iso(last) + PRUNE_EVERY if last else now
        if now < self._next_prune:
            return False
        sent, handled = self.store.prune_mail(now - self.config.daemon.keep_mail_for)
        self.store.set_note("pruned_at", iso(now))
        self._next_prune = now + PRUNE_EVERY
        if sent or handled:
            log.info("pruned the bodies of %d sent and %d handled mails", sent, handled)
        return True

    async def fetch_mail(self, limit: int | None = None) -> int:
        """Fetch (at most ``limit``) new mails, store them, then mark them done (``_keep``).
        Returns the number of mails stored."""
        return await self._keep(await self.inbox.fetch(limit=limit))

    async def _keep(self, fetched: Sequence[RawMail]) -> int:
        """Store first, then mark done: a crash in between only fetches a mail again, and
        the store recognises it (mailbox key; Message-ID with sender and content). Every
        mail is stored raw, however broken; one that cannot be stored (disk full, database
        read-only) stops the fetch and, with the rest of its chunk, stays unseen on the
        server, never acknowledged."""
        stored = self._store_all(fetched)
        await self.inbox.done_all([raw.key for raw in fetched])  # one round trip, not one each
        return stored

    def _store_all(self, fetched: Sequence[RawMail]) -> int:
        """The fetched mails not yet kept, in one transaction: one commit for a chunk
        instead of one per mail. On failure nothing of the chunk is kept (and nothing of it
        is marked done): the next fetch brings it all again."""
        decoded: dict[str, Incoming] = {}
        key = fetched[0].key if fetched else ""
        try:
            with self.store.transaction():
                fresh = self._decode_fresh(fetched)
                ids = [incoming.message_id for _, incoming in fresh if incoming.message_id]
                stored = self.store.stored_mails(ids)  # one look for the chunk, not one each
                for raw, incoming in fresh:
                    key = raw.key
                    if self._keep_one(raw, incoming, stored):
                        decoded[key] = incoming
        except sqlite3.Error as exc:
            if self.store.db.in_transaction:  # a failed COMMIT leaves it open
                self.store.db.execute("ROLLBACK")
            raise CannotStore(f"cannot store mail {key}, left unseen on the server: {exc}") from exc
        if decoded:  # (an empty fetch does not make the intake)
            self.intake.decoded.update(decoded)  # intake reads them in this cycle: decode once
        return len(decoded)

    def _decode_fresh(self, fetched: Sequence[RawMail]) -> list[tuple[RawMail, Incoming]]:
        """The fetched mails whose mailbox key is not stored yet, each decoded (the same key
        twice in one fetch: once)."""
        known = self.store.known_keys([raw.key for raw in fetched])
        fresh: list[tuple[RawMail, Incoming]] = []
        for raw in fetched:
            if raw.key not in known:
                known.add(raw.key)
                fresh.append((raw, parse_incoming(raw.data, self.config.mail.address)))
        return fresh

    def _keep_one(
        self, raw: RawMail, incoming: Incoming, stored: set[tuple[str, str | None, str | None]]
    ) -> bool:
        """Store one decoded mail unless it is the same mail again: the same Message-ID
        from the same sender with the same content among ``stored`` (``Store.stored_mails``
        of the chunk, to which it is added: twice in one fetch is kept once)."""
        digest = content_digest(incoming, raw.data)
        if incoming.message_id:
            same = (incoming.message_id, incoming.sender, digest)
            if same in stored:
                return False
            stored.add(same)
        return self.store.store_incoming(
            raw.key,
            incoming.message_id,
            incoming.sender,
            raw.data,
            self.clock(),
            digest,
            looked=True,
        )

    async def run_once(self) -> None:
        """For cron users and tests: sync games, do all due work, exit."""
        try:
            self.lock.acquire()
            self.store.release_held()
            self.referee.sync(warm=False)
            await self.cycle()
        finally:
            await self.close()

    # --- the service -------------------------------------------------------------------
    async def run(self) -> None:
        try:
            require_listening(self.config)  # run --once does not listen
            self.lock.acquire()  # before anything is fetched or sent
        except Exception:
            await self.close()
            raise
        self._wake = asyncio.Event()
        restore = self._install_signals()
        try:
            self.store.release_held()  # a resolution that failed is tried again after a fix
            self.referee.sync()
            self.intake  # noqa: B018 (made now, not while the first mail waits)
            await self._listen()
            sd_notify("READY=1\nSTATUS=running")
            self._log_start()
            while not self.should_exit:
                await self._guarded_cycle()
                if self.should_exit:
                    break
                await self._wait(self._timeout())
                if self._reload_requested:
                    self.reload()
        finally:
            sd_notify("STOPPING=1")
            restore()
            self._log_stop(*await self._shutdown())

    def _log_start(self) -> None:
        games, transport = games_text(self.config), transport_text(self.config)
        log.info(
            "gm-daemon running: version %s, config %s, %s; transport %s",
            __version__,
            self.config_path,
            games,
            transport,
            extra={
                "event": "start",
                "version": __version__,
                "config": str(self.config_path),
                "games": [game.id for game in self.config.games],
                "transport": self.config.mail.transport,
            },
        )

    def _log_stop(self, sent: int, left: int | None) -> None:
        log.info(
            "gm-daemon stopped by %s; outbox drained: %d mail%s sent, %s left",
            self.stopped_by,
            sent,
            "" if sent == 1 else "s",
            "an unknown number" if left is None else left,
            extra={"event": "stop", "signal": self.stopped_by, "sent": sent, "left": left},
        )

    async def _guarded_cycle(self) -> None:
        """A failing mail server must not stop the loop: log, wait, try again."""
        try:
            await self.cycle()
        except Exception:
            log.exception("cycle failed; retrying after a pause")
            await asyncio.sleep(5)
        sd_notify("WATCHDOG=1")

    def _timeout(self) -> float:
        now = self.clock()
        moments = [
            m for m in (self.referee.next_moment(), self.store.next_mail_attempt()) if m is not None
        ]
        timeout = 60.0
        if moments:
            timeout = min(timeout, max(0.0, (min(moments) - now).total_seconds()))
        interval = watchdog_interval()
        return min(timeout, interval) if interval else timeout

    async def _wait(self, timeout: float) -> None:
        """Until new mail (IDLE push or poll), a timer, a signal, or the timeout."""
        assert self._wake is not None
        if self._wake.is_set():
            self._wake.clear()
            return
        mail = asyncio.ensure_future(self.inbox.wait(timeout))
        woken = asyncio.ensure_future(self._wake.wait())
        changed = asyncio.ensure_future(self._database_changed())
        done, pending = await asyncio.wait(
            {mail, woken, changed}, timeout=timeout + 5, return_when=asyncio.FIRST_COMPLETED
        )
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for task in done:
            if task is mail and task.exception() is not None:
                log.warning("waiting for mail failed: %s", task.exception())
        self._wake.clear()

    async def _database_changed(self, every: float = 0.25) -> None:
        """Return when another process has committed to the database since the last cycle
        began. SQLite's ``data_version`` is a cheap counter read; a cycle runs only when it
        moved."""
        while self.store.data_version() == self._version:
            await asyncio.sleep(every)

    def request_exit(self, reason: str = "a request") -> None:
        self.should_exit = True
        self.stopped_by = reason
        if self._wake:
            self._wake.set()

    def request_reload(self) -> None:
        self._reload_requested = True
        if self._wake:
            self._wake.set()

    def reload(self) -> None:
        self._reload_requested = False
        sd_notify("RELOADING=1")
        try:
            config = load_config(self.config_path)
        except ConfigError as exc:
            log.error("reload refused, keeping the running config: %s", exc)
        else:
            if config.daemon.database != self.config.daemon.database:
                log.error("reload: [daemon] database cannot change while running; ignored")
                config.daemon.database = self.config.daemon.database
            changes = config_changes(self.config, config)
            self.config = config
            self.referee.reconfigure(config)
            started = self.referee.sync()
            log.info(
                "config reloaded: %s; games started: %s",
                changes_text(changes),
                ", ".join(started) or "none",
                extra={"event": "reload", **changes, "started": started},
            )
        sd_notify("READY=1")

    def _install_signals(self) -> Callable[[], None]:
        loop = asyncio.get_running_loop()
        handlers = {
            signal.SIGTERM: functools.partial(self.request_exit, "SIGTERM"),
            signal.SIGINT: functools.partial(self.request_exit, "SIGINT"),
            signal.SIGHUP: self.request_reload,
        }
        for signum, handler in handlers.items():
            loop.add_signal_handler(signum, handler)

        def restore() -> None:
            for signum in handlers:
                loop.remove_signal_handler(signum)

        return restore

    async def _shutdown(self) -> tuple[int, int | None]:
        """The last drain; returns the mails it sent and those left in the outbox (None
        when the database cannot say: it may be what stopped the daemon)."""
        sent, left = 0, None
        try:
            sent = await asyncio.wait_for(self.outbox.drain(), timeout=10)
        except Exception as exc:  # a final drain is a courtesy; the outbox keeps the rest
            log.warning("final outbox drain incomplete: %s", exc)
        try:
            left = self.store.outbox_counts().get("pending", 0)
        except sqlite3.Error as exc:
            log.warning("cannot count the mails left in the outbox: %s", exc)
        await self.close()
        return sent, left

    async def close(self) -> None:
        # Cancelled until it is done: Python 3.11's wait_for (in _more_delivered) can swallow
        # a cancellation that meets its timeout, and one cancel then leaves close() waiting
        # for ever (seen once in a full test run).
        while self._answering is not None and not self._answering.done():
            self._answering.cancel()
            await asyncio.wait({self._answering}, timeout=1)
        if self._answering is not None and not self._answering.cancelled():
            self._answering.exception()  # retrieved: a failure was logged where it happened
        for part in (self.inbox, self.sender):
            try:
                await part.close()
            except Exception as exc:
                log.warning("closing %s: %s", type(part).__name__, exc)
        self.store.close()
        self.lock.release()
