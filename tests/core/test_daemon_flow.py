"""The daemon end to end over Maildir, on the test-only "guess" game."""

from __future__ import annotations

import asyncio
import json

from gm_daemon.daemon import Daemon
from tests.daemon_harness import DaemonHarness

GAMES = """
[[games]]
id = "g1"
kind = "guess"
language = "en"
reminder = "12h"

[games.deadlines]
every = "2d"

[[games.players]]
name = "Anna Alt"
email = "anna@players.test"
code = "ANNA-1111"

[[games.players]]
name = "Bert Bär"
email = "bert@players.test"
code = "BERT-2222"
"""


def harness(tmp_path) -> DaemonHarness:
    return DaemonHarness(tmp_path, GAMES)


def test_start_sends_one_welcome_per_player_with_code_and_commitment(tmp_path):
    h = harness(tmp_path)
    mails = h.run()
    assert sorted(m["To"] for m in mails) == ["anna@players.test", "bert@players.test"]
    anna = h.body(h.mails_to("anna@players.test")[0])
    assert "ANNA-1111" in anna and "sha256" in anna
    assert "secret for Anna Alt" in anna
    assert "secret for Bert" not in anna
    assert all(m["Auto-Submitted"] == "auto-generated" for m in mails)  # not replies: RFC 3834
    assert h.run() == []  # nothing twice


def test_orders_acknowledged_and_replaced(tmp_path):
    h = harness(tmp_path)
    h.run()
    h.send("anna@players.test", "Code: ANNA-1111\n17\n", subject="[g1] orders")
    (ack,) = h.run()
    assert ack["To"] == "anna@players.test"
    assert "accepted" in ack["Subject"]
    assert "17" in h.body(ack)
    assert "CET" in h.body(ack)
    h.send("anna@players.test", "Code: ANNA-1111\n> 17\n23\n-- \nAnna", subject="Re: [g1]")
    (ack2,) = h.run()
    assert "23" in h.body(ack2) and "17" not in h.body(ack2)


def test_rejection_names_line_and_keeps_earlier_orders(tmp_path):
    h = harness(tmp_path)
    h.run()
    h.send("anna@players.test", "Code: ANNA-1111\n17")
    h.run()
    h.send("anna@players.test", "Code: ANNA-1111\n\nzwölf\n")
    (reply,) = h.run()
    body = h.body(reply)
    assert "NOT accepted" in reply["Subject"]
    assert 'Line 3: "zwölf"' in body and "not a number" in body and "42" in body
    assert "stay in force" in body and "17" in body


def test_code_sender_and_automated_guards(tmp_path):
    h = harness(tmp_path)
    h.run()
    h.send("anna@players.test", "Code: WRONG\n17")
    h.send("stranger@else.test", "17")
    h.send("anna@players.test", "I am on holiday", headers={"Auto-Submitted": "auto-replied"})
    replies = h.run()
    assert [m["To"] for m in replies] == ["anna@players.test", "stranger@else.test"]
    assert "Code" in replies[0]["Subject"]
    assert "not registered" in h.body(replies[1])


def test_deadline_resolves_with_nmr_and_results_to_all(tmp_path):
    h = harness(tmp_path)
    h.run()
    h.send("anna@players.test", "Code: ANNA-1111\n50")
    h.run()
    h.advance(days=2, seconds=1)
    results = h.run()
    assert sorted(m["To"] for m in results) == ["anna@players.test", "bert@players.test"]
    body = h.body(results[0])
    assert "NMR" in body and "Bert Bär: -" in body
    assert "Next deadline" in body
    state = json.loads(h.attachments(results[0])["g1-1.json"])
    assert state["state"]["round"] == 2
    assert h.phase("g1") == 2


def test_reminder_goes_only_to_players_who_owe_orders(tmp_path):
    h = harness(tmp_path)
    h.run()
    h.send("bert@players.test", "Code: BERT-2222\n5")
    h.run()
    h.advance(hours=37)
    (reminder,) = h.run()
    assert reminder["To"] == "anna@players.test" and "Reminder" in reminder["Subject"]
    assert h.run() == []


def test_whole_game_to_the_end_reveals_the_seed(tmp_path):
    h = harness(tmp_path)
    h.run()
    for _ in range(3):
        h.advance(days=2, seconds=1)
        results = h.run()
    assert h.finished("g1")
    assert "seed" in h.body(results[0]).lower()
    h.send("anna@players.test", "Code: ANNA-1111\n5")
    (late,) = h.run()
    assert "over" in h.body(late)


def test_gm_resolve_runs_once(tmp_path):
    h = harness(tmp_path)
    h.run()
    code, out = h.cli("resolve", "--game", "g1")
    assert code == 0
    assert h.phase("g1") == 2
    code, out = h.cli("status", "--json")
    status = json.loads(out)
    assert status["games"][0]["phase"] == 2
    assert status["outbox"] == {"pending": 2, "sent": 2}


def test_a_game_kept_in_memory_is_read_afresh_once_another_process_changed_it(tmp_path):
    """The referee keeps a game's validated state while its stored text is unchanged; the
    CLI resolving the game in another process changes that text."""
    h = harness(tmp_path)
    h.run()
    daemon, cli = Daemon(h.config_path, clock=h.clock), Daemon(h.config_path, clock=h.clock)
    try:
        before = daemon.referee.load("g1")
        assert before is not None
        again = daemon.referee.load("g1")
        assert again is not None and again.state is before.state  # kept: validated once
        cli.referee.resolve("g1", "gm-daemon resolve")
        after = daemon.referee.load("g1")
        assert after is not None
        assert after.row.phase == before.row.phase + 1
        assert after.state is not before.state
        assert after.engine.phase_number(after.state) == after.row.phase
    finally:
        asyncio.run(daemon.close())
        asyncio.run(cli.close())
