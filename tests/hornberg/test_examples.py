"""Protocol v2 for Hornberg: the example every seat is shown reads back for that seat (a
play of a card in his hand when on turn, a PLAN otherwise), help follows the options, and
the turn header is the game's own."""

from __future__ import annotations

import random

import pytest

from gm_daemon.games.hornberg import GAME
from gm_daemon.games.hornberg.model import State
from gm_daemon.games.hornberg.options import Options
from gm_daemon.games.protocol import Header, Line, OrdersRejected

from .randomplay import seats


def _check_examples(state: State, lang: str) -> None:
    for seat in sorted(GAME.participants(state)):
        example = GAME.example(state, seat, lang)
        if seat in state.out:
            assert example == ""
            continue
        assert example, seat
        accepted = GAME.read_orders([Line(1, example)], state, seat, lang)
        assert all(m.card in state.hands[seat] for m in accepted.orders.moves)
        on_turn = seat == state.to_move
        assert (accepted.orders.plan == "none") == on_turn, example
        assert example in GAME.help(state, seat, lang)
        assert example in GAME.status(state, seat, lang).private[seat]


@pytest.mark.parametrize("variant", ["dd", "kq"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_game_played_by_its_examples_reads_every_example(variant: str, lang: str) -> None:
    state = GAME.start(Options(variant=variant), seats(3), random.Random(7))
    for seat in state.seat_ids:
        assert GAME.example(state, seat, lang) in GAME.welcome(state, seat, lang).private[seat]
    rng = random.Random(7)
    while not state.finished and state.turn < 60:
        _check_examples(state, lang)
        seat = state.to_move
        assert seat is not None
        orders = GAME.read_orders([Line(1, GAME.example(state, seat, lang))], state, seat, lang)
        state = GAME.resolve(state, {seat: orders.orders}, rng, frozenset()).state


def test_help_follows_the_options() -> None:
    options = Options(variant="dd", plans=False, nmr_policy="skip")
    state = GAME.start(options, seats(3), random.Random(1))
    other = next(s for s in state.seat_ids if s != state.to_move)
    assert GAME.example(state, other, "de") == ""
    text = GAME.help(state, other, "de")
    assert "Reihe III" in text and "Kanone bl5 auf B4" not in text
    assert "PLAN" not in text and "verfällt Ihr Zug" in text
    kq = GAME.start(Options(variant="kq"), seats(3), random.Random(1))
    assert "Kanone bl5 auf B4" in GAME.help(kq, "anna", "de")


def test_a_skipped_turn_reads_well_in_the_nmr_list() -> None:
    state = GAME.start(Options(variant="dd", nmr_policy="skip"), seats(3), random.Random(1))
    seat = state.to_move
    assert seat is not None
    orders = GAME.default_orders(state, seat)
    assert GAME.describe_orders(state, seat, orders, "de") == "(Zug verfällt)"
    resolution = GAME.resolve(state, {seat: orders}, random.Random(1), frozenset({seat}))
    assert resolution.events[0]["event"] == "skipped"


@pytest.mark.parametrize(
    ("line", "expected"),
    [("Zug: 1", Header.CURRENT), ("Turn 2", Header.OTHER), ("ro4 O von ge2", None)],
)
def test_the_turn_header(line: str, expected: Header | None) -> None:
    state = GAME.start(Options(variant="kq"), seats(3), random.Random(1))
    assert GAME.read_header(line, state) == expected


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_welcome_plan_of_a_waiting_player_works_when_his_turn_comes(lang: str) -> None:
    """Issue 20: at an empty table a waiting player can name no card on it, so his welcome
    offers a bare cannon ("PLAN: Kanone ge3"); sent back once the table had cards, it was
    refused. It now plays his cannon on the first free cell, kept on file or sent on turn."""
    state = GAME.start(Options(variant="kq"), seats(3), random.Random(7))
    mover = state.to_move
    assert mover is not None and not state.table.cells
    waiting = state.left_of(mover)
    plan = GAME.example(state, waiting, lang)
    assert plan.startswith("PLAN:") and len(plan.split()) == 3, plan
    first = GAME.read_orders([Line(1, GAME.example(state, mover, lang))], state, mover, lang)
    after = GAME.resolve(state, {mover: first.orders}, random.Random(1), frozenset()).state
    assert after.to_move == waiting and after.table.cells
    sent_on_turn = GAME.read_orders([Line(1, plan)], after, waiting, lang).orders
    resolved = GAME.resolve(after, {waiting: sent_on_turn}, random.Random(1), frozenset())
    assert resolved.events[0]["event"] == "play" and resolved.events[0]["seat"] == waiting
    kept = GAME.read_orders([Line(1, plan)], state, waiting, lang).orders
    chained = GAME.resolve(state, {mover: first.orders, waiting: kept}, random.Random(1),
                           frozenset())  # fmt: skip
    assert [e["seat"] for e in chained.events if e["event"] == "play"] == [mover, waiting]


@pytest.mark.parametrize(("lang", "at"), [("de", "auf"), ("en", "at")])
def test_a_missing_cell_is_answered_with_the_cells_there_are(lang: str, at: str) -> None:
    """Issue 20: "cannon bl1 at B4" on an empty table got "e.g. 'cannon bl5 at B4'", the
    refused form once more; the reply now lists the plays there are, and its fix is one."""
    state = GAME.start(Options(variant="kq"), seats(3), random.Random(7))
    mover = state.to_move
    assert mover is not None
    card = GAME.example(state, mover, lang).split()[-1]
    line = f"{'Kanone' if lang == 'de' else 'cannon'} {card} {at} B4"
    with pytest.raises(OrdersRejected) as refused:
        GAME.read_orders([Line(1, line)], state, mover, lang)
    [problem] = refused.value.problems
    assert "B4" not in problem.hint and problem.fix is not None
    assert problem.fix.right in problem.hint
    GAME.read_orders([Line(1, problem.fix.applied(line))], state, mover, lang)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_plan_naming_a_card_not_in_hand_is_answered_with_the_hand(lang: str) -> None:
    """Played: a waiting player's PLAN at Drunter & Drüber was answered with the stable forms
    of Kreuz & Quer ("ro4 O von ge2"); the hint now shows his hand and his variant's forms."""
    state = GAME.start(Options(variant="dd"), seats(3), random.Random(7))
    mover = state.to_move
    assert mover is not None
    waiting = state.left_of(mover)
    missing = next(c for c in ("ro1", "ro2", "ro3", "ro4", "ro5") if c not in state.hands[waiting])
    play = "Kanone {} an Reihe I" if lang == "de" else "cannon {} to row I"
    plan = ["PLAN:", play.format(missing)]
    with pytest.raises(OrdersRejected) as refused:
        GAME.read_orders([Line(n, t) for n, t in enumerate(plan, 1)], state, waiting, lang)
    [problem] = refused.value.problems
    hand = "Ihre Hand" if lang == "de" else "Your hand"
    row = "Reihe III" if lang == "de" else "row III"
    assert problem.hint.startswith(f"{hand} ({len(state.hands[waiting])}): ")
    assert row in problem.hint and " von " not in problem.hint and " of " not in problem.hint


@pytest.mark.parametrize(("lang", "line", "message"), [
    ("de", "Kanone {card} an Reihe IV", "Reihe 4 gibt es nicht; die Reihen heißen I, II, III."),
    ("en", "cannon {card} to row iv", "There is no row 4; the rows are I, II, III."),
])  # fmt: skip
def test_a_fourth_row_is_named_as_such(lang: str, line: str, message: str) -> None:
    """Played: "Reihe IV" got "„iv“ nicht verstanden", while "Reihe 4" said there is none;
    both now say so, and the fix is a play there is."""
    state = GAME.start(Options(variant="dd"), seats(3), random.Random(7))
    mover = state.to_move
    assert mover is not None
    card = GAME.example(state, mover, lang).split()[1]
    written = line.format(card=card)
    with pytest.raises(OrdersRejected) as refused:
        GAME.read_orders([Line(1, written)], state, mover, lang)
    [problem] = refused.value.problems
    assert problem.message == message
    assert problem.fix is not None
    GAME.read_orders([Line(1, problem.fix.applied(written))], state, mover, lang)
