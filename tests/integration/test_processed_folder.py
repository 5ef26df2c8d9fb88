"""``[mail.imap] processed_folder``: the real daemon against the real Dovecot and Postfix moves a
handled mail out of the INBOX into GM/erledigt, answers it once, and a crash between storing a
mail and moving it neither loses the mail nor answers it twice."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from gm_daemon.daemon import Daemon
from tests.integration.real_stack import (
    Mailboxes,
    RunningDaemon,
    gm_config,
    send_orders,
    subject_of,
)
from tests.mail.test_imap import _folder
from tests.mailstack import MailStack

pytestmark = pytest.mark.mailstack
PLAYER = "player1@players.test"


def _with_processed_folder(tmp_path: Path, stack: MailStack) -> Path:
    config = gm_config(tmp_path, stack, every="1d")
    text = config.read_text()
    imap_end = text.index("\n\n[mail.smtp]")
    text = text[:imap_end] + '\nprocessed_folder = "GM/erledigt"' + text[imap_end:]
    config.write_text(text)
    return config


def _acks(subjects: list[str]) -> int:
    return sum("angenommen" in s for s in subjects)


def test_a_handled_order_is_moved_and_answered_once(
    tmp_path: Path, empty_mailstack: MailStack
) -> None:
    stack, boxes = empty_mailstack, Mailboxes(empty_mailstack)
    config = _with_processed_folder(tmp_path, stack)

    async def scenario() -> list[str]:
        daemon = RunningDaemon(config)
        await boxes.until_subject(PLAYER, "Willkommen")
        await send_orders(stack, PLAYER)
        subjects = await boxes.until_subject(PLAYER, "angenommen", timeout=10)
        await asyncio.sleep(0.5)  # time for a second answer, were one to come
        await daemon.stop()
        return subjects

    asyncio.run(scenario())
    subjects = [subject_of(m) for m in asyncio.run(boxes.of(PLAYER))]
    assert _acks(subjects) == 1, subjects
    assert stack.messages(stack.gm) == []  # not in the INBOX any more
    moved = _folder(stack, "GM.erledigt")
    assert list(moved.values()) == [{"\\Seen"}], moved


def test_a_crash_between_store_and_move_loses_nothing_and_answers_once(
    tmp_path: Path, empty_mailstack: MailStack
) -> None:
    """The first daemon stores the order and dies before it moves or answers it (its
    connection simply goes); the next fetches it again, knows it by its key, moves it and
    answers it once, from the stored copy."""
    stack, boxes = empty_mailstack, Mailboxes(empty_mailstack)
    config = _with_processed_folder(tmp_path, stack)

    async def crash_after_store() -> None:
        daemon = Daemon(config)
        daemon.referee.sync()  # the game starts: welcome mails queued
        await daemon.outbox.drain()
        await boxes.until_subject(PLAYER, "Willkommen")
        await send_orders(stack, PLAYER)
        await asyncio.to_thread(stack.wait_for_messages, stack.gm, 1)
        fetched = await daemon.inbox.fetch()
        assert daemon._store_all(fetched) == 1  # committed; then the power goes
        await daemon.inbox.close()
        await daemon.sender.close()

    async def restart() -> None:
        daemon = RunningDaemon(config)
        await boxes.until_subject(PLAYER, "angenommen", timeout=10)
        await asyncio.sleep(0.5)
        await daemon.stop()

    asyncio.run(crash_after_store())
    assert len(stack.messages(stack.gm, unseen_only=True)) == 1  # still there, unread
    asyncio.run(restart())
    subjects = [subject_of(m) for m in asyncio.run(boxes.of(PLAYER))]
    assert _acks(subjects) == 1, subjects
    assert stack.messages(stack.gm) == []
    assert len(_folder(stack, "GM.erledigt")) == 1
