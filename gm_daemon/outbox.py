"""Draining the outbox table: each queued mail is sent once, with retries and back-off.

A mail is marked sent right after the server accepted it. An SMTP outage only delays mail:
transient failures are retried for ever, with back-off capped at ``max_delay``; a permanent
refusal (5xx, bad address) is marked 'failed' and shown by ``gm-daemon status``.

A sender that takes batches (``BatchSender``, the Maildir) gets what is due a batch at a
time, and the batch is marked sent in one commit after the sender returned. A crash between
the two leaves delivered mails pending: the first drain after the start asks the sender
which of the mails pending at the start it has delivered (it names each by its
Message-ID) and marks those sent instead of sending them again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import NamedTuple, TypeGuard

from gm_daemon.mail.transport import BatchSender, Outgoing, Sender, SendError
from gm_daemon.store import OutboxRow, Store

log = logging.getLogger(__name__)

# Mails a batch sender gets at most at once: what the outbox holds in memory for one batch
BATCH_MAILS = 100


class Backoff(NamedTuple):
    first_delay: timedelta = timedelta(seconds=30)
    max_delay: timedelta = timedelta(hours=1)

    def delay(self, attempts: int) -> timedelta:
        """Delay after the ``attempts``-th failure: 30 s, 1 min, 2 min, … up to an hour."""
        doublings = min(max(0, attempts - 1), 30)  # a long outage must not overflow
        return min(self.first_delay * (2**doublings), self.max_delay)


_BACKOFF = Backoff()


class OutboxSender:
    def __init__(
        self,
        store: Store,
        sender: Sender,
        from_address: str,
        clock: Callable[[], datetime],
        backoff: Backoff = _BACKOFF,
    ):
        self.store = store
        self.sender = sender
        self.from_address = from_address
        self.clock = clock
        self.backoff = backoff
        self.stalled = False  # the last drain stopped at a transient failure
        self._draining: asyncio.Lock | None = None
        # mails pending at the start, which a crash may have left delivered but not marked
        self._unsure: dict[str, int] | None = None
        if _batches(sender):
            self._unsure = store.pending_keys()

    @property
    def batches(self) -> bool:
        """Whether the sender takes a batch at a time (``BatchSender``)."""
        return _batches(self.sender)

    async def drain(
        self,
        on_sent: Callable[[], None] | None = None,
        pace: Callable[[], Awaitable[None]] | None = None,
    ) -> int:
        """Send everything that is due; stop at the first transient failure (the server is
        probably down, the rest would fail too). Returns the number of mails sent; calls
        ``on_sent`` after each. A batch sender awaits ``pace`` after each batch before it
        looks for the next (``SendingMeanwhile``: larger batches during a burst). One drain
        at a time: two would send the same queued mail twice."""
        if self._draining is None:
            self._draining = asyncio.Lock()
        async with self._draining:
            self.stalled = False
            return await self._drain(on_sent or _nothing, pace)

    async def _drain(
        self, on_sent: Callable[[], None], pace: Callable[[], Awaitable[None]] | None = None
    ) -> int:
        if _batches(self.sender):
            return await self._drain_batches(on_sent, pace)
        sent = 0
        while rows := self.store.due_mail(self.clock()):
            for row in rows:
                try:
                    await self.sender.send(row.message, self.from_address, [row.recipient])
                except SendError as exc:
                    self._failed(row.id, row.attempts + 1, exc)
                    if not exc.permanent:
                        self.stalled = True
                        return sent
                    continue
                self.store.mark_sent(row.id, self.clock())
                sent += 1
                on_sent()
        return sent

    async def _drain_batches(
        self, on_sent: Callable[[], None], pace: Callable[[], Awaitable[None]] | None
    ) -> int:
        """As ``_drain``, a batch of due mails at a time: one delivery and one commit each.
        ``pace`` comes after a batch that took fewer than were due only: after a full one
        more are waiting already, and a pause would let the backlog grow (a burst's intake
        queues replies faster than one full batch per pause) until the end of the pass,
        which then waits for all of it."""
        sender = self.sender
        assert _batches(sender)
        await self._recognise_delivered(sender)
        sent = 0
        while rows := self.store.due_mail(self.clock(), BATCH_MAILS):
            mails = [
                Outgoing(r.message_id, r.message, self.from_address, [r.recipient]) for r in rows
            ]
            results = await sender.send_all(mails)
            delivered = [row.id for row, error in zip(rows, results, strict=True) if error is None]
            if delivered:
                self.store.mark_all_sent(delivered, self.clock())
                sent += len(delivered)
                on_sent()
            if self._failures(rows, results):
                return sent
            if pace is not None and len(rows) < BATCH_MAILS:
                await pace()
        return sent

    def _failures(self, rows: list[OutboxRow], results: list[SendError | None]) -> bool:
        """Record a batch's failures as ``_drain`` does, up to the first transient one (the
        mails after it were not tried); True when there was one."""
        for row, error in zip(rows, results, strict=True):
            if error is None:
                continue
            self._failed(row.id, row.attempts + 1, error)
            if not error.permanent:
                self.stalled = True
                return True
        return False

    async def _recognise_delivered(self, sender: BatchSender) -> None:
        """Once, before the first batch: the mails pending at the start that the sender has
        delivered (a crash came before their commit) are marked sent, not sent again."""
        unsure, self._unsure = self._unsure, None
        if not unsure:
            return
        found = await sender.delivered(list(unsure))
        if found:
            self.store.mark_all_sent([unsure[key] for key in found], self.clock())
            log.warning(
                "%d mail%s delivered before a restart but not marked sent: marked now",
                len(found),
                "" if len(found) == 1 else "s",
            )

    def _failed(self, outbox_id: int, attempts: int, exc: SendError) -> None:
        if exc.permanent:
            log.error("mail %d refused for good: %s", outbox_id, exc)
            self.store.mark_attempt_failed(outbox_id, str(exc), None)
            return
        retry_at = self.clock() + self.backoff.delay(attempts)
        log.warning(
            "mail %d not sent (attempt %d), retry at %s: %s",
            outbox_id,
            attempts,
            retry_at.isoformat(timespec="seconds"),
            exc,
        )
        self.store.mark_attempt_failed(outbox_id, str(exc), retry_at)


def _nothing() -> None:
    pass


def _batches(sender: Sender) -> TypeGuard[BatchSender]:
    return hasattr(sender, "send_all") and hasattr(sender, "delivered")
