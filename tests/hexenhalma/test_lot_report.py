"""The result names each lot of the round with what it decided, and the final result speaks
of lots only when one was drawn (scenario hh-15-lot: Anna's K and Bert's M on B4 at step 3)."""

from __future__ import annotations

import random
import tomllib

import pytest

from gm_daemon.games.hexenhalma import GAME
from tests.hexenhalma.support import HERE, board_text, new_state, read

SCENARIO = tomllib.loads((HERE / "scenarios" / "hh-15-lot.toml").read_text(encoding="utf-8"))
SAID = {
    "de": (
        "Lose dieser Runde",
        "Anna gegen Bert, Schritt 3, Feld B4 aus Sicht von Anna: Hexe 1 von Anna (K) und"
        " Hexe 1 von Bert (M)"
        " – das Los wählte {winner}.",
        "Einmal in diesem Spiel fielen zwei Zauber im selben Schritt auf dasselbe Feld",
        "Losschlüssel lot-scenario",
    ),
    "en": (
        "Lots of this round",
        "Anna against Bert, step 3, field B4 as Anna sees it: Anna's witch 1 (K) and Bert's"
        " witch 1 (M)"
        " – the lot chose {winner}.",
        "Once in this game two spells fell on the same field in the same step",
        "lot key lot-scenario",
    ),
}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_final_result_says_what_the_lot_decided(lang: str) -> None:
    state = new_state(SCENARIO["players"], [board_text("h1")], lot_seed="lot-scenario", rounds=1)
    orders = {seat: read(state, seat, text) for seat, text in SCENARIO["orders"].items()}
    resolution = GAME.resolve(state, orders, random.Random(0), frozenset())
    (lot,) = resolution.state.last.lots
    name, number, spell = lot.winner.seat.capitalize(), lot.winner.witch, lot.winner.spell
    winner = (
        f"Hexe {number} von {name} ({spell})"
        if lang == "de"
        else f"{name}'s witch {number} ({spell})"
    )
    text = " ".join(GAME.report(state, resolution, lang).public.split())
    title, line, final, key = SAID[lang]
    assert title in text and line.format(winner=winner) in text
    assert final in text and key in text
