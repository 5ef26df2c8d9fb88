"""The sender's two questions to the outbox, a batch at a time: which mails are due
(``due_mail``: the first ``limit`` pending ones whose moment has come, in the order they were
queued) and which it delivered (``mark_all_sent``: those and no others, in one statement).
Each case is an outbox of mails queued, retried later, failed and sent in between, and the
answer is worked out here from the rows as queued."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from gm_daemon.store import Store

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Queued:
    """A mail as queued, then what became of it before the sender asks."""

    late: int = 0  # minutes after NOW its next attempt is (negative: due since)
    fate: str = "pending"  # or "sent", "failed"


CASES = {
    "empty": [],
    "all due": [Queued(-1)] * 5,
    "none due yet": [Queued(5)] * 4,
    "retries later between due ones": [Queued(-3), Queued(10), Queued(0), Queued(1), Queued(-2)],
    "sent and failed between": [
        Queued(-1, "sent"), Queued(-1), Queued(-1, "failed"), Queued(0), Queued(-5, "sent"),
        Queued(-1),
    ],
    "more than a batch": [Queued(-1 if n % 3 else 2, "sent" if n % 7 == 0 else "pending")
                          for n in range(23)],
}  # fmt: skip


def _outbox(tmp_path: Path, queued: list[Queued]) -> tuple[Store, list[int]]:
    """The outbox of ``queued``: each mail's id, in the order queued."""
    store = Store(tmp_path / "gm.sqlite")
    ids = []
    with store.transaction():
        for n, mail in enumerate(queued):
            store.enqueue("g1", "accepted", f"p{n}@players.test", f"<m{n}@gm.test>", b"x" * n, NOW)
            row_id = store.db.execute("SELECT max(id) FROM outbox").fetchone()[0]
            ids.append(row_id)
            if mail.fate == "sent":
                store.mark_sent(row_id, NOW)
            elif mail.fate == "failed":
                store.mark_attempt_failed(row_id, "refused", None)
            elif mail.late:
                store.mark_attempt_failed(row_id, "try later", NOW + timedelta(minutes=mail.late))
    return store, ids


def _due(queued: list[Queued], ids: list[int]) -> list[int]:
    return [i for i, q in zip(ids, queued, strict=True) if q.fate == "pending" and q.late <= 0]


@pytest.mark.parametrize("limit", [1, 2, 3, 100])
@pytest.mark.parametrize("case", CASES)
def test_due_mail_is_the_first_due_in_the_order_queued(tmp_path, case: str, limit: int) -> None:
    queued = CASES[case]
    store, ids = _outbox(tmp_path, queued)
    try:
        rows = store.due_mail(NOW, limit)
    finally:
        store.close()
    assert [r.id for r in rows] == _due(queued, ids)[:limit]
    for row in rows:
        n = ids.index(row.id)
        assert (row.recipient, row.message, row.message_id) == (
            f"p{n}@players.test",
            b"x" * n,
            f"<m{n}@gm.test>",
        )
        assert row.attempts == (1 if queued[n].late else 0)


@pytest.mark.parametrize("case", CASES)
def test_mark_all_sent_marks_those_delivered_and_no_others(tmp_path, case: str) -> None:
    queued = CASES[case]
    store, ids = _outbox(tmp_path, queued)
    try:
        before = {r["id"]: dict(r) for r in store.db.execute("SELECT * FROM outbox")}
        due = _due(queued, ids)
        delivered = due[::2]  # every other one failed to go out
        store.mark_all_sent(delivered, NOW + timedelta(seconds=5))
        store.mark_all_sent([], NOW + timedelta(seconds=6))  # a batch of nothing changes nothing
        after = {r["id"]: dict(r) for r in store.db.execute("SELECT * FROM outbox")}
        left = [r.id for r in store.due_mail(NOW, 100)]
    finally:
        store.close()
    assert left == [i for i in due if i not in delivered]
    for row_id, row in after.items():
        if row_id in delivered:
            assert (row["status"], row["sent_at"]) == ("sent", "2026-11-27T12:00:05+00:00")
            assert row["attempts"] == before[row_id]["attempts"] + 1
        else:
            assert row == before[row_id]
