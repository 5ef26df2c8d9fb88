"""Issue 12, the daemon side: one broken mail never stops intake, forgers cannot silence a
player, strangers and invalid addresses cannot turn the daemon into a mail cannon, and two
robots writing to each other go quiet. Real daemon, real Maildir, injected clock."""

from __future__ import annotations

import contextlib
import mailbox
import sqlite3
from email.message import EmailMessage

from tests.core.test_daemon_flow import GAMES
from tests.daemon_harness import DaemonHarness

GM = 'gm_address = "boss@club.test"'


def started(tmp_path, extra: str = GM) -> DaemonHarness:
    h = DaemonHarness(tmp_path, GAMES, extra_toml=extra)
    h.run()  # welcome mails
    return h


def nested(sender: str, depth: int = 1000) -> bytes:
    """The mail of the issue: ``depth`` multiparts inside each other (~60 kB)."""
    head = f"From: {sender}\r\nTo: gm@gm.test\r\nSubject: [g1]\r\nMessage-ID: <deep@x.test>\r\n"
    body = ""
    for level in range(depth):
        body += f'Content-Type: multipart/mixed; boundary="b{level}"\r\n\r\n--b{level}\r\n'
    body += "Content-Type: text/plain\r\n\r\nCode: ANNA-1111\r\n17\r\n"
    body += "".join(f"--b{level}--\r\n" for level in reversed(range(depth)))
    return (head + "MIME-Version: 1.0\r\n" + body).encode()


def drop(h: DaemonHarness, raw: bytes) -> None:
    """Deliver bytes as they are (the mailbox module would parse, and choke on, them)."""
    new = h.inbox_dir / "new"
    new.mkdir(parents=True, exist_ok=True)
    (new / f"{len(list(new.iterdir()))}.deep.test").write_bytes(raw)


def inbox_rows(h: DaemonHarness) -> list[tuple[str, str, str]]:
    with contextlib.closing(sqlite3.connect(h.database)) as db:
        return db.execute("SELECT sender, status, verdict FROM inbox ORDER BY id").fetchall()


def test_an_unreadable_mail_is_set_aside_and_the_mails_after_it_are_read(tmp_path):
    h = started(tmp_path)
    drop(h, nested("anna@players.test"))
    h.send("bert@players.test", "Code: BERT-2222\n18")
    mails = h.run()
    assert sorted(m["To"] for m in mails) == ["bert@players.test", "boss@club.test"]
    (note,) = h.mails_to("boss@club.test")
    assert "set aside" in note["Subject"] and "mail-1.eml" in h.attachments(note)
    (anna, _bert) = inbox_rows(h)
    assert anna[1] == "shunted" and anna[2].startswith("set aside: unreadable (")
    assert h.run() == []  # the GM is told once per mail, the player never
    _code, out = h.cli("status")
    assert "unreadable" in out


def test_a_strangers_unreadable_mail_mails_nobody(tmp_path):
    h = started(tmp_path)
    drop(h, nested("nobody@else.test"))
    assert h.run() == []
    assert inbox_rows(h)[0][1] == "shunted"


def test_invalid_sender_addresses_are_never_answered(tmp_path):
    h = started(tmp_path)
    for sender in ("@evil.test", "a@evil..test", '"mal lory"@evil.test', "a@-evil-.test"):
        h.send_raw(_raw(sender, "hello"))
    h.send_raw(_raw("x" * 5000 + "@evil.test", "hello"))
    assert h.run() == []
    assert all(v.startswith("ignored: sender address") for _s, _st, v in inbox_rows(h))


def test_a_reused_message_id_from_another_player_is_still_read(tmp_path):
    h = started(tmp_path)
    h.send_raw(_raw("anna@players.test", "Code: ANNA-1111\n17", "<same@x.test>"))
    h.send_raw(_raw("bert@players.test", "Code: BERT-2222\n18", "<same@x.test>"))
    h.send_raw(_raw("anna@players.test", "Code: ANNA-1111\n19", "<same@x.test>"))
    mails = h.run()
    assert [m["To"] for m in mails] == ["anna@players.test", "bert@players.test"] * 1 + [
        "anna@players.test"
    ]
    assert all("accepted" in m["Subject"] for m in mails)


def test_the_same_mail_delivered_twice_is_stored_once(tmp_path):
    h = started(tmp_path)
    raw = _raw("anna@players.test", "Code: ANNA-1111\n17", "<twice@x.test>")
    h.send_raw(raw)
    h.send_raw(raw.replace(b"From:", b"Received: from relay2\r\nFrom:", 1))
    assert len(h.run()) == 1 and len(inbox_rows(h)) == 1


def test_61_forged_mails_cannot_silence_a_players_valid_order(tmp_path):
    h = started(tmp_path)
    for n in range(61):
        h.send("anna@players.test", f"forged {n}")  # no code: "code missing"
    h.send("anna@players.test", "Code: ANNA-1111\n17")
    mails = h.run()
    assert len(mails) == 61  # 60 answers to the flood, then the acknowledgement
    assert "accepted" in mails[-1]["Subject"]
    verdicts = [v for _s, _st, v in inbox_rows(h)]
    assert verdicts[-1] == "accepted" and verdicts[-2].endswith("no reply: rate limit")
    _code, out = h.cli("status")
    assert "Anna Alt" in out


def test_twenty_forged_stranger_mails_make_one_reply_per_period(tmp_path):
    h = started(tmp_path)
    for n in range(20):
        h.send("victim@else.test", f"mail {n}")
    (reply,) = h.run()
    assert reply["To"] == "victim@else.test" and h.mails_to("boss@club.test") == []
    h.advance(days=6)
    h.send("victim@else.test", "again")
    assert [m for m in h.run() if m["To"] == "victim@else.test"] == []
    h.advance(days=1, seconds=1)  # the default period, "7d", is over
    h.send("victim@else.test", "again")
    assert len([m for m in h.run() if m["To"] == "victim@else.test"]) == 1


def test_stranger_reply_period_is_configurable(tmp_path):
    h = started(tmp_path, GM + '\nstranger_reply_every = "1h"')
    h.send("victim@else.test", "one")
    assert len(h.run()) == 1
    h.advance(minutes=61)
    h.send("victim@else.test", "two")
    assert len(h.run()) == 1


def test_two_daemons_pointed_at_each_other_go_quiet(tmp_path):
    """Daemon B (robot@other.test) writes to daemon A; each answer is handed to the other
    side's inbox. With our headers B ignores A's answer at once; a relay that strips
    Auto-Submitted still ends after one answer each (the stranger limit)."""
    for strip in (False, True):
        a, b = _two_daemons(tmp_path / str(strip))
        a.send("robot@other.test", "ping")
        exchanged = _ping_pong(a, b, strip)
        assert exchanged == [("a", "robot@other.test")] + ([("b", "gm@gm.test")] if strip else [])


def _two_daemons(root) -> tuple[DaemonHarness, DaemonHarness]:
    (root / "a").mkdir(parents=True)
    (root / "b").mkdir()
    a = started(root / "a")
    b = DaemonHarness(root / "b", GAMES.replace("players.test", "club-b.test"))
    b.config_path.write_text(b.config_path.read_text().replace("gm@gm.test", "robot@other.test"))
    b.run()
    return a, b


def _ping_pong(a: DaemonHarness, b: DaemonHarness, strip: bool) -> list[tuple[str, str]]:
    exchanged: list[tuple[str, str]] = []
    for _round in range(10):
        moved = 0
        for name, here, there in (("a", a, b), ("b", b, a)):
            for mail in here.run():
                exchanged.append((name, mail["To"]))
                if strip:
                    del mail["Auto-Submitted"]
                box = mailbox.Maildir(there.inbox_dir, create=True)
                box.add(mailbox.MaildirMessage(bytes(mail)))
                moved += 1
        if moved == 0:
            break
    return exchanged


def _raw(sender: str, body: str, message_id: str = "") -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "gm@gm.test"
    message["Subject"] = "[g1] orders"
    if message_id:
        message["Message-ID"] = message_id
    message.set_content(body)
    return bytes(message)


def test_a_client_looping_on_the_same_orders_gets_no_more_than_the_hourly_replies(tmp_path):
    """200 identical order mails in an hour: every one is stored, but past
    ``max_mails_per_hour`` a mail that repeats the orders on file is not answered, so the
    GM's address is not marked as spam; new orders over the limit are still acknowledged."""
    h = started(tmp_path)
    for _ in range(200):
        h.send("anna@players.test", "Code: ANNA-1111\n17")
    mails = h.run()
    assert 1 <= len(mails) <= 60 and all("accepted" in m["Subject"] for m in mails)
    verdicts = [v for _s, _st, v in inbox_rows(h)]
    assert len(verdicts) == 200 and all(v.startswith("accepted") for v in verdicts)
    assert verdicts[-1] == "accepted; no reply: rate limit, the orders on file repeated"
    h.send("anna@players.test", "Code: ANNA-1111\n18")  # new orders: always acknowledged
    (ack,) = h.run()
    assert "accepted" in ack["Subject"] and "18" in h.body(ack)
