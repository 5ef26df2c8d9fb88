"""Protocol facts of the kind beyond the conformance suite: two players, phase types,
secrecy of sealed lists, the catalogue, and that every reason the adjudicator gives in the
scenario games is said in German."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gm_daemon.games import find_game
from gm_daemon.games.highlander import GAME, wording
from gm_daemon.games.highlander.model import Options
from gm_daemon.games.protocol import Seat
from tests.scenarios import load_scenario

from .support import new_game, play, position, read

HERE = Path(__file__).parent
FIXED = {"opt_3B": True, "fixed_setup": [["A LON", "F EDI"], ["A MOS", "F SEV"]]}


def test_registered_under_its_kind() -> None:
    assert find_game("highlander") is GAME
    assert set(GAME.phase_types) == {"ballot", "setup", "grace", "movement", "retreats",
                                     "adjustments"}  # fmt: skip


def test_exactly_two_players() -> None:
    """HL-2."""
    seats = [Seat(f"s{i}", f"S{i}") for i in range(3)]
    with pytest.raises(ValueError, match="exactly two"):
        GAME.start(Options(), seats, random.Random(0))


def test_options_are_checked_for_the_gm() -> None:
    """HL-7: 3B needs a fixed setup, and a fixed setup must be legal."""
    with pytest.raises(ValueError, match="fixed_setup"):
        Options(opt_3B=True)
    with pytest.raises(ValueError, match="F PAR"):
        Options(fixed_setup=[["F PAR"], ["A MOS"]])
    with pytest.raises(ValueError, match="tournament"):
        Options(match_max_year=1910)


def test_fixed_setup_starts_with_the_first_movement() -> None:
    """HL-7: option 3B skips the ballot and the placement."""
    state = new_game({"opt_3B": True, "fixed_setup": [["A LON", "F EDI"], ["A MOS", "F SEV"]]})
    assert state.step == "movement" and state.year == 1901
    assert GAME.phase_label(state, "de") == "1901 Bewegung"


@pytest.mark.parametrize(
    ("options", "lang", "says", "never"),
    [
        ({}, "de", "Das Spiel beginnt mit der Zentrenwahl und der Aufstellung", "3B"),
        ({}, "en", "The game starts with the centre ballot and the unit setup", "3B"),
        (FIXED, "de", "beginnt gleich mit der Bewegungsphase 1901", "Zentrenwahl und"),
        (FIXED, "en", "starts at once with the 1901 movement phase", "centre ballot and"),
    ],
)
def test_the_welcome_says_how_the_game_begins(options, lang, says, never) -> None:
    """A fixed set-up (3B) is not welcomed with 'the game begins with the ballot'."""
    text = " ".join(GAME.welcome(new_game(options), "P1", lang).public.split())
    assert says in text and never not in text


def test_running_text_names_the_phase_with_its_article() -> None:
    """Labels are headings ("Zentrenwahl"); a sentence gets the noun ("die Zentrenwahl")."""
    state = new_game()
    assert GAME.phase_noun(state, "de") == "die Zentrenwahl"
    assert GAME.phase_noun(state, "en") == "the centre ballot"
    fixed = new_game(FIXED)
    assert GAME.phase_noun(fixed, "de") == "die Bewegungsphase 1901"
    assert GAME.phase_noun(fixed, "en") == "the 1901 movement phase"


def test_a_list_sealed_for_the_grace_phase_stays_secret() -> None:
    """A-11: P1's ballot waits in the state for P2's grace phase, but never in public."""
    state = new_game()
    first = read(state, "P1", "ZENTREN: Lon, Lvp, Edi, Bre, Par, Mar, Spa, Por, Bel, Hol, Kie, "
                 "Ber, Mün, Den, Nwy").orders  # fmt: skip
    after = GAME.resolve(state, {"P1": first, "P2": GAME.default_orders(state, "P2")},
                         random.Random(1), frozenset({"P2"})).state  # fmt: skip
    assert after.sealed["P1"] and "sealed" not in GAME.public_state(after)
    status = {seat: GAME.status(after, seat, "de") for seat in ("P1", "P2")}
    assert "LVP" in status["P1"].private["P1"]
    assert "LVP" not in status["P1"].public and not status["P2"].private
    report = GAME.report(state, GAME.resolve(state, {"P1": first}, random.Random(1),
                                             frozenset({"P2"})), "de")  # fmt: skip
    assert "LVP" not in report.public and "Nachfrist" in report.public


def test_the_phrase_catalogue_is_complete() -> None:
    assert wording.PHRASES.check() == []


@pytest.mark.parametrize("name", ["game-single", "game-tournament", "hl-1-e3-support-and-convoy",
                                  "tc-hl-5-removal", "hl-12-wipeout"])  # fmt: skip
def test_every_reason_of_the_adjudicator_is_said_in_german(name: str) -> None:
    scenario = load_scenario(HERE / "scenarios" / f"{name}.toml")
    options = scenario.get("options", {})
    state = position(scenario["position"], options) if "position" in scenario else new_game(options)
    for step in scenario["step"]:
        if "mail" in step:
            continue
        resolution = play(state, step.get("mails", {}))
        state = resolution.state
        for board in state.last.boards:  # type: ignore[union-attr]
            for line in board.orders:
                assert wording.known(line.reason), line.reason
                assert wording.say(line.reason, "de") != line.reason or not line.reason


def test_sample_reasons_of_every_kind() -> None:
    samples = {
        "bounced with F MAO": "abgeprallt mit F MAO",
        "beaten by A VEN (head-to-head)": "unterlegen gegen A VEN (Frontalangriff)",
        "support cut by A TYR": "Unterstützung unterbrochen durch A TYR",
        "no order; dislodged by A BUR": "kein Befehl; vertrieben von A BUR",
        "bounced with A VIE; disbanded": "abgeprallt mit A VIE; aufgelöst",
        "which coast of SPA: SPA/NC or SPA/SC?": "welche Küste von SPA: SPA/NC oder SPA/SC?",
        "no convoy path": "kein Konvoiweg",
        "F LON belongs to P2": "F LON gehört Bert",
    }
    for english, german in samples.items():
        assert wording.say(english, "de", {"P2": "Bert"}) == german
        assert wording.say(english, "en", {"P2": "Bert"}) == english.replace("P2", "Bert")


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        ("de", ["Anpassung 1905", "Anna: darf 2 Einheiten bauen (freie eigene Zentren: BER, KIE)",
                "Bert: muss 1 Einheit entfernen"]),
        ("en", ["1905 adjustments", "Anna: may build 2 units (owned, empty centres: BER, KIE)",
                "Bert: must remove 1 unit"]),
    ],
)  # fmt: skip
def test_status_in_the_adjustments_says_each_sides_builds_or_removals(lang, lines) -> None:
    state = position({"step": "adjustments", "year": 1905, "A": {
        "owners": {"P1": "KIE BER MUN", "P2": "WAR"},
        "units": {"P1": "A MUN", "P2": "A WAR, A UKR"},
    }})  # fmt: skip
    text = GAME.status(state, "P1", lang).public
    for line in lines:
        assert line in [row.strip() for row in text.splitlines()]


def test_status_in_the_adjustments_says_when_a_side_has_nothing_to_adjust() -> None:
    state = position({"step": "adjustments", "year": 1905, "A": {
        "owners": {"P1": "MUN", "P2": "WAR"}, "units": {"P1": "A MUN", "P2": "A WAR"},
    }})  # fmt: skip
    text = GAME.status(state, "P1", "de").public
    assert "Anna: nichts anzupassen (so viele Einheiten wie Zentren)" in text
