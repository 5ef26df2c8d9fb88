"""Hostile senders in bulk, header injection through the config, and secrets in logs: the
daemon over Maildir with an injected clock (no mail server needed for what is checked here).
The guards' single cases are in test_hostile_senders.py."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

import pytest

from gm_daemon.config import ConfigError, load_config
from gm_daemon.daemon import Daemon
from gm_daemon.mail.compose import compose, compose_bytes
from tests.core.test_daemon_flow import GAMES
from tests.daemon_harness import DaemonHarness


def test_a_thousand_mails_from_one_address_cap_the_replies_not_the_orders(tmp_path):
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    for n in range(1000):  # forged: no code
        h.send("anna@players.test", f"order {n}")
    h.send("anna@players.test", "Code: ANNA-1111\n42")
    replies = h.run()
    assert len(replies) == 60 + 1  # the hour's budget, and the acknowledgement of the order
    assert "accepted" in replies[-1]["Subject"] or any("accepted" in m["Subject"] for m in replies)
    _, out = h.cli("status")
    assert "orders in" in next(line for line in out.splitlines() if "Anna Alt" in line)


def test_a_thousand_strangers_get_one_answer_each_and_the_gm_none(tmp_path):
    h = DaemonHarness(tmp_path, GAMES, extra_toml='gm_address = "boss@gm.test"\n')
    h.run()
    for n in range(1000):
        h.send(f"stranger{n}@elsewhere.test", "hello?")
        h.send(f"stranger{n}@elsewhere.test", "hello again?")
    replies = h.run()
    assert len(replies) == 1000
    assert len({m["To"] for m in replies}) == 1000
    assert not h.mails_to("boss@gm.test")


@pytest.mark.parametrize(
    "name", ["Eve\r\nBcc: victim@evil.test", "Eve\nSubject: pwned", "Eve\u2028Bcc: x@evil.test"]
)
def test_a_line_break_in_a_player_name_is_refused_by_check(tmp_path, name):
    """Names go into subjects: a line break would start a new header (header injection)."""
    escaped = name.encode("unicode_escape").decode("ascii")  # TOML reads \r, \n, \u2028
    h = DaemonHarness(tmp_path, GAMES.replace('name = "Anna Alt"', f'name = "{escaped}"'))
    with pytest.raises(ConfigError) as refused:
        load_config(h.config_path)
    assert any(p.startswith("games[0].players[0].name:") for p in refused.value.problems)


def test_a_line_break_in_a_subject_or_name_never_leaves_as_a_header():
    for build in (compose, compose_bytes):
        with pytest.raises(ValueError, match=r"line break|linefeed"):
            build(
                sender="gm@gm.test",
                sender_name="GM",
                to="anna@players.test",
                subject="Hallo\r\nBcc: victim@evil.test",
                body="x",
                message_id="<a@gm.test>",
                date=datetime(2026, 12, 1, tzinfo=UTC),
            )


def test_the_imap_password_never_reaches_the_log(tmp_path, monkeypatch, caplog):
    secret = "s3cr3t-Pa55w0rd"
    monkeypatch.setenv("GM_TEST_IMAP_PASSWORD", secret)
    config = tmp_path / "gm.toml"
    config.write_text(
        f'[daemon]\ndatabase = "{tmp_path / "gm.sqlite"}"\n\n'
        '[mail]\naddress = "gm@gm.test"\ntransport = "imap"\n\n'
        '[mail.imap]\nhost = "127.0.0.1"\nport = 1\nsecurity = "none"\n'
        'username = "gm"\npassword_env = "GM_TEST_IMAP_PASSWORD"\n\n'
        '[mail.smtp]\nhost = "127.0.0.1"\nport = 1\nsecurity = "none"\n'
        'username = "gm"\npassword_env = "GM_TEST_IMAP_PASSWORD"\n' + GAMES,
        encoding="utf-8",
    )
    caplog.set_level(logging.DEBUG)
    daemon = Daemon(config)
    asyncio.run(daemon.run_once())  # IMAP and SMTP both unreachable: errors get logged
    assert caplog.records, "the failures were logged"
    assert all(secret not in record.getMessage() for record in caplog.records)
    assert secret not in caplog.text
