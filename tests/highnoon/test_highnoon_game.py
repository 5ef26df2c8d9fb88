"""The protocol object: registry, options, phase facts, events, public state, determinism."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from pydantic import ValidationError

from gm_daemon.games import find_game
from gm_daemon.games.highnoon import GAME
from gm_daemon.games.highnoon.dice import RngDice, ScriptedDice
from gm_daemon.games.highnoon.duel import fight, hit_chance
from gm_daemon.games.highnoon.model import Options, Orders, State
from gm_daemon.games.highnoon.pairings import cycle_pairings, duel_counts
from gm_daemon.games.protocol import Header, Line, Resolution, Seat
from gm_daemon.rng import phase_rng
from tests.kit.header_line import check

from .support import build_state, load_json, random_orders

NAMES = ["Anna Arm", "Bert Bein", "Carl Colt", "Dora Dolch", "Emil Eisen", "Fritz Flinte"]
SEATS = [Seat(f"p{n}", name) for n, name in enumerate(NAMES)]


def _play(seed: str, seats: list[Seat], options: Options, max_rounds: int = 60) -> list[State]:
    """A whole game with random legal orders, every draw from the seed (as the daemon does)."""
    state = GAME.start(options, seats, phase_rng(seed, 0, "start"))
    history = [state]
    players_rng = random.Random(seed)
    while not state.finished and len(history) <= max_rounds:
        orders = {seat: random_orders(state, seat, players_rng) for seat in GAME.owed(state)}
        state = GAME.resolve(state, orders, phase_rng(seed, state.round), frozenset()).state
        history.append(state)
    return history


def test_the_registry_finds_the_game() -> None:
    assert find_game("highnoon") is GAME
    assert GAME.kind == "highnoon"
    assert GAME.resolves_on_receipt is False


def test_options_defaults_aliases_and_typos() -> None:
    defaults = Options()
    assert (defaults.life, defaults.p_per_duel, defaults.min_players) == (12, 2, 3)
    assert (defaults.penalty_0_duels, defaults.penalty_1_duel) == (4, 2)
    assert defaults.round1_mode == "cycle" and defaults.tiebreak == ["L", "P"]
    assert Options.model_validate({"start_L": 9}).life == 9
    assert Options.model_validate({"life": 9}).life == 9
    for bad in ({"lives": 3}, {"min_players": 2}, {"tiebreak": ["L", "L"]}, {"round1_mode": "x"}):
        with pytest.raises(ValidationError):
            Options.model_validate(bad)


def test_phase_facts() -> None:
    state = GAME.start(Options(), SEATS, random.Random(1))
    assert GAME.phase_number(state) == 1
    assert GAME.phase_type(state) == "round"
    assert GAME.phase_label(state, "de") == "Runde 1"
    assert GAME.phase_label(state, "en") == "Round 1"
    assert GAME.owed(state) == GAME.participants(state) == {s.id for s in SEATS}
    assert GAME.default_orders(state, "p0") == Orders()


def test_eliminated_players_owe_nothing_and_a_finished_game_nobody() -> None:
    state = build_state(load_json("scenarios/tc-hn-2-penalty-elimination-end.json"))
    assert GAME.owed(state) == {"A", "B", "C", "D"}
    state.finished = True
    assert GAME.owed(state) == GAME.participants(state) == set()


def test_state_survives_json() -> None:
    state = _play("json", SEATS, Options())[3]
    assert State.model_validate_json(state.model_dump_json()) == state
    assert GAME.State is State and GAME.Orders is Orders and GAME.Options is Options


def test_every_roll_is_in_the_events() -> None:
    state = build_state(load_json("scenarios/tc-hn-1-worked-example.json"))
    resolution = GAME.resolve(state, {}, random.Random(5), frozenset(GAME.owed(state)))
    json.dumps(resolution.events)  # the game log stores them as JSON
    duels = [event for event in resolution.events if event["event"] == "duel"]
    assert len(duels) == len(state.pairings)
    assert resolution.events[-1]["event"] == "pairings"
    assert not resolution.finished and resolution.ranking is None


def test_a_finished_resolution_carries_the_ranking() -> None:
    state = build_state(load_json("scenarios/a-13-all-eliminated.json"))
    resolution = GAME.resolve(state, {}, random.Random(2), frozenset(GAME.owed(state)))
    assert resolution.finished
    assert resolution.ranking == resolution.state.ranking == [["A"], ["B"], ["C"]]
    assert resolution.events[-1] == {"event": "game_over", "ranking": resolution.ranking}
    assert GAME.phase_number(resolution.state) == 6


def test_public_state() -> None:
    state = GAME.start(Options(), SEATS, random.Random(3))
    public = GAME.public_state(state)
    json.dumps(public)
    assert public["round"] == 1 and public["players_at_start"] == 6
    assert public["players"][0] == {
        "id": "p0",
        "name": "Anna Arm",
        "D": 0,
        "L": 12,
        "P": 4,
        "status": "active",
        "eliminated_in_round": None,
    }
    assert len(public["pairings"]) == 6 and public["ranking"] is None


def test_read_and_describe_through_the_protocol() -> None:
    state = GAME.start(Options(), SEATS, random.Random(4))
    opponent = state.player(state.opponents("p0")[0])
    lines = [Line(1, "Duelle"), Line(2, f"{opponent.name}: 19, 4"), Line(3, "FERTIG")]
    accepted = GAME.read_orders(lines, state, "p0", "de")
    described = GAME.describe_orders(state, "p0", accepted.orders, "de")
    assert f"Duell gegen {opponent.name}: 19, 4" in described
    assert described.endswith("Patronen verplant: 2/4")


def test_hit_chance_table() -> None:
    assert [hit_chance(k) for k in range(19, 0, -1)] == list(range(5, 100, 5))


def test_rolls_are_drawn_in_the_fixed_order() -> None:
    """§1.3 step 2: positions 19 -> 1, the lower id first at a shared position."""
    order: list[tuple[str, int]] = []

    class Recording(ScriptedDice):
        def roll(self, shooter: str, opponent: str, position: int) -> int:
            order.append((shooter, position))
            return 100

    fight("a", "b", [19, 10, 3], [10, 5], Recording({}))
    assert order == [("a", 19), ("a", 10), ("b", 10), ("b", 5), ("a", 3)]


def test_rng_dice_roll_d100() -> None:
    dice = RngDice(random.Random(9))
    rolls = [dice.roll("a", "b", 10) for _ in range(2000)]
    assert min(rolls) == 1 and max(rolls) == 100


def test_random_challenges_mode_gives_everyone_two_or_more_duels() -> None:
    options = Options(round1_mode="random_challenges")
    for seed in range(20):
        state = GAME.start(options, SEATS, random.Random(seed))
        counts = duel_counts(state.pairings, state.playing())
        assert all(counts[seat] >= 2 for seat in counts)
        assert all(p.cartridges == 2 * counts[p.id] for p in state.players)


def test_the_cycle_gives_everyone_exactly_two_duels() -> None:
    for seed in range(20):
        state = GAME.start(Options(), SEATS, random.Random(seed))
        assert set(duel_counts(state.pairings, state.playing()).values()) == {2}
    with pytest.raises(ValueError):
        cycle_pairings(["a", "b"])


def test_the_same_seed_gives_the_same_game() -> None:
    first = _play("high-noon-seed", SEATS, Options())
    again = _play("high-noon-seed", SEATS, Options())
    assert [s.model_dump() for s in first] == [s.model_dump() for s in again]
    other = _play("another-seed", SEATS, Options())
    assert [s.model_dump() for s in first] != [s.model_dump() for s in other]


def test_resolving_a_round_twice_gives_the_same_result() -> None:
    state = _play("twice", SEATS, Options())[2]
    orders = {seat: random_orders(state, seat, random.Random(seat)) for seat in GAME.owed(state)}
    first = GAME.resolve(state, orders, phase_rng("twice", state.round), frozenset())
    again = GAME.resolve(state, orders, phase_rng("twice", state.round), frozenset())
    assert first.state == again.state and first.events == again.events


def test_report_renders_in_both_languages_for_a_whole_game() -> None:
    history = _play("report", SEATS, Options())
    assert history[-1].finished
    for before, after in itertools.pairwise(history):
        for lang in ("de", "en"):
            report = GAME.report(before, Resolution(state=after), lang)
            assert report.public.strip()
            assert "D=" in report.public


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_example_is_accepted_for_every_seat_of_a_whole_game(lang: str) -> None:
    """Protocol rule 6: what help and welcome quote is the seat's own, and it reads."""
    for state in _play("example", SEATS, Options())[:-1]:
        for seat in GAME.owed(state):
            example = GAME.example(state, seat, lang)
            lines = [Line(no, text) for no, text in enumerate(example.splitlines(), 1)]
            accepted = GAME.read_orders(lines, state, seat, lang)
            assert accepted.warnings == [], example
            assert set(accepted.orders.shots) == set(state.opponents(seat))
            assert example in GAME.help(state, seat, lang)
    first = GAME.start(Options(), SEATS, random.Random(4))
    assert GAME.example(first, "p0", lang) in GAME.welcome(first, "p0", lang).public


def test_an_eliminated_seat_has_no_example_and_help_shows_the_sample() -> None:
    state = build_state(load_json("scenarios/tc-hn-3-challenges.json"))
    state = GAME.resolve(state, {}, random.Random(1), frozenset(GAME.owed(state))).state
    out = next(p.id for p in state.players if not p.active)
    assert GAME.example(state, out, "de") == ""
    assert "H. Glück: 19, 15, 8, 4" in GAME.help(state, out, "de")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Runde: 3", Header.CURRENT),
        ("round 3", Header.CURRENT),
        ("Runde 4", Header.OTHER),
        ("Runde: drei", None),
        ("H. Glück: 19, 15", None),
    ],
)
def test_the_round_header(line: str, expected: Header | None) -> None:
    state = build_state(load_json("scenarios/tc-hn-1-worked-example.json"))
    state.round = 3
    assert GAME.read_header(line, state) == expected


@pytest.mark.parametrize(
    ("lang", "mail", "expected"),
    [
        ("de", "Runde 5: H. Glück 19, 15", "Runde 5\nH. Glück 19, 15"),
        ("en", "Round 5 - H. Glück: 16, 12\nV. Pech: 8", "Round 5\nH. Glück: 16, 12\nV. Pech: 8"),
        ("de", "Runde 5: Duelle\nH. Glück: 19", "Duelle\nH. Glück: 19"),
        ("en", "Round 5: Challenges: A. Langsam", "Challenges: A. Langsam"),
        ("de", "Runde 5 (E. Müller):\nH. Glück 19", "H. Glück 19"),
        ("de", "Runde 5: H. Glück 19, 15, 99", "line 1: Position 99 gibt es nicht; die Positionen "
         "gehen von 19 (erster Schritt) bis 1 (letzter Schritt)."),
        ("en", "Round 6: H. Glück 19, 15", "stale"),
    ],
)  # fmt: skip
def test_orders_on_the_round_header_line(lang: str, mail: str, expected: str) -> None:
    state = build_state(load_json("scenarios/tc-hn-1-worked-example.json"))
    check(GAME, state, "e-mueller", lang, mail, expected)
