"""The two interfaces the daemon talks to, whatever carries the mail.

Intake is at-least-once from the mailbox: the daemon stores a ``RawMail`` in its database
(deduplicated by ``key`` and Message-ID) and only then calls ``Inbox.done(key)``, so a crash
in between fetches the mail again and the store drops the duplicate.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol


class RawMail(NamedTuple):
    """A message as fetched. ``key`` is unique per mailbox and stable across restarts:
    ``imap:<UIDVALIDITY>:<UID>`` or ``maildir:<unique name>``."""

    key: str
    data: bytes


class Inbox(Protocol):
    async def fetch(self, limit: int | None = None) -> Sequence[RawMail]:
        """Every message not yet marked done (fetched without setting \\Seen), oldest first;
        only the first ``limit`` of them when given (a burst is taken in steps)."""
        ...

    async def done(self, key: str) -> None:
        """Mark a stored message as processed (\\Seen, and moved to the processed folder when
        one is set / moved to cur/), never to fetch again."""
        ...

    async def done_all(self, keys: Sequence[str]) -> None:
        """``done`` for many stored messages at once: one round trip (one IMAP UID STORE)
        instead of one per mail, which in a burst costs more than reading the mail."""
        ...

    async def wait(self, timeout: float) -> None:
        """Return when new mail may have arrived (IMAP IDLE push) or after ``timeout``."""
        ...

    async def close(self) -> None: ...


class SendError(Exception):
    """A send that failed. ``permanent`` (5xx, bad address) is not retried."""

    def __init__(self, message: str, *, permanent: bool = False):
        super().__init__(message)
        self.permanent = permanent


class Sender(Protocol):
    async def send(self, message: bytes, sender: str, recipients: Sequence[str]) -> None:
        """Deliver one message, exactly these bytes (as the outbox stored them: CRLF line
        ends, 7-bit headers), or raise SendError. A mail is built once; no sender parses or
        serialises it again."""
        ...

    async def close(self) -> None: ...


class Outgoing(NamedTuple):
    """One mail of a batch for a ``BatchSender``. ``key`` (the outbox's Message-ID) names it
    for good, so the sender can tell after a crash whether it was delivered."""

    key: str
    message: bytes
    sender: str
    recipients: Sequence[str]


class BatchSender(Sender, Protocol):
    """A sender that delivers a batch for much less than one mail at a time (Maildir: one
    wait for the disk per batch, not one per file), and recognises what it delivered. The
    outbox uses these methods when a sender has them (found by name), ``send`` otherwise."""

    async def send_all(self, mails: Sequence[Outgoing]) -> list[SendError | None]:
        """Deliver the mails in their order: for each, None (delivered) or its error. After
        a transient error the sender may stop: the mails it did not try get that error too.
        A mail whose key was delivered before counts as delivered, not delivered again."""
        ...

    async def delivered(self, keys: Sequence[str]) -> set[str]:
        """The keys among ``keys`` whose mail this sender has delivered: a crash between the
        delivery and the outbox's "sent" commit leaves such mails pending."""
        ...
