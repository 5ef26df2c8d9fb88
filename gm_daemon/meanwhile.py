"""Sending while mail is being read: a burst's first replies leave before its last mail is in.

Intake commits each mail with its reply, then wakes the sender; the sender drains the outbox
(one drain at a time, ``OutboxSender``) whenever it was woken. It stops at the first transient
failure: the server is probably down, and the cycle's own drain after intake tries again and
reports, as it always did.

A sender that takes batches (the Maildir: one query, one flush of all files, one commit per
batch, whatever its size) starts a batch at most every ``BATCH_EVERY`` during a burst:
draining while intake commits a group every few milliseconds, it would write a handful of
replies at a time and pay each batch's cost a hundred times a burst. The first reply of a
pass still leaves at once, a full batch (``outbox.BATCH_MAILS``) is followed by the next at
once (more are waiting), and the end of the pass (the cycle's own drain) does not wait.
"""

from __future__ import annotations

import asyncio
import logging

from gm_daemon.outbox import OutboxSender

log = logging.getLogger(__name__)

# How long intake waits for the first reply of a pass to leave before it reads on (see
# ``first_out``): longer than a healthy SMTP exchange, short enough that a hanging server
# costs a burst little.
FIRST_OUT_WAIT = 2.0
# The least time between the starts of two drains of a batch sender during a pass: a reply
# waits this much longer at most, for batches several times larger
BATCH_EVERY = 0.05


class SendingMeanwhile:
    def __init__(self, outbox: OutboxSender) -> None:
        self.outbox = outbox
        self.sent = 0
        self._woken = asyncio.Event()
        self._progress = asyncio.Event()  # a mail left, or the sender has nothing to do
        self._finished = False
        self._task: asyncio.Task[None] | None = None
        self._spaced = outbox.batches  # batches at most every BATCH_EVERY
        self._resume = asyncio.Event()  # a pause between drains is over
        self._last_batch = 0.0  # when the last batch began (the loop's clock)

    async def __aenter__(self) -> SendingMeanwhile:
        self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._finished = True
        self._resume.set()
        self._woken.set()
        assert self._task is not None
        try:
            await self._task
        except Exception as error:  # the cycle's own drain meets it again, and reports
            log.warning("sending while taking mail in failed: %s", error)

    def wake(self) -> None:
        """Intake committed a reply."""
        self._progress.clear()
        self._woken.set()

    async def first_out(self) -> None:
        """Wait until a mail has left since the last ``wake`` (or the sender has nothing
        left, or has stopped). Intake calls it once, after the first mail of a pass: the
        player who sent it is answered within one SMTP exchange instead of waiting behind
        the decoding of the next chunk, whose CPU work would hold up every step of that
        exchange. One mail, not the whole drain: a backlog of results must not stall
        intake."""
        if self._task is None or self._task.done() or self._progress.is_set():
            return
        try:
            await asyncio.wait_for(self._progress.wait(), FIRST_OUT_WAIT)
        except TimeoutError:
            log.info("the first reply has not left after %.0f s; reading on", FIRST_OUT_WAIT)

    async def _run(self) -> None:
        try:
            while True:
                if not self._woken.is_set():
                    self._progress.set()  # nothing to do
                await self._woken.wait()
                self._woken.clear()
                if self._finished:
                    return
                self._last_batch = asyncio.get_running_loop().time()
                pace = self._pause if self._spaced else None
                self.sent += await self.outbox.drain(on_sent=self._progress.set, pace=pace)
                if self.outbox.stalled:
                    return
        finally:
            self._progress.set()

    async def _pause(self) -> None:
        """After a batch: until ``BATCH_EVERY`` after it began, or the pass ends; the
        replies of the groups handled meanwhile go out in the next batch together."""
        loop = asyncio.get_running_loop()
        delay = self._last_batch + BATCH_EVERY - loop.time()
        if delay > 0 and not self._finished:
            self._resume.clear()
            timer = loop.call_later(delay, self._resume.set)
            try:
                await self._resume.wait()
            finally:
                timer.cancel()
        self._last_batch = loop.time()
