"""BILD/PICTURE finds the other team as players write names (kit.names): a first name, a
surname, initials, umlauts spelt out; a near miss is answered with the command to send, and
that command brings the picture; two teams of one surname are named, not guessed."""

from __future__ import annotations

import random
import re

import pytest

from gm_daemon.games.hexenhalma import GAME
from gm_daemon.games.hexenhalma.engine import PICTURE
from gm_daemon.games.hexenhalma.model import State
from gm_daemon.games.hexenhalma.options import Options
from gm_daemon.games.protocol import CommandError, Seat
from tests.hexenhalma.support import board_text, read

TEAMS = [
    Seat("anna", "Anna Amsel"),
    Seat("bert", "Bert Bär"),
    Seat("carl", "Carl Clausen"),
    Seat("dora", "Dora Clausen"),
]
TEXT = "Hexe 1: B7 | N6\nHexe 2: D7 | N6"


def played() -> State:
    options = Options(boards=[board_text("h1")], rounds=2)  # type: ignore[arg-type]
    state = GAME.start(options, TEAMS, random.Random(7))
    orders = {seat.id: read(state, seat.id, TEXT) for seat in TEAMS}
    return GAME.resolve(state, orders, random.Random(0), frozenset()).state


STATE = played()

# written, language, the team pictured (None: refused) and what the refusal says
CASES = [
    ("Bert", "de", "bert", ""),
    ("Bär", "de", "bert", ""),
    ("baer", "en", "bert", ""),
    ("B. Bär", "de", "bert", ""),
    ("bert bär", "en", "bert", ""),
    ("Dora", "de", "dora", ""),
    ("D. Clausen", "de", "dora", ""),
    ("Bret", "de", None, "Meinten Sie Bert Bär? Eine Mail mit „BILD Bert Bär“"),
    ("Amsle", "en", None, 'I know no player "Amsle".'),  # his own name: no suggestion
    ("Brt Baer", "en", None, 'Did you mean Bert Bär? A mail saying "PICTURE Bert Bär"'),
    ("Clausen", "de", None, "passt auf mehrere Mitspieler: Carl Clausen und Dora Clausen"),
    ("Zorro", "de", None, "Mitspieler: Bert Bär, Carl Clausen und Dora Clausen"),
    ("Anna", "de", None, "Gegen sich selbst spielt kein Team"),
]


@pytest.mark.parametrize(("written", "lang", "team", "says"), CASES)
def test_picture_finds_the_team_named(written: str, lang: str, team: str | None, says: str):
    if team is not None:
        (png,) = PICTURE.run(STATE, "anna", written, lang).attachments
        name = {"de": "runde", "en": "round"}[lang]
        assert png.filename == f"{name}-1-anna-{team}.png"
        return
    with pytest.raises(CommandError) as refused:
        PICTURE.run(STATE, "anna", written, lang)
    assert says in str(refused.value)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_suggested_command_brings_the_picture(lang: str) -> None:
    with pytest.raises(CommandError) as refused:
        PICTURE.run(STATE, "anna", "Bret", lang)
    command = re.search(r"(BILD|PICTURE) ([^“\"]+)[“\"]", str(refused.value))
    assert command is not None
    word, name = command.groups()
    assert word == PICTURE.names[lang][0]
    (png,) = PICTURE.run(STATE, "anna", name, lang).attachments
    assert png.filename == {"de": "runde-1-anna-bert.png", "en": "round-1-anna-bert.png"}[lang]
