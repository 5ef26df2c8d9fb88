"""Five players with long names, umlauts among them: the lines of the table that name every
player (cards in hand, kegs, dukes face up, points) stay within a mail's 78 columns, broken
between players and never inside one's entry. With these names the hand and point lines
were 100 columns and more."""

from __future__ import annotations

import random

import pytest

from gm_daemon.games.hornberg import GAME, rules
from gm_daemon.games.hornberg.model import State
from gm_daemon.games.hornberg.options import Options
from gm_daemon.games.hornberg.play import Orders
from gm_daemon.games.kit.layout import WIDTH
from gm_daemon.games.protocol import Seat

NAMES = [
    "Margarete Süßmilch-Überall",
    "Jürgen Weißenbäcker",
    "Östen Dörfler von Hügelsheim",
    "Ännchen Großkopf",
    "Bartholomäus Fröhlich",
]
SEATS = [Seat(f"s{i}", name) for i, name in enumerate(NAMES)]


def _played(variant: str, turns: int) -> State:
    """A game some turns in, every play a legal one drawn by lot: kegs and dukes get
    owners."""
    state = GAME.start(Options(variant=variant), SEATS, random.Random(3))
    rng = random.Random(3)
    for _ in range(turns):
        if state.finished or state.to_move is None:
            break
        seat = state.to_move
        move = rng.choice(rules.legal_moves(state, seat))
        state = GAME.resolve(state, {seat: Orders(moves=[move])}, rng, frozenset()).state
    return state


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize(("variant", "turns"), [("kq", 0), ("kq", 25), ("dd", 25)])
def test_every_line_naming_all_players_fits_and_keeps_each_entry_whole(
    variant: str, turns: int, lang: str
) -> None:
    state = _played(variant, turns)
    text = GAME.status(state, state.seat_ids[0], lang).public
    naming = [line for line in text.splitlines() if any(n in line for n in NAMES)]
    assert naming, text
    for line in naming:
        assert len(line) <= WIDTH, line
    for name in NAMES:  # a name is never broken over two lines
        first, last = name.split(" ", 1)[0], name.rsplit(" ", 1)[-1]
        for line in text.splitlines():
            assert not line.rstrip().endswith(f"{first}") or name in line, line
            assert not line.lstrip().startswith(last) or name in line, line
