"""The GM's side: config mistakes named clearly, status that answers the GM's questions, and
overrides that refuse what would hurt the game instead of doing it silently."""

from __future__ import annotations

import json

import pytest

from tests.acceptance.conftest import GAME, START
from tests.daemon_harness import DaemonHarness


def test_status_shows_the_codes_the_gm_must_pass_on(club: DaemonHarness) -> None:
    code, out = club.cli("status")
    assert code == 0
    assert "hn1 (highnoon): Round 1" in out
    assert "HANS-5678" in out and "OWES ORDERS" in out
    assert "outbox: 4 sent" in out  # not a Python dict
    data = json.loads(club.cli("status", "--json")[1])
    players = {p["name"]: p for p in data["games"][0]["players"]}
    assert players["H. Glück"]["code"] == "HANS-5678"


def test_generated_codes_are_in_status(tmp_path) -> None:
    h = DaemonHarness(tmp_path, GAME.replace('code = "ANNA-3456"\n', ""), now=START)
    (welcome,) = [m for m in h.run() if m["To"] == "anna@example.org"]
    code = h.code("hn1", "A. Langsam")
    assert code in h.body(welcome)
    assert code in h.cli("status", "--game", "hn1")[1]


def test_commands_before_the_first_run_do_not_create_an_empty_database(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    h = DaemonHarness(tmp_path, GAME, now=START)
    for command in (["status"], ["pause", "--game", "hn1"], ["resolve", "--game", "hn1"]):
        assert h.cli(*command)[0] == 1
        assert "no database at" in capsys.readouterr().err
    assert not h.database.exists()


@pytest.mark.parametrize(
    "command",
    [
        ["pause", "--game", "hn9"],
        ["resume", "--game", "hn9"],
        ["extend", "--game", "hn9", "--by", "1d"],
        ["replace-player", "--game", "hn9", "--player", "Glück", "--email", "h@example.org"],
        ["resolve", "--game", "hn9"],
        ["status", "--game", "hn9"],
    ],
)
def test_an_unknown_game_is_an_error(
    club: DaemonHarness, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    code, out = club.cli(*command)
    assert code == 1 and "paused" not in out
    err = capsys.readouterr().err
    assert "no game 'hn9'" in err and "games: hn1" in err


@pytest.mark.parametrize(
    ("before", "command", "error"),
    [
        ([], "resume", "hn1 is not paused"),
        (["pause"], "pause", "hn1 is paused already"),
        (["end"], "pause", "hn1 is finished"),
        (["pause", "end"], "resume", "hn1 is finished"),
    ],
)
def test_pause_and_resume_refuse_what_would_tell_the_players_something_untrue(
    club: DaemonHarness,
    capsys: pytest.CaptureFixture[str],
    before: list[str],
    command: str,
    error: str,
) -> None:
    for step in before:
        assert club.cli(step, "--game", "hn1")[0] == 0
    club.run()
    capsys.readouterr()
    assert club.cli(command, "--game", "hn1") == (1, "")
    assert error in capsys.readouterr().err
    assert club.run() == []  # nobody told of a pause or a resumption that did not happen


def test_extend_refuses_a_deadline_in_the_past(
    club: DaemonHarness, capsys: pytest.CaptureFixture[str]
) -> None:
    before = json.loads(club.cli("status", "--json")[1])["games"][0]["deadline"]
    assert club.cli("extend", "--game", "hn1", "--until", "2025-11-27T18:00")[0] == 1
    assert "has passed" in capsys.readouterr().err
    assert club.cli("extend", "--game", "hn1", "--until", "27.11.2026 18:00")[0] == 1
    assert "2026-12-05T18:00" in capsys.readouterr().err
    assert json.loads(club.cli("status", "--json")[1])["games"][0]["deadline"] == before
    assert club.run() == []  # nothing resolved by a typo
    assert club.phase("hn1") == 1
    code, out = club.cli("extend", "--game", "hn1", "--until", "2026-11-27T18:00")
    assert code == 0 and "Fri 2026-11-27 18:00 CET" in out


def test_replace_player_refuses_a_broken_address(
    club: DaemonHarness, capsys: pytest.CaptureFixture[str]
) -> None:
    assert club.cli("replace-player", "--game", "hn1", "--player", "Pech", "--email", "vera")[0]
    assert "not an email address" in capsys.readouterr().err
    data = json.loads(club.cli("status", "--json")[1])
    assert {p["email"] for p in data["games"][0]["players"]} >= {"vera@example.org"}
    code, out = club.cli(
        "replace-player", "--game", "hn1", "--player", "Pech", "--email", " Vera@New.Example "
    )
    assert code == 0 and "V. Pech now plays from vera@new.example" in out


# A config mistake the GM makes, and what `check` must say about it (exit code 2).
CONFIG_MISTAKES = [
    ('kind = "highnoon"', 'kind = "highnon"', "games[0].kind: unknown game kind 'highnon'"),
    ('every = "3d"', 'every = "3 Tage"', "games[0].deadlines.every: '3 Tage' is not a duration"),
    ('email = "anna@example.org"', 'email = "anna.example.org"', "games[0].players[3].email"),
    ('email = "hans@example.org"', 'email = "egon@example.org"', "and players[0] share the email"),
    ('language = "de"', 'language = "fr"', "games[0].language"),
    ("seed = ", "seed = 42 #", "games[0].seed"),
    ('title = "High', 'title = "unterminated\ntitle2 = "High', "not valid TOML"),
]


@pytest.mark.parametrize(("old", "new", "message"), CONFIG_MISTAKES)
def test_check_names_each_config_mistake(
    tmp_path, capsys: pytest.CaptureFixture[str], old: str, new: str, message: str
) -> None:
    assert old in GAME
    h = DaemonHarness(tmp_path, GAME.replace(old, new, 1), now=START)
    assert h.cli("check")[0] == 78  # EX_CONFIG
    assert message in capsys.readouterr().err


def test_status_names_undeliverable_mail(tmp_path) -> None:
    from tests.core.test_faults import FlakySender, run_with

    h = DaemonHarness(tmp_path, GAME, now=START)
    run_with(h, lambda sender: FlakySender(sender, failures=1, permanent=True))
    assert h.cli("status")[0] == 0
    out = h.cli("status")[1]
    assert "outbox: 1 failed, 3 sent" in out
    assert "undeliverable mail #1 (hn1 welcome) to egon@example.org: 421 try again later" in out
    failed = json.loads(h.cli("status", "--json")[1])["failed"]
    assert [row["recipient"] for row in failed] == ["egon@example.org"]


def test_parse_reads_a_saved_mail_as_the_daemon_does(club: DaemonHarness) -> None:
    from tests.acceptance.conftest import FIXTURES

    mail = FIXTURES / "outlook_reply_header_block.eml"
    code, out = club.cli("parse", "--game", "hn1", "--player", "Glück", str(mail))
    assert code == 0
    assert "Duell gegen A. Langsam: 17, 12\nDuell gegen V. Pech: 5, 2" in out
    assert "Content-Type" not in out and "Gesendet" not in out
    text = club.root / "orders.txt"
    text.write_bytes("Langsam 19\nPech: 25\n".encode("cp1252"))
    code, out = club.cli("parse", "--game", "hn1", "--player", "h-glueck", str(text))
    assert code == 1 and "Zeile 2: „Pech: 25“" in out
    assert club.run() == []  # parse stores and sends nothing


def test_check_warns_about_roster_edits_a_started_game_ignores(
    club: DaemonHarness, caplog: pytest.LogCaptureFixture
) -> None:
    renamed = GAME.replace('name = "V. Pech"', 'name = "Vera Pech"')
    latecomer = '\n[[games.players]]\nname = "Z. Spät"\nemail = "zora@example.org"\n'
    club.write_config(renamed + latecomer)
    code, out = club.cli("check")
    assert code == 0
    assert "warning: game hn1 (started): player 'Vera Pech' (id vera-pech) is not in" in out
    assert "player 'Z. Spät' (id z-spaet) is not in the game" in out
    assert "player 'V. Pech' (id v-pech) is missing from the config" in out
    club.run()
    assert "player 'Z. Spät' (id z-spaet) is not in the game" in caplog.text
    # the way to rename: keep the id
    club.write_config(renamed.replace('name = "Vera Pech"', 'name = "Vera Pech"\nid = "v-pech"'))
    code, out = club.cli("check")
    assert "warning" not in out
    club.run()
    assert "Vera Pech" in club.cli("status")[1]


def test_status_flags_a_deadline_that_passed_unresolved(club: DaemonHarness) -> None:
    assert "PASSED" not in club.cli("status")[1]
    club.advance(days=3, minutes=1)  # the daemon has not run since
    _code, out = club.cli("status")
    assert "deadline: Wed 2026-11-25 10:00 CET (UTC+01:00) - PASSED, not resolved" in out
    assert json.loads(club.cli("status", "--json")[1])["games"][0]["overdue"] is True
    club.run()
    assert "PASSED" not in club.cli("status")[1]
