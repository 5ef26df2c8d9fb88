"""Who may send orders: the registered address with the player's code. Codes are typed by
hand or copied from the welcome mail, with whatever comes along; a wrong code is named."""

from __future__ import annotations

import pytest

from tests.daemon_harness import DaemonHarness

ORDERS = "Langsam: 19\n"


@pytest.mark.parametrize(
    "code_line",
    [
        "Code: HANS-5678",
        "code: hans-5678",
        "CODE HANS-5678",
        "Code: HANS-5678.",
        "Code: HANS 5678",
        "Code: hans5678",
        "Code: „HANS-5678“",
        '"Code: HANS-5678"',  # copied with the welcome mail's quotes
        "Code: HANS-5678 (Hans Glück)",
        "Mein Code: HANS-5678",
        "Code:\u00a0HANS-5678",
    ],
)
def test_the_code_as_players_write_it(club: DaemonHarness, code_line: str) -> None:
    club.send("hans@example.org", f"{code_line}\n{ORDERS}", subject="[hn1] Befehle")
    (ack,) = club.run()
    assert "Befehle angenommen" in ack["Subject"]
    assert "Duell gegen A. Langsam: 19" in club.body(ack)


def test_a_wrong_code_is_named_with_its_line(club: DaemonHarness) -> None:
    club.send("hans@example.org", f"Hallo,\nCode: HANS-5687\n{ORDERS}", subject="[hn1]")
    (reply,) = club.run()
    assert "Code fehlt oder ist falsch" in reply["Subject"]
    body = club.body(reply)
    assert "Zeile 2: „HANS-5687“ ist nicht Ihr persönlicher Code." in body
    assert "HANS-5678" not in body  # never reveal the right code to whoever sent this


def test_a_missing_code_is_explained(club: DaemonHarness) -> None:
    club.send("hans@example.org", ORDERS, subject="[hn1] Befehle")
    (reply,) = club.run()
    assert "Schreiben Sie eine Zeile „Code: …“" in club.prose(reply)
    assert "HANS-5678" not in club.body(reply)


def test_another_players_code_does_not_work(club: DaemonHarness) -> None:
    club.send("hans@example.org", f"Code: EGON-1234\n{ORDERS}", subject="[hn1] Befehle")
    (reply,) = club.run()
    assert "Code fehlt oder ist falsch" in reply["Subject"]


def test_a_second_address_is_told_in_both_languages_until_the_gm_adds_it(
    club: DaemonHarness,
) -> None:
    club.send("Hans <hans.glueck@gmail.example>", f"Code: HANS-5678\n{ORDERS}", subject="[hn1]")
    (reply,) = club.run()
    assert reply["To"] == "hans.glueck@gmail.example"
    assert reply["Subject"] == "Absender unbekannt / Unknown sender"
    body = club.body(reply)
    assert "hans.glueck@gmail.example" in body and "not registered" in body
    assert max(map(len, body.splitlines())) <= 78  # wrapped like every other reply
    assert "Glück" not in body and "hn1" not in body  # reveals nothing about the games
    code, _out = club.cli(
        "replace-player",
        "--game",
        "hn1",
        "--player",
        "Glück",
        "--email",
        "hans.glueck@gmail.example",
    )
    assert code == 0
    (told,) = club.run()  # the new address hears its code and where the game stands
    assert told["To"] == "hans.glueck@gmail.example" and "HANS-5678" in club.body(told)
    club.send("hans.glueck@gmail.example", f"Code: HANS-5678\n{ORDERS}", subject="[hn1]")
    club.send("hans@example.org", f"Code: HANS-5678\n{ORDERS}", subject="[hn1]")
    ack, old = club.run()
    assert "Befehle angenommen" in ack["Subject"]
    assert old["Subject"] == "Absender unbekannt / Unknown sender"


GM = "leiter@example.org"


@pytest.mark.parametrize(
    ("language", "subject", "game", "words"),
    [
        ("de", "Re: [gm-daemon] hn1: niemand hat Befehle geschickt", "hn1", "nicht ausgewertet"),
        ("en", "Re: [HN1] PREVIEW Round 1 for E. Müller", "hn1", "was not read"),
        ("de", "Frage", "ID", "Adresse des Spielleiters"),
    ],
)
def test_the_gm_replying_by_mail_is_pointed_to_the_cli(
    tmp_path, language: str, subject: str, game: str, words: str
) -> None:
    from tests.acceptance.conftest import GAME, START

    games = GAME.replace('language = "de"', f'language = "{language}"')
    h = DaemonHarness(tmp_path, games, now=START, extra_toml=f'gm_address = "{GM}"\n')
    h.run()
    h.send(f"Spielleiter <{GM.upper()}>", f"Code: HANS-5678\n{ORDERS}", subject=subject)
    (reply,) = h.run()
    assert reply["To"] == GM
    assert reply["Subject"].startswith("[gm-daemon] ")
    body = h.body(reply)
    assert words in body and "gm-daemon --help" in body and "docs/gm.md" in body
    assert f"gm-daemon publish --config {h.config_path} --game {game}\n" in body
    assert f"gm-daemon status --config {h.config_path}\n" in body
    assert f"gm-daemon extend --config {h.config_path} --game {game} --by 2d\n" in body
    assert f"gm-daemon pause --config {h.config_path} --game {game}\n" in body
    assert "Absender unbekannt" not in body and "not registered" not in body
    _code, out = h.cli("status", "--json")
    assert '"orders_in": true' not in out  # never read as a player's orders
    h.send(GM, "Danke", subject=subject)
    assert h.run() == []  # told once per stranger_reply_every, like a stranger
    h.advance(days=8)
    h.send(GM, "Noch eine Frage", subject=subject)
    again = [m for m in h.run() if m["Subject"] == reply["Subject"]]  # beside the notices
    assert [m["To"] for m in again] == [GM]


def test_a_gm_who_plays_keeps_playing_by_mail(tmp_path) -> None:
    from tests.acceptance.conftest import GAME, START

    h = DaemonHarness(tmp_path, GAME, now=START, extra_toml='gm_address = "hans@example.org"\n')
    h.run()
    h.send("hans@example.org", f"Code: HANS-5678\n{ORDERS}", subject="[hn1] Befehle")
    (ack,) = h.run()
    assert "Befehle angenommen" in ack["Subject"]
