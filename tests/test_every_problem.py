"""Issue 9: a mail with several independent problems gets them all named in one reply, in
every game, so a player needs one round trip (a day in play by mail) and not three."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gm_daemon.games import find_game
from gm_daemon.games.protocol import Line, OrdersRejected, Seat
from gm_daemon.texts import problems_text
from tests.conformance.profiles import PROFILES

NAMES = ["Anna", "Bert", "Carl", "Dora", "Emil"]


def _start(kind: str) -> tuple[Any, Any, str]:
    game = find_game(kind)
    profile = PROFILES[kind]
    seats = [Seat(n.lower(), n) for n in NAMES[: profile.players]]
    state = game.start(game.Options.model_validate(profile.options), seats, random.Random(1))
    return game, state, sorted(game.owed(state))[0]


def _reply(kind: str, text: str, lang: str = "de") -> str:
    """The problems part of the rejection, as the player reads it."""
    game, state, seat = _start(kind)
    lines = [Line(no, line) for no, line in enumerate(text.splitlines(), 1)]
    with pytest.raises(OrdersRejected) as caught:
        game.read_orders(lines, state, seat, lang)
    return problems_text(caught.value.problems, lang)


def _highnoon_mail() -> str:
    game, state, seat = _start("highnoon")
    duel = game.example(state, seat, "de").splitlines()[1]  # "Carl: 16, 12"
    name = duel.split(":")[0]
    many = ", ".join(str(n) for n in range(19, 5, -1))
    return f"Duelle\nZorro: 16\n{name}: 25, 12\n{name}: {many}"


def test_highnoon_unknown_opponent_position_25_and_too_many_shots() -> None:
    reply = _reply("highnoon", _highnoon_mail())
    assert "Unbekannter Spieler „Zorro“" in reply
    assert "Position 25 gibt es nicht" in reply
    assert "Patronen" in reply  # the cartridge budget, in the same reply


def test_primtraktor_diagonal_foreign_tractor_and_six_legs() -> None:
    reply = _reply("primtraktor", "Bert: Nordost+, Nord=, Nord=, Nord=, Nord=, Nord=")
    assert "„Nordost+“: Traktoren fahren nur waagrecht oder senkrecht" in reply
    assert "„Bert“ ist nicht Ihr Traktor" in reply
    assert "6 Teilzüge, erlaubt sind 1–5" in reply


def test_primtraktor_in_english_too() -> None:
    reply = _reply("primtraktor", "Zorro: Northeast+, N=, N=, N=, N=, N=", "en")
    assert '"Northeast+": tractors only drive' in reply
    assert '"Zorro" is neither your name nor a leg' in reply
    assert "6 legs, 1–5 are allowed" in reply


def test_hornberg_unknown_card_empty_cell_and_gibberish() -> None:
    reply = _reply("hornberg", "Kanone ro9\nBier 5 auf A1\nBlubb")
    assert "Die Karte „ro9“ gibt es nicht" in reply or "'ro9' gibt es nicht" in reply
    assert "Auf Feld A1 liegt keine Kanone" in reply
    assert "blubb" in reply.lower()


def test_hexenhalma_bad_step_unknown_witch_and_bad_direction() -> None:
    reply = _reply("hexenhalma", "Hexe 1: B7 | N+Q, N5\nHexe 3: B7 | N6\nHexe 2: D7 | X6")
    assert "Zeile 1:" in reply and "„Q, N5“" in reply
    assert "keine Hexe 3" in reply
    assert "Zeile 3:" in reply and "„X6“" in reply


def test_highlander_unknown_centre_duplicate_and_count() -> None:
    reply = _reply("highlander", "ZENTREN: XYZ, ANK, ANK, BEL")
    assert "„XYZ“ ist kein bekanntes Versorgungszentrum" in reply
    assert "Doppelt genannt: ANK" in reply
    assert "Die Liste nennt 3 Zentren; verlangt sind genau 15" in reply


def test_a_refusal_also_says_what_would_have_been_corrected() -> None:
    """An invalid challenge is dropped with a note when the mail is accepted; when the same
    mail is refused for another line, the note was lost, and the corrected mail met it only
    in the next reply. The refusal carries the engine's warnings."""
    game, state, seat = _start("highnoon")
    lines = [Line(1, "Duell gegen Zorro: 3, 2"), Line(2, "Herausforderungen: Niemand")]
    with pytest.raises(OrdersRejected) as caught:
        game.read_orders(lines, state, seat, "de")
    assert [p.line for p in caught.value.problems] == [1]
    assert [w.line for w in caught.value.warnings] == [2]
    assert "Niemand" in caught.value.warnings[0].message
