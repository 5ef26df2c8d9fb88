"""GM commands and the less common mail paths, through the real daemon."""

from __future__ import annotations

import json
from email.message import EmailMessage

import pytest

from tests.core.test_daemon_flow import GAMES
from tests.daemon_harness import DaemonHarness


def started(tmp_path) -> DaemonHarness:
    h = DaemonHarness(tmp_path, GAMES)
    h.run()
    return h


def test_check_command(tmp_path):
    h = started(tmp_path)
    code, out = h.cli("check")
    assert code == 0 and "g1: guess, 2 players" in out
    h.config_path.write_text(h.config_path.read_text().replace('"2d"', '"2 days"'))
    assert h.cli("check")[0] == 78  # EX_CONFIG


def test_check_connect_with_maildir_has_no_server_but_checks_the_directories(tmp_path):
    h = started(tmp_path)
    h.send("anna@players.test", "Code: ANNA-1111\n17")
    code, out = h.cli("check", "--connect")
    assert code == 0, out
    lines = out.splitlines()[-3:]
    assert lines[0] == 'mail.transport = "maildir": no server to connect to'
    assert (
        lines[1]
        == f"Maildir mail.maildir.inbox {h.inbox_dir}: readable and writable, 1 mail in new/"
    )
    assert lines[2].startswith(f"Maildir mail.maildir.outbox {h.outbox_dir}: readable and writable")
    text = h.config_path.read_text()
    h.config_path.write_text(text.replace(str(h.outbox_dir), str(tmp_path / "new" / "outbox")))
    code, out = h.cli("check", "--connect")
    assert code == 0 and out.splitlines()[-1].endswith(
        f"created at the first start (in {tmp_path})"
    )
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    for outbox, fault in (
        (blocked, "not a directory"),
        (blocked / "o", f"{blocked} is a file, not a directory"),
    ):
        h.config_path.write_text(text.replace(str(h.outbox_dir), str(outbox)))
        code, out = h.cli("check", "--connect")
        assert code == 1
        assert out.splitlines()[-1] == (
            f"Maildir mail.maildir.outbox {outbox}: FAILED: {fault} - check mail.maildir.outbox"
        )


def test_status_lists_who_owes_orders_and_the_deadline_zone(tmp_path):
    h = started(tmp_path)
    h.send("anna@players.test", "Code: ANNA-1111\n17")
    h.run()
    _code, out = h.cli("status")
    assert "g1 (guess): Round 1" in out
    assert "CET (UTC+01:00)" in out
    assert "orders in" in out and "OWES ORDERS" in out
    data = json.loads(h.cli("status", "--game", "g1", "--json")[1])
    game = data["games"][0]
    assert game["state"]["scores"] == {"anna-alt": 0, "bert-baer": 0}
    assert {p["name"]: p["orders_in"] for p in game["players"]} == {
        "Anna Alt": True,
        "Bert Bär": False,
    }


def test_a_game_taken_out_of_the_config_is_named_so_and_comes_back(tmp_path, capsys):
    """The daemon holds a running game the GM removed from the config: check warns of it,
    status says what it means (not "resolve" it, which refuses, nor "is the daemon
    running?" for its deadline), and putting it back lets it go on."""
    h = started(tmp_path)
    h.write_config("")
    h.advance(days=3)
    assert h.run() == []  # held: its passed deadline resolves nothing
    code, out = h.cli("check")
    assert code == 0
    assert "warning: game g1 runs in the database but is not in the config" in out
    status = h.cli("status")[1]
    assert "NOT IN THE CONFIG: nothing runs for it" in status
    assert "gm-daemon resolve" not in status and "PASSED" not in status
    h.write_config(GAMES)
    assert any("results" in m["Subject"] for m in h.run())  # back, and the deadline passed
    assert "NOT IN THE CONFIG" not in h.cli("status")[1]


def test_extend_pause_resume(tmp_path):
    h = started(tmp_path)
    assert h.cli("extend", "--game", "g1", "--by", "1d")[0] == 0
    told = h.run()
    assert [m["Subject"] for m in told] == ["[g1] New deadline"] * 2
    assert "Fri 2026-12-04 12:00 CET" in h.body(told[0])
    h.advance(days=2, seconds=1)
    assert not any("results" in m["Subject"] for m in h.run())
    assert h.cli("pause", "--game", "g1")[0] == 0
    assert [m["Subject"] for m in h.run()] == ["[g1] Game paused"] * 2
    h.advance(days=5)
    assert h.run() == []
    h.send("anna@players.test", "Code: ANNA-1111\n17")
    (refusal,) = h.run()
    assert "paused" in h.body(refusal)
    assert h.cli("resume", "--game", "g1")[0] == 0
    resumed = h.run()  # the passed deadline moved on, nobody resolved by surprise
    assert [m["Subject"] for m in resumed] == ["[g1] Game resumed"] * 2
    assert "Thu 2026-12-10 12:00 CET" in h.body(resumed[0])
    assert h.phase("g1") == 1


def test_replace_player_address(tmp_path):
    h = started(tmp_path)
    code, out = h.cli(
        "replace-player", "--game", "g1", "--player", "Bert", "--email", "bert@new.test"
    )
    assert code == 0 and "bert@new.test" in out
    told = h.run()  # the new address learns the code and the state of the game
    assert [m["To"] for m in told] == ["bert@new.test"]
    assert "BERT-2222" in h.body(told[0]) and "score 0" in h.body(told[0])
    h.send("bert@players.test", "Code: BERT-2222\n5")
    h.send("bert@new.test", "Code: BERT-2222\n5")
    replies = h.run()
    assert [m["To"] for m in replies] == ["bert@players.test", "bert@new.test"]
    assert "not registered" in h.body(replies[0])
    assert "accepted" in replies[1]["Subject"]


def test_parse_command_checks_without_storing(tmp_path, capsys):
    h = started(tmp_path)
    order = tmp_path / "order.txt"
    order.write_text("Code: ANNA-1111\n1000\n")
    code, _ = h.cli("parse", "--game", "g1", "--player", "Anna Alt", str(order))
    assert code == 1
    order.write_text("42\n")
    code, out = h.cli("parse", "--game", "g1", "--player", "anna", str(order))
    assert code == 0 and out.startswith("42")


def test_help_needs_no_code_status_does(tmp_path):
    h = started(tmp_path)
    h.send("anna@players.test", "HILFE")
    h.send("anna@players.test", "Status")
    h.send("anna@players.test", "status\nCode: ANNA-1111")
    help_mail, no_code, status = h.run()
    assert "One number" in h.body(help_mail)
    assert "Code" in no_code["Subject"]
    assert "score 0" in h.body(status) and "no valid orders" in h.body(status)


def test_withdraw_deletes_orders(tmp_path):
    h = started(tmp_path)
    h.send("anna@players.test", "Code: ANNA-1111\n17")
    h.run()
    h.send("anna@players.test", "WITHDRAW\nCode: ANNA-1111")
    (reply,) = h.run()
    assert "deleted" in h.body(reply)
    assert "orders in" not in h.cli("status")[1]


def test_stale_round_is_refused(tmp_path):
    h = started(tmp_path)
    h.send("anna@players.test", "Code: ANNA-1111\nRound: 4\n17")
    (reply,) = h.run()
    assert "Round: 4" in h.body(reply) and "Round 1" in h.body(reply)


def test_player_in_two_games_must_name_one(tmp_path):
    second = GAMES.replace('id = "g1"', 'id = "g2"').replace("ANNA-1111", "ANNA-9999")
    h = DaemonHarness(tmp_path, GAMES + second.replace("bert@", "bert2@"))
    h.run()
    h.send("anna@players.test", "Code: ANNA-1111\n17", subject="orders")
    h.send("anna@players.test", "Code: ANNA-9999\n18", subject="Re: [g2] welcome")
    h.send("anna@players.test", "Spiel: g1\nCode: ANNA-1111\n19", subject="orders")
    which, g2, g1 = h.run()
    assert "[g1]" in h.body(which) and "[g2]" in h.body(which)
    assert g2["Subject"].startswith("[g2]") and "18" in h.body(g2)
    assert g1["Subject"].startswith("[g1]") and "19" in h.body(g1)


def test_html_only_windows_1252_mail_is_read(tmp_path):
    h = started(tmp_path)
    message = EmailMessage()
    message["From"] = "Bert Bär <BERT@players.test>"
    message["Subject"] = "[g1] Zug"
    message.set_content(
        "<html><body><p>Code: BERT-2222</p><p>77</p>"
        "<blockquote>&gt; old</blockquote></body></html>",
        subtype="html",
        charset="windows-1252",
    )
    h.send_raw(bytes(message))
    (reply,) = h.run()
    assert "accepted" in reply["Subject"] and "77" in h.body(reply)


def test_empty_order_mail_gets_the_format(tmp_path):
    h = started(tmp_path)
    h.send("anna@players.test", "Code: ANNA-1111\n\n> 17 quoted only\n-- \nAnna")
    (reply,) = h.run()
    assert "No orders found" in reply["Subject"] and "One number" in h.body(reply)


def test_replies_thread_by_game_and_mail(tmp_path):
    h = started(tmp_path)
    message_id = h.send("anna@players.test", "Code: ANNA-1111\n17")
    (ack,) = h.run()
    assert ack["In-Reply-To"] == message_id
    assert ack["References"].split() == ["<game.g1@gm.test>", message_id]
    welcome = h.mails_to("anna@players.test")[0]
    assert welcome["References"] == "<game.g1@gm.test>"


def test_rate_limit_stops_answering_a_flood(tmp_path):
    h = started(tmp_path)
    for _ in range(65):
        h.send("anna@players.test", "hello?")  # no code: each is answered "code missing"
    assert len(h.run()) == 60


def test_diplomacy_command_is_dispatched(tmp_path, capsys):
    from gm_daemon.cli import main

    phase = tmp_path / "phase.json"
    phase.write_text(
        json.dumps(
            {
                "phase": "movement",
                "units": {"England": ["F LON"], "France": ["F BRE"]},
                "orders": {"England": ["F LON - ENG"], "France": ["F BRE - ENG"]},
            }
        )
    )
    assert main(["diplomacy", "adjudicate", str(phase)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["contested"] == ["ENG"]


def test_the_gm_hears_of_mails_set_aside_and_failed_resolutions(tmp_path, monkeypatch):
    from tests.core import guessgame

    h = DaemonHarness(tmp_path, GAMES, extra_toml='gm_address = "boss@club.test"')
    h.run()

    def explode(*args, **kwargs):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(guessgame.GuessGame, "read_orders", explode)
    monkeypatch.setattr(guessgame.GuessGame, "resolve", explode)
    h.send("anna@players.test", "Code: ANNA-1111\n17")
    h.advance(days=2, seconds=1)
    notes = [m for m in h.run() if m["To"] == "boss@club.test"]
    assert [m["Subject"] for m in notes] == [
        "[gm-daemon] mail #1 set aside",
        "[gm-daemon] g1: resolving phase 1 failed",
    ]
    assert "engine bug" in h.body(notes[0]) and "mail-1.eml" in h.attachments(notes[0])
    assert h.phase("g1") == 1


def test_a_damaged_database_is_named_not_dumped_as_a_traceback(tmp_path, capsys):
    h = started(tmp_path)
    h.database.write_bytes(b"this is not a database, it was overwritten by mistake" * 100)
    code, _out = h.cli("status")
    assert code == 78  # EX_CONFIG: the GM's to fix
    error = capsys.readouterr().err
    assert error.count("\n") == 1, error
    assert f"daemon.database {h.database}: file is not a database" in error
    assert "restore the backup" in error and "Traceback" not in error


@pytest.mark.parametrize(
    "ending",
    [
        [["end", "--game", "g1"]],  # the GM ends it while it is paused
        [["resolve", "--game", "g1"]] * 3,  # he resolves its three rounds while it is paused
    ],
)
def test_a_game_that_ends_while_paused_is_finished_not_paused(tmp_path, capsys, ending):
    h = started(tmp_path)
    assert h.cli("pause", "--game", "g1")[0] == 0
    for command in ending:
        assert h.cli(*command)[0] == 0
    h.run()
    code, out = h.cli("status", "--game", "g1")
    assert code == 0 and out.splitlines()[0] == "g1 (guess): finished"
    game = json.loads(h.cli("status", "--game", "g1", "--json")[1])["games"][0]
    assert (game["finished"], game["paused"]) == (True, False)
    capsys.readouterr()
    assert h.cli("resume", "--game", "g1") == (1, "")
    assert "g1 is finished; there is nothing to pause or resume" in capsys.readouterr().err
    assert h.run() == []  # nobody told of a resumption
