"""A player in two games, and players naming a game they do not play in."""

from __future__ import annotations

import pytest

from tests.acceptance.conftest import GAME, START
from tests.daemon_harness import DaemonHarness

SECOND = """
[[games]]
id = "hn2"
kind = "highnoon"
language = "en"
seed = "second-seed"

[games.deadlines]
every = "3d"

[[games.players]]
name = "E. Müller"
email = "egon@example.org"
code = "EGON-2222"

[[games.players]]
name = "Bob Smith"
email = "bob@example.org"
code = "BOB-0001"

[[games.players]]
name = "Carol Jones"
email = "carol@example.org"
code = "CAROL-0001"
"""


@pytest.fixture
def two_games(tmp_path) -> DaemonHarness:
    h = DaemonHarness(tmp_path, GAME + SECOND, now=START)
    h.run()
    return h


def test_each_game_by_its_subject(two_games: DaemonHarness) -> None:
    two_games.send("egon@example.org", "Code: EGON-1234\nLangsam: 19\n", subject="Re: [hn1]")
    two_games.send("egon@example.org", "Code: EGON-2222\nSHOTS\nSmith: 19\n", subject="[hn2]")
    hn1, hn2 = two_games.run()
    assert hn1["Subject"] == "[hn1] Runde 1: Befehle angenommen"
    assert "Duell gegen A. Langsam: 19" in two_games.body(hn1)
    assert hn2["Subject"] == "[hn2] Round 1: orders accepted"
    assert "Duel vs Bob Smith: 19" in two_games.body(hn2)


def test_without_subject_or_code_the_player_is_asked(two_games: DaemonHarness) -> None:
    two_games.send("egon@example.org", "Code: EGON-1234\nSTAND\n", subject="Frage")
    (reply,) = two_games.run()
    assert "Welches Spiel?" in reply["Subject"]
    assert "[hn1], [hn2]" in two_games.body(reply)


@pytest.mark.parametrize(
    ("subject", "body"),
    [
        ("[hn2] Befehle", "Code: HANS-5678\nLangsam: 19\n"),  # a game of this GM, not his
        ("Befehle", "Spiel: hn2\nCode: HANS-5678\nLangsam: 19\n"),
        ("Befehle", "Spiel: hn7\nCode: HANS-5678\nLangsam: 19\n"),  # no such game at all
    ],
)
def test_naming_a_game_one_does_not_play_in_is_answered_so(
    two_games: DaemonHarness, subject: str, body: str
) -> None:
    two_games.send("hans@example.org", body, subject=subject)
    (reply,) = two_games.run()
    text = two_games.prose(reply)
    assert "Sie spielen nicht in [hn" in text
    assert "Ihre Spiele: [hn1]" in text and "mehreren" not in text
    assert "nicht ausgewertet" in text
    two_games.send("hans@example.org", "Code: HANS-5678\nSTAND\n", subject="Stand")
    (status,) = two_games.run()
    assert "Es liegen keine gültigen Befehle von Ihnen vor." in two_games.body(status)
