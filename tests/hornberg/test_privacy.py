"""No mail ever shows one player's hand to another (§6.1, issue 4).

Random games are played through the protocol; after every resolution the text each player
would receive (public part + his private part) is searched for every other player's hand,
and the public state attached to every result must hold no hand and no pile.
"""

from __future__ import annotations

import json
import random

import pytest

from gm_daemon.games.hornberg import GAME
from gm_daemon.games.hornberg.describe import hand_text
from gm_daemon.games.hornberg.model import State
from gm_daemon.games.hornberg.options import Options
from gm_daemon.games.hornberg.picture import table_png
from gm_daemon.games.protocol import Report

from .randomplay import GameStats, orders_for, seats


def assert_private(state: State, report: Report, lang: str) -> None:
    hands = {s: hand_text(state, s, lang) for s in state.seat_ids}
    assert "Ihre Hand" not in report.public and "Your hand" not in report.public
    for seat in state.seat_ids:
        mail = report.public + report.private.get(seat, "")
        assert state.finished or hands[seat] in report.private[seat]
        for other in state.seat_ids:
            if other != seat and state.hands[other]:
                assert hands[other] not in mail, f"{other}'s hand in the mail to {seat}"


def assert_public_state_has_no_hands(state: State) -> None:
    data = GAME.public_state(state)
    assert "hands" not in data and "pile" not in data
    assert data["hand_sizes"] == {s: len(h) for s, h in state.hands.items()}
    assert set(data["revealed_hands"]) == set(state.out)
    json.dumps(data)


@pytest.mark.parametrize("variant", ["dd", "kq"])
def test_reports_of_a_whole_game_keep_hands_private(variant: str) -> None:
    rng = random.Random(4)
    state = GAME.start(Options(variant=variant), seats(3), rng)
    for seat in state.seat_ids:
        welcome = GAME.welcome(state, seat, "de")
        assert list(welcome.private) == [seat]
    stats = GameStats()
    while not state.finished:
        seat = state.to_move
        assert seat is not None
        nmr_before = stats.nmr
        orders = {seat: orders_for(state, seat, rng, stats)}
        defaulted = frozenset({seat} if stats.nmr > nmr_before else set())
        resolution = GAME.resolve(state, orders, rng, defaulted)
        lang = "de" if state.turn % 2 else "en"
        report = GAME.report(state, resolution, lang)
        state = resolution.state
        assert_private(state, report, lang)
        assert_public_state_has_no_hands(state)
        for other in state.seat_ids:
            status = GAME.status(state, other, lang)
            assert set(status.private) <= {other}
            text = status.public + "".join(status.private.values())
            assert all(
                hand_text(state, s, lang) not in text
                for s in state.seat_ids
                if s != other and state.hands[s]
            )


def test_the_table_picture_does_not_depend_on_hands() -> None:
    state = GAME.start(Options(variant="kq"), seats(3), random.Random(2))
    swapped = state.model_copy(deep=True)
    swapped.hands = dict(zip(state.hands, reversed(list(state.hands.values())), strict=True))
    assert table_png(state) == table_png(swapped)
