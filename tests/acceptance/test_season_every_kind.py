"""Rollback, removing a player and ending a game, for every kind through the daemon on the
Maildir transport, in German and English (issue 21 items 9-11). The players send the
examples their game offers them, so the test needs no knowledge of any kind's orders."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from gm_daemon import games
from tests.conformance.profiles import PROFILES
from tests.daemon_harness import DaemonHarness

KINDS = sorted(games.available_kinds())
NAMES = ["Anna Alt", "Bert Bär", "Carla Cruz", "Dora Dietz"]
START = datetime(2026, 12, 1, 11, 0, tzinfo=UTC)


def games_toml(kind: str, lang: str) -> str:
    profile = PROFILES[kind]
    lines = [
        "[[games]]",
        'id = "g1"',
        f'kind = "{kind}"',
        f'language = "{lang}"',
        'seed = "season-seed"',
        "",
        "[games.deadlines]",
        'every = "3d"',
        "",
        "[games.options]",
        *(f"{key} = {json.dumps(value)}" for key, value in profile.options.items()),
    ]
    for i in range(profile.players):
        first = NAMES[i].split()[0].lower()
        lines += ["", "[[games.players]]", f'name = "{NAMES[i]}"', f'email = "{first}@p.test"']
    return "\n".join(lines) + "\n"


def status(h: DaemonHarness, game_id: str = "g1") -> dict[str, Any]:
    code, out = h.cli("status", "--json", "--game", game_id)
    assert code == 0, out
    return dict(json.loads(out)["games"][0])


def send_examples(h: DaemonHarness, kind: str, lang: str, game_id: str = "g1") -> None:
    """Every seat that owes orders sends the example its game offers it now."""
    engine = games.find_game(kind)
    game = status(h, game_id)
    state = engine.State.model_validate(game["state"])
    for player in game["players"]:
        if player["owes_orders"]:
            example = engine.example(state, player["seat"], lang)
            if example:
                text = f"Code: {player['code']}\n{example}"
                h.send(player["email"], text, subject=f"[{game_id}]")


def play_phase(h: DaemonHarness, kind: str, lang: str) -> None:
    """One phase: the examples in, then resolved (at once for a card game, else by the GM)."""
    phase = h.phase("g1")
    send_examples(h, kind, lang)
    h.run()
    if h.phase("g1") == phase and not h.finished("g1"):
        code, out = h.cli("resolve", "--game", "g1")
        assert code == 0, out
        h.run()


def records(database: Path, table: str, phase: int) -> list[tuple[str, str]]:
    with contextlib.closing(sqlite3.connect(database)) as db:
        query = f"SELECT state_after, events FROM {table} WHERE game_id = 'g1' AND phase = ?"
        return list(db.execute(query, (phase,)))


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("kind", KINDS)
def test_rollback_resolves_the_same_again_then_leave_and_end(
    tmp_path: Path, kind: str, lang: str
) -> None:
    h = DaemonHarness(tmp_path, games_toml(kind, lang), now=START)
    h.run()
    first = h.phase("g1")
    play_phase(h, kind, lang)
    if h.finished("g1"):
        pytest.skip("the game ended in one phase")
    play_phase(h, kind, lang)
    (was,) = records(h.database, "phases", first)

    code, out = h.cli("rollback", "--game", "g1", "--to-phase", str(first), "--reason", "Test")
    assert code == 0, out
    again_at_once = games.find_game(kind).resolves_on_receipt  # the kept play completes it
    assert (h.phase("g1") == first) != again_at_once
    notices = [m for m in h.run() if "ckgesetzt" in m["Subject"] or "rolled back" in m["Subject"]]
    assert len(notices) == PROFILES[kind].players, [m["Subject"] for m in notices]
    quoted = "Begründung des Spielleiters: „Test“" if lang == "de" else 'The GM\'s reason: "Test"'
    assert all(quoted in h.prose(m) for m in notices)
    assert records(h.database, "void_phases", first) == [was]
    assert "VOID: rolled back to phase" in h.cli("show", "--game", "g1", "--phase", str(first))[1]

    # the orders of the phase stayed on file: resolving it again gives the same result
    if not again_at_once:
        assert records(h.database, "phases", first) == []
        code, out = h.cli("resolve", "--game", "g1")
        assert code == 0, out
        h.run()
    assert records(h.database, "phases", first) == [was]

    leaver = NAMES[0]
    code, out = h.cli("remove-player", "--game", "g1", "--player", leaver, "--reason", "moved")
    assert code == 0, out
    told = h.run()
    assert told and all(quoted.replace("Test", "moved") in h.prose(m) for m in told)
    if not h.finished("g1"):  # Highlander: the game is lost for him and over at once
        play_phase(h, kind, lang)
        seat = {p["name"]: p for p in status(h)["players"]}[leaver]
        assert not seat["owes_orders"]
        if h.finished("g1"):  # that was the last round (Hexenhalma's two boards)
            return
        code, out = h.cli("end", "--game", "g1", "--reason", "season over")
        assert code == 0, out
        told = h.run()
    assert h.finished("g1")
    (ended, *_) = [m for m in told if "anna@" in m["To"]]
    body = h.prose(ended)
    assert all(name in body for name in NAMES[: PROFILES[kind].players])
    seed_promised = kind != "highlander"  # Highlander leaves nothing to chance
    assert ("season-seed" in body) == seed_promised


# (kind, lang, phases played first): the first phase too where leaving ends the game
ENDED_IN = [(kind, lang, 1) for kind in KINDS for lang in ("de", "en")] + [
    ("highlander", lang, 0) for lang in ("de", "en")
]


@pytest.mark.parametrize(("kind", "lang", "played"), ENDED_IN)
def test_a_rollback_to_the_phase_the_game_ended_in_owes_its_orders_again(
    tmp_path: Path, kind: str, lang: str, played: int
) -> None:
    """Played: a rollback to the very phase in which Anna's leaving ended a Highlander game
    gave a game in which nobody owed orders. That phase comes back as it began: Anna is in
    it again, the same seats owe orders, and she may leave again. A game the GM ended (every
    other kind: Anna's leaving does not end it) comes back as he ended it."""
    h = DaemonHarness(tmp_path, games_toml(kind, lang), now=START)
    h.run()
    for _ in range(played):
        play_phase(h, kind, lang)
    if h.finished("g1"):
        pytest.skip("the game ended in one phase")
    phase = h.phase("g1")
    owed = {p["name"] for p in status(h)["players"] if p["owes_orders"]}
    assert h.cli("remove-player", "--game", "g1", "--player", NAMES[0])[0] == 0
    left_ended_it = h.finished("g1")
    if not left_ended_it:
        assert h.cli("end", "--game", "g1")[0] == 0
    h.run()
    assert h.finished("g1")

    code, out = h.cli("rollback", "--game", "g1", "--to-phase", str(phase))
    assert code == 0, out
    h.run()
    game = status(h)
    assert (game["finished"], game["phase"]) == (False, phase)
    owes = {p["name"] for p in game["players"] if p["owes_orders"]}
    assert owes and owes <= owed
    if left_ended_it:
        assert owes == owed  # Anna is back: she owes her orders, and may leave again
        assert h.cli("remove-player", "--game", "g1", "--player", NAMES[0])[0] == 0
        assert h.finished("g1")


RESIGNING = [("de", "AUFGEBEN", "AUFGEBEN BESTÄTIGT"), ("en", "RESIGN", "RESIGN CONFIRMED")]


@pytest.mark.parametrize(("lang", "resign", "confirm"), RESIGNING)
def test_hornberg_a_player_on_turn_who_resigns_passes_the_turn_to_a_plan_at_once(
    tmp_path: Path, lang: str, resign: str, confirm: str
) -> None:
    engine = games.find_game("hornberg")
    h = DaemonHarness(tmp_path, games_toml("hornberg", lang), now=START)
    h.run()
    game = status(h)
    state = engine.State.model_validate(game["state"])
    players = {p["seat"]: p for p in game["players"]}
    on_turn = state.to_move
    assert on_turn is not None
    nxt = state.left_of(on_turn)
    plan = engine.example(state, nxt, lang)  # a PLAN: he is not on turn
    h.send(players[nxt]["email"], f"Code: {players[nxt]['code']}\n{plan}", subject="[g1]")
    h.run()
    assert h.phase("g1") == 1
    leaver = players[on_turn]
    for line in (resign, confirm):
        h.send(leaver["email"], f"Code: {leaver['code']}\n{line}", subject="[g1]")
        h.run()
    assert h.phase("g1") > 1  # his turn passed to the plan, which was played at once
    after = engine.State.model_validate(status(h)["state"])
    assert on_turn in after.left and after.hands[on_turn] == []
    assert on_turn not in engine.participants(after)
