"""The result mails read every fate from the resolution's events (issue 24): what the
events hold, stored as the phase record stores them (JSON), is what a second simulation of
each pairing gives; the report simulates nothing; a record written before the events held
fates (scores only) is still rendered, by simulating it as before."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm_daemon.games.hexenhalma import GAME, rounds, simulate
from gm_daemon.games.hexenhalma.board import parse_board
from gm_daemon.games.protocol import Resolution
from tests.hexenhalma.randomplay import random_orders
from tests.hexenhalma.support import BOARDS, new_state

KREUZ = (BOARDS.parents[2] / "config" / "boards" / "kreuz.txt").read_text(encoding="utf-8")
BOARD_TEXTS = [(BOARDS / "h1.txt").read_text(encoding="utf-8"), KREUZ]
PLAYERS = ["anna", "bert", "carla", "dora", "emil"]


def resolved(seed: int, board_text: str) -> tuple:
    state = new_state(PLAYERS, [board_text], lot_seed=f"{seed:016x}")
    rng = random.Random(seed)
    board = parse_board(board_text)
    orders = {seat: random_orders(board, rng) for seat in PLAYERS}
    resolution = GAME.resolve(state, orders, random.Random(0), frozenset())
    stored = json.loads(json.dumps(resolution.events))  # as the phase record keeps them
    return state, resolution, stored


@pytest.mark.parametrize("board_text", BOARD_TEXTS, ids=["h1", "kreuz"])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_stored_fates_are_the_simulated_ones(board_text: str, seed: int) -> None:
    _, resolution, stored = resolved(seed, board_text)
    record = resolution.state.last
    assert record is not None and rounds.has_fates(stored)
    from_events = rounds.views_of(record, stored)
    simulated = rounds.all_views(record, resolution.state.lot_seed)
    assert from_events.keys() == simulated.keys()
    for seat, views in simulated.items():
        pairs = [(v.other, v.mine, v.theirs) for v in views]
        assert [(v.other, v.mine, v.theirs) for v in from_events[seat]] == pairs, seat


def test_the_report_simulates_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    before, resolution, stored = resolved(3, KREUZ)
    expected = {lang: GAME.report(before, resolution, lang) for lang in ("de", "en")}
    calls = []

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(args)
        return original(*args, **kwargs)

    original = simulate.play
    monkeypatch.setattr(rounds, "play", counted)
    again = Resolution(state=resolution.state, events=stored, finished=resolution.finished)
    for lang, report in expected.items():
        assert GAME.report(before, again, lang).private == report.private
    assert calls == []


def test_a_record_without_fates_is_still_rendered() -> None:
    """Rounds resolved before the events carried fates: their mails (``gm-daemon show``,
    a held preview published after an update) come out as they did."""
    before, resolution, stored = resolved(5, KREUZ)
    old = [{k: v for k, v in e.items() if k != "fates"} for e in stored]
    assert not rounds.has_fates(old)
    then = Resolution(state=resolution.state, events=old, finished=resolution.finished)
    for lang in ("de", "en"):
        assert GAME.report(before, then, lang) == GAME.report(before, resolution, lang)


@pytest.mark.parametrize("board_text", BOARD_TEXTS, ids=["h1", "kreuz"])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_fate_lists_read_from_events_are_those_of_the_views(board_text: str, seed: int) -> None:
    """Each player's fate list written straight from the events (``Played.sides``, the
    events as the resolution made them and as the record stores them) is the text written
    from ``View``s of every pairing simulated again (a record without fates)."""
    before, resolution, stored = resolved(seed, board_text)
    old = [{k: v for k, v in e.items() if k != "fates"} for e in stored]
    simulated = Resolution(state=resolution.state, events=old, finished=resolution.finished)
    for events in (resolution.events, stored):
        read = Resolution(state=resolution.state, events=events, finished=resolution.finished)
        for lang in ("de", "en"):
            expected = dict(GAME.report(before, simulated, lang).private)
            assert dict(GAME.report(before, read, lang).private) == expected, lang
