"""The protocol's contract (gm_daemon/games/protocol.py, points 1-8), checked for every
registered kind and the core's test kinds by playing a game on the engine alone: every owed
seat sends the example its help offers, phase after phase, until the game ends.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import BaseModel

from gm_daemon import games
from gm_daemon.games.protocol import Game, Line, Report, Resolution, Seat
from gm_daemon.loaded import waiting_for
from gm_daemon.mailer import observer_view
from gm_daemon.rng import phase_rng
from tests.conformance.profiles import PROFILES, Profile
from tests.scenarios import load_scenarios, uncovered

TEST_KINDS = {
    "guess": "tests.core.guessgame:GAME",
    "hooks": "tests.core.hookgame:GAME",
    "rounds": "tests.kit.roundgame:GAME",  # the kit's round shape, as a new game starts
}
SEED = "conformance-seed"
NAMES = ["Anna Alt", "Bert Bär", "Carla Cruz", "Dora Dietz", "Emil Ernst", "Fritz Fuchs"]


@pytest.fixture(autouse=True)
def test_kinds(monkeypatch):
    for kind, target in TEST_KINDS.items():
        monkeypatch.setitem(games._KINDS, kind, target)


KINDS = sorted([*games.available_kinds(), *TEST_KINDS])


def profile(kind: str) -> Profile:
    assert kind in PROFILES, f"kind {kind!r} has no conformance profile (tests/conformance)"
    return PROFILES[kind]


@dataclass
class Step:
    """One phase of the played game: the state before, the orders, the resolution."""

    state: BaseModel
    orders: dict[str, BaseModel]
    defaulted: frozenset[str]
    resolution: Resolution[Any, Any]
    as_given: dict[str, Any]  # the state's JSON before any call saw it (point 8)


def lines(text: str) -> list[Line]:
    return [Line(no, t) for no, t in enumerate(text.splitlines(), start=1) if t.strip()]


def start(kind: str) -> tuple[Game[Any, Any, Any], BaseModel, list[Seat]]:
    engine = games.find_game(kind)
    prof = profile(kind)
    seats = [Seat(f"s{i}", NAMES[i]) for i in range(prof.players)]
    options = engine.Options.model_validate(prof.options)
    state = engine.start(options, seats, phase_rng(SEED, 0, "start"))
    hook = getattr(engine, "take_options", None)
    return engine, (hook(state, options) if hook else state), seats


def play(kind: str) -> Iterator[Step]:
    """The game played by its own examples; NMR (default orders) for a seat whose example
    is empty."""
    engine, state, _ = start(kind)
    return play_from(engine, state, "de", profile(kind).max_phases)


def play_from(
    engine: Game[Any, Any, Any], state: BaseModel, lang: str, max_phases: int
) -> Iterator[Step]:
    """Phase after phase from ``state``, each owed seat sending its example in ``lang``,
    until the game ends or owes nothing."""
    for _ in range(max_phases):
        as_given = state.model_dump(mode="json")
        owed = engine.owed(state)
        if not owed:
            return
        orders: dict[str, BaseModel] = {}
        for seat in sorted(owed):
            example = engine.example(state, seat, lang)
            if example:
                orders[seat] = engine.read_orders(lines(example), state, seat, lang).orders
        defaulted = frozenset(owed - orders.keys())
        orders |= {seat: engine.default_orders(state, seat) for seat in defaulted}
        number = engine.phase_number(state)
        resolution = engine.resolve(state, orders, phase_rng(SEED, number), defaulted)
        yield Step(state, orders, defaulted, resolution, as_given)
        if resolution.finished:
            return
        state = resolution.state


@pytest.mark.parametrize("kind", KINDS)
def test_phase_numbers_start_at_one_and_increase(kind: str) -> None:
    engine, state, _ = start(kind)
    assert engine.phase_number(state) == 1
    steps = list(play(kind))
    assert steps, "the game has no phase to play"
    numbers = [engine.phase_number(s.state) for s in steps]
    assert numbers == sorted(set(numbers)), numbers
    last = steps[-1].resolution
    assert last.finished or engine.phase_number(last.state) > numbers[-1]


@pytest.mark.parametrize("kind", KINDS)
def test_owed_is_never_empty_while_running_and_within_participants(kind: str) -> None:
    engine = games.find_game(kind)
    for step in play(kind):
        owed = engine.owed(step.state)
        assert owed and owed <= engine.participants(step.state)
        assert engine.phase_type(step.state) in engine.phase_types


@pytest.mark.parametrize("kind", KINDS)
def test_state_and_orders_survive_json(kind: str) -> None:
    engine = games.find_game(kind)
    for step in play(kind):
        for model in (step.state, step.resolution.state):
            again = type(model).model_validate(
                json.loads(json.dumps(model.model_dump(mode="json")))
            )
            assert again == model
        for orders in step.orders.values():
            again = engine.Orders.model_validate(
                json.loads(json.dumps(orders.model_dump(mode="json")))
            )
            assert again == orders


@pytest.mark.parametrize("kind", KINDS)
def test_a_resolution_is_reproducible_from_seed_and_phase(kind: str) -> None:
    engine = games.find_game(kind)
    for step in play(kind):
        number = engine.phase_number(step.state)
        again = engine.resolve(step.state, step.orders, phase_rng(SEED, number), step.defaulted)
        assert again.state == step.resolution.state
        assert again.events == step.resolution.events
        assert again.ranking == step.resolution.ranking


def _assert_private(report: Report, seats: list[Seat], public_state: str) -> None:
    for seat, text in report.private.items():
        secret = text.strip()
        if not secret:
            continue
        assert secret not in report.public, f"{seat}'s private part is in the public text"
        assert secret not in public_state, f"{seat}'s private part is in public_state"
        for other in seats:
            theirs = report.private.get(other.id, "")
            if other.id != seat and theirs.strip() != secret:  # the same note for both: no leak
                assert secret not in theirs, f"{seat}'s private part reaches {other.id}"


@pytest.mark.parametrize("kind", KINDS)
def test_private_parts_reach_their_seat_only(kind: str) -> None:
    engine, state, seats = start(kind)
    public = json.dumps(engine.public_state(state), ensure_ascii=False)
    for seat in seats:
        secret = engine.welcome(state, seat.id, "de").private.get(seat.id, "").strip()
        assert not secret or secret not in public
    welcome = {s.id: engine.welcome(state, s.id, "de") for s in seats}
    for seat in seats:
        mine = welcome[seat.id].private.get(seat.id, "").strip()
        for other in seats:
            if mine and other.id != seat.id:
                theirs = welcome[other.id]
                assert mine not in theirs.public + theirs.private.get(other.id, "")
    for step in play(kind):
        for lang in ("de", "en"):
            report = engine.report(step.state, step.resolution, lang)
            state_json = json.dumps(engine.public_state(step.resolution.state), ensure_ascii=False)
            _assert_private(report, seats, state_json)
            _assert_mail_state_private(engine, step.resolution.state, report, seats)


def _assert_mail_state_private(
    engine: Game[Any, Any, Any], state: BaseModel, report: Report, seats: list[Seat]
) -> None:
    """``mail_state`` (optional): no seat's private part in what every mail carries, nor in
    another seat's own part."""
    split = getattr(engine, "mail_state", None)
    if split is None:
        return
    shared, own = split(state, [s.id for s in seats])
    assert set(own) <= {s.id for s in seats}
    shared_json = json.dumps(shared, ensure_ascii=False)
    for seat, text in report.private.items():
        secret = text.strip()
        if not secret:
            continue
        assert secret not in shared_json, f"{seat}'s private part is in mail_state's shared part"
        for other, part in own.items():
            if other != seat:
                assert secret not in json.dumps(part, ensure_ascii=False), (seat, other)


@pytest.mark.parametrize("kind", KINDS)
def test_an_observer_reads_no_private_part(kind: str) -> None:
    """Observers get what ``mailer.observer_view`` and the public attachments make of each
    report: no seat's private text and no private attachment may be in it."""
    engine, _, seats = start(kind)
    for step in play(kind):
        for lang in ("de", "en"):
            report = engine.report(step.state, step.resolution, lang)
            seen = observer_view(report)
            shared = {a.data for a in report.attachments}
            for seat in seats:
                secret = report.private.get(seat.id, "").strip()
                assert not secret or secret not in seen, f"{seat.id}'s private part"
                for attachment in report.private_attachments.get(seat.id, []):
                    assert attachment.data not in shared, f"{seat.id}'s {attachment.filename}"


@pytest.mark.parametrize("kind", KINDS)
def test_help_and_welcome_examples_are_accepted_for_their_seat(kind: str) -> None:
    engine, state, seats = start(kind)
    for lang in ("de", "en"):
        for seat in seats:
            example = engine.example(state, seat.id, lang)
            assert example, f"no example for {seat.id}"
            engine.read_orders(lines(example), state, seat.id, lang)
            welcome = engine.welcome(state, seat.id, lang)
            assert example in welcome.public + welcome.private.get(seat.id, "")
            assert example in engine.help(state, seat.id, lang)
    for step in play(kind):
        for seat in sorted(engine.participants(step.state)):
            example = engine.example(step.state, seat, "en")
            if example:
                engine.read_orders(lines(example), step.state, seat, "en")
                assert example in engine.help(step.state, seat, "en")


@pytest.mark.parametrize("kind", KINDS)
def test_every_rule_of_the_spec_has_a_scenario(kind: str) -> None:
    prof = profile(kind)
    scenarios = [s for folder in prof.scenarios for s in load_scenarios(folder)]
    assert uncovered(prof.rules, scenarios) == []


def test_every_registered_kind_has_a_profile() -> None:
    assert sorted(set(games.available_kinds()) - PROFILES.keys()) == []


@pytest.mark.parametrize("kind", KINDS)
def test_the_nmr_section_says_something_for_every_seat(kind: str) -> None:
    """The result mail lists each late seat with ``describe_orders`` of its default orders;
    an empty description left a bare "- Anna:" there (seen in Highlander's ballot)."""
    engine = games.find_game(kind)
    for step in play(kind):
        for seat in engine.owed(step.state):
            default = engine.default_orders(step.state, seat)
            for lang in ("de", "en"):
                assert engine.describe_orders(step.state, seat, default, lang).strip(), seat


@pytest.mark.parametrize("kind", KINDS)
def test_no_call_changes_the_state_it_is_given(kind: str) -> None:
    """Point 8: the referee shares one validated state between the mails of a game, and
    one validated object of a seat's orders on file (``on_file``) between his mails."""
    engine = games.find_game(kind)
    for step in play(kind):
        state = step.state
        orders_before = {seat: o.model_dump(mode="json") for seat, o in step.orders.items()}
        for seat in sorted(engine.participants(state)):
            for lang in ("de", "en"):
                example = engine.example(state, seat, lang)
                engine.help(state, seat, lang)
                engine.status(state, seat, lang)
                engine.phase_label(state, lang)
                waiting_for(engine, state, lang)
                for line in lines(example):
                    engine.read_header(line.text, state)
                if example:
                    on_file = step.orders.get(seat)
                    read = engine.read_orders(lines(example), state, seat, lang, on_file)
                    engine.describe_orders(state, seat, read.orders, lang)
            if seat in engine.owed(state):
                engine.describe_orders(state, seat, engine.default_orders(state, seat), "de")
        number = engine.phase_number(state)
        again = engine.resolve(state, step.orders, phase_rng(SEED, number), step.defaulted)
        engine.report(state, again, "de")
        engine.public_state(state)
        assert state.model_dump(mode="json") == step.as_given
        assert {s: o.model_dump(mode="json") for s, o in step.orders.items()} == orders_before


# --- the optional hooks of a season (issue 21): leave and final_ranking ----------------------
def _hook(kind: str, name: str) -> Any:
    hook = getattr(games.find_game(kind), name, None)
    if hook is None:
        pytest.skip(f"{kind} has no {name} hook (optional)")
    return hook


def _all_seats_once(ranking: list[list[str]], seats: list[Seat]) -> None:
    flat = [seat for rank in ranking for seat in rank]
    assert sorted(flat) == sorted(s.id for s in seats), ranking
    assert all(ranking), f"an empty rank in {ranking}"


@pytest.mark.parametrize("kind", KINDS)
def test_final_ranking_ranks_every_seat_once_and_changes_nothing(kind: str) -> None:
    final_ranking = _hook(kind, "final_ranking")
    _, state, seats = start(kind)
    _all_seats_once(final_ranking(state), seats)
    for step in play(kind):
        _all_seats_once(final_ranking(step.state), seats)
        assert step.state.model_dump(mode="json") == step.as_given
        if step.resolution.finished and step.resolution.ranking is not None:
            # at a normal end the hook says what the game said
            assert final_ranking(step.resolution.state) == step.resolution.ranking


def play_after_leaving(kind: str, seat: str, at_step: int) -> Iterator[tuple[BaseModel, Any]]:
    """The game played by its examples, ``seat`` leaving before the ``at_step``-th phase
    resolves: every (state, resolution) from there on."""
    engine, state, _ = start(kind)
    for number, step in enumerate(play(kind)):
        if number == at_step:
            state = step.state
            break
    else:
        pytest.skip("the game ended before")
    as_given, number = state.model_dump(mode="json"), engine.phase_number(state)
    left = engine.leave(state, seat)  # type: ignore[attr-defined]
    assert state.model_dump(mode="json") == as_given, "leave changed the state it was given"
    assert engine.phase_number(left) == number, "leaving is no resolution: the phase stays"
    last = None
    for last in play_from(engine, left, "en", profile(kind).max_phases):
        yield last.state, last.resolution
    end = left if last is None else last.resolution.state
    if (last is None or not last.resolution.finished) and not engine.owed(end):
        yield end, None  # the kind ended the game with the leaving (Highlander)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("at_step", [0, 2])
def test_a_player_who_leaves_is_out_and_the_contract_still_holds(kind: str, at_step: int) -> None:
    """Phase numbers still increase, owed stays within participants, the state survives
    JSON, private parts stay private, and from the next phase on the seat owes nothing."""
    _hook(kind, "leave")
    engine, _, seats = start(kind)
    leaver = seats[0].id
    numbers: list[int] = []
    for resolved, (state, resolution) in enumerate(play_after_leaving(kind, leaver, at_step)):
        again = type(state).model_validate(json.loads(json.dumps(state.model_dump(mode="json"))))
        assert again == state
        if resolution is None:  # the kind ended the game with the leaving (Highlander)
            assert engine.owed(state) == set()
            ranking = engine.final_ranking(state)  # type: ignore[attr-defined]
            assert leaver in ranking[-1] and leaver not in ranking[0]
            return
        numbers.append(engine.phase_number(state))
        owed = engine.owed(state)
        assert owed <= engine.participants(state)
        if resolved:
            assert leaver not in owed, f"{leaver} still owes orders after leaving"
        for lang in ("de", "en"):
            report = engine.report(state, resolution, lang)
            public = json.dumps(engine.public_state(resolution.state), ensure_ascii=False)
            _assert_private(report, seats, public)
        final = engine.final_ranking(resolution.state)  # type: ignore[attr-defined]
        _all_seats_once(final, seats)  # his results so far stay in the standings
    assert numbers == sorted(set(numbers)), numbers


@pytest.mark.parametrize("kind", KINDS)
def test_a_renamed_player_is_known_by_his_new_name_and_nothing_else_changes(kind: str) -> None:
    """``rename``: the GM renamed a player in the config, his id kept. At every phase the
    state knows him by the new name (in its roster; his texts and the others' examples
    name him so, and the examples are read), everything else stays, the state given is
    left alone, and renaming him back gives the state as it was."""
    rename = _hook(kind, "rename")
    engine = games.find_game(kind)
    for step in play(kind):
        state = step.state
        seat = sorted(engine.participants(state))[0]
        renamed = rename(state, seat, "Zora Zäh")
        assert state.model_dump(mode="json") == step.as_given
        assert "Zora Zäh" in json.dumps(renamed.model_dump(mode="json"), ensure_ascii=False)
        assert engine.owed(renamed) == engine.owed(state)
        assert engine.participants(renamed) == engine.participants(state)
        assert engine.phase_number(renamed) == engine.phase_number(state)
        for other in sorted(engine.owed(renamed)):
            example = engine.example(renamed, other, "de")
            if example:
                engine.read_orders(lines(example), renamed, other, "de")
        back = rename(renamed, seat, NAMES[int(seat.removeprefix("s"))])
        assert back.model_dump(mode="json") == step.as_given
        assert rename(back, seat, NAMES[int(seat.removeprefix("s"))]) is back  # nothing stored
