"""High Noon's ``passes_over``: a greeting line it promises to read as nothing but a warning
of its own is not given to it at all (``greetings.read_orders``). The promise must hold
exactly: over mails mixing greetings, names that are or look like players' names, challenge
sections, duel lines and mistakes, in states with eliminated, inactive and finished seats,
the answer (orders, problems and warnings, word for word) is the one given when the engine
reads every line."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gm_daemon import greetings, loaded
from gm_daemon.games import find_game
from gm_daemon.games.highnoon.model import State
from gm_daemon.games.highnoon.orders import passes_over
from gm_daemon.games.protocol import Line, OrdersRejected, Seat

GAME = find_game("highnoon")
# "Hallo Hase" is found by "Hallo", "Gruss" by "Gruß"; "Grus" is a near miss of "Gruß".
ROSTERS = {
    "plain": ["Anna", "Bert", "Carl", "Dora", "Emil"],
    "greeting-like names": ["Anna", "Hallo Hase", "Gruss", "Dora", "Emil"],
    "a near miss": ["Anna", "Grus", "Carl", "Danke Dank", "Emil"],
}
LINES = [
    "Hallo,", "Hallo", "Gruß", "Grüße", "Danke!", "Viele Grüße, Anna", "Viele Grüße,", "Anna",
    "Bert", "Liebe Grüße", "Hallo Spielleiter,", "Best regards", "Cheers", "Moin",
    "Herausforderungen: keine", "Herausforderungen:", "Herausforderungen: {other}",
    "Duelle:", "{duel}", "{other}", "{own}", "Blubber 99", "Gruss", "Grus", "Hallo Hase",
    "Dank", "Hier meine Befehle:", "FERTIG",
]  # fmt: skip
STATES = ["running", "one eliminated", "sender eliminated", "finished"]


def _state(roster: str, how: str) -> tuple[State, str]:
    seats = [Seat(name.lower().replace(" ", "-"), name) for name in ROSTERS[roster]]
    options = GAME.Options.model_validate({})
    state: State = GAME.start(options, seats, random.Random(1))
    seat = sorted(GAME.owed(state))[0]
    players = [p.model_copy() for p in state.players]
    if how == "one eliminated":
        next(p for p in players if p.id != seat).eliminated_in_round = 1
    elif how == "sender eliminated":
        next(p for p in players if p.id == seat).eliminated_in_round = 1
    finished = how == "finished"
    return state.model_copy(update={"players": players, "finished": finished}), seat


def _mail(rng: random.Random, state: State, seat: str, lang: str) -> list[Line]:
    others = [p.name for p in state.players if p.id != seat]
    example = GAME.example(state, seat, lang).splitlines()
    duels = [line for line in example if ":" in line and line.split(":")[1].strip()]
    values = {
        "other": rng.choice(others),
        "own": state.player(seat).name,
        "duel": rng.choice(duels) if duels else "Anna: 1",
    }
    texts = [rng.choice(LINES).format(**values) for _ in range(rng.randint(1, 7))]
    return [Line(no, text) for no, text in enumerate(texts, 1)]


def _answer(lines: list[Line], state: State, seat: str, lang: str) -> tuple[Any, ...]:
    try:
        accepted = greetings.read_orders(GAME, lines, state, seat, lang)
    except greetings.OnlyGreetings:  # answered as a mail without orders
        return ("only greetings",)
    except OrdersRejected as refused:
        return ("rejected", refused.problems, refused.warnings)
    return ("accepted", accepted.orders.model_dump(), accepted.warnings)


@pytest.mark.parametrize("how", STATES)
@pytest.mark.parametrize("roster", ROSTERS)
def test_lines_passed_over_change_no_answer(
    roster: str, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state, seat = _state(roster, how)
    rng = random.Random(f"{roster}/{how}")
    passed = 0
    for number in range(300):
        lang = "de" if number % 3 else "en"
        lines = _mail(rng, state, seat, lang)
        with monkeypatch.context() as every_line_read:
            every_line_read.setattr(greetings, "passes_over", lambda *args: False)
            expected = _answer(lines, state, seat, lang)
        assert _answer(lines, state, seat, lang) == expected, [line.text for line in lines]
        passed += sum(
            greetings.is_greeting(line.text) and passes_over(line.text, state, seat)
            for line in lines
        )
    if how in ("sender eliminated", "finished"):
        assert passed == 0  # no line is read at all: nothing to pass over
    else:
        assert passed > 100  # the shortcut is taken, not only the engine's reading compared


@pytest.mark.parametrize(
    ("roster", "text", "passed"),
    [
        ("plain", "Hallo,", True),
        ("plain", "Gruß", True),
        ("plain", "Viele Grüße, Anna", False),  # a player's name: a bare name in a duel
        ("plain", "Anna", False),
        ("plain", "Herausforderungen: keine", False),
        ("plain", "Danke!", True),  # its "!" is punctuation, as "Danke." (games.text)
        ("plain", "Danke :-)", False),  # no list of names: the grammar refuses it
        ("greeting-like names", "Hallo", False),  # Hallo Hase
        ("greeting-like names", "Gruß", False),  # Gruss
        ("a near miss", "Gruß", False),  # Grus: "Meinten Sie Grus?" among the challenges
        ("a near miss", "Hallo", True),
    ],
)
def test_what_is_passed_over(roster: str, text: str, passed: bool) -> None:
    state, seat = _state(roster, "running")
    assert passes_over(text, state, seat) is passed


def test_the_daemons_kept_answers_follow_the_state_object_not_its_content_nor_its_id() -> None:
    """``loaded.passes_over`` keeps each answer by the engine's and the state's ``id``, and
    holds both objects, so no id is reused while its answer is kept. A config reloaded
    (in the daemon, or by a test writing a new one) gives a new state object exactly when
    the stored state changed (``Referee._state``: by the stored text); the answer depends on
    the engine, the state, the seat and the line alone. So states made one after another,
    the one before dropped each time, each get their own roster's answer, however often an
    id comes round again."""
    for number in range(200):
        roster = "greeting-like names" if number % 2 else "plain"
        state, seat = _state(roster, "running")
        expected = roster == "plain"  # "Hallo" is Hallo Hase's near miss in the other
        assert loaded.passes_over(GAME, "Hallo", state, seat) is expected
        assert loaded.passes_over(GAME, "Hallo", state, seat) is expected  # the kept answer
        del state
